import Foundation
import GTIOTestSupport
import Testing

/// `scripts/crosscheck.py`: the rules read a second time, in plain Python, agree with the real
/// binary's answers on random logs made to hit their corners, on every backend of the run.
@Suite struct CrosscheckTests {
    static let script = SharedFiles.packageRoot.appendingPathComponent("scripts/crosscheck.py").path

    /// Runs the crosscheck on one seed's logs of 500 events (~60 commands of the debug binary),
    /// enough for every table to have rows worth comparing: seed 3's onboarding funnel has rates
    /// that are not round.
    func crosscheck(seed: Int, _ options: [String]) throws -> GTIOBinary.Output {
        try GTIOBinary.run(
            executable: "/usr/bin/env",
            ["python3", Self.script, GTIOBinary.path, String(seed), String(seed), "--events", "500"] + options)
    }

    @Test(arguments: StoreBackend.all)
    func aSecondReadingOfTheRulesGivesTheSameAnswers(backend: StoreBackend) throws {
        let options = backend.name == "PostgreSQL" ? ["--postgres", StoreBackend.postgresServer ?? ""] : []
        let result = try crosscheck(seed: 3, options)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "seed 3: same\n")
    }

    @Test func theConsolesCommandLinesGiveTheSameAnswers() throws {
        let result = try crosscheck(seed: 4, ["--console"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "seed 4: same\n")
    }
}
