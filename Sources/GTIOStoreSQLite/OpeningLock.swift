#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock (flock) on the store file, held while a process checks, creates and
/// migrates the store: exclusive for writers, shared for readers.
///
/// flock rather than fcntl locks because SQLite's own locks on the same file are fcntl locks,
/// which a process loses when it closes any descriptor of the file; flock locks belong to this
/// descriptor alone and never meet SQLite's. For the same reason the descriptor stays open
/// until the store has closed its connections (`close()`): closing it while they are open
/// would drop their locks, and another process closing its last connection would then take
/// the file for itself and delete the write-ahead log under them ("disk I/O error").
final class OpeningLock: @unchecked Sendable {
    // @unchecked: the descriptor is set once; `release` and `close` are called by the owner.
    private var descriptor: Int32

    /// Takes the lock, creating an empty file for a writer when none exists (SQLite accepts an
    /// empty file as a new database). A reader of a missing file holds no lock.
    init(path: String, exclusive: Bool) {
        let flags = exclusive ? (O_RDWR | O_CREAT) : O_RDONLY
        var descriptor = open(path, flags | O_CLOEXEC, 0o644)
        if descriptor < 0, exclusive, errno == EACCES || errno == EROFS || errno == EISDIR {
            // A read-only file, or a folder: let the checks that follow say which.
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        }
        self.descriptor = descriptor
        guard descriptor >= 0 else { return }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { return }
        }
    }

    /// Lets other processes open the store; the descriptor stays open.
    func release() {
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
    }

    /// Closes the descriptor (once): only when no connection of this process has the file open.
    func close() {
        guard descriptor >= 0 else { return }
        defer { descriptor = -1 }
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #elseif canImport(Darwin)
        _ = Darwin.close(descriptor)
        #endif
    }
}
