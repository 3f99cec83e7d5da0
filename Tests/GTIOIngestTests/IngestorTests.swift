import Foundation
import GTIOCatalog
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing
@testable import GTIOIngest

private func heartLine(_ id: String) -> String {
    #"{"id":"\#(id)","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u1","data":{"post":"p1"}}"#
}

@Suite struct IngestorTests {
    let folder = TemporaryDirectory()

    func ingest(_ paths: [String], batchSize: Int = 50_000) throws -> (IngestReport, EventStore) {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let report = try Ingestor(batchSize: batchSize).ingest(paths.map { .file(path: $0) }, into: store)
        return (report, store)
    }

    @Test func readsCRLFBOMBlankLinesAndALastLineWithoutNewline() throws {
        let text = "\u{FEFF}" + heartLine("a") + "\r\n\r\n   \n" + heartLine("b") + "\n\n" + heartLine("c")
        let path = folder.write("mixed.jsonl", text)
        let (report, store) = try ingest([path])
        #expect(report.total.read == 3)
        #expect(report.total.appended == 3)
        #expect(try store.event(at: 1)?.event.original == heartLine("a"))
        #expect(try store.event(at: 3)?.event.id == "c")
    }

    @Test func numbersLinesAsTheFileDoesBlankOnesIncluded() throws {
        let path = folder.write("bad.jsonl", heartLine("a") + "\n\n{oops\n" + heartLine("b") + "\n")
        let (report, store) = try ingest([path])
        #expect(report.total.read == 3)
        #expect(report.total.rejected == 1)
        let entry = try #require(try store.quarantineEntries().first)
        #expect(entry.line == 3)
        #expect(entry.source == path)
        #expect(entry.originalText == "{oops")
        #expect(entry.reason == "invalid JSON: expected a member name in quotes at byte 2")
    }

    @Test func aLineOverOneMebibyteIsQuarantinedAndTheRestGoesOn() throws {
        let huge = #"{"id":"big","type":"track","at":"2012-04-23T00:00:00Z","data":{"name":""# +
            String(repeating: "x", count: 3 << 20) + #""}}"#
        let path = folder.write("long.jsonl", heartLine("a") + "\n" + huge + "\n" + heartLine("b") + "\n")
        let (report, store) = try ingest([path])
        #expect(report.total.appended == 2)
        #expect(report.total.rejected == 1)
        let entry = try #require(try store.quarantineEntries().first)
        #expect(entry.line == 2)
        #expect(entry.reason == "line is \(huge.utf8.count) bytes, over the 1 MiB limit (kept whole: fix it and retry)")
        #expect(entry.original == Array(huge.utf8))
        // Whole, it can be retried once the producer's limit is what it should be: here, unchanged, it validates.
        #expect(try store.retryQuarantine(validate: { bytes in bytes.withUnsafeBufferPointer { EventValidator.validate($0) } }).appended == 1)
    }

    @Test func aLongLastLineWithoutNewlineIsKeptWholeToo() throws {
        let huge = #"{"id":"big","type":"track","at":"2012-04-23T00:00:00Z","data":{"name":""# +
            String(repeating: "y", count: 2 << 20) + #""}}"#
        let (_, store) = try ingest([folder.write("tail.jsonl", heartLine("a") + "\n" + huge)])
        #expect(try #require(try store.quarantineEntries().first).original == Array(huge.utf8))
    }

    @Test func linesSpanningReadChunksAndBatchesAllArrive() throws {
        // About 3 MB: several 1 MiB reads, and batches of 7 lines.
        let lines = (0..<25_000).map { heartLine("id-\($0)") }
        let path = folder.write("many.jsonl", lines.joined(separator: "\n") + "\n")
        let (report, store) = try ingest([path], batchSize: 7)
        #expect(report.total.appended == 25_000)
        #expect(try store.lastSeq() == 25_000)
        #expect(try store.event(at: 25_000)?.event.id == "id-24999")
        #expect(try store.status().batches == Int64((25_000 + 6) / 7))
    }

    /// A NUL byte spoils its own line, not the file: every other line is judged on its own.
    @Test func aNulByteNearTheStartRejectsOnlyItsLine() throws {
        var lines = (0..<10_000).map { #"{"id":"e\#($0)","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u","data":{"post":"p"}}"# }
        lines[3] = #"{"id":"e3","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u\#u{0}","data":{"post":"p"}}"#
        lines[5] = "\u{0}\u{0}"
        let path = folder.write("feed.jsonl", lines.joined(separator: "\n") + "\n")
        let (report, store) = try ingest([path])
        #expect(report.total.appended == 9_998)
        #expect(report.total.rejected == 2)
        #expect(report.sources[0].note == nil)
        #expect(try store.quarantineEntries().map(\.line) == [4, 6])
    }

    @Test func anEmptyFileIsNotedNotAnError() throws {
        let path = folder.write("empty.jsonl", "")
        let (report, _) = try ingest([path])
        #expect(report.total.read == 0)
        #expect(report.sources[0].note == "empty file: nothing to ingest")
    }

    @Test func aMissingFileStopsBeforeAnythingIsAppended() throws {
        let good = folder.write("good.jsonl", heartLine("a") + "\n")
        let missing = folder.file("missing.jsonl")
        #expect(throws: IngestError.fileMissing(path: missing)) { try ingest([good, missing]) }
        #expect(try SQLiteStore(path: folder.file("log.gtio")).lastSeq() == 0)
        #expect(throws: IngestError.isAFolder(path: folder.path)) { try ingest([folder.path]) }
    }

    @Test func reingestingIsIdempotent() throws {
        let path = folder.write("a.jsonl", (0..<100).map { heartLine("e\($0)") }.joined(separator: "\n"))
        let (first, store) = try ingest([path])
        #expect(first.total.appended == 100)
        let second = try Ingestor().ingest([.file(path: path)], into: store)
        #expect(second.total.appended == 0)
        #expect(second.total.duplicates == 100)
        #expect(try store.lastSeq() == 100)
    }
}
