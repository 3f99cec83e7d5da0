import Foundation
import GTIOStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lead of a role on an SQLite store: an exclusive flock on a file beside the store
/// (`events.gtio-projector.lock`), which the kernel releases when the process ends, even by
/// `kill -9`. A file of its own, because the store file's descriptor must never be closed
/// (`StoreFiles`) and its flock is the opening lock.
final class LeadFile: StoreLease, @unchecked Sendable {
    // @unchecked: `descriptor` is only touched while holding `lock`.
    private let lock = NSLock()
    private var descriptor: Int32?

    /// Takes the lock on `path`, creating the file, trying every 5 ms for up to `seconds`; nil
    /// when another process still holds it then.
    init?(path: String, waitingUpTo seconds: Double) throws(StoreError) {
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            throw .cannotOpen(path: path, reason: "the lead file cannot be opened: \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(seconds)
        while flock(opened, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK, Date() < deadline else {
                close(opened)
                return nil
            }
            usleep(5_000)
        }
        // Who leads, for an operator looking at the file.
        let note = "pid \(getpid())\n"
        _ = ftruncate(opened, 0)
        _ = note.withCString { pwrite(opened, $0, strlen($0), 0) }
        descriptor = opened
    }

    deinit { release() }

    /// Whether a process holds the lock on `path`: a shared lock cannot be had beside it. No
    /// file, no lead (and none is made).
    static func isHeld(path: String) -> Bool {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return false }
        defer { close(opened) }
        while flock(opened, LOCK_SH | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            return errno == EWOULDBLOCK
        }
        return false
    }

    var isHeld: Bool { lock.withLock { descriptor != nil } }

    func release() {
        lock.withLock {
            guard let descriptor else { return }
            close(descriptor)  // closing the only descriptor of the file releases the flock
            self.descriptor = nil
        }
    }
}
