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

    /// A thread under the idle policy whose work lasts longer than the guard's patience is moved
    /// to the normal policy (at its background nice value), and back to the idle policy once that
    /// work ends; work that ends in time leaves it idle. Where the process may not leave the idle
    /// policy, the thread never takes it.
    @Test
    func aGuardMovesAThreadWhoseWorkOutlastsItsPatienceOutOfTheIdlePolicy() {
        let starvation = StarvationGuard(patience: 0.2)
        let guarding = Thread { starvation.run() }
        guarding.start()
        defer { starvation.stop() }
        nonisolated(unsafe) var policies: [Int32] = []
        nonisolated(unsafe) var nice: Int32 = 0
        let done = DispatchSemaphore(value: 0)
        Thread {
            ThreadPriority.moveCallingThreadToBackground()
            _ = starvation.enter()
            policies.append(sched_getscheduler(0))
            starvation.workBegan()
            starvation.workEnded()
            policies.append(sched_getscheduler(0))
            starvation.workBegan()
            // The guard moves the thread once the work has lasted 0.2 s; a loaded machine may
            // take longer to let it.
            let deadline = Date().addingTimeInterval(10)
            while sched_getscheduler(0) != SCHED_OTHER && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            policies.append(sched_getscheduler(0))
            nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            starvation.workEnded()
            policies.append(sched_getscheduler(0))
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 20) == .success)
        let idle: Int32 = 5  // SCHED_IDLE
        if ThreadPriority.mayLeaveIdle {
            #expect(policies == [idle, idle, SCHED_OTHER, idle])
            #expect(nice >= ThreadPriority.backgroundNice)
            #expect(starvation.rescueCount == 1)
        } else {
            #expect(policies == [SCHED_OTHER, SCHED_OTHER, SCHED_OTHER, SCHED_OTHER])
            #expect(starvation.rescueCount == 0)
        }
    }

    /// A helper started by a thread under the idle policy, which its starter waits for, leaves
    /// the policy it inherited for the background priority: the starter's guard cannot see it.
    @Test
    func aHelperOfAnIdleThreadLeavesTheIdlePolicy() {
        nonisolated(unsafe) var inherited: Int32 = -1, helper: Int32 = -1, helperNice: Int32 = 0
        let done = DispatchSemaphore(value: 0)
        Thread {
            ThreadPriority.moveCallingThreadToBackground()
            _ = ThreadPriority.moveCallingThreadToIdle()
            Thread {
                inherited = sched_getscheduler(0)
                ThreadPriority.leaveInheritedIdle()
                helper = sched_getscheduler(0)
                helperNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                done.signal()
            }.start()
        }.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(inherited == (ThreadPriority.mayLeaveIdle ? 5 : SCHED_OTHER))
        #expect(helper == SCHED_OTHER)
        #expect(helperNice >= ThreadPriority.backgroundNice)
    }

    /// A thread under the idle policy runs what it may not wait for a core in the middle of
    /// (a read of the log) at the background priority, and is idle again after.
    @Test
    func anIdleThreadRunsAReadOutsideTheIdlePolicy() {
        nonisolated(unsafe) var policies: [Int32] = []
        let done = DispatchSemaphore(value: 0)
        Thread {
            ThreadPriority.moveCallingThreadToBackground()
            _ = ThreadPriority.moveCallingThreadToIdle()
            policies.append(sched_getscheduler(0))
            policies.append(ThreadPriority.outsideIdle { sched_getscheduler(0) })
            policies.append(sched_getscheduler(0))
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let idle: Int32 = ThreadPriority.mayLeaveIdle ? 5 : SCHED_OTHER
        #expect(policies == [idle, SCHED_OTHER, idle])
    }

    /// A read outside the idle policy that is under way when the guard moves its thread does not
    /// put the thread back under the policy for the rest of the work.
    @Test
    func aThreadMovedDuringAReadOutsideTheIdlePolicyStaysMoved() {
        guard ThreadPriority.mayLeaveIdle else { return }
        let starvation = StarvationGuard(patience: 0.1)
        Thread { starvation.run() }.start()
        defer { starvation.stop() }
        nonisolated(unsafe) var later: Int32 = -1
        let done = DispatchSemaphore(value: 0)
        Thread {
            ThreadPriority.moveCallingThreadToBackground()
            _ = starvation.enter()
            starvation.workBegan()
            ThreadPriority.outsideIdle {
                let deadline = Date().addingTimeInterval(10)
                while starvation.rescueCount == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            }
            // The read's end put the thread back under the policy; the guard moves it out again.
            let deadline = Date().addingTimeInterval(10)
            while sched_getscheduler(0) != SCHED_OTHER && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            later = sched_getscheduler(0)
            starvation.workEnded()
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(starvation.rescueCount == 1)
        #expect(later == SCHED_OTHER)
    }

    /// A named thread, which serves the whole process, does not keep the idle policy of the
    /// thread that started it.
    @Test
    func aNamedThreadStartedByAnIdleThreadIsNotIdle() {
        nonisolated(unsafe) var starter: Int32 = -1, named: Int32 = -1
        let done = DispatchSemaphore(value: 0)
        Thread {
            ThreadPriority.moveCallingThreadToBackground()
            _ = ThreadPriority.moveCallingThreadToIdle()
            starter = sched_getscheduler(0)
            NamedThread.start("test-named") {
                named = sched_getscheduler(0)
                done.signal()
            }
        }.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(starter == (ThreadPriority.mayLeaveIdle ? 5 : SCHED_OTHER))
        #expect(named == SCHED_OTHER)
    }
}
#endif
