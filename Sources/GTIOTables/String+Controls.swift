extension String {
    /// The text with its control characters written out (`\u{1B}`), for a terminal: an escape
    /// sequence in someone's review would otherwise drive the terminal, and a NUL cut the line.
    /// Line breaks become `⏎`, so that one value stays on one line.
    public var escapingControls: String { escapingControls(keepingLineBreaks: false) }

    /// The text with its control characters written out; with `keepingLineBreaks`, `\n` stays
    /// a line break, for a message of several lines (a usage error) that quotes what was typed
    /// or read from a file.
    public func escapingControls(keepingLineBreaks: Bool) -> String {
        guard unicodeScalars.contains(where: { Self.isControl($0) && !(keepingLineBreaks && $0 == "\n") }) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            if scalar == "\n" {
                if keepingLineBreaks { result.unicodeScalars.append(scalar) } else { result += "⏎" }
            } else if Self.isControl(scalar) {
                result += Self.writtenOut(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 and C1 control characters and DEL: what a terminal may act on.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `scalar` as Swift writes it in a string literal: `\u{1B}`.
    static func writtenOut(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
