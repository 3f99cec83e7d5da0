/// Display names for simulated people, with the accents and scripts real members have.
enum DemoNames {
    static let first = [
        "Ana", "Łukasz", "José", "Zoë", "Mia", "Noah", "Chloé", "Søren", "Aiko", "Priya", "Mateo", "Olivia",
        "Émile", "Ines", "Kwame", "Lena", "Marco", "Nadia", "Oscar", "Rosa", "Sven", "Tariq", "Uma", "Yusuf",
        "美咲", "Björn", "Ayşe", "Dmitri", "Fatima", "Grace", "hana", "Jules", "Kai", "Lucía", "María", "Nikolai",
    ]
    static let last = [
        "Tanaka", "Smith", "García", "Müller", "Kowalski", "O'Brien", "Nguyen", "Rossi", "Dubois", "Silva",
        "Andersen", "Khan", "Okafor", "Novak", "Ivanova", "Yilmaz", "Cohen", "Park", "Haddad", "López", "Berg",
    ]
    static let descriptions = [
        "¿qué opinan?", "Date night — wear it or change it?", "New boots!", "Office look", "Too much?",
        "Thrifted the whole thing", "Wedding guest outfit", "\"Casual\" Friday", "First day at the new job",
        "Festival ready 🎶", "Which shoes?", "", "Sunday brunch", "Is this jacket a yes?",
    ]
    static let reviews = [
        "Love it", "👏👏👏", "Change the shoes", "Wear it!", "The colour suits you", "Not sure about the belt",
        "Perfect for the occasion", "Too formal", "Yes yes yes", "Try it with sneakers", "Hmm, maybe",
    ]
    static let brands = ["Zara", "H&M", "Levi's", "Uniqlo", "Nike", "COS", "Mango", "Gap", "Topshop", "J.Crew"]
    static let places = ["Brooklyn", "Shoreditch", "Le Marais", "Shibuya", "Kreuzberg", "Mission District"]
    /// Where each of `places` is (latitude, longitude), so that `places --near` finds them where
    /// a map would.
    static let placeCoordinates: [(Double, Double)] = [
        (40.6782, -73.9442), (51.5265, -0.0780), (48.8590, 2.3620), (35.6620, 139.7040), (52.4990, 13.4030), (37.7600, -122.4140),
    ]
    static let screens = ["1.1", "1.2", "2.1", "3.1", "3.2", "3.4", "4.1", "6.1", "6.2", "7.1", "8.1", "8.3", "9.1", "12.3"]
    static let trackNames = ["Splash", "Welcome", "Feed", "Look", "Verdicts", "Reviews", "Shop", "Profile", "Popular", "Upload"]
    static let flagReasons = ["inappropriate", "spam", "not a look", "offensive"]
}
