import Foundation
import GTIOTestSupport
import Testing

/// A store read by a user who may not write its folder (an analyst given read access to the
/// ingester's files), run as `nobody` through `runuser`: only where the tests run as root.
@Suite(.enabled(if: OtherUser.isAvailable, "needs root and runuser to act as another user"))
struct ReadOnlyFolderTests {
    let folder = TemporaryDirectory()

    /// `gtio arguments…` as the user `nobody`.
    private func asNobody(_ arguments: [String]) throws -> GTIOBinary.Output {
        try GTIOBinary.run(executable: OtherUser.runuser, ["-u", "nobody", "--", GTIOBinary.path] + arguments)
    }

    /// A store copied without its write-ahead files into a folder its reader may not write:
    /// SQLite cannot read it, and the reader was told it could not *write* to the store, with a
    /// writable path as the remedy. It is told which files are missing and how they come back;
    /// once the store's owner ran a command there, the reader reads it.
    @Test func aReaderWhoMayNotCreateTheWriteAheadFilesIsToldWhichAreMissing() throws {
        let events = folder.write("e.jsonl", SharedFiles.exampleLines.joined(separator: "\n") + "\n")
        #expect(try GTIOBinary.run(["ingest", events, "--store", folder.file("made.gtio"), "--quiet"]).status == 0)
        let shelf = folder.file("shelf")
        try FileManager.default.createDirectory(atPath: shelf, withIntermediateDirectories: false)
        for name in ["made.gtio", "made.gtio-tables"] {
            try FileManager.default.copyItem(atPath: folder.file(name), toPath: shelf + "/" + name.replacingOccurrences(of: "made", with: "log"))
        }
        for (path, mode) in [(folder.path, 0o755), (shelf, 0o755), (shelf + "/log.gtio", 0o644), (shelf + "/log.gtio-tables", 0o644)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
        let store = shelf + "/log.gtio"
        let refused = try asNobody(["stats", "--store", store])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr == """
            gtio: cannot read the store \(store): SQLite needs log.gtio-wal, log.gtio-shm, log.gtio-tables-wal, log.gtio-tables-shm \
            beside it to read it, and this user may not create them in \(shelf) (run any gtio command on the store once as a user \
            who may write there, which leaves them; or copy the store into a folder you can write)

            """)
        let owners = try GTIOBinary.run(["stats", "--store", store, "--format", "csv"])
        #expect(owners.status == 0 && owners.stdout.hasPrefix("date,dau,wau,mau,"), "\(owners.stdout)")
        let read = try asNobody(["stats", "--store", store, "--format", "csv"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout == owners.stdout)
    }
}

/// Acting as another user, which root does through `runuser`.
private enum OtherUser {
    static let runuser = "/usr/sbin/runuser"

    static var isAvailable: Bool {
        #if canImport(Glibc)
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: runuser)
        #else
        false
        #endif
    }
}
