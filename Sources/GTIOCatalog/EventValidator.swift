/// Validates one JSON Lines line against the contract (EVENTS.md §1, §2, §4) and decodes it
/// into a `ValidatedEvent`, or says in one line why not.
public enum EventValidator {
    /// The longest id in the envelope, in Unicode code points.
    public static let maximumEventIDLength = 128

    /// Validates a line given as UTF-8 bytes (no line ending).
    public static func validate(_ line: UnsafeBufferPointer<UInt8>) -> Result<ValidatedEvent, Rejection> {
        let root: JSONValue
        do {
            root = try JSONReader.parse(line)
        } catch {
            return .failure(Rejection(field: nil, "invalid JSON: \(error)"))
        }
        // Valid JSON is valid UTF-8, so the original decodes without repair.
        let original = String(decoding: line, as: UTF8.self)
        do {
            return .success(try decode(root, original: original))
        } catch {
            return .failure(error)
        }
    }

    /// Validates a line given as a string.
    public static func validate(_ line: String) -> Result<ValidatedEvent, Rejection> {
        var copy = line
        return copy.withUTF8 { validate($0) }
    }

    static func decode(_ root: JSONValue, original: String) throws(Rejection) -> ValidatedEvent {
        guard case .object(let envelope) = root else {
            throw Rejection(field: nil, "expected a JSON object, got \(root.typeName)")
        }
        let id = try requiredString(envelope, "id", field: "id")
        try checkID(id, field: "id", maximum: maximumEventIDLength)

        let typeName = try requiredString(envelope, "type", field: "type")
        guard let type = EventType.named(typeName) else {
            throw Rejection(field: "type", "unknown type \(quoted(typeName)) (gtio catalog lists the types)")
        }

        let atText = try requiredString(envelope, "at", field: "at")
        guard let at = Timestamp(rfc3339: atText) else {
            throw Rejection(
                field: "at",
                "\(quoted(atText)) is not an RFC 3339 time (expected YYYY-MM-DDTHH:MM:SS[.fff] with Z or ±HH:MM)")
        }
        guard Timestamp.representable.contains(at.milliseconds) else {
            throw Rejection(field: "at", "\(quoted(atText)) falls outside the years 0001–9999 once converted to UTC")
        }

        let user: String?
        if type.requiresUser {
            user = try requiredString(envelope, "user", field: "user", why: "required for \(type.rawValue)")
        } else {
            user = try optionalString(envelope, "user", field: "user")
        }
        if let user { try checkID(user, field: "user", maximum: FieldKind.maximumIDLength) }

        let device = try optionalString(envelope, "device", field: "device")
        if let device { try checkID(device, field: "device", maximum: FieldKind.maximumIDLength) }

        var version: Int64 = 1
        if let v = envelope["v"] {
            guard case .number(let number) = v, let integer = number.integer else {
                throw Rejection(field: "v", "expected an integer without fraction or exponent, got \(describe(v))")
            }
            guard integer >= 1 else { throw Rejection(field: "v", "must be 1 or more, got \(integer)") }
            version = integer
        }

        guard let dataValue = envelope["data"] else { throw Rejection(field: "data", "missing (use {} when empty)") }
        guard case .object(let data) = dataValue else {
            throw Rejection(field: "data", "expected an object, got \(dataValue.typeName)")
        }

        var event = ValidatedEvent(
            id: id, type: type, at: at, user: user, device: device, version: version, original: original)
        for spec in type.fields {
            try decodeField(spec, in: data, into: &event)
        }
        return event
    }

    private static func decodeField(_ spec: FieldSpec, in data: JSONObject, into event: inout ValidatedEvent)
        throws(Rejection)
    {
        let field = "data.\(spec.name)"
        guard let value = data[spec.name] else {
            if spec.isRequired { throw Rejection(field: field, "missing (required for \(event.type.rawValue))") }
            return
        }
        switch spec.kind {
        case .id:
            let text = try string(value, field: field)
            try checkID(text, field: field, maximum: FieldKind.maximumIDLength)
            store(text, in: spec.column, of: &event)
        case .string:
            let text = try string(value, field: field)
            store(text, in: spec.column, of: &event)
            if spec.column == .properties { event.properties.append(EventProperty(name: spec.name, text: text)) }
        case .bool:
            guard case .bool(let flag) = value else {
                throw Rejection(field: field, "expected true or false, got \(describe(value))")
            }
            if spec.column == .flag { event.flag = flag }
        case .integer(let allowed):
            guard case .number(let number) = value, let integer = number.integer else {
                throw Rejection(field: field, "expected an integer without fraction or exponent, got \(describe(value))")
            }
            guard allowed.contains(integer) else {
                throw Rejection(field: field, "must be \(allowed.map(String.init).joined(separator: " or ")), got \(integer)")
            }
            if spec.column == .properties {
                event.properties.append(EventProperty(name: spec.name, text: String(integer), number: Double(integer)))
            }
        case .number(let minimum):
            guard case .number(let number) = value else {
                throw Rejection(field: field, "expected a number, got \(describe(value))")
            }
            guard number.value.isFinite else {
                throw Rejection(field: field, "must be a finite number (this one is too large for a double)")
            }
            if let minimum, number.value < minimum {
                throw Rejection(field: field, "must be \(formatted(minimum)) or more, got \(formatted(number.value))")
            }
            if spec.column == .number { event.number = number.value }
        case .enumeration(let values):
            let text = try string(value, field: field)
            guard values.contains(text) else {
                throw Rejection(field: field, "unknown value \(quoted(text)) (expected \(values.joined(separator: ", ")))")
            }
            store(text, in: spec.column, of: &event)
        case .idList:
            guard case .array(let elements) = value else {
                throw Rejection(field: field, "expected an array of user ids, got \(describe(value))")
            }
            var ids: [String] = []
            ids.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                let elementField = "\(field)[\(index)]"
                let text = try string(element, field: elementField)
                try checkID(text, field: elementField, maximum: FieldKind.maximumIDLength)
                ids.append(text)
            }
            if spec.column == .list { event.list = ids }
        case .stringList:
            guard case .array(let elements) = value else {
                throw Rejection(field: field, "expected an array of strings, got \(describe(value))")
            }
            for (index, element) in elements.enumerated() {
                let text = try string(element, field: "\(field)[\(index)]")
                if spec.column == .properties { event.properties.append(EventProperty(name: spec.name, position: index, text: text)) }
            }
        case .object:
            guard case .object(let members) = value else {
                throw Rejection(field: field, "expected an object, got \(describe(value))")
            }
            if spec.column == .properties { event.properties += EventProperty.members(of: members, in: spec.name) }
        case .location:
            guard case .object(let location) = value else {
                throw Rejection(field: field, "expected an object {name, lat?, lon?}, got \(describe(value))")
            }
            guard let name = location["name"] else { throw Rejection(field: "\(field).name", "missing") }
            let place = try string(name, field: "\(field).name")
            var found = [EventProperty(name: "\(spec.name).name", text: place)]
            for coordinate in ["lat", "lon"] {
                guard let number = location[coordinate] else { continue }
                guard case .number(let value) = number else {
                    throw Rejection(field: "\(field).\(coordinate)", "expected a number, got \(describe(number))")
                }
                guard value.value.isFinite else {
                    throw Rejection(field: "\(field).\(coordinate)", "must be a finite number (too large for a double)")
                }
                found.append(EventProperty(name: "\(spec.name).\(coordinate)", number: value.value))
            }
            if spec.column == .properties { event.properties += found }
        case .item:
            let text = try string(value, field: field)
            // By scalars: an id that starts with a combining mark would join the colon into one
            // `Character`, and a search for ":" by characters would not find it.
            let scalars = text.unicodeScalars
            guard let colon = scalars.firstIndex(of: ":"),
                  ["post", "review"].contains(String(scalars[..<colon])),
                  case let itemID = scalars[scalars.index(after: colon)...],
                  !itemID.isEmpty, itemID.count <= FieldKind.maximumIDLength
            else {
                throw Rejection(field: field, "\(quoted(text)) is not an item (expected post:<id> or review:<id>, id of 1–64 characters)")
            }
            try checkID(String(text), field: field, maximum: FieldKind.maximumIDLength + 7)
            store(text, in: spec.column, of: &event)
        }
    }

    private static func store(_ text: String, in column: EventColumn?, of event: inout ValidatedEvent) {
        switch column {
        case .subject: event.subject = text
        case .object: event.object = text
        case .value: event.value = text
        case .text: event.text = text
        case .flag, .number, .list, .properties, nil: break
        }
    }

    // MARK: Helpers

    private static func requiredString(_ object: JSONObject, _ key: String, field: String, why: String? = nil)
        throws(Rejection) -> String
    {
        guard let value = object[key] else {
            throw Rejection(field: field, why.map { "missing (\($0))" } ?? "missing")
        }
        return try string(value, field: field)
    }

    private static func optionalString(_ object: JSONObject, _ key: String, field: String) throws(Rejection) -> String? {
        guard let value = object[key] else { return nil }
        return try string(value, field: field)
    }

    private static func string(_ value: JSONValue, field: String) throws(Rejection) -> String {
        guard case .string(let text) = value else {
            throw Rejection(field: field, "expected a string, got \(describe(value))")
        }
        return text
    }

    private static func checkLength(_ text: String, field: String, maximum: Int) throws(Rejection) {
        // UTF-8 length bounds the code point count, so most ids need no scalar walk.
        let bytes = text.utf8.count
        if bytes >= 1 && bytes <= maximum { return }
        let count = bytes == 0 ? 0 : text.unicodeScalars.count
        if count < 1 { throw Rejection(field: field, "must not be empty (1–\(maximum) characters)") }
        if count > maximum { throw Rejection(field: field, "is \(count) characters long (at most \(maximum))") }
    }

    /// An id's length, and no control character in it: ids are shown on terminals and in
    /// files, where a NUL cuts the text and other controls move the cursor or change colours.
    private static func checkID(_ text: String, field: String, maximum: Int) throws(Rejection) {
        try checkLength(text, field: field, maximum: maximum)
        var previous: UInt8 = 0
        for (offset, byte) in text.utf8.enumerated() {
            // C0 controls and DEL; C1 controls are U+0080–U+009F, encoded 0xC2 0x80–0x9F.
            let control: UInt32? = byte < 0x20 || byte == 0x7F ? UInt32(byte)
                : previous == 0xC2 && byte >= 0x80 && byte <= 0x9F ? UInt32(byte) : nil
            if let control {
                let position = text.utf8.prefix(offset).count { $0 & 0xC0 != 0x80 } + (control >= 0x80 ? 0 : 1)
                let hex = String(control, radix: 16, uppercase: true)
                let code = "U+" + String(repeating: "0", count: 4 - hex.count) + hex
                throw Rejection(field: field, "holds the control character \(code) at character \(position) (ids must be printable)")
            }
            previous = byte
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "the string \(quoted(text))"
        case .number(let number): number.integer.map(String.init) ?? formatted(number.value)
        case .bool(let flag): String(flag)
        default: value.typeName
        }
    }

    private static func quoted(_ text: String) -> String {
        let shown = text.unicodeScalars.count > 40 ? String(text.unicodeScalars.prefix(40)) + "…" : text
        return "\"\(shown)\""
    }

    private static func formatted(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
