import Foundation
import GTIOStore

/// A thread of its own that runs the asynchronous part of a query whose caller blocks waiting
/// for it (`PostgresStore.readOnlySQL`). On the cooperative pool, that task could wait behind
/// the very threads blocked waiting for it (tests and servers block pool threads), and never run.
final class QueryThread: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is only touched while holding `condition`.
    static let shared = QueryThread()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        NamedThread.start("gtio-pg-query") { [unowned self] in self.loop() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = jobs
            jobs.removeAll()
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
