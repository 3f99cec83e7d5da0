import ArgumentParser
import Foundation
import GTIOCatalog
import GTIOTables

/// `gtio catalog`: the event types this console accepts, and their JSON Schemas.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "List the event types and their data fields, or write their JSON Schemas.")

    @Option(help: ArgumentHelp("Write one <type>.schema.json per type into this folder.", valueName: "folder"))
    var writeSchemas: String?
    @Option(help: "table, csv or json.") var format: OutputFormat = .table

    func run() throws {
        if let folder = writeSchemas {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
                throw ConsoleError.badArgument("--write-schemas: the folder \(folder) does not exist")
            }
            guard isFolder.boolValue else {
                throw ConsoleError.badArgument("--write-schemas: \(folder) is a file; give a folder")
            }
            for type in EventType.allCases {
                let text = EventSchema.document(for: type).prettyPrinted() + "\n"
                let path = folder + "/\(type.rawValue).schema.json"
                do {
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                } catch {
                    throw ConsoleError.failed("--write-schemas: cannot write \(path) (check the folder's permissions and free space)")
                }
            }
            Terminal.line("wrote \(EventType.allCases.count) schemas to \(folder)")
            return
        }
        var table = ResultTable(columns: ["type", "user", "fields"])
        for type in EventType.allCases {
            let fields = type.fields.map { $0.name + ($0.isRequired ? "" : "?") }.joined(separator: ", ")
            table.rows.append([.text(type.rawValue), .text(type.requiresUser ? "required" : "optional"), .text(fields)])
        }
        Terminal.write(table, as: format, width: Terminal.width)
    }
}
