/// Arrays indexed by dense keys (user, device or post keys), grown as keys come.
extension Array {
    /// Pads with `filler` up to `count` elements; nothing when it holds as many already.
    mutating func pad(to count: Int, with filler: Element) {
        guard count > self.count else { return }
        append(contentsOf: repeatElement(filler, count: count - self.count))
    }

    /// Pads with `filler` so that `index` is inside, at least doubling: keys come mostly in
    /// increasing order, so growth stays amortized.
    mutating func makeRoom(for index: Int, filling filler: Element) {
        guard index >= count else { return }
        pad(to: Swift.max(index + 1, count * 2), with: filler)
    }
}
