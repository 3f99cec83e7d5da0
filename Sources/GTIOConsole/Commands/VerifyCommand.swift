import ArgumentParser
import Foundation
import GTIOStore

/// `gtio verify`: walks the hash chain over the whole log, and holds it to signed heads.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the whole log against its hash chain: exit 0 when intact, 1 naming the first bad seq.",
        discussion: """
            Finds changed, missing and reordered events, even after someone dropped the store's \
            triggers. On SQLite it also checks the file with quick_check, that the dedup index \
            holds exactly the log's ids and that the window index insights read holds the rows; \
            on PostgreSQL, the log's indexes with the amcheck extension where the database has \
            it (a line says what was not checked).

            The chain alone cannot stop someone who can write the file and recomputes it. With \
            --key (the public key gtio keys show prints, or a file holding it), every event must \
            be covered by a batch head signed with that key: a forged append is an unsigned tail, \
            a rewrite breaks a signed head. With --anchor FILE (lines from gtio anchor, kept \
            outside the store), the log must still reach every anchored head, so a cut tail is \
            found even if its signatures were deleted too.

            It also holds the log's append-only guards (the triggers that refuse changes to its \
            tables) to what gtio makes: each one dropped, changed or disabled, and each trigger on \
            the log's tables that gtio did not make, is named and fails the check, even while \
            every event is as appended. --restore-guards makes them again.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("The signing key's public half (ed25519:…) or a file holding it; defaults to $GTIO_VERIFY_KEY.",
                               valueName: "public-key"))
    var key: String?

    @Option(help: ArgumentHelp("A file of heads written by gtio anchor, each of which the log must still contain.",
                               valueName: "file"))
    var anchor: String?

    @Flag(help: ArgumentHelp(
        "First make the log's append-only guards (its triggers) as gtio makes them again, after one was dropped, changed or disabled.",
        discussion: "This writes the store: on PostgreSQL, as the tables' owner."))
    var restoreGuards = false

    func run() throws {
        let audit = LogAudit(key: try SigningKeyLocation.verifyingKey(key), anchors: try anchors())
        if restoreGuards {
            for finding in try storeOptions.openExisting().restoreGuards() { Terminal.line("mended: \(finding)") }
        }
        let store = try storeOptions.openForReading()
        let total = try store.lastSeq()
        let bar = ProgressBar()
        let started = Date()
        let verdict = try store.verify(audit) { done in bar.update(done: done, total: total, count: Int(done), unit: "events") }
        bar.finish()
        switch verdict {
        case .intact(let events, let head, let signatures, let unchecked):
            let hex = head.prefix(8).map { String(format: "%02x", $0) }.joined()
            Terminal.line(String(format: "verified %lld events in %.2f s: the log is intact (chain head %@…)",
                                 events, Date().timeIntervalSince(started), hex))
            if let key = audit.key {
                Terminal.line("every event is covered by a head signed with key \(key.shortName) (last signed seq \(signatures.lastSignedSeq))")
            } else if signatures.signedBatches > 0 {
                Terminal.line("\(signatures.signedBatches) batches carry signed heads, not checked against a key (pass --key to prove the log)")
            }
            if signatures.anchors > 0 { Terminal.line(signatures.anchors == 1 ? "the log still contains the anchored head" : "the log still contains every anchored head (\(signatures.anchors))") }
            for what in unchecked { Terminal.line("not checked: \(what)") }
            guard let guards = try store.guardFindings() else {
                Terminal.line("not checked: the log's append-only guards (a newer gtio migrated this store: its verify checks them)")
                return
            }
            for finding in guards { Terminal.line("guard: \(finding)") }
            if !guards.isEmpty {
                let which = guards.count == 1 ? "one of its append-only guards is" : "\(guards.count) of its append-only guards are"
                throw ConsoleError.failed("""
                    the log's events are intact, but \(which) not as gtio makes them: someone with write access \
                    changed the store's schema (gtio verify --restore-guards makes them again)
                    """)
            }
        case .broken(let seq, let problem):
            // Said too where they can be read: a guard dropped is how an event could be changed.
            for finding in (try? store.guardFindings()) ?? [] { Terminal.line("guard: \(finding)") }
            let place = seq != 0 ? " at seq \(seq)" : ""
            throw ConsoleError.notFound("the log is not intact\(place): \(problem)")
        }
    }

    private func anchors() throws -> [BatchSignature] {
        guard let anchor else { return [] }
        guard let text = try? String(contentsOfFile: anchor, encoding: .utf8) else {
            throw ConsoleError.badArgument("--anchor \(anchor): the file cannot be read")
        }
        do {
            return try HeadAnchor.parse(text)
        } catch {
            throw ConsoleError.badArgument("--anchor \(anchor): \(error)")
        }
    }
}
