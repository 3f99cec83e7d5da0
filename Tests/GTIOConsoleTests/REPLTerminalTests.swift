import Foundation
import GTIOTestSupport
import Testing

private let community = [
    #"{"id":"1","type":"user.signed_up","at":"2012-04-23T00:00:00Z","user":"ann","data":{"provider":"google","name":"Ann"}}"#,
    #"{"id":"2","type":"user.signed_up","at":"2012-04-23T00:01:00Z","user":"bob","data":{"provider":"aol","name":"Bob"}}"#,
    #"{"id":"3","type":"post.created","at":"2012-04-23T01:00:00Z","user":"ann","data":{"post":"p1","kind":"outfit","voting":true}}"#,
    #"{"id":"4","type":"user.followed","at":"2012-04-23T03:00:00Z","user":"bob","data":{"target":"ann"}}"#,
    #"{"id":"5","type":"user.signed_up","at":"2012-04-23T00:02:00Z","user":"zoe k","data":{"provider":"twitter","name":"Zoe"}}"#,
    #"{"id":"6","type":"user.followed","at":"2012-04-23T03:01:00Z","user":"zoe k","data":{"target":"bob"}}"#,
].joined(separator: "\n") + "\n"

/// The REPL in a real pseudo-terminal: typing, completion, history, Ctrl-C, Ctrl-D.
@Suite(.serialized) struct REPLTerminalTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }
    var history: String { folder.file("history") }

    init() throws {
        _ = try GTIOBinary.run(["ingest", folder.write("c.jsonl", community), "--store", folder.file("log.gtio")])
    }

    func repl(rows: Int? = nil, pager: String? = nil) throws -> PseudoTerminal {
        var environment = ["GTIO_HISTORY": history]
        if let pager { environment["PAGER"] = pager }
        let terminal = try PseudoTerminal([GTIOBinary.path, "--store", store], environment: environment, rows: rows)
        #expect(terminal.waitFor("gtio> "), "no prompt: \(terminal.screen)")
        return terminal
    }

    @Test func typingACommandShowsItsAnswer() throws {
        let terminal = try repl()
        terminal.type("followers ann --format csv\r")
        #expect(terminal.waitFor("user,name"), "\(terminal.screen)")
        #expect(terminal.waitFor("bob,Bob"), "\(terminal.screen)")
        terminal.type("quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func tabCompletesCommandsAndUserIDs() throws {
        let terminal = try repl()
        terminal.type("status\r")  // the read models load in the background meanwhile
        #expect(terminal.waitFor("read model"))
        terminal.type("follower\t")
        #expect(terminal.waitFor("followers "), "\(terminal.screen)")
        let mark = terminal.screen.count
        terminal.type("an\t")
        #expect(terminal.waitFor("ann ", after: mark), "\(terminal.screen)")
        terminal.type("--format csv\r")
        #expect(terminal.waitFor("bob,Bob", after: mark), "\(terminal.screen)")
        #expect(terminal.waitForPrompt(), "\(terminal.screen)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    /// An id that holds a space is completed in quotes, as the console splits words; a word
    /// opened with a quote is completed inside it, and the quote closed.
    @Test func tabQuotesAnIDThatHoldsASpace() throws {
        let terminal = try repl()
        terminal.type("status\r")  // the read models load in the background meanwhile
        #expect(terminal.waitFor("read model"))
        // Readline redraws the word in place, so the screen's bytes hold both forms: what the
        // command then answers is what tells whether it ran for `zoe k`.
        for typed in ["following zo\t", "following \"zo\t", "following 'zoe\t"] {
            let mark = terminal.screen.count
            terminal.type(typed)
            #expect(terminal.waitFor("zoe k", after: mark), "\(typed): \(terminal.screen)")
            terminal.type("--format csv\r")
            #expect(terminal.waitFor("bob,Bob", after: mark), "\(typed): \(terminal.screen)")
            #expect(terminal.waitForPrompt(), "\(terminal.screen)")
        }
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func tabCompletesIDsWhenTheStoreIsARelativePath() throws {
        // The README's own form: GTIO_STORE=demo.gtio gtio, run in the store's folder.
        let terminal = try PseudoTerminal(
            ["/bin/sh", "-c", "cd '\(folder.path)' && exec '\(GTIOBinary.path)'"],
            environment: ["GTIO_STORE": "log.gtio", "GTIO_HISTORY": history])
        #expect(terminal.waitFor("gtio> "), "no prompt: \(terminal.screen)")
        terminal.type("followers an\t")
        #expect(terminal.waitFor("followers ann "), "\(terminal.screen)")
        terminal.type("\u{15}\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    /// A word runs to the next space: `provider=` and the value after it are one word, as the
    /// completer takes them.
    @Test func tabCompletesThePropertyAndTheValueOfAWhere() throws {
        let terminal = try repl()
        terminal.type("trend user.signed_up --where prov\t")
        #expect(terminal.waitFor("--where provider="), "\(terminal.screen)")
        let mark = terminal.screen.count
        terminal.type("go\t")
        #expect(terminal.waitFor("google ", after: mark), "\(terminal.screen)")
        terminal.type("--from 2012-04-23 --format csv\r")
        #expect(terminal.waitFor("2012-04-23,all,1", after: mark), "\(terminal.screen)")
        #expect(terminal.waitForPrompt(), "\(terminal.screen)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func historyIsKeptAcrossSessions() throws {
        let first = try repl()
        first.type("stats --date 2012-04-23 --format csv\r")
        #expect(first.waitFor("2012-04-23,"))
        first.type("stats --date 2012-04-23 --format csv\r")
        first.type("quit\r")
        #expect(first.waitForExit() == 0)

        let second = try repl()
        let mark = second.screen.count
        second.type("\u{1B}[A\u{1B}[A\r")  // up twice: quit, then the stats line
        #expect(second.waitFor("2012-04-23,", after: mark), "\(second.screen)")
        second.type("quit\r")
        #expect(second.waitForExit() == 0)
        let kept = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n")
        #expect(kept.filter { $0 == "stats --date 2012-04-23 --format csv" }.count == 1, "\(kept)")
    }

    @Test func ctrlCAbandonsTheLineAndKeepsTheSession() throws {
        let terminal = try repl()
        terminal.type("nonsense that must not run")
        #expect(terminal.waitFor("must not run"))
        terminal.type("\u{03}")
        let mark = terminal.screen.count
        terminal.type("following bob --format csv\r")
        #expect(terminal.waitFor("ann,Ann", after: mark), "\(terminal.screen)")
        #expect(!terminal.screen.contains("unknown command \"nonsense\""))
        #expect(terminal.waitForPrompt(), "\(terminal.screen)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func ctrlCStopsARunningSQLStatementAndTheSessionGoesOn() throws {
        let terminal = try repl()
        // Never ends on its own: SQLite counts for ever, in constant memory.
        terminal.type("sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c\r")
        Thread.sleep(forTimeInterval: 0.5)
        terminal.type("\u{03}")
        #expect(terminal.waitFor("gtio: interrupted", timeout: 10), "\(terminal.screen)")
        let mark = terminal.screen.count
        terminal.type("sql SELECT 40 + 2 AS answer\r")
        #expect(terminal.waitFor("42", after: mark), "\(terminal.screen)")
        #expect(terminal.waitForPrompt(), "\(terminal.screen)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    /// 3,000 rows of ~110 characters: longer than any screen, and than a pipe holds.
    static let longAnswer = "sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000) SELECT x, printf('%0100d', x) AS pad FROM c\r"

    /// The pager runs in the terminal's foreground: one that sets the terminal up (as `less`
    /// does, here `stty`) would otherwise be stopped by it, and the console wait on it for ever.
    @Test func aLongAnswerGoesThroughAPagerThatOwnsTheTerminal() throws {
        let pager = "stty -echo < /dev/tty && tail -n 2; stty echo < /dev/tty; echo '(paged)'"
        let terminal = try repl(rows: 20, pager: pager)
        terminal.type(Self.longAnswer)
        #expect(terminal.waitFor("(paged)", timeout: 10), "\(terminal.screen)")
        #expect(terminal.screen.contains("(3000 rows)"))
        #expect(!terminal.screen.contains("1500  000"), "the answer went to the pager, not the screen")
        #expect(terminal.waitForPrompt(), "\(terminal.screen)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func aPagerThatQuitsEarlyLeavesTheSessionGoingOn() throws {
        let terminal = try repl(rows: 20, pager: "head -n 3")
        terminal.type(Self.longAnswer)
        #expect(terminal.waitForPrompt(), "\(terminal.screen)")
        let mark = terminal.screen.count
        terminal.type("sql SELECT 40 + 2 AS answer\r")
        #expect(terminal.waitFor("42", after: mark), "\(terminal.screen)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    /// A pager that cannot be run, or a terminal that does not say its height: the answer is
    /// written to the screen.
    @Test func withoutAPagerOrATerminalHeightTheAnswerIsShownWhole() throws {
        for (rows, pager) in [(20, "no-such-pager-for-gtio"), (nil, "cat; echo '(paged)'")] {
            let terminal = try repl(rows: rows, pager: pager)
            terminal.type(Self.longAnswer)
            #expect(terminal.waitFor("(3000 rows)", timeout: 10), "\(terminal.screen)")
            #expect(terminal.screen.contains("1500  000") && !terminal.screen.contains("(paged)"))
            #expect(terminal.waitForPrompt(), "\(terminal.screen)")
            terminal.type("\u{04}")
            #expect(terminal.waitForExit() == 0)
        }
    }

    @Test func eventsFollowStreamsInTheREPLUntilCtrlC() throws {
        let terminal = try repl()
        terminal.type("events --tail 1 --follow --format csv\r")
        #expect(terminal.waitFor("seq,"), "nothing shown while following: \(terminal.screen)")
        let mark = terminal.screen.count
        let line = #"{"id":"late-1","type":"post.hearted","at":"2012-05-01T00:00:00Z","user":"zed","data":{"post":"p1"}}"#
        #expect(try GTIOBinary.run(["ingest", folder.write("late.jsonl", line + "\n"), "--store", store]).status == 0)
        #expect(terminal.waitFor("late-1", after: mark), "\(terminal.screen)")
        terminal.type("\u{03}")
        #expect(terminal.waitFor("gtio> ", after: mark), "\(terminal.screen)")
        #expect(terminal.waitForPrompt(), "\(terminal.screen)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func errorsSuggestAndDoNotEndTheSession() throws {
        let terminal = try repl()
        terminal.type("folowers ann\r")
        #expect(terminal.waitFor("unknown command \"folowers\" (did you mean followers?)"), "\(terminal.screen)")
        terminal.type("looks sideways\r")
        #expect(terminal.waitFor("unknown tab \"sideways\" (expected popular, new, top or wear-it)"), "\(terminal.screen)")
        terminal.type("asof 2012-04-23\r")
        #expect(terminal.waitFor("gtio asof 2012-04-23> "), "\(terminal.screen)")
        terminal.type("quit\r")
        #expect(terminal.waitForExit() == 0)
    }
}

/// The same commands give the same bytes through -c, piped standard input and gtio run.
@Suite struct NonInteractiveTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }

    init() throws {
        _ = try GTIOBinary.run(["ingest", folder.write("c.jsonl", community), "--store", folder.file("log.gtio")])
    }

    @Test func dashCPipedAndRunAgree() throws {
        let commands = ["looks top --format csv", "followers ann --format json", "stats --date 2012-04-23", "verdicts --format markdown"]
        var viaC = ""
        for command in commands {
            let result = try GTIOBinary.run(["--store", store, "-c", command])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            viaC += result.stdout
        }
        let piped = try GTIOBinary.run(["--store", store], input: commands.joined(separator: "\n") + "\n")
        #expect(piped.status == 0)
        #expect(piped.stdout == viaC)
        let file = folder.write("commands.gtio", "# a script\n" + commands.joined(separator: "\n") + "\n")
        #expect(try GTIOBinary.run(["run", file, "--store", store]).stdout == viaC)
        // The same file saved with Windows line ends, and piped so.
        let windows = folder.write("windows.gtio", "# a script\r\n" + commands.joined(separator: "\r\n") + "\r\n")
        #expect(try GTIOBinary.run(["run", windows, "--store", store]).stdout == viaC)
        #expect(try GTIOBinary.run(["--store", store], input: commands.joined(separator: "\r\n") + "\r\n").stdout == viaC)
    }

    @Test func pipedCommandsStopAtTheFirstErrorUnlessToldToGoOn() throws {
        let input = "followers ann --format csv\nfollowers zed\nfollowing bob --format csv\n"
        let stopped = try GTIOBinary.run(["--store", store], input: input)
        #expect(stopped.status == 1)
        #expect(stopped.stdout == "user,name\r\nbob,Bob\r\n")
        #expect(stopped.stderr == "gtio: unknown user \"zed\": no event in the log names them\n")
        let goOn = try GTIOBinary.run(["--store", store, "--keep-going"], input: input)
        #expect(goOn.status == 1)
        #expect(goOn.stdout == "user,name\r\nbob,Bob\r\nuser,name\r\nann,Ann\r\n")
    }

    @Test func sessionSettingsWorkInScriptsToo() throws {
        let input = "format csv\nasof 2012-04-23T02:00:00Z\nfollowers ann\nasof off\nonce \(folder.file("once.csv"))\nfollowers ann\nsql UPDATE events SET user = 'x'\n"
        let result = try GTIOBinary.run(["--store", store, "--keep-going"], input: input)
        #expect(result.stdout == "user,name\r\n")   // as of 02:00 bob did not follow ann yet
        #expect(try String(contentsOfFile: folder.file("once.csv"), encoding: .utf8) == "user,name\r\nbob,Bob\r\n")
        #expect(result.stderr.contains("sql is read-only"))
        #expect(result.status == 1)
    }

    /// `output off` goes back to the screen, as `asof off` and `timer off` do; it wrote the
    /// answers after it to a file named "off".
    @Test func outputOffGoesBackToTheScreen() throws {
        let file = folder.file("all.csv")
        let input = "format csv\noutput \(file)\nfollowers ann\noutput off\nfollowing bob\n"
        let result = try GTIOBinary.run(["--store", store], input: input, directory: folder.path)
        #expect(result.stdout == "user,name\r\nann,Ann\r\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "user,name\r\nbob,Bob\r\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("off")))
    }
}
