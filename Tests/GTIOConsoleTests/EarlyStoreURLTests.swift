@testable import GTIOConsole
import Testing

/// The store a command line will open, told before it is parsed so that a PostgreSQL
/// connection can be begun while it is (`StoreOptions.earlyStoreURL`).
struct EarlyStoreURLTests {
    let url = "postgresql://gtio@db.example:5432/gtio"

    @Test func theStoreOptionNamesIt() {
        #expect(StoreOptions.earlyStoreURL(in: ["looks", "popular", "--store", url, "--limit", "5"], environment: [:]) == url)
        #expect(StoreOptions.earlyStoreURL(in: ["stats", "--store=\(url)"], environment: [:]) == url)
    }

    @Test func theEnvironmentNamesItWhenTheOptionDoesNot() {
        #expect(StoreOptions.earlyStoreURL(in: ["flags"], environment: ["GTIO_STORE": url]) == url)
        #expect(StoreOptions.earlyStoreURL(in: ["flags", "--store", "events.gtio"], environment: ["GTIO_STORE": url]) == nil)
    }

    @Test func aFileStoreIsNoURL() {
        #expect(StoreOptions.earlyStoreURL(in: ["stats", "--store", "events.gtio"], environment: [:]) == nil)
        #expect(StoreOptions.earlyStoreURL(in: ["stats"], environment: [:]) == nil)
    }

    @Test func commandsThatOpenNoStoreAndRequestsForHelpBeginNothing() {
        for words in [["catalog"], ["demo", "--events", "10"], ["pg", "roles"], ["copy", "--from", "a.gtio", "--to", url], ["help", "stats"],
                      ["stats", "--help"], ["-h"], ["--version"]] {
            #expect(StoreOptions.earlyStoreURL(in: words + ["--store", url], environment: ["GTIO_STORE": url]) == nil, "\(words)")
        }
    }

    /// After `--` every word is an argument, not an option.
    @Test func wordsAfterTheTerminatorAreNotOptions() {
        #expect(StoreOptions.earlyStoreURL(in: ["sql", "--", "--store", url], environment: [:]) == nil)
    }
}
