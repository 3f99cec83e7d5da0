import Foundation

/// Files of the project and of `shared/` beside it, found from this source file's place.
public enum SharedFiles {
    /// The package root (the folder holding Package.swift).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `Events/samples/examples.jsonl`: one valid event of each type (a copy of shared/examples.jsonl).
    public static var examples: String {
        packageRoot.appendingPathComponent("Events/samples/examples.jsonl").path
    }

    /// The lines of `examples.jsonl`.
    public static var exampleLines: [String] {
        (try! String(contentsOfFile: examples, encoding: .utf8)).split(separator: "\n").map(String.init)
    }
}
