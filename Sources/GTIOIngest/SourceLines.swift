/// The lines of one JSON Lines file as `ingest` numbers and reads them (blank lines counted,
/// `\r` and a leading byte-order mark dropped): where `quarantine retry --from` finds the
/// corrected line for each quarantined one.
public enum SourceLines {
    /// Each non-blank line of the file at `path` by its number; a line over the 1 MiB limit is
    /// left out, so that its entry stays rejected for the same reason.
    public static func read(path: String) throws(IngestError) -> [Int: [UInt8]] {
        let opened = try Ingestor.open([.file(path: path)])
        defer { Ingestor.close(opened) }
        var reader = LineReader(descriptor: opened[0].1)
        defer { reader.deallocate() }
        var lines: [Int: [UInt8]] = [:]
        do {
            try reader.forEachLine { item, _ in
                if case .line(let number, let bytes) = item { lines[number] = Array(bytes) }
            }
        } catch let error as IngestError {
            throw error
        } catch {
            throw .readFailed(reason: "\(error)")
        }
        return lines
    }
}
