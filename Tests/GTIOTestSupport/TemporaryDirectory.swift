import Foundation

/// A fresh folder under the system's temporary directory, removed when released (with the
/// PostgreSQL database a test made for it, if any).
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/gtio-test-" + UUID().uuidString.prefix(8).lowercased()
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        StoreBackend.dropDatabase(ofFolder: path)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        let file = file(name)
        // A fixture that cannot be written must stop the test here, not show up as a wrong answer.
        precondition(FileManager.default.createFile(atPath: file, contents: Data(text.utf8)), "cannot write \(file)")
        return file
    }

    /// Writes raw `bytes` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) -> String {
        let file = file(name)
        precondition(FileManager.default.createFile(atPath: file, contents: Data(bytes)), "cannot write \(file)")
        return file
    }
}
