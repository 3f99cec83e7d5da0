/// A moment at millisecond precision in UTC, as EVENTS.md stores `at`.
///
/// Parsed and formatted by hand: Foundation's `ISO8601DateFormatter` manages ≈ 12 k dates/s
/// here and accepts forms EVENTS.md §4 rejects (`+0200`, no offset).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public static let millisecondsPerDay: Int64 = 86_400_000
    /// 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z: the times shown as four-digit years.
    public static let representable: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// The UTC day number (days since 1970-01-01) of this moment.
    public var day: Int64 {
        milliseconds >= 0 ? milliseconds / Self.millisecondsPerDay
            : (milliseconds - Self.millisecondsPerDay + 1) / Self.millisecondsPerDay
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, the form of every timestamp the console prints.
    public var description: String {
        // Written straight into the string's storage: tables print tens of thousands of these.
        String(unsafeUninitializedCapacity: Self.textLength) { write(into: $0) }
    }

    /// How many bytes (and terminal columns) `description` takes, whatever the moment.
    public static let textLength = 24

    /// Appends `description`'s UTF-8 bytes to `bytes`, without making the string.
    public func appendText(to bytes: inout [UInt8]) {
        // Written on the stack and copied in one piece: growing the array by a repeated zero
        // first went a byte at a time, and cost a table of timestamps more than writing them.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.textLength) { text in
            let count = write(into: text)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
    }

    /// Writes `description` into the first `textLength` bytes of `out`; returns how many.
    private func write(into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(out.count >= Self.textLength)
        let day = self.day
        var rest = milliseconds - day * Self.millisecondsPerDay
        let (year, month, dayOfMonth) = Self.civil(fromDays: day)
        let millis = rest % 1000; rest /= 1000
        let second = rest % 60; rest /= 60
        let minute = rest % 60
        let hour = rest / 60
        let text = out.baseAddress!
        var end = 0
        /// The last `width` decimal digits of `value`, then `separator`.
        func field(_ value: Int64, _ width: Int, _ separator: Unicode.Scalar) {
            var value = value, index = end + width
            text[index] = UInt8(ascii: separator)
            while index > end {
                index -= 1
                text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            end += width + 1
        }
        field(year, 4, "-"); field(month, 2, "-"); field(dayOfMonth, 2, "T")
        field(hour, 2, ":"); field(minute, 2, ":"); field(second, 2, "."); field(millis, 3, "Z")
        return end
    }

    /// The UTC date `YYYY-MM-DD` of this moment.
    public var dateString: String { String(description.prefix(10)) }

    /// The UTC date `YYYY-MM-DD` of day number `day`.
    public static func dateString(ofDay day: Int64) -> String {
        Timestamp(milliseconds: day * millisecondsPerDay).dateString
    }

    /// The last millisecond of day number `day`.
    public static func endOfDay(_ day: Int64) -> Timestamp {
        Timestamp(milliseconds: (day + 1) * millisecondsPerDay - 1)
    }

    /// The day number of the first day of the month `months` months after the one holding `day`.
    ///
    /// Computed on the calendar rather than through text, so that it also answers past
    /// 9999-12 (the month after a log's last month may be 10000-01, which no timestamp shows).
    public static func firstDayOfMonth(holding day: Int64, adding months: Int64 = 0) -> Int64 {
        let (year, month, _) = civil(fromDays: day)
        let index = year * 12 + (month - 1) + months
        let (newYear, newMonth) = (index >= 0 ? index / 12 : (index - 11) / 12, (index % 12 + 12) % 12 + 1)
        return days(fromCivil: newYear, newMonth, 1)
    }

    // MARK: Parsing

    /// Parses RFC 3339 as EVENTS.md §4 allows it: `T` or `t`, `Z`, `z` or `±HH:MM`,
    /// an optional fraction truncated to milliseconds; nil for anything else.
    public init?(rfc3339 text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    /// Parses a bare date `YYYY-MM-DD` as the start of that UTC day.
    public init?(date text: String) {
        var text = text
        let days: Int64? = text.withUTF8 { bytes in
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  let year = Self.digits(bytes, 0, 4), let month = Self.digits(bytes, 5, 2),
                  let day = Self.digits(bytes, 8, 2),
                  Self.isValidDate(year: year, month: month, day: day)
            else { return nil }
            return Self.days(fromCivil: year, month, day)
        }
        guard let days else { return nil }
        self.init(milliseconds: days * Self.millisecondsPerDay)
    }

    static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        // YYYY-MM-DDTHH:MM:SS is 19 bytes; the shortest zone is "Z".
        guard b.count >= 20,
              b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
              let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
              isValidDate(year: year, month: month, day: day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var millis: Int64 = 0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < b.count, let digit = digitValue(b[index]) {
                if index - fractionStart < 3 { millis = millis * 10 + digit }
                index += 1
            }
            let fractionDigits = index - fractionStart
            guard fractionDigits > 0 else { return nil }
            for _ in fractionDigits..<max(fractionDigits, 3) { millis *= 10 }
        }
        guard index < b.count else { return nil }
        var offsetMinutes: Int64 = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = b[index] == UInt8(ascii: "-") ? -1 : 1
            guard b.count == index + 6, b[index + 3] == UInt8(ascii: ":"),
                  let offsetHour = digits(b, index + 1, 2), let offsetMinute = digits(b, index + 4, 2),
                  offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
            index += 6
        default:
            return nil
        }
        guard index == b.count else { return nil }
        let days = days(fromCivil: year, month, day)
        let local = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Timestamp(milliseconds: (local - offsetMinutes * 60) * 1000 + millis)
    }

    private static func digitValue(_ byte: UInt8) -> Int64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
    }

    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for index in start..<(start + count) {
            guard let digit = digitValue(b[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    static func isValidDate(year: Int64, month: Int64, day: Int64) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[Int(month - 1)]
    }

    // Howard Hinnant's days_from_civil / civil_from_days: exact for the proleptic Gregorian calendar.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (month <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, month, day)
    }
}
