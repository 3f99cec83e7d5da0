import Foundation
import GTIOCatalog
import GTIOStore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads JSON Lines sources into an event log: one thread validates lines into batches while
/// the calling thread appends them, each batch in its own transaction.
public struct Ingestor: Sendable {
    /// Lines per batch (and per transaction). Large batches make the sorted id inserts pay off.
    public var batchSize: Int
    /// Batches validated ahead of the writer; bounds memory to about (capacity + 2) batches.
    public var lookahead = 2
    /// The most appended events kept in the report for the read models' catch-up (0: none),
    /// on a store whose log is read back through a server (`EventLog.readsThroughAServer`).
    public var keptRecords = 262_144

    public init(batchSize: Int = 50_000) {
        self.batchSize = batchSize
    }

    private struct Pending: Sendable {
        var batch: EventBatch
        var bytesRead: Int64
        var note: String?
    }

    /// Opens every source first, so a missing file stops the ingest before anything is appended.
    public static func open(_ sources: [IngestSource]) throws(IngestError) -> [(IngestSource, Int32, Int64?)] {
        guard !sources.isEmpty else { throw .noInput }
        var opened: [(IngestSource, Int32, Int64?)] = []
        for source in sources {
            switch source {
            case .standardInput:
                opened.append((source, 0, nil))
            case .file(let path):
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                    close(opened)
                    throw .fileMissing(path: path)
                }
                if isFolder.boolValue {
                    close(opened)
                    throw .isAFolder(path: path)
                }
                let descriptor = openForReading(path)
                guard descriptor >= 0 else {
                    let reason = String(cString: strerror(errno))
                    close(opened)
                    throw .cannotOpen(path: path, reason: reason)
                }
                // A pipe, a FIFO or a terminal has no size: it is read to its end, like stdin.
                var info = stat()
                fstat(descriptor, &info)
                let isRegular = (info.st_mode & S_IFMT) == S_IFREG
                opened.append((source, descriptor, isRegular ? Int64(info.st_size) : nil))
            }
        }
        return opened
    }

    /// Ingests every source in order into `log`, calling `progress` after each batch.
    public func ingest(
        _ sources: [IngestSource], into log: any EventLog,
        progress: (IngestProgress) -> Void = { _ in }
    ) throws -> IngestReport {
        let opened = try Self.open(sources)
        defer { Self.close(opened) }
        return try ingest(opened: opened, into: log, progress: progress)
    }

    /// Closes what `open` opened (standard input stays open).
    public static func close(_ opened: [(IngestSource, Int32, Int64?)]) {
        opened.forEach { if $0.1 != 0 { closeDescriptor($0.1) } }
    }

    /// Ingests sources opened by `open`, which the caller closes. A FIFO or a process
    /// substitution can be opened and read only once: checking that the files exist before
    /// opening the store must not consume them.
    public func ingest(
        opened: [(IngestSource, Int32, Int64?)], into log: any EventLog,
        progress: (IngestProgress) -> Void = { _ in }
    ) throws -> IngestReport {
        let started = DispatchTime.now()
        var report = IngestReport()
        report.appended = AppendedRecords(capacity: log.readsThroughAServer ? keptRecords : 0)
        let mostlyNew = DigestSwitch()
        for (source, descriptor, size) in opened {
            var sourceReport = IngestReport.SourceReport(source: source, outcome: AppendOutcome())
            let channel = BatchChannel<Result<Pending, IngestError>>(capacity: lookahead)
            let batchSize = self.batchSize
            let producer = Thread {
                Self.produce(source: source, descriptor: descriptor, size: size, batchSize: batchSize,
                             digests: mostlyNew, into: channel)
            }
            producer.stackSize = 8 << 20
            producer.start()
            do {
                while let item = channel.receive() {
                    let pending = try item.get()
                    if let note = pending.note { sourceReport.note = note }
                    let outcome = try log.append(pending.batch)
                    report.appended.add(pending.batch, outcome)
                    // Digests pay off only for new events: stop making them while batches are re-sent ones.
                    mostlyNew.on.store(outcome.appended * 2 >= outcome.read, ordering: .relaxed)
                    sourceReport.outcome.add(outcome)
                    report.total.add(outcome)
                    progress(IngestProgress(
                        source: source, bytesRead: pending.bytesRead, bytesTotal: size,
                        bytesReadOverall: report.bytes + pending.bytesRead, outcome: report.total))
                }
            } catch {
                channel.cancel()
                throw error
            }
            report.bytes += size ?? 0
            if size == 0 || (size == nil && sourceReport.outcome.read == 0 && sourceReport.outcome.rejected == 0) {
                sourceReport.note = size == 0 ? "empty file: nothing to ingest" : "no input: nothing to ingest"
            }
            report.sources.append(sourceReport)
        }
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return report
    }

    /// Runs on the producer thread: reads lines, validates them, and sends batches.
    private static func produce(
        source: IngestSource, descriptor: Int32, size: Int64?, batchSize: Int, digests: DigestSwitch,
        into channel: BatchChannel<Result<Pending, IngestError>>
    ) {
        defer { channel.close() }
        let name = source.name
        var reader = LineReader(descriptor: descriptor)
        defer { reader.deallocate() }
        var lines = RawLines()
        var makeDigests = digests.on.load(ordering: .relaxed)
        func flush(_ bytesRead: Int64) -> Bool {
            let batch = lines.validated(source: name, digests: makeDigests)
            lines = RawLines()
            makeDigests = digests.on.load(ordering: .relaxed)
            return channel.send(.success(Pending(batch: batch, bytesRead: bytesRead)))
        }
        do {
            try reader.forEachLine { item, bytesRead in
                switch item {
                case .line(let number, let bytes):
                    lines.append(number, bytes)
                case .tooLong(let number, let prefix, let length):
                    lines.tooLong.append(RejectedLine(
                        line: number,
                        reason: prefix.count == length
                            ? "line is \(length) bytes, over the 1 MiB limit (kept whole: fix it and retry)"
                            : "line is \(length) bytes, over the 1 MiB limit; its first \(prefix.count) bytes are kept",
                        original: prefix))
                }
                if lines.count >= batchSize {
                    guard flush(bytesRead) else { throw CancellationError() }
                }
            }
            if lines.count > 0 { _ = flush(reader.bytesRead) }
        } catch let error as IngestError {
            _ = channel.send(.failure(error))
        } catch {
            // Cancelled by the writer, which already has its own error to report.
        }
    }
}

/// Whether the validating thread should make hash-chain digests: on while batches bring new
/// events (the writer is the bottleneck then), off while they are re-sent ones.
final class DigestSwitch: Sendable {
    let on = Atomic<Bool>(true)
}

private func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
