import ArgumentParser
import Foundation
import GTIOAnalytics
import GTIOProjections

/// `places`: where the looks Popular looks ranks were taken (the Geotag seed).
struct PlacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Places of the looks Popular looks ranks: posts, authors and points per place (Geotag).",
        discussion: """
            A post's place is its location name exactly as sent. With --near, only posts whose own \
            coordinates lie within --km of the point count (haversine, Earth radius 6371.0088 km). \
            Example: gtio -c 'places --near 40.7,-74.0 --km 10'
            """)
    @Option(help: ArgumentHelp("Only posts within --km of this point.", valueName: "lat,lon")) var near: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("The radius for --near, in km.", valueName: "km")) var km: Double = 5
    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 20
    @OptionGroup var query: QueryOptions

    func validate() throws {
        if let near, Self.point(near) == nil {
            throw ValidationError("--near: \"\(near)\" is not a point (expected LAT,LON in degrees, e.g. 40.7,-74.0)")
        }
        guard km >= 0, km.isFinite else { throw ValidationError("--km must be a distance of 0 or more, got \(km)") }
        if near == nil, km != 5 { throw ValidationError("--km needs --near LAT,LON") }
    }

    static func point(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)), (-90...90).contains(lat),
              let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)), (-180...180).contains(lon)
        else { return nil }
        return (lat, lon)
    }

    func run() throws {
        let filter = near.flatMap(Self.point).map { NearFilter(latitude: $0.0, longitude: $0.1, km: km) }
        try query.emit(AnswerTable.places(try query.withStoredModels(reading: .places) { try $0.places(near: filter, limit: try checkedLimit(limit)) }))
    }
}
