import Foundation

/// What a one-shot writer says when reading the saved fold state back took long: a cost every
/// writer pays while no projector runs, which grows with the log, and how to be rid of it.
enum ProjectorAdvice {
    /// Below this many seconds a read of the state is not worth a word (on a 1 M-event store it
    /// takes ~0.1 s, on a 20 M-event one ~2.3 s). `GTIO_ADVISE_AFTER` sets another: a large one
    /// silences the advice, and the tests lower it, their states reading back in milliseconds.
    static var threshold: Double {
        ProcessInfo.processInfo.environment["GTIO_ADVISE_AFTER"].flatMap(Double.init) ?? 1
    }

    /// Whether a read of the state that took `seconds` is worth a word: one was read (a store's
    /// first writer reads none), and it took `threshold` or more.
    static func isDue(seconds: Double, threshold: Double = Self.threshold) -> Bool {
        seconds > 0 && seconds >= threshold
    }

    /// The line for a read of the state that took `seconds`, the state `bytes` long; nil when it
    /// is not due.
    static func line(seconds: Double, bytes: Int?, threshold: Double = Self.threshold) -> String? {
        guard isDue(seconds: seconds, threshold: threshold) else { return nil }
        let size = bytes.map { " (\(ByteSize.text($0)))" } ?? ""
        return String(format: "gtio: reading the read models' saved state back%@ took %.2f s, as it does for every writer while "
            + "no projector runs; gtio project --follow beside the writers keeps it in memory, and they then only append "
            + "(docs/STORE.md, \"Writers on a large log\")", size, seconds)
    }
}
