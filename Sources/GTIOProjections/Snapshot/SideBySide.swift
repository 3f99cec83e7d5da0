import Foundation
import GTIOStore

/// Two pieces of work at once, on a thread of their own and this one, for the fold state's
/// halves: each touches only its own half, and neither result is read before both finished.
enum SideBySide {
    /// Runs `first` on a new thread and `second` on this one; returns once both did, throwing
    /// the first one's error, else the second's.
    static func run(_ first: () throws -> Void, _ second: () throws -> Void) throws {
        try withoutActuallyEscaping(first) { first in
            // Unchecked: the thread is joined (`finished.wait()`) before anything it wrote is read.
            let work = Unchecked<(() throws -> Void)?>(first), failure = Unchecked<(any Error)?>(nil)
            let finished = DispatchSemaphore(value: 0)
            NamedThread.start("gtio-half") {
                do { try work.value?() } catch { failure.value = error }
                // Let go of `first` before saying so: it must not outlive this call.
                work.value = nil
                finished.signal()
            }
            var secondFailure: (any Error)?
            do { try second() } catch { secondFailure = error }
            finished.wait()
            if let error = failure.value ?? secondFailure { throw error }
        }
    }

    private final class Unchecked<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
}
