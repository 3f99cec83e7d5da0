import Foundation
import GTIOCatalog
import GTIOStore
import GTIOTables
import Logging

/// swift-log output as one JSON object per line on standard error: time, level, message and
/// the metadata (the request id among it), for a log shipper to read without parsing text.
struct JSONLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    let label: String

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let time = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)).description
        var members: [(String, String)] = [
            ("time", JSONRenderer.string(time)), ("level", JSONRenderer.string(event.level.rawValue)),
            ("message", JSONRenderer.string("\(event.message)")),
        ]
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in all.keys.sorted() {
            members.append((key, JSONRenderer.string("\(all[key]!)")))
        }
        var line = JSONRenderer.object(encoded: members) + "\n"
        // Whole lines, and no crash where Foundation's `FileHandle.write` would trap on a
        // standard error that refuses a write.
        line.withUTF8 { _ = DescriptorOutput.writeAll(2, UnsafeRawBufferPointer($0)) }
    }
}
