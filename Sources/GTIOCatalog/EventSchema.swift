/// JSON Schema (draft 2020-12) documents of the event types, derived from the field table:
/// `Events/schemas/` holds them, and a test fails when those files and this catalog disagree.
public enum EventSchema {
    /// The schema of one event type.
    public static func document(for type: EventType) -> JSONValue {
        let required = ["id", "type", "at"] + (type.requiresUser ? ["user"] : []) + ["data"]
        var data: [(key: String, value: JSONValue)] = [("type", .string("object"))]
        let requiredFields = type.fields.filter(\.isRequired).map(\.name)
        if !requiredFields.isEmpty { data.append(("required", .array(requiredFields.map(JSONValue.string)))) }
        data.append(("properties", .object(JSONObject(type.fields.map { ($0.name, schema(of: $0.kind, optional: !$0.isRequired)) }))))
        data.append(("additionalProperties", .bool(true)))
        return .object(JSONObject([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://gtio.example/events/\(type.rawValue).schema.json")),
            ("title", .string(type.rawValue)),
            ("description", .string(
                "A GTIO \(type.rawValue) event (docs/EVENTS.md). `at` is RFC 3339 with Z or ±HH:MM; " +
                "integers are written without fraction or exponent; null counts as absent; unknown fields are kept.")),
            ("type", .string("object")),
            ("required", .array(required.map(JSONValue.string))),
            ("properties", .object(JSONObject([
                ("id", idSchema(maximum: 128, optional: false)),
                ("type", .object(JSONObject([("const", .string(type.rawValue))]))),
                ("at", .object(JSONObject([("type", .string("string")), ("format", .string("date-time"))]))),
                ("user", idSchema(maximum: 64, optional: !type.requiresUser)),
                ("device", idSchema(maximum: 64, optional: true)),
                ("v", .object(JSONObject([("type", types("integer", optional: true)), ("minimum", integer(1))]))),
                ("data", .object(JSONObject(data))),
            ]))),
            ("additionalProperties", .bool(true)),
        ]))
    }

    private static func integer(_ value: Int64) -> JSONValue { .number(JSONNumber(value: Double(value), integer: value)) }

    private static func types(_ name: String, optional: Bool) -> JSONValue {
        optional ? .array([.string(name), .string("null")]) : .string(name)
    }

    private static func idSchema(maximum: Int64, optional: Bool) -> JSONValue {
        .object(JSONObject([("type", types("string", optional: optional)), ("minLength", integer(1)), ("maxLength", integer(maximum))]))
    }

    static func schema(of kind: FieldKind, optional: Bool) -> JSONValue {
        switch kind {
        case .id: return idSchema(maximum: Int64(FieldKind.maximumIDLength), optional: optional)
        case .string: return .object(JSONObject([("type", types("string", optional: optional))]))
        case .bool: return .object(JSONObject([("type", types("boolean", optional: optional))]))
        case .integer(let allowed):
            return .object(JSONObject([("type", types("integer", optional: optional)),
                                       ("enum", .array(allowed.map(integer) + (optional ? [.null] : [])))]))
        case .number(let minimum):
            var members: [(key: String, value: JSONValue)] = [("type", types("number", optional: optional))]
            if let minimum { members.append(("minimum", integer(Int64(minimum)))) }
            return .object(JSONObject(members))
        case .enumeration(let values):
            return .object(JSONObject([("type", types("string", optional: optional)),
                                       ("enum", .array(values.map(JSONValue.string) + (optional ? [.null] : [])))]))
        case .idList:
            return .object(JSONObject([("type", types("array", optional: optional)),
                                       ("items", idSchema(maximum: Int64(FieldKind.maximumIDLength), optional: false))]))
        case .stringList:
            return .object(JSONObject([("type", types("array", optional: optional)),
                                       ("items", .object(JSONObject([("type", .string("string"))])))]))
        case .object: return .object(JSONObject([("type", types("object", optional: optional))]))
        case .location:
            return .object(JSONObject([
                ("type", types("object", optional: optional)),
                ("required", .array([.string("name")])),
                ("properties", .object(JSONObject([
                    ("name", .object(JSONObject([("type", .string("string"))]))),
                    ("lat", .object(JSONObject([("type", .array([.string("number"), .string("null")]))]))),
                    ("lon", .object(JSONObject([("type", .array([.string("number"), .string("null")]))]))),
                ]))),
            ]))
        case .item:
            return .object(JSONObject([("type", types("string", optional: optional)),
                                       ("pattern", .string("^(post|review):.{1,64}$"))]))
        }
    }
}
