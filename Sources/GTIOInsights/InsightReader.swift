import GTIOCatalog
import GTIOStore

/// The part of the log an insight may see: all of it, or an as-of view (INSIGHTS.md §5).
public struct InsightView: Sendable, Equatable {
    /// Only events with seq up to this.
    public var throughSeq: Int64?
    /// Only events with `at` up to this (UTC ms); it is also "now".
    public var asOf: Int64?

    public init(throughSeq: Int64? = nil, asOf: Int64? = nil) {
        self.throughSeq = throughSeq
        self.asOf = asOf
    }
}

/// Reads the events an insight needs from a store: only the types it selects, only in its
/// window, reading each event's typed columns and extracted properties (never its JSON).
public struct InsightReader: Sendable {
    public let store: any EventLog
    public let view: InsightView
    /// The seqs each part of a segmented read spans; a read of fewer than two parts' worth is
    /// one scan. Tests make it small, to read their small logs in parts.
    package var scanSegment: Int64 = 16_384

    public init(store: any EventLog, view: InsightView = InsightView()) {
        self.store = store
        self.view = view
    }

    /// The first and last `at` in view; nil for an empty view.
    public func extent() throws -> ClosedRange<Int64>? {
        try store.timeExtent(throughSeq: view.throughSeq, atMost: view.asOf)
    }

    /// "Now": the as-of time, else the newest `at` in view.
    public func now() throws -> Int64? {
        if let asOf = view.asOf { return asOf }
        return try extent()?.upperBound
    }

    /// Calls `body` with each event in view of `types` (nil: all) whose `at` lies in `times`, in
    /// seq order, with the values of `properties` and the number of `numeric`, and keyed by
    /// `actor` alone (the other key is 0): keys are given afresh for each read, and only to
    /// what the insight counts by.
    func read(
        types: Set<EventType>?, times: ClosedRange<Int64>, properties: [InsightProperty], numeric: InsightProperty? = nil,
        actor: InsightActor?, _ body: (InsightEvent) throws -> Void
    ) throws {
        let upper = view.asOf.map { min($0, times.upperBound) } ?? times.upperBound
        guard times.lowerBound <= upper else { return }
        let signups = properties.contains(where: \.needsSignups) ? try self.signups() : [:]
        let needsUser = properties.contains { $0 == .user || $0.needsSignups }
        var columns: LogColumns = actor == .device ? .device : []
        if actor == .user || needsUser { columns.insert(.user) }
        for property in properties + (numeric.map { [$0] } ?? []) { columns.formUnion(Self.columns(of: property, types)) }
        let scope = LogScope(throughSeq: view.throughSeq, atMost: upper, atLeast: times.lowerBound,
                             types: types.map { $0.sorted { $0.rawValue < $1.rawValue } }, columns: columns)
        let maker = InsightEventMaker(
            properties: properties, numeric: numeric, actor: actor, signups: signups,
            needsUser: needsUser)
        if let span = try store.seqSpan(scope), span.upperBound - span.lowerBound >= 2 * scanSegment {
            try SegmentedRead(store: store, scope: scope, span: span, segment: scanSegment, maker: maker).run(body)
            return
        }
        var users = KeyTable(), devices = KeyTable()
        try store.scanRows(scope) { row in try body(maker.event(row, users: &users, devices: &devices)) }
    }

    /// The first `user.signed_up` in view of each user (by seq): provider and UTC day.
    func signups() throws -> [String: (provider: String, day: Int64)] {
        var found: [String: (provider: String, day: Int64)] = [:]
        let scope = LogScope(throughSeq: view.throughSeq, atMost: view.asOf, types: [.userSignedUp], columns: [.user, .value])
        try store.scanRows(scope) { row in
            guard let user = row.text(.user), found[user] == nil else { return }
            found[user] = (row.text(.value) ?? "", Timestamp(milliseconds: row.at).day)
        }
        return found
    }

    /// The columns `property` is read from on events of `types` (nil: all), beside the user.
    static func columns(of property: InsightProperty, _ types: Set<EventType>?) -> LogColumns {
        switch property {
        case .device: return .device
        case .field(let name):
            var columns: LogColumns = []
            for type in types ?? Set(EventType.allCases) {
                if let column = type.fields.first(where: { $0.name == name })?.column { columns.formUnion(LogColumns(column)) }
            }
            return columns
        case .type, .user, .day, .hour, .weekday, .location, .prop, .userProvider, .userSignupDay: return []
        }
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The values of `property` on the row, each once, in order; empty when it has none.
    static func values(
        of property: InsightProperty, _ row: EventRow, user: String?, props: () throws -> [EventProperty],
        signups: [String: (provider: String, day: Int64)]
    ) throws -> [String] {
        switch property {
        case .type: return [row.type.rawValue]
        case .user: return user.map { [$0] } ?? []
        case .device: return row.text(.device).map { [$0] } ?? []
        case .day: return [Timestamp.dateString(ofDay: Timestamp(milliseconds: row.at).day)]
        case .hour:
            let hour = (row.at % 86_400_000 + 86_400_000) % 86_400_000 / 3_600_000
            return [hour < 10 ? "0\(hour)" : "\(hour)"]
        case .weekday:
            let day = Timestamp(milliseconds: row.at).day
            return [weekdays[Int(((day + 3) % 7 + 7) % 7)]]
        case .location:
            guard row.type == .postCreated else { return [] }
            return try props().filter { $0.name == EventProperty.locationName }.compactMap(\.text)
        case .prop(let key):
            guard row.type == .track else { return [] }
            let name = "props." + key
            return try props().filter { $0.name == name }.compactMap(\.text).uniquedExactly()
        case .userProvider: return user.flatMap { signups[$0] }.map { [$0.provider] } ?? []
        case .userSignupDay: return user.flatMap { signups[$0] }.map { [Timestamp.dateString(ofDay: $0.day)] } ?? []
        case .field(let name):
            guard let spec = row.type.fields.first(where: { $0.name == name }) else { return [] }
            switch spec.column {
            case .subject: return row.text(.subject).map { [$0] } ?? []
            case .object: return row.text(.object).map { [$0] } ?? []
            case .value: return row.text(.value).map { [$0] } ?? []
            case .text: return row.text(.text).map { [$0] } ?? []
            case .flag: return row.flag.map { [$0 ? "true" : "false"] } ?? []
            case .number: return row.number.map { [JSONValue.text(of: $0)] } ?? []
            case .list: return try row.listed().uniquedExactly()
            case .properties: return try props().filter { $0.name == name }.compactMap(\.text).uniquedExactly()
            case nil: return []
            }
        }
    }

    /// The JSON number `property` holds on the row, nil when it holds none.
    static func number(of property: InsightProperty, _ row: EventRow, props: () throws -> [EventProperty]) throws -> Double? {
        switch property {
        case .field(let name):
            guard let spec = row.type.fields.first(where: { $0.name == name }) else { return nil }
            if spec.column == .number { return row.number }
            if spec.column == .properties { return try props().first { $0.name == name && $0.number != nil }?.number }
            return nil
        case .prop(let key):
            guard row.type == .track else { return nil }
            return try props().first { $0.name == "props." + key && $0.number != nil }?.number
        default:
            return nil
        }
    }
}
