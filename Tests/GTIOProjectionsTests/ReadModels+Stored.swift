import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
@testable import GTIOProjections

extension ReadModels {
    /// These read models written into scratch tables, asked with the store's own queries.
    func stored() throws -> StoredReadModels {
        let folder = TemporaryDirectory()
        return try ReadModelEngine.scratch(self, in: SQLiteStore(path: folder.file("scratch.gtio")).scratchTables())
    }
}
