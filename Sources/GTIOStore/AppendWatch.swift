/// Word of events committed by any process, for a follower of the log (the projector) that
/// would otherwise poll it.
public protocol AppendWatch: AnyObject, Sendable {
    /// Waits until the log holds events after `seq`, or `timeout` seconds pass; returns the
    /// last seq known then (at most `seq` when nothing came).
    func wait(after seq: Int64, timeout: Double) throws -> Int64
    /// Stops listening.
    func close()
}
