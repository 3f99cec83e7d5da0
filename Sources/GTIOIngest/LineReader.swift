import GTIOCatalog
import GTIOStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a file descriptor's bytes into JSON Lines lines without holding more than a few MiB,
/// whatever the input size (EVENTS.md §4: `\n` or `\r\n`, a byte-order mark dropped, a last
/// line without `\n` read, blank lines skipped but still numbered).
struct LineReader {
    /// The longest line accepted; a longer one is reported whole, so that quarantine keeps what
    /// the producer sent and it can be fixed and retried, up to `keptLimit` bytes of it.
    static let maximumLineLength = 1 << 20
    static let keptLimit = 64 << 20
    private static let chunkSize = 1 << 20

    enum Item {
        case line(number: Int, bytes: UnsafeBufferPointer<UInt8>)
        case tooLong(number: Int, prefix: [UInt8], length: Int)
    }

    private let descriptor: Int32
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    /// Bytes consumed so far, for progress.
    private(set) var bytesRead: Int64 = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer = .allocate(capacity: Self.maximumLineLength + Self.chunkSize + 2)
    }

    func deallocate() { buffer.deallocate() }

    /// Adds `bytes` to a long line being kept, up to `keptLimit`.
    private static func keep(_ bytes: Slice<UnsafeMutableBufferPointer<UInt8>>, in kept: inout [UInt8]) {
        kept.append(contentsOf: bytes.prefix(max(0, keptLimit - kept.count)))
    }

    /// Calls `body` with each non-blank line in order. The bytes are valid only during the call.
    mutating func forEachLine(_ body: (Item, _ bytesRead: Int64) throws -> Void) throws {
        var start = 0, end = 0, scan = 0
        var lineNumber = 0
        var atFileStart = true
        var skippingLongLine: (number: Int, prefix: [UInt8], length: Int)?
        var endOfInput = false

        func emit(_ from: Int, _ to: Int, number: Int) throws {
            let line = UnsafeBufferPointer(rebasing: buffer[from..<to])
            let startsInput = atFileStart
            atFileStart = false
            guard let content = JSONLine.content(of: line, startsInput: startsInput) else { return }
            try body(.line(number: number, bytes: UnsafeBufferPointer(rebasing: line[content])), bytesRead)
        }

        while true {
            // Hand out every complete line in the buffer.
            while scan < end {
                let searched = UnsafeMutableRawPointer(buffer.baseAddress! + scan)
                guard let found = memchr(searched, 0x0A, end - scan) else { scan = end; break }
                let newline = found - UnsafeMutableRawPointer(buffer.baseAddress!)
                lineNumber += 1
                if var long = skippingLongLine {
                    long.length += newline - start
                    Self.keep(buffer[start..<newline], in: &long.prefix)
                    try body(.tooLong(number: long.number, prefix: long.prefix, length: long.length), bytesRead)
                    skippingLongLine = nil
                    atFileStart = false
                } else if newline - start > Self.maximumLineLength {
                    try body(.tooLong(number: lineNumber, prefix: Array(buffer[start..<min(newline, start + Self.keptLimit)]),
                                      length: newline - start), bytesRead)
                    atFileStart = false
                } else {
                    try emit(start, newline, number: lineNumber)
                }
                start = newline + 1
                scan = start
            }
            if endOfInput {
                if start < end {
                    lineNumber += 1
                    if var long = skippingLongLine {
                        long.length += end - start
                        Self.keep(buffer[start..<end], in: &long.prefix)
                        try body(.tooLong(number: long.number, prefix: long.prefix, length: long.length), bytesRead)
                    } else if end - start > Self.maximumLineLength {
                        try body(.tooLong(number: lineNumber, prefix: Array(buffer[start..<min(end, start + Self.keptLimit)]),
                                          length: end - start), bytesRead)
                    } else {
                        try emit(start, end, number: lineNumber)
                    }
                } else if let long = skippingLongLine {
                    try body(.tooLong(number: long.number, prefix: long.prefix, length: long.length), bytesRead)
                }
                return
            }
            // An unfinished line longer than the limit: move it out of the buffer as it comes.
            if end - start > Self.maximumLineLength {
                if skippingLongLine == nil { skippingLongLine = (lineNumber + 1, [], 0) }
                skippingLongLine!.length += end - start
                Self.keep(buffer[start..<end], in: &skippingLongLine!.prefix)
                start = end
                scan = end
            }
            // Move the unfinished line to the front and read more after it.
            if start > 0 {
                let pending = end - start
                if pending > 0 {
                    memmove(buffer.baseAddress!, buffer.baseAddress! + start, pending)
                }
                scan -= start
                end = pending
                start = 0
            }
            let got = DescriptorInput.read(
                descriptor, into: UnsafeMutableRawBufferPointer(start: buffer.baseAddress! + end, count: min(Self.chunkSize, buffer.count - end)))
            if got < 0 { throw IngestError.readFailed(reason: String(cString: strerror(Int32(-got)))) }
            if got == 0 {
                endOfInput = true
            } else {
                end += got
                bytesRead += Int64(got)
            }
        }
    }
}
