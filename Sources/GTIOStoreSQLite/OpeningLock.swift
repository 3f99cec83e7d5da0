#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock (flock) on the store file, held while a process checks, creates and
/// migrates the store: exclusive for writers, shared for readers.
///
/// flock rather than fcntl locks because SQLite's own locks on the same file are fcntl locks;
/// flock locks belong to the descriptor and never meet SQLite's. The descriptor is the
/// process's one for the file (`StoreFiles`), never closed, for the reason given there.
struct OpeningLock {
    private let descriptor: Int32?

    /// Takes the lock, creating an empty file for a writer when none exists (SQLite accepts an
    /// empty file as a new database). A reader of a missing file holds no lock.
    init(path: String, exclusive: Bool) {
        descriptor = StoreFiles.descriptor(path, create: exclusive)
        guard let descriptor else { return }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { return }
        }
    }

    /// Lets other processes open the store.
    func release() {
        guard let descriptor else { return }
        _ = flock(descriptor, LOCK_UN)
    }
}
