import Foundation
import GTIOCatalog
import GTIOStore

/// One batch's lines as read, validated together.
struct RawLines {
    private var bytes: [UInt8] = []
    private var spans: [(line: Int, start: Int, count: Int)] = []
    /// Lines rejected before validation (over 1 MiB).
    var tooLong: [RejectedLine] = []

    var count: Int { spans.count + tooLong.count }

    mutating func append(_ line: Int, _ content: UnsafeBufferPointer<UInt8>) {
        if bytes.isEmpty { bytes.reserveCapacity(8 << 20) }
        spans.append((line, bytes.count, content.count))
        bytes.append(contentsOf: content)
    }

    /// Validates every line, keeping input order. While batches bring new events (`digests`:
    /// the writer is the bottleneck) one thread validates and makes each event's hash-chain
    /// digest; while they are re-sent ones the writer's core is idle, so two halves go at once.
    func validated(source: String, digests: Bool) -> EventBatch {
        let halves = digests ? 1 : 2
        let size = (spans.count + halves - 1) / halves
        var results = [EventBatch](repeating: EventBatch(source: source), count: halves)
        bytes.withUnsafeBufferPointer { all in
            results.withUnsafeMutableBufferPointer { slots in
                // Each iteration reads the shared bytes and writes only its own slot; both
                // buffers outlive `concurrentPerform`, which returns when every iteration has.
                nonisolated(unsafe) let slots = slots
                nonisolated(unsafe) let all = all
                DispatchQueue.concurrentPerform(iterations: halves) { half in
                    var batch = EventBatch(source: source)
                    var chain = EventHashChain()
                    let range = (half * size)..<min(spans.count, (half + 1) * size)
                    batch.events.reserveCapacity(range.count)
                    for index in range {
                        let span = spans[index]
                        let line = UnsafeBufferPointer(rebasing: all[span.start..<(span.start + span.count)])
                        if let event = batch.add(line, line: span.line), digests {
                            chain.appendDigest(of: event, to: &batch.digests)
                        }
                    }
                    slots[half] = batch
                }
            }
        }
        var merged = EventBatch(source: source, rejected: tooLong)
        for result in results {
            merged.events += result.events
            merged.digests += result.digests
            merged.rejected += result.rejected
        }
        // Digests line up with events only when every half made them.
        if !digests { merged.digests = [] }
        return merged
    }
}
