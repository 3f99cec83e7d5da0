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
/// descriptor alone and never meet SQLite's.
struct OpeningLock {
    private let descriptor: Int32

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

    func release() {
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
        _ = close(descriptor)
    }
}
