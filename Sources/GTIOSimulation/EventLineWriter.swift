import GTIOCatalog

/// Builds one JSON Lines event as bytes, the way GTIO's producers write them.
struct EventLineWriter {
    private(set) var bytes: [UInt8] = []

    init(id: String, type: EventType, at: String, user: String?, device: String? = nil) {
        bytes.reserveCapacity(256)
        append("{\"id\":"); string(id)
        append(",\"type\":"); string(type.rawValue)
        append(",\"at\":"); string(at)
        if let user { append(",\"user\":"); string(user) }
        if let device { append(",\"device\":"); string(device) }
        append(",\"data\":{")
    }

    private var fieldCount = 0

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func key(_ name: String) {
        if fieldCount > 0 { bytes.append(UInt8(ascii: ",")) }
        fieldCount += 1
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                append("\\u00"); bytes.append(hex[Int(byte >> 4)]); bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Bool) { key(name); value ? append("true") : append("false") }
    mutating func field(_ name: String, _ value: Int) { key(name); bytes.append(contentsOf: Array(String(value).utf8)) }
    mutating func field(_ name: String, number: Double) {
        key(name); bytes.append(contentsOf: Array(String(number).utf8))
    }
    mutating func field(_ name: String, _ values: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }
    mutating func location(_ name: String, lat: Double, lon: Double) {
        key("location")
        append("{\"name\":"); string(name)
        append(",\"lat\":"); bytes.append(contentsOf: Array(String(lat).utf8))
        append(",\"lon\":"); bytes.append(contentsOf: Array(String(lon).utf8))
        bytes.append(UInt8(ascii: "}"))
    }

    /// Closes the object and the line.
    mutating func finish() -> [UInt8] {
        append("}}\n")
        return bytes
    }
}
