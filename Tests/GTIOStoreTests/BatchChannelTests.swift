import Foundation
import Testing
@testable import GTIOStore

@Suite(.timeLimit(.minutes(1))) struct BatchChannelTests {
    @Test func tryReceiveTakesWhatIsPendingAndNeverWaits() {
        let channel = BatchChannel<Int>(capacity: 4)
        #expect(channel.tryReceive() == nil)
        _ = channel.send(1)
        _ = channel.send(2)
        #expect(channel.tryReceive() == 1)
        channel.close()
        #expect(channel.tryReceive() == 2)
        #expect(channel.tryReceive() == nil)
        #expect(channel.receive() == nil)
    }

    /// A closed channel of work items, drained by two threads at once (as the rebuild's table
    /// builders share the models to build): each item is taken exactly once.
    @Test func twoThreadsDrainingAClosedChannelTakeEachItemOnce() {
        let work = BatchChannel<Int>(capacity: 1_000)
        for item in 0..<1_000 { _ = work.send(item) }
        work.close()
        let taken = BatchChannel<Int>(capacity: 1_000)
        let done = DispatchSemaphore(value: 0)
        Thread {
            while let item = work.receive() { _ = taken.send(item) }
            done.signal()
        }.start()
        var mine: [Int] = []
        while let item = work.receive() { mine.append(item) }
        done.wait()
        taken.close()
        var theirs: [Int] = []
        while let item = taken.receive() { theirs.append(item) }
        #expect((mine + theirs).sorted() == Array(0..<1_000))
    }
}
