import ArgumentParser

/// `--limit N` of a card (`post`, `item`, `product`, `user`): how many entries each of its lists
/// shows, so that a post hearted, reviewed or flagged by a hundred thousand people stays one screen.
struct CardOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "How many entries each of the card's lists shows (default 10; 0: all).", transform: Limit.parse)
    var limit = 10

    /// How many entries each list shows, nil for all.
    var entries: Int? { limit == 0 ? nil : limit }
}
