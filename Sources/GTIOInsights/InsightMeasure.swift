import GTIOCatalog

/// What a trend or breakdown counts (INSIGHTS.md §3): matching events, distinct users or
/// devices, or the sum or average of a numeric property.
public enum InsightMeasure: Hashable, Sendable {
    case events, users, devices
    case sum(InsightProperty)
    case average(InsightProperty)

    public init(_ text: String) throws(InsightError) {
        switch text {
        case "events": self = .events
        case "users": self = .users
        case "devices": self = .devices
        default:
            if text.hasPrefix("sum:") { self = .sum(try InsightProperty(String(text.dropFirst(4)))) }
            else if text.hasPrefix("avg:") { self = .average(try InsightProperty(String(text.dropFirst(4)))) }
            else { throw .badMeasure(text) }
        }
    }

    /// The numeric property it reads, if any.
    var numeric: InsightProperty? {
        switch self {
        case .sum(let property), .average(let property): property
        default: nil
        }
    }

    /// Whether the groups `--top` cuts are summed into `(other)` (counts and sums add up).
    var keepsOther: Bool {
        switch self {
        case .events, .sum: true
        default: false
        }
    }

    /// Whether the events it counts need an actor.
    var actor: InsightActor? {
        switch self {
        case .users: .user
        case .devices: .device
        default: nil
        }
    }
}

/// A measure accumulated over some events: a count, a set of actors, or a sum and count.
struct Tally {
    var count = 0
    var numbers = MeanSum()
    var actors: Set<Int> = []

    mutating func add(_ event: InsightEvent, _ measure: InsightMeasure) {
        switch measure {
        case .events: count += 1
        case .users, .devices:
            if let actor = event.actor(measure.actor!) { actors.insert(actor) }
        case .sum, .average:
            guard let number = event.number else { return }
            numbers.add(number)
        }
    }

    /// The figure: nil for the average of nothing.
    func value(_ measure: InsightMeasure) -> Double? {
        switch measure {
        case .events: Double(count)
        case .users, .devices: Double(actors.count)
        case .sum: numbers.sum
        case .average: numbers.mean
        }
    }
}

/// Group order where values tie: Unicode code points, the empty value last.
func groupPrecedes(_ a: String, _ b: String) -> Bool {
    if a.isEmpty != b.isEmpty { return !a.isEmpty }
    return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
}

/// `(other)`: the groups `--top` cut, summed.
let otherGroup = "(other)"
