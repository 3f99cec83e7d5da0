import Foundation

/// A one-line progress bar with rate on standard error, drawn only when standard error is a
/// terminal and the work has run long enough to be worth watching.
final class ProgressBar {
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    init(enabled: Bool = Terminal.standardErrorIsTerminal) {
        self.enabled = enabled
    }

    /// Redraws at most ten times a second, from half a second in.
    func update(done: Int64, total: Int64?, count: Int, unit: String) {
        guard enabled else { return }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        guard elapsed > 0.5, now.timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = now
        let rate = Double(count) / max(elapsed, 0.001)
        var line = ""
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let filled = Int(fraction * 30)
            line += "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: 30 - filled) + "] "
            line += String(format: "%3.0f%% ", fraction * 100)
        }
        line += "\(count.formatted()) \(unit)  \(Int(rate).formatted()) \(unit)/s  "
        line += String(format: "%.1f MB/s", Double(done) / 1e6 / max(elapsed, 0.001))
        Terminal.writeError("\r\u{1B}[2K" + line)
        drawn = true
    }

    /// Clears the bar so the summary prints on a clean line.
    func finish() {
        if drawn { Terminal.writeError("\r\u{1B}[2K") }
    }
}
