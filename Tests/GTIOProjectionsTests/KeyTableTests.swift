import GTIOCatalog
@testable import GTIOStore
import Testing
@testable import GTIOProjections

@Suite struct KeyTableTests {
    /// Ids of 1 to 40 bytes, many sharing long prefixes, some only differing past byte 16.
    static let ids: [String] = (0..<20_000).map { index in
        let stem = String(repeating: "x", count: index % 24)
        return index % 3 == 0 ? "\(stem)\(index)" : "dev-\(stem)-\(index)"
    }

    @Test func everyIdKeepsOneKeyThroughGrowthAndUnknownIdsHaveNone() {
        var index = IDIndex()
        var next = 0
        var assigned: [String: Int] = [:]
        for id in Self.ids + Self.ids {  // the second pass finds every id already there
            let key = index.key(id) {
                next += 1
                return next
            }
            if let earlier = assigned[id] { #expect(key == earlier, "\(id)") } else { assigned[id] = key }
        }
        #expect(next == Self.ids.count)
        #expect(Set(assigned.values).count == Self.ids.count)
        for id in Self.ids { #expect(index.key(id) == assigned[id]) }
        #expect(index.key("never-seen") == nil)
        #expect(index.key("xxxxxxxxxxxxxxxxxxxxxxxx-nope") == nil)
        #expect(index.key("") == nil)
    }

    /// An index filled at once from a saved table's ids (in the order of their home slots)
    /// keys them as keying them one by one does, finds each, and refuses an id given twice,
    /// short or long.
    @Test func anIndexFilledAtOnceKeysIdsInTheirOrder() throws {
        let index = try #require(IDIndex(keying: Self.ids))
        for (offset, id) in Self.ids.enumerated() { #expect(index.key(id) == offset + 1, "\(id)") }
        #expect(index.key("never-seen") == nil)
        #expect(index.key("xxxxxxxxxxxxxxxxxxxxxxxx-nope") == nil)
        let long = Self.ids.first { $0.utf8.count > 16 }!, short = Self.ids.first { $0.utf8.count <= 16 }!
        #expect(IDIndex(keying: Self.ids + [short]) == nil)
        #expect(IDIndex(keying: Self.ids + [long]) == nil)
        let table = try #require(KeyTable(ids: Self.ids))
        #expect(table.count == Self.ids.count + 1)
        #expect(table.key(Self.ids[41]) == 42)
        #expect(table[42] == Self.ids[41])
        #expect(KeyTable(ids: ["a", "b", "a"]) == nil)
    }

    /// Ids of every length up to 17 bytes, and for each, every one-byte change of one of them:
    /// the bytes an id is packed from (as words, up to 16) all count, none past its end does.
    @Test func idsThatDifferInAnyOneByteGetDifferentKeys() {
        var ids: [String] = [""]
        for length in 1...17 {
            let base = String(repeating: "a", count: length)
            ids.append(base)
            for position in 0..<length {
                var bytes = Array(base.utf8)
                bytes[position] = UInt8(ascii: "b")
                ids.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        var index = IDIndex()
        var next = 0
        let keys = ids.map { id in index.key(id) { next += 1; return next } }
        #expect(Set(keys).count == ids.count)
        #expect(ids.map { index.key($0) } == keys)
        #expect(index.key("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa") == nil)
    }

    /// The unseeded mix the index once used: anyone could search offline for ids that it sends
    /// to one slot.
    static func fixedHash(_ packed: IDIndex.Packed) -> Int {
        var h = packed.low &* 0x9E37_79B9_7F4A_7C15
        h ^= (packed.high &+ UInt64(packed.length)) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return Int(truncatingIfNeeded: h)
    }

    @Test func idsCraftedToCollideUnderAFixedHashStillFindTheirSlotsAtOnce() {
        // 500 ids that a fixed hash puts in one slot of the index's first 1,024 slots (it grows
        // at 70 % full): each lookup would walk all those before it.
        var crafted: [[UInt8]] = []
        var candidate: UInt32 = 0
        while crafted.count < 500 {
            candidate &+= 1
            var bytes = Array("id-".utf8)
            for shift in stride(from: 28, through: 0, by: -4) {
                bytes.append(Array("0123456789abcdef".utf8)[Int(candidate >> UInt32(shift) & 0xF)])
            }
            let packed = bytes.withUnsafeBufferPointer { IDIndex.pack($0)! }
            if Self.fixedHash(packed) & 1023 == 0 { crafted.append(bytes) }
        }
        var index = IDIndex()
        var next = 0
        for id in crafted {
            _ = id.withUnsafeBufferPointer { bytes in index.key(utf8: bytes) { _ in next += 1; return next } }
        }
        #expect(next == 500)
        #expect(index.longestProbe < 40, "a lookup walks \(index.longestProbe) slots")
        #expect(crafted.enumerated().allSatisfy { index.key(String(decoding: $0.element, as: UTF8.self)) == $0.offset + 1 })
    }

    @Test func aRecordsUsersDevicesAndOtherIdsGetKeysInTablesOfTheirOwn() {
        var table = KeyTable(), users = KeyTable(), devices = KeyTable()
        func keyed(_ record: LogRecord) -> KeyedEvent { table.keyed(record, users: &users, devices: &devices) }
        let review = keyed(LogRecord(seq: 1, type: .reviewAdded, at: 0, user: "u1", subject: "r1", object: "p1"))
        let track = keyed(LogRecord(seq: 2, type: .track, at: 0, user: "u1", device: "dev-1", object: "7.1", value: "Shop"))
        let shown = keyed(LogRecord(seq: 3, type: .quickaddShown, at: 0, user: "u2", device: "u1", list: ["u1", "u3"]))
        let follow = keyed(LogRecord(seq: 4, type: .userFollowed, at: 0, user: "u3", subject: "u4"))
        #expect(review.user == 1 && review.subject == 1 && review.object == 2 && review.device == 0)
        #expect(track.user == 1 && track.device == 1 && track.subject == 0 && track.object == 0 && track.value == "Shop")
        // A device named like a user is still a device of its own.
        #expect(shown.user == 2 && shown.device == 2 && shown.list == [1, 3])
        // A follow's subject is a user.
        #expect(follow.user == 3 && follow.subject == 4)
        #expect(table.ids == ["", "r1", "p1"])
        #expect(users.ids == ["", "u1", "u2", "u3", "u4"])
        #expect(devices.ids == ["", "dev-1", "u1"])
        #expect(table.key("p1") == 2 && table.key("7.1") == nil && table.key("u1") == nil)
        #expect(table.id(0) == nil && devices.id(1) == "dev-1" && users.id(4) == "u4")
    }

    @Test func idsKeyedFromBytesGetTheKeysTheirStringsGet() {
        var fromStrings = KeyTable(), fromBytes = KeyTable()
        var made: [String] = []
        for id in Self.ids + Self.ids {
            let expected = fromStrings.intern(id)
            var copy = id
            let key = copy.withUTF8 { fromBytes.intern(utf8: $0) }
            #expect(key == expected, "\(id)")
            if key == made.count + 1 { made.append(id) }
        }
        #expect(fromBytes.ids == fromStrings.ids)
        #expect(fromBytes.ids.dropFirst().elementsEqual(made))
        var empty = KeyTable()
        #expect(empty.intern(utf8: nil) == 0 && empty.count == 1)
    }
}
