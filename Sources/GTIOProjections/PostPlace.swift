import Foundation
import GTIOCatalog

/// Where a post was taken (the Geotag seed): its `location` as sent, coordinates optional.
public struct PostPlace: Sendable, Equatable {
    /// Exactly as sent: places group by this name, untrimmed and case-sensitive.
    public var name: String
    public var latitude: Double?
    public var longitude: Double?

    public init(name: String, latitude: Double? = nil, longitude: Double? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The place named by an event's extracted properties, nil when it has none.
    init?(_ properties: [EventProperty]) {
        guard let name = properties.first(where: { $0.name == EventProperty.locationName })?.text else { return nil }
        self.init(
            name: name, latitude: properties.first { $0.name == EventProperty.locationLatitude }?.number,
            longitude: properties.first { $0.name == EventProperty.locationLongitude }?.number)
    }

    /// Mean Earth radius (IUGG), in km, as the places rule takes it.
    public static let earthRadiusKm = 6371.0088

    /// Whether the place has coordinates within `km` of (`latitude`, `longitude`) by the
    /// haversine formula; a place without both coordinates is never near anything.
    public func isWithin(_ km: Double, ofLatitude latitude: Double, longitude: Double) -> Bool {
        guard let ownLatitude = self.latitude, let ownLongitude = self.longitude else { return false }
        return Self.distanceKm(ownLatitude, ownLongitude, latitude, longitude) <= km
    }

    /// The great-circle distance between two points given in degrees.
    public static func distanceKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians, dLon = (lon2 - lon1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKm * asin(min(1, a.squareRoot()))
    }
}
