import GTIOStore
import GTIOStoreSQLite

/// A backend the shared store suite runs against: how to open a store that lives in a test's
/// temporary folder. Opening twice in one folder opens the same store.
public struct StoreBackend: Sendable, CustomStringConvertible {
    public let name: String
    private let opener: @Sendable (TemporaryDirectory) throws -> any EventStore

    public func open(in folder: TemporaryDirectory) throws -> any EventStore {
        try opener(folder)
    }

    public var description: String { name }

    /// The embedded SQLite file.
    public static let sqlite = StoreBackend(name: "SQLite") { folder in
        try SQLiteStore(path: folder.file("log.gtio"))
    }

    /// Every backend this build has.
    public static let all: [StoreBackend] = [.sqlite]
}
