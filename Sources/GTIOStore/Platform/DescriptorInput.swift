#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes read from a file descriptor, whatever kind of pipe or file it is.
public enum DescriptorInput {
    /// Reads what `descriptor` has into `buffer`: the count read, 0 at the end of the input,
    /// or the error number negated. A read that a signal interrupted is made again, and one that
    /// finds nothing yet waits for bytes: a parent may hand over a pipe it made non-blocking,
    /// whose "nothing yet" must not pass for an error or for the end.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let got = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if got >= 0 { return got }
            let failure = errno
            if failure == EINTR { continue }
            guard failure == EAGAIN || failure == EWOULDBLOCK else { return -Int(failure) }
            var input = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&input, 1, -1)
        }
    }

    /// Every byte of `descriptor` to its end; the error number of a read that failed.
    public static func readAll(_ descriptor: Int32) -> Result<[UInt8], ReadError> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, into: $0) }
            if got == 0 { return .success(bytes) }
            if got < 0 { return .failure(ReadError(number: Int32(-got))) }
            bytes += chunk[..<got]
        }
    }

    /// A read that failed, by its error number.
    public struct ReadError: Error, Sendable {
        public var number: Int32

        /// The C library's words for it ("Is a directory").
        public var reason: String { String(cString: strerror(number)) }
    }
}

/// The C library's read(2), named apart from `DescriptorInput.read` (Glibc or Darwin alike).
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
