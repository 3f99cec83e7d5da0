import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One descriptor per store file for the life of the process, never closed.
///
/// SQLite locks a database with fcntl locks, and POSIX drops every fcntl lock a process holds on
/// a file when the process closes any descriptor of that file. Closing a descriptor of our own
/// (the opening lock's, a header read's) while a connection is open would leave the connection
/// believing it holds locks it no longer holds; another SQLite client closing its last
/// connection could then take the file and delete the write-ahead log under it ("disk I/O
/// error"). So the store's own looks at the file go through one descriptor that is never closed.
enum StoreFiles {
    private struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var descriptors: [FileID: Int32] = [:]

    /// The descriptor of the file at `path`: the one already open for that file, or a new one,
    /// creating the file when `create` allows (falling back to read-only when it cannot be
    /// written); nil when it cannot be opened (`errno` says why).
    static func descriptor(_ path: String, create: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        var status = stat()
        if stat(path, &status) == 0, let kept = descriptors[id(status)] { return kept }
        var descriptor = open(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC, 0o644)
        if descriptor < 0, create, errno == EACCES || errno == EROFS || errno == EISDIR {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { return nil }
        if fstat(descriptor, &status) == 0 { descriptors[id(status)] = descriptor }
        return descriptor
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter), nil when it
    /// cannot be read.
    static func header(_ path: String, count: Int) -> [UInt8]? {
        guard let descriptor = descriptor(path, create: false) else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        guard read >= 0 else { return nil }
        return Array(bytes.prefix(read))
    }

    private static func id(_ status: stat) -> FileID {
        FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
