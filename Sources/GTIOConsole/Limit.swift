import ArgumentParser

/// `--limit N`: how many rows at most, 0 for all.
enum Limit {
    /// `N` as a limit, refusing what is not a whole number of 0 or more. The options read their
    /// value unconditionally, so that `--limit -1` gets this message rather than "Missing value"
    /// (a leading `-` would otherwise be taken for an option).
    static func parse(_ text: String) throws -> Int {
        guard let value = Int(text), value >= 0 else {
            throw ValidationError("--limit takes a whole number of 0 or more (0: all), got \(text)")
        }
        return value
    }
}
