import Foundation
import Testing

@testable import GTIOProjections

struct BackgroundReleaseTests {
    /// Says on which thread it was freed.
    private final class Witness: @unchecked Sendable {
        let freed: DispatchSemaphore
        let freedOnCaller: UnsafeMutablePointer<Bool>
        let caller = Thread.current

        init(freed: DispatchSemaphore, freedOnCaller: UnsafeMutablePointer<Bool>) {
            self.freed = freed
            self.freedOnCaller = freedOnCaller
        }

        deinit {
            freedOnCaller.pointee = Thread.current == caller
            freed.signal()
        }
    }

    private struct Fold: Sendable {
        let witness: Witness
    }

    @Test
    func theValueIsFreedOnAnotherThreadThanTheCallers() {
        let freed = DispatchSemaphore(value: 0)
        let freedOnCaller = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        defer { freedOnCaller.deallocate() }
        freedOnCaller.pointee = true
        let fold = Fold(witness: Witness(freed: freed, freedOnCaller: freedOnCaller))
        BackgroundRelease.release(consume fold)
        #expect(freed.wait(timeout: .now() + 10) == .success)
        #expect(freedOnCaller.pointee == false)
    }
}
