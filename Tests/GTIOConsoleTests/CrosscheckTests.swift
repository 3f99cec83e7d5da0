import Foundation
import GTIOTestSupport
import Testing

/// `scripts/crosscheck.py`: the rules read a second time, in plain Python, agree with the real
/// binary's answers on random logs made to hit their corners, on every backend of the run.
@Suite struct CrosscheckTests {
    static let script = SharedFiles.packageRoot.appendingPathComponent("scripts/crosscheck.py").path

    @Test(arguments: StoreBackend.all)
    func aSecondReadingOfTheRulesGivesTheSameAnswers(backend: StoreBackend) throws {
        // Two seeds on SQLite, one on PostgreSQL, each ~60 commands of the debug binary; logs of 500
        // events, enough for every table to have rows worth comparing (seed 3's onboarding funnel
        // has rates that are not round).
        var arguments = [Self.script, GTIOBinary.path, "3", backend.name == "PostgreSQL" ? "3" : "4", "--events", "500"]
        if backend.name == "PostgreSQL", let server = StoreBackend.postgresServer { arguments += ["--postgres", server] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output == (backend.name == "PostgreSQL" ? "seed 3: same\n" : "seed 3: same\nseed 4: same\n"))
    }
}
