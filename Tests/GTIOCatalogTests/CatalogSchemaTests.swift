import Foundation
import GTIOTestSupport
import Testing
@testable import GTIOCatalog

@Suite struct CatalogSchemaTests {
    private var folder: URL { SharedFiles.packageRoot.appendingPathComponent("Events/schemas") }

    /// The named column sets are written as bits; they must be the bits of their column.
    @Test func eachNamedColumnSetIsItsColumnsBit() {
        let named: [EventColumn: EventColumns] = [
            .subject: .subject, .object: .object, .value: .value, .flag: .flag, .number: .number, .text: .text, .list: .list,
            .properties: .properties,
        ]
        #expect(named.count == EventColumn.allCases.count)
        for column in EventColumn.allCases { #expect(named[column] == EventColumns([column]), "\(column)") }
    }

    @Test func everyTypeHasASchemaFileAndNoFileIsStray() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".schema.json") }
        #expect(Set(files) == Set(EventType.allCases.map { "\($0.rawValue).schema.json" }))
    }

    @Test(arguments: EventType.allCases)
    func committedSchemaMatchesTheCatalog(type: EventType) throws {
        let text = try String(contentsOf: folder.appendingPathComponent("\(type.rawValue).schema.json"), encoding: .utf8)
        let committed = try JSONReader.parse(text)
        // Member order may differ if someone edits a file by hand; content may not.
        #expect(committed.normalized == EventSchema.document(for: type).normalized,
                "Events/schemas/\(type.rawValue).schema.json disagrees with the Swift catalog: fix one, or regenerate with gtio catalog --write-schemas Events/schemas")
    }

    @Test func everyTypeIsFoundByItsNamesBytesAndNothingElseIs() {
        func named(_ name: String) -> EventType? {
            var name = name
            return name.withUTF8 { EventType.named(utf8: $0) }
        }
        for type in EventType.allCases {
            #expect(named(type.rawValue) == type)
            #expect(named(type.rawValue + "x") == nil)
            #expect(named(String(type.rawValue.dropLast())) == nil)
        }
        #expect(named("") == nil)
        #expect(named("Post.created") == nil)
    }

    @Test func eachTypesColumnsAreTheColumnsOfItsFields() {
        for type in EventType.allCases {
            let expected = Set(type.fields.compactMap(\.column))
            for column in EventColumn.allCases {
                #expect(type.columns.contains(EventColumns([column])) == expected.contains(column), "\(type) \(column)")
            }
        }
        #expect(EventType.quickaddShown.columns == .list)
        #expect(EventType.userSignedOut.columns.isEmpty)
        #expect(EventType.postCreated.columns == [.subject, .value, .flag, .text, .object, .number, .properties])
    }

    @Test func requiredDataFieldsFollowTheContractTable() {
        // Spot checks straight from EVENTS.md §2, independent of the generated files.
        #expect(EventType.postCreated.fields.filter(\.isRequired).map(\.name) == ["post", "kind", "voting"])
        #expect(EventType.reviewAdded.fields.filter(\.isRequired).map(\.name) == ["review", "post", "text"])
        #expect(EventType.productSuggested.fields.map(\.name) == ["product", "channel", "to"])
        #expect(EventType.userSignedOut.fields.isEmpty)
        #expect(EventType.allCases.filter { !$0.requiresUser } == [.appOpened, .track, .userSignInFailed])
    }
}
