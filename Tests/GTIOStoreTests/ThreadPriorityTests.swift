import Foundation
import Testing

import GTIOStore

#if canImport(Glibc)
import Glibc

/// Lowering a thread's priority touches that thread and those it starts, not the process.
struct ThreadPriorityTests {
    @Test
    func onlyTheCallingThreadAndThoseItStartsYield() {
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        nonisolated(unsafe) var lowered: Int32 = 0, inherited: Int32 = 0
        let done = DispatchSemaphore(value: 0)
        Thread {
            ThreadPriority.lowerCallingThread()
            lowered = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            Thread {
                inherited = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                done.signal()
            }.start()
        }.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(lowered == min(before + 10, 19))
        #expect(inherited == lowered)
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before)
    }
}
#endif
