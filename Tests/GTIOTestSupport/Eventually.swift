import Foundation

/// Whether `condition` holds within `seconds`, asked every 50 ms: for what another process
/// does in its own time (a projector catching up, a lead taken over).
public func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}

/// Blocks the calling thread for `seconds`: for a test that lets a child process pass a moment
/// (a second after which it says what it waits for) before it lets the child go on.
///
/// Blocking rather than `Task.sleep`, so the test resumes on time: a suspended test resumes
/// only once the cooperative pool has run the tasks queued before it, and on two cores those
/// are other suites' tests blocked on their child processes, minutes of them, which can
/// outlast what the child itself waits before it gives up (the catch-up turn's 300 s).
public func pause(_ seconds: Double) {
    Thread.sleep(forTimeInterval: seconds)
}
