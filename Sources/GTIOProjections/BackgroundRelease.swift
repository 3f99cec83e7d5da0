import Foundation
import GTIOStore

/// Lets go of a large value on a thread of its own, so that its caller does not wait for it to
/// be freed.
///
/// A fold of the log is millions of small allocations (ids, sets, tables), and freeing them one
/// by one takes a while after the answer is ready. Freed on another thread, a one-shot command
/// exits without waiting, since the process's exit returns all its memory at once, and a
/// long-lived process (the REPL, the server) frees it beside its next work, yielding to it.
public enum BackgroundRelease {
    /// Frees `value` on a new thread, if nothing else holds its storage; pass it with `consume`
    /// so that the caller's copy is not the one left to free it.
    public static func release<Value: Sendable>(_ value: consuming Value) {
        let holder = Holder(consume value)
        NamedThread.start("gtio-release") {
            ThreadPriority.lowerCallingThread()
            holder.value = nil
        }
    }

    // @unchecked: the value is only touched by the thread that empties the holder.
    private final class Holder<Held>: @unchecked Sendable {
        var value: Held?
        init(_ value: consuming Held) { self.value = consume value }
    }
}
