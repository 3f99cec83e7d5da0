import Foundation
import GTIOTestSupport
import Testing

/// The harness that runs the real binary: it must not hang on a child that fills one pipe while
/// the harness reads another, or every command test that writes much would stall the suite.
@Suite struct ChildProcessTests {
    @Test func aChildThatFillsStandardErrorFirstIsReadToTheEnd() throws {
        // 200,000 bytes is three times a Linux pipe's buffer: read after standard output ends,
        // the child would wait on its error output forever and standard output never end.
        let output = try GTIOBinary.run(executable: "/bin/sh", ["-c", "head -c 200000 /dev/zero | tr '\\0' e >&2; echo done"])
        #expect(output.status == 0)
        #expect(output.stdout == "done\n")
        #expect(output.stderr.utf8.count == 200_000)
    }

    @Test func aChildThatAnswersBeforeReadingItsInputGetsAllOfIt() throws {
        // The child writes a long answer before it reads anything: written first and whole, the
        // input would fill its pipe while the child waits for its answer to be read.
        let input = String(repeating: "line\n", count: 40_000)
        let output = try GTIOBinary.run(
            executable: "/bin/sh", ["-c", "head -c 200000 /dev/zero | tr '\\0' o; wc -l"], input: input)
        #expect(output.status == 0)
        #expect(output.stdout.utf8.count == 200_000 + "40000\n".utf8.count)
        #expect(output.stdout.hasSuffix("40000\n"))
    }
}
