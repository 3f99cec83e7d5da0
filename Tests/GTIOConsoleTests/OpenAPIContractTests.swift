import Foundation
import GTIOCatalog
import GTIOSimulation
import GTIOTestSupport
import Testing
import Yams

/// Events/openapi.yaml held to the real server: every documented route answers with a
/// documented status, and every answer has the documented shape.
@Suite(.serialized) struct OpenAPIContractTests {
    let folder = TemporaryDirectory()

    static var document: [String: Any] {
        get throws {
            let path = SharedFiles.packageRoot.appendingPathComponent("Events/openapi.yaml").path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return try #require(try Yams.load(yaml: text) as? [String: Any])
        }
    }

    /// Where `value` does not match `schema` (types, required members, properties, items, enums).
    static func problems(_ value: JSONValue, _ schema: [String: Any], in document: [String: Any], at place: String = "$") -> [String] {
        if let ref = schema["$ref"] as? String {
            var target: Any = document
            for part in ref.dropFirst(2).split(separator: "/") { target = (target as? [String: Any])?[String(part)] as Any }
            return problems(value, target as? [String: Any] ?? [:], in: document, at: place)
        }
        if let choices = schema["oneOf"] as? [[String: Any]] {
            return choices.contains { problems(value, $0, in: document, at: place).isEmpty } ? [] : ["\(place): matches no choice"]
        }
        var found: [String] = []
        let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? []
        let actual: String = switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.integer != nil ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
        if !types.isEmpty && !types.contains(actual) && !(actual == "integer" && types.contains("number")) {
            found.append("\(place): \(actual), expected \(types.joined(separator: " or "))")
        }
        if let allowed = schema["enum"] as? [String], case .string(let text) = value, !allowed.contains(text) {
            found.append("\(place): \(text) is not one of \(allowed)")
        }
        if case .object(let object) = value {
            for name in schema["required"] as? [String] ?? [] where !object.members.contains(where: { $0.key == name }) {
                found.append("\(place): no member \(name)")
            }
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for member in object.members {
                if let property = properties[member.key] {
                    found += problems(member.value, property, in: document, at: "\(place).\(member.key)")
                }
            }
        }
        if case .array(let array) = value, let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() { found += problems(element, items, in: document, at: "\(place)[\(index)]") }
        }
        return found
    }

    /// Asks `path` with each query parameter `operation` documents, one at a time (each must be
    /// taken), and with one it does not (refused with 400, naming it); returns how many were taken.
    static func checkQueryParameters(
        of operation: [String: Any], at path: String, in document: [String: Any], on server: ServerProcess,
        headers: [String: String]
    ) async throws -> Int {
        let samples = [
            "limit": "1", "as_of": "2100-01-01", "at_seq": "1000000", "place": "nowhere", "page": "1", "page_size": "1",
            "reason": "spam", "author": "nobody", "date": "2012-05-01",
        ]
        var taken = 0
        for parameter in operation["parameters"] as? [[String: Any]] ?? [] {
            var resolved = parameter
            if let ref = parameter["$ref"] as? String {
                var target: Any = document
                for part in ref.dropFirst(2).split(separator: "/") { target = (target as? [String: Any])?[String(part)] as Any }
                resolved = target as? [String: Any] ?? [:]
            }
            guard resolved["in"] as? String == "query", let name = resolved["name"] as? String else { continue }
            let value = try #require(samples[name], "no sample value for the parameter \(name)")
            let reply = try await server.request("GET", "\(path)?\(name)=\(value)", headers: headers)
            #expect(reply.status == 200, "\(path)?\(name)=\(value): \(reply.status) \(reply.text)")
            taken += 1
        }
        #expect((operation["responses"] as? [String: Any])?["400"] != nil, "\(path): 400 is not documented")
        // Without a key the answer is 401 whatever else is wrong with the request.
        let unkeyed = "\(path)?limit=-1&page=0&date=x"
        #expect(try await server.request("GET", unkeyed).status == 401, "\(unkeyed) without a key")
        let refused = try await server.request("GET", "\(path)?limt=5", headers: headers)
        #expect(refused.status == 400 && refused.text.contains("unknown parameter \\\"limt\\\""), "\(path)?limt=5: \(refused.text)")
        return taken
    }

    @Test func everyDocumentedRouteAnswersInTheDocumentedShape() async throws {
        let document = try Self.document
        var bytes: [UInt8] = []
        try DemoCommunity(seed: 5, eventCount: 3_000).write { bytes += $0 }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        let store = folder.file("api.gtio")
        #expect(try GTIOBinary.run(["ingest", "--store", store, folder.write("a.jsonl", lines.dropLast(10).joined(separator: "\n"))]).status == 0)
        func key(_ role: String) throws -> String {
            try GTIOBinary.run(["keys", "add", role, "--role", role, "--store", store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let keys = ["read": try key("read"), "write": try key("write"), "moderate": try key("moderate")]
        func first(_ command: [String], _ column: String) throws -> String {
            let out = try GTIOBinary.run(command + ["--format", "json", "--store", store]).stdout
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
            return try #require(rows.first?[column] as? String)
        }
        let post = try first(["looks", "popular", "--limit", "1"], "post")
        let user = try first(["looks", "popular", "--limit", "1"], "author")
        let flagged = try #require(try JSONSerialization.jsonObject(with: Data(
            GTIOBinary.run(["flags", "--limit", "1", "--format", "json", "--store", store]).stdout.utf8)) as? [[String: Any]])
        let item = try #require(flagged.first?["item"] as? String), version = try #require(flagged.first?["version"] as? Int)

        let server = try ServerProcess(store: store, folder: folder.path)
        // Listening comes before the read models are loaded: /ready says 503 until then, on a
        // machine busy with other tests long enough for the walk below to reach it.
        if try await !server.becomesReady() {
            Issue.record("not ready after 120 s: \(try await server.request("GET", "/ready").text)")
        }
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var checked = 0, queried = 0
        for (template, operations) in paths.sorted(by: { $0.key < $1.key }) {
            for (method, operation) in operations {
                guard let operation = operation as? [String: Any] else { continue }
                let path = template.replacingOccurrences(of: "{tab}", with: "popular")
                    .replacingOccurrences(of: "{item}", with: item)
                    .replacingOccurrences(of: "{id}", with: template.hasPrefix("/v1/posts") ? post : user)
                var headers: [String: String] = [:]
                var body: Data?
                if method == "post" && template.hasSuffix("resolve") {
                    headers = ["Authorization": "Bearer \(keys["moderate"]!)", "Content-Type": "application/json"]
                    body = Data("{\"action\":\"dismiss\",\"version\":\(version)}".utf8)
                } else if method == "post" {
                    headers = ["Authorization": "Bearer \(keys["write"]!)", "Content-Type": "application/x-ndjson"]
                    body = Data((lines.suffix(10).joined(separator: "\n") + "\n").utf8)
                } else if operation["security"] == nil {
                    headers = ["Authorization": "Bearer \(keys["read"]!)"]
                }
                let reply = try await server.request(method.uppercased(), path, headers: headers, body: body)
                let responses = try #require(operation["responses"] as? [String: Any])
                guard var response = responses["\(reply.status)"] as? [String: Any] else {
                    Issue.record("\(method) \(path): status \(reply.status) is not documented: \(reply.text)")
                    continue
                }
                if let ref = response["$ref"] as? String, let name = ref.split(separator: "/").last {
                    response = ((document["components"] as? [String: Any])?["responses"] as? [String: Any])?[String(name)] as? [String: Any] ?? [:]
                }
                let content = response["content"] as? [String: [String: Any]] ?? [:]
                if let schema = content["application/json"]?["schema"] as? [String: Any] {
                    let value = try JSONReader.parse(reply.text)
                    #expect(Self.problems(value, schema, in: document).isEmpty, "\(method) \(path): \(Self.problems(value, schema, in: document))")
                }
                #expect(reply.status == 200, "\(method) \(path): \(reply.status) \(reply.text)")
                checked += 1
                if method == "get" && template.hasPrefix("/v1/") {
                    queried += try await Self.checkQueryParameters(of: operation, at: path, in: document, on: server, headers: headers)
                }
            }
        }
        #expect(checked == 15)
        #expect(queried == 29)
        // The documented error shape, for one refusal.
        let refused = try await server.request("GET", "/v1/verdicts")
        #expect(refused.status == 401)
        let error = try #require(((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?["Error"] as? [String: Any])
        #expect(Self.problems(try JSONReader.parse(refused.text), error, in: document).isEmpty)
        #expect(server.stop() == 0)
    }
}
