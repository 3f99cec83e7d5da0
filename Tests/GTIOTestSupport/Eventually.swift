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
