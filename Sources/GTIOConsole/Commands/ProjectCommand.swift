import ArgumentParser
import Dispatch
import Foundation
import GTIOProjections
import GTIOStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `project [--follow]`: brings the read models up to the end of the log, and keeps them there.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Bring the read models up to the end of the log; with --follow, keep them there.",
        discussion: """
            With --follow, gtio keeps running and applies each batch any process commits, within \
            a fraction of a second (on PostgreSQL it is woken by the commit itself). One process \
            leads at a time, on any number of hosts: the others wait and one takes over within \
            0.2 s of the leader's end, even by kill -9 (a host that vanishes ends it when the \
            server notices its connection gone). While a projector leads, gtio ingest \
            leaves the read models to it. SIGINT or SIGTERM stops it (exit 0).
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Keep running and apply new events as they are committed.")
    var follow = false

    @Flag(name: [.long, .short], help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        let store = try storeOptions.openExisting()
        if follow { return try followLog(store) }
        let before = try ReadModelEngine(store: store).checkpoints().values.min() ?? 0
        let started = Date()
        let seq = try ReadModelCache.shared.live(for: store, quiet: quiet).catchUp().state.lastSeq
        store.settle()
        if !quiet {
            Terminal.line(String(format: "read models at seq %lld (%lld events applied in %.2f s)",
                                 seq, max(0, seq - before), Date().timeIntervalSince(started)))
        }
    }

    private func followLog(_ store: any EventStore) throws {
        ResidentMemory.returnLargeBlocks()
        let quiet = self.quiet
        let location = store.location
        let follower = ReadModelFollower(store: store) { step in
            switch step {
            case .waiting:
                if !quiet { Terminal.line("another projector leads \(location); waiting to take over") }
            case .catchingUp(let from, let through):
                if !quiet {
                    Terminal.line("catching up the read models of \(location): at seq \(from), the log at seq \(through) (\(through - from) events to apply)")
                }
            case .folded(let events, let total):
                if !quiet { Terminal.line("folded \(events) of \(total) events") }
            case .leading(let seq):
                if !quiet { Terminal.line("leading the read models of \(location), at seq \(seq)") }
            case .caughtUp(let events, let seq, let seconds):
                if !quiet { Terminal.line(String(format: "applied %lld events through seq %lld in %.0f ms", events, seq, seconds * 1000)) }
            case .lostLead:
                Terminal.writeError("gtio: lost the lead of \(location) (the connection that held it dropped); trying to take it again\n")
            case .failed(let reason):
                Terminal.writeError("gtio: the read models could not catch up: \(reason); trying again in 1 s\n")
            }
        }
        // Signals stop the follower between catch-ups: a catch-up in progress commits or rolls back whole.
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { follower.stop() }
            source.resume()
            sources.append(source)
        }
        defer { sources.forEach { $0.cancel() } }
        try follower.run()
        store.settle()
    }
}
