import ArgumentParser
import GTIOAnalytics
import GTIOCatalog
import GTIOProjections
import GTIOTables

/// `products`: products by hearts, shopping lists and suggestions (4.1–4.6, 7.8).
struct ProductsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "products",
        abstract: "Products by hearts, then shopping lists, then suggestions (4.1–4.6, 7.8).",
        discussion: """
            posts counts the live posts showing the product (hidden ones included); price is that of \
            the latest created of them with a price. Example: gtio -c 'products --limit 10'
            """)
    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 20
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.emit(AnswerTable.products(try query.withStoredModels(reading: .products) { try $0.products(limit: try checkedLimit(limit)) }))
    }
}

/// `product ID`: one product on one screen.
struct ProductCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "product",
        abstract: "One product: hearts, shopping lists, suggestions by channel, the posts showing it and its prices.")
    @Argument(help: "The product id.") var product: String
    @OptionGroup var card: CardOptions
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.withStoredModels { models in
            guard let found = try models.productCard(product, posts: query.forReader ? card.entries : 0) else {
                throw ConsoleError.notFound("unknown product \"\(product)\": no event in the log names it (try: products)")
            }
            let table = ResultTable(
                columns: AnswerTable.productColumns + EventType.suggestionChannels.map { "suggestions_\($0)" },
                rows: [AnswerTable.products([found.line]).rows[0]
                       + EventType.suggestionChannels.map { channel in
                           .integer(Int64(found.channels.first { $0.channel == channel }?.count ?? 0))
                       }])
            guard query.forReader else { return try query.emit(table) }
            Terminal.write(Card.render(zip(table.columns, table.rows[0]).map { ($0, $1.plainText) }, sections: [
                Card.list("posts showing it", found.posts) { post in
                    let life = post.life == .live ? "" : " (\(post.life == .deleted ? "deleted" : "removed"))"
                    let verdict = post.verdict.map { "\($0.label), \($0.wearIt) wear it / \($0.changeIt) change it" } ?? "no votes"
                    return "\(post.post) by \(post.author), \(post.kind)\(life): \(verdict)"
                },
                Card.history("price history (by seq)", found.prices) { post in
                    "\(Timestamp(milliseconds: post.created))  \(AnswerTable.amount(post.price ?? 0).plainText)  \(post.post) (seq \(post.seq))"
                },
            ]))
        }
    }
}
