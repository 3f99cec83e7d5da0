import ArgumentParser
import Foundation
import GTIOStore

/// `gtio verify`: walks the hash chain over the whole log.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the whole log against its hash chain: exit 0 when intact, 1 naming the first bad seq.",
        discussion: "Finds changed, missing and reordered events, even after someone dropped the store's triggers.")

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.openForReading()
        let total = try store.lastSeq()
        let bar = ProgressBar()
        let started = Date()
        let verdict = try store.verify { done in bar.update(done: done, total: total, count: Int(done), unit: "events") }
        bar.finish()
        switch verdict {
        case .intact(let events, let head):
            let hex = head.prefix(8).map { String(format: "%02x", $0) }.joined()
            Terminal.line(String(format: "verified %lld events in %.2f s: the log is intact (chain head %@…)",
                                 events, Date().timeIntervalSince(started), hex))
        case .broken(let seq, let problem):
            throw ConsoleError.notFound("the log is not intact at seq \(seq): \(problem)")
        }
    }
}
