#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes written whole to a file descriptor, whatever kind of pipe or file it is.
public enum DescriptorOutput {
    /// Writes all of `bytes` to `descriptor`; the error number of the write that failed, nil when
    /// none did. A write that a signal interrupted or that wrote part is carried on, and one
    /// refused for want of room waits for room: a parent may hand over a pipe it made
    /// non-blocking, on which a long answer would otherwise stop at the pipe's 64 KB.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let failure = errno
            if written < 0 && failure == EINTR { continue }
            guard written < 0 && (failure == EAGAIN || failure == EWOULDBLOCK) else { return written == 0 ? EIO : failure }
            var room = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&room, 1, -1)
        }
        return nil
    }
}
