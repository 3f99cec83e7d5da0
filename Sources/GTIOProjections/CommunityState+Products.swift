import GTIOStore

extension CommunityState {
    /// Product hearts and the shopping list are sets per (user, product), like post hearts; a
    /// product needs no existence check, and any event naming it makes it known.
    mutating func applyProductMark(_ event: KeyedEvent, list: Bool, add: Bool) {
        guard event.user != 0, event.subject != 0 else { return }
        let product = event.subject
        noteProduct(product)
        let pair = KeyPair(event.user, product)
        let changed = list
            ? (add ? shoppingList.insert(pair).inserted : shoppingList.remove(pair) != nil)
            : (add ? productHearts.insert(pair).inserted : productHearts.remove(pair) != nil)
        guard changed else { return ignore(event, add ? .repeated : .notInSet) }
        let step = add ? 1 : -1
        if list {
            products[product]!.lists += step
            listSizes[event.user, default: 0] += step
        } else {
            products[product]!.hearts += step
            productsHearted[event.user, default: 0] += step
        }
        changes?.users.insert(userKeys[event.user])
    }

    /// Every suggestion counts, repeats included.
    mutating func applySuggestion(_ event: KeyedEvent, day: Int64) {
        let suggestion = event.suggestion
        count(.suggestions, day)
        guard suggestion.product != 0 else { return }
        noteProduct(suggestion.product)
        products[suggestion.product]!.suggestions += 1
        if let channel = suggestion.channel { products[suggestion.product]!.channels[channel, default: 0] += 1 }
    }

    /// A post created with `product` shows it, whatever its kind.
    mutating func notePostOfProduct(_ product: Int, slot: Int) {
        noteProduct(product)
        products[product]!.postSlots.append(slot)
    }

    /// The product with id key `product` is known from now on, and its row changes.
    private mutating func noteProduct(_ product: Int) {
        if products[product] == nil { products[product] = ProductTally() }
        changes?.products.insert(keys[product])
    }

    /// The product's live posts (hidden ones and private authors' included), and the price of
    /// the latest created of them that has one.
    public func postsAndPrice(of tally: ProductTally) -> (posts: Int, price: Double?) {
        var live = 0, price: Double?
        for slot in tally.postSlots where posts.values[slot].life == .live {
            live += 1
            if let own = posts.values[slot].price { price = own }
        }
        return (live, price)
    }

    /// A counted flag by `user` on `item`.
    mutating func noteFlagger(_ user: String, flagged item: String) {
        flaggers[user, default: FlaggerRecord()].flagged.insert(item)
        changes?.flaggers.insert(user)
    }

    /// A decision on `item` credits the flaggers whose flag on it was open.
    mutating func creditFlaggers(_ open: some Sequence<String>, of item: String, removed: Bool) {
        for user in open {
            if removed { flaggers[user, default: FlaggerRecord()].upheld.insert(item) }
            else { flaggers[user, default: FlaggerRecord()].dismissed.insert(item) }
            changes?.flaggers.insert(user)
        }
    }
}
