import ArgumentParser
import Foundation
import GTIOSimulation
import GTIOStore

/// `gtio demo`: writes a simulated GTIO community's event log.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Write a deterministic simulated GTIO event log as JSON Lines.",
        discussion: """
            The same --seed and --events always give the same bytes. Sizes from a few hundred \
            events to 10 million stream in constant memory. Example:
              gtio demo --events 1000000 --out demo.jsonl && gtio ingest demo.jsonl
            """)

    // Unconditional: `--events -1` is a value to refuse by name, not a missing one.
    @Option(parsing: .unconditional, help: "How many events (lines) to write.") var events = 10_000
    @Option(parsing: .unconditional, help: "The simulation's seed.") var seed: UInt64 = 42
    @Option(help: ArgumentHelp("Where to write; - for standard output.", valueName: "file")) var out = "-"

    func validate() throws {
        guard events >= 1 else { throw ValidationError("--events must be 1 or more, got \(events)") }
    }

    func run() throws {
        let descriptor: Int32
        if out == "-" {
            descriptor = 1
        } else {
            descriptor = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else {
                throw ConsoleError.badArgument("--out \(out): cannot be written: \(String(cString: strerror(errno)))")
            }
        }
        defer { if descriptor != 1 { close(descriptor) } }
        try DemoCommunity(seed: seed, eventCount: events).write { bytes in
            if let failure = bytes.withUnsafeBytes({ DescriptorOutput.writeAll(descriptor, $0) }) {
                throw ConsoleError.notFound("writing \(out) failed: \(String(cString: strerror(failure)))")
            }
        }
    }
}
