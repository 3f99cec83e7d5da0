import GTIOStore
import GTIOStoreSQLite

/// A backend the shared store suite runs against: how to open a store that lives in a test's
/// temporary folder. Opening twice in one folder opens the same store.
public struct StoreBackend: Sendable, CustomStringConvertible {
    public let name: String
    private let opener: @Sendable (TemporaryDirectory, BatchSigner?) throws -> any EventStore

    /// The store in `folder`, signing what it appends with `signer` when given.
    public func open(in folder: TemporaryDirectory, signer: BatchSigner? = nil) throws -> any EventStore {
        try opener(folder, signer)
    }

    public var description: String { name }

    /// The embedded SQLite file.
    public static let sqlite = StoreBackend(name: "SQLite") { folder, signer in
        try SQLiteStore(path: folder.file("log.gtio"), signer: signer)
    }

    /// Every backend this build has.
    public static let all: [StoreBackend] = [.sqlite]
}
