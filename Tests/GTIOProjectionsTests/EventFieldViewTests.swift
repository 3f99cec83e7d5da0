import GTIOCatalog
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing
@testable import GTIOProjections

/// Every field a rule reads, from a line of the contract through the validator, the store and
/// the fold's scan (which reads only `foldColumns`) to its view: a field kept in another column
/// than the view reads, or a column the scan skips, shows here as a wrong or missing value.
@Suite struct EventFieldViewTests {
    /// The events of `lines` as the fold receives them, with the scan's key tables.
    func folded(_ lines: [String]) throws -> (events: [KeyedEvent], keys: KeyTable, users: KeyTable) {
        let folder = TemporaryDirectory()
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let events = try lines.map { try EventValidator.validate($0).get() }
        _ = try store.append(EventBatch(source: "fields", events: events.enumerated().map { ($0.offset, $0.element) }))
        let scan = KeyedScan(keys: KeyTable(), users: KeyTable(), columns: \.foldColumns)
        var keyed: [KeyedEvent] = []
        try scan.run(store, LogScope()) { keyed += $0.events }
        return (keyed, scan.keys, scan.users)
    }

    func line(_ id: String, _ type: String, _ data: String, user: String = "u1") -> String {
        #"{"id":"\#(id)","type":"\#(type)","at":"2012-04-23T00:00:00Z","user":"\#(user)","data":\#(data)}"#
    }

    @Test func eachViewReadsItsFieldsFromTheColumnsTheValidatorFills() throws {
        let (events, keys, users) = try folded([
            line("1", "user.signed_up", #"{"provider":"yahoo","name":"Ann A"}"#),
            line("2", "user.profile_updated", #"{"name":"Ann B","bio":"not read"}"#),
            line("3", "user.privacy_changed", #"{"private":true}"#),
            line("4", "user.followed", #"{"target":"u2","via":"quickadd"}"#),
            line("5", "post.created", #"{"post":"p1","kind":"product","voting":false,"description":"red dress"}"#),
            line("6", "post.voted", #"{"post":"p1","verdict":"change_it"}"#),
            line("7", "post.flagged", #"{"post":"p1","reason":"spam"}"#),
            line("8", "review.added", #"{"review":"r1","post":"p1","text":"lovely"}"#),
            line("9", "review.flagged", #"{"review":"r1"}"#),
            line("10", "moderation.resolved", #"{"item":"post:p1","action":"remove","note":"clear spam"}"#),
            line("11", "quickadd.shown", #"{"suggested":["u3","u4"]}"#),
        ])
        try #require(events.count == 11)
        #expect(events[0].profile.provider == "yahoo")
        #expect(events[0].profile.name == "Ann A")
        #expect(events[1].profile.name == "Ann B")
        #expect(events[2].privacy.isPrivate == true)
        #expect(users.id(events[3].follow.target) == "u2")
        #expect(events[3].follow.via == "quickadd")
        let creation = events[4].postCreation
        #expect(keys.id(creation.post) == "p1")
        #expect(creation.kind == "product")
        #expect(creation.voting == false)
        #expect(creation.description == "red dress")
        #expect(keys.id(events[5].vote.post) == "p1")
        #expect(events[5].vote.verdict == "change_it")
        #expect(keys.id(events[6].flagging.target) == "p1")
        #expect(events[6].flagging.reason == "spam")
        let addition = events[7].reviewAddition
        #expect(keys.id(addition.review) == "r1")
        #expect(keys.id(addition.post) == "p1")
        #expect(addition.text == "lovely")
        #expect(keys.id(events[8].flagging.target) == "r1")
        #expect(events[8].flagging.reason == nil, "review.flagged has no reason in the contract")
        let resolution = events[9].resolution
        #expect(keys.id(resolution.item) == "post:p1")
        #expect(resolution.action == "remove")
        #expect(resolution.note == "clear spam")
        #expect(events[10].quickAddShown.suggested.map { users[$0] } == ["u3", "u4"])
    }

    @Test func fieldsLeftOutAreAbsentNotAnotherFieldsValue() throws {
        let (events, _, _) = try folded([
            line("1", "user.followed", #"{"target":"u2"}"#),
            line("2", "post.created", #"{"post":"p1","kind":"outfit","voting":true}"#),
            line("3", "post.flagged", #"{"post":"p1"}"#),
            line("4", "moderation.resolved", #"{"item":"post:p1","action":"dismiss"}"#),
        ])
        #expect(events[0].follow.via == nil)
        #expect(events[1].postCreation.description == nil)
        #expect(events[2].flagging.reason == nil)
        #expect(events[3].resolution.note == nil)
    }
}
