import ArgumentParser
import GTIOStorePostgres

/// `gtio pg`: what an operator of a PostgreSQL store needs from gtio itself.
struct PostgresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pg",
        abstract: "Help for running a store on PostgreSQL.",
        discussion: "A store is on PostgreSQL when --store (or $GTIO_STORE) is a postgresql:// URL; see docs/POSTGRESQL.md.",
        subcommands: [Roles.self])

    struct Roles: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "roles",
            abstract: "Print the SQL that makes a writer role (INSERT and SELECT on the log) and a reader role (SELECT only).")

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: ArgumentHelp(
            "The database the roles are for.",
            discussion: "Defaults to the store's database when the store is a postgresql:// URL, else gtio."))
        var database: String?
        @Option(help: "The writer role's name.") var writer = "gtio_writer"
        @Option(help: "The reader role's name.") var reader = "gtio_reader"

        func run() throws {
            Terminal.write(PostgresRoles.script(database: try databaseName(), writer: writer, reader: reader))
        }

        /// `--database`, else the database of the store named (the roles are for the store at hand).
        private func databaseName() throws -> String {
            if let database { return database }
            guard PostgresLocation.isURL(storeOptions.path) else { return "gtio" }
            return try PostgresLocation(url: storeOptions.path).database
        }
    }
}
