import GTIOCatalog

/// A user's first sign-up as the fold keeps it, by user key: numbers only, so that a rule finds
/// it without hashing an id and a saved state is read back without allocating per user.
struct FirstSignUp: Sendable, Equatable {
    /// When it came; `Int64.min` for a user who never signed up.
    var at: Int64
    /// The key of the device it came from; 0 for none.
    var device: Int32
    /// The user key of the user whose first sign-up came from the same device before this one;
    /// 0 for none. With `CommunityState.lastSignUpOnDevice`, each device's users in a chain.
    var previousOnDevice: Int32
    /// Its provider's place in `EventType.providers`.
    var provider: UInt8

    static let none = FirstSignUp(at: .min, device: 0, previousOnDevice: 0, provider: 0)

    var isNone: Bool { at == .min }

    /// Its UTC day, by which its user's cohort goes.
    var day: Int64 { Timestamp(milliseconds: at).day }

    var providerName: String { EventType.providers[Int(provider)] }
}
