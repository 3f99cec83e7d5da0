import GTIOTestSupport
import Testing
@testable import GTIOCatalog

/// A line with a valid envelope around `data`, for tests that vary one thing.
private func line(
    type: String = "post.hearted", user: String? = #""u1""#, data: String = #"{"post":"p1"}"#, extra: String = ""
) -> String {
    var text = #"{"id":"e1","type":"\#(type)","at":"2012-04-23T00:00:00Z""#
    if let user { text += #","user":\#(user)"# }
    return text + #","data":\#(data)\#(extra)}"#
}

private func reason(_ text: String) -> String? {
    if case .failure(let rejection) = EventValidator.validate(text) { return rejection.description }
    return nil
}

@Suite struct EventValidatorTests {
    @Test func acceptsEveryExampleOfTheContract() throws {
        let lines = SharedFiles.exampleLines
        #expect(lines.count == 37)
        var types = Set<EventType>()
        for text in lines {
            let event = try EventValidator.validate(text).get()
            types.insert(event.type)
            #expect(event.original == text)
        }
        #expect(types == Set(EventType.allCases))
    }

    @Test func decodesFieldsIntoTypedColumns() throws {
        let event = try EventValidator.validate(
            #"{"id":"c-9cd","type":"post.created","at":"2012-04-24T12:10:50.283+02:00","user":"ua4","v":2,"data":{"post":"p25","kind":"product","voting":false,"description":"¿qué?","product":"prd1","price":12.5,"location":{"name":"Soho","lat":1,"lon":2.5},"brands":["Zara"],"frames":3}}"#
        ).get()
        #expect(event.id == "c-9cd")
        #expect(event.type == .postCreated)
        #expect(event.at.description == "2012-04-24T10:10:50.283Z")
        #expect(event.user == "ua4")
        #expect(event.version == 2)
        #expect(event.subject == "p25")
        #expect(event.value == "product")
        #expect(event.flag == false)
        #expect(event.text == "¿qué?")
        #expect(event.object == "prd1")
        #expect(event.number == 12.5)

        let review = try EventValidator.validate(line(type: "review.added", data: #"{"review":"r1","post":"p1","text":""}"#)).get()
        #expect(review.subject == "r1")
        #expect(review.object == "p1")
        #expect(review.text == "")

        let shown = try EventValidator.validate(line(type: "quickadd.shown", data: #"{"suggested":["a","b"]}"#)).get()
        #expect(shown.list == ["a", "b"])
    }

    @Test func keepsUnknownFieldsInTheOriginal() throws {
        let text = line(data: #"{"post":"p1","sparkle":true}"#, extra: #","trace":{"x":1}"#)
        let event = try EventValidator.validate(text).get()
        #expect(event.original == text)
        #expect(event.subject == "p1")
    }

    @Test func userIsOptionalOnlyForAnonymousTypes() throws {
        #expect(reason(line(type: "track", user: nil, data: #"{"name":"Splash"}"#)) == nil)
        #expect(reason(line(type: "app.opened", user: nil, data: #"{"first_launch":true}"#)) == nil)
        #expect(reason(line(type: "user.sign_in_failed", user: nil, data: #"{"provider":"aol"}"#)) == nil)
        #expect(reason(line(user: nil)) == "user: missing (required for post.hearted)")
        #expect(reason(line(user: "null")) == "user: missing (required for post.hearted)")
        #expect(reason(line(type: "track", user: #""""#, data: #"{"name":"x"}"#)) == "user: must not be empty (1–64 characters)")
    }

    @Test(arguments: [
        ("not json", "invalid JSON: invalid literal (expected true, false or null) at byte 1"),
        ("[1,2]", "expected a JSON object, got an array"),
        (#"{"type":"track"}"#, "id: missing"),
        (#"{"id":7,"type":"track"}"#, "id: expected a string, got 7"),
        (#"{"id":"","type":"track"}"#, "id: must not be empty (1–128 characters)"),
        (#"{"id":"e1","at":"x"}"#, "type: missing"),
        (#"{"id":"e1","type":"post.liked","at":"x"}"#, #"type: unknown type "post.liked" (gtio catalog lists the types)"#),
        (#"{"id":"e1","type":"track","at":"2012-04-23 00:00:00Z"}"#,
         #"at: "2012-04-23 00:00:00Z" is not an RFC 3339 time (expected YYYY-MM-DDTHH:MM:SS[.fff] with Z or ±HH:MM)"#),
        (#"{"id":"e1","type":"track","at":"2012-04-23T00:00:00Z","device":""}"#, "device: must not be empty (1–64 characters)"),
        (#"{"id":"e1","type":"track","at":"2012-04-23T00:00:00Z","v":1.0,"data":{}}"#,
         "v: expected an integer without fraction or exponent, got 1"),
        (#"{"id":"e1","type":"track","at":"2012-04-23T00:00:00Z","v":0,"data":{}}"#, "v: must be 1 or more, got 0"),
        (#"{"id":"e1","type":"track","at":"2012-04-23T00:00:00Z"}"#, "data: missing (use {} when empty)"),
        (#"{"id":"e1","type":"track","at":"2012-04-23T00:00:00Z","data":[]}"#, "data: expected an object, got an array"),
        (#"{"id":"e1","type":"track","at":"2012-04-23T00:00:00Z","data":{}}"#, "data.name: missing (required for track)"),
    ])
    func rejectsTheEnvelopeWithTheFirstFailingCheck(text: String, expected: String) {
        #expect(reason(text) == expected)
    }

    @Test(arguments: [
        ("post.voted", #"{"post":"p1","verdict":"maybe"}"#,
         #"data.verdict: unknown value "maybe" (expected wear_it, change_it)"#),
        ("post.voted", #"{"verdict":"maybe"}"#, "data.post: missing (required for post.voted)"),
        ("post.hearted", #"{"post":""}"#, "data.post: must not be empty (1–64 characters)"),
        ("post.hearted", #"{"post":12}"#, "data.post: expected a string, got 12"),
        ("user.privacy_changed", #"{"private":"yes"}"#, #"data.private: expected true or false, got the string "yes""#),
        ("post.created", #"{"post":"p","kind":"outfit","voting":true,"frames":2}"#, "data.frames: must be 1 or 3, got 2"),
        ("post.created", #"{"post":"p","kind":"outfit","voting":true,"frames":1.0}"#,
         "data.frames: expected an integer without fraction or exponent, got 1"),
        ("post.created", #"{"post":"p","kind":"outfit","voting":true,"price":-0.01}"#, "data.price: must be 0 or more, got -0.01"),
        ("post.created", #"{"post":"p","kind":"outfit","voting":true,"location":{"lat":1}}"#, "data.location.name: missing"),
        ("post.created", #"{"post":"p","kind":"outfit","voting":true,"location":{"name":"x","lon":"w"}}"#,
         #"data.location.lon: expected a number, got the string "w""#),
        ("post.created", #"{"post":"p","kind":"outfit","voting":true,"brands":["a",3]}"#, "data.brands[1]: expected a string, got 3"),
        ("post.created", #"{"post":"p","kind":"hat","voting":true}"#, #"data.kind: unknown value "hat" (expected outfit, product)"#),
        ("quickadd.shown", #"{"suggested":["a",""]}"#, "data.suggested[1]: must not be empty (1–64 characters)"),
        ("moderation.resolved", #"{"item":"user:u1","action":"remove"}"#,
         #"data.item: "user:u1" is not an item (expected post:<id> or review:<id>, id of 1–64 characters)"#),
        ("moderation.resolved", #"{"item":"post:","action":"remove"}"#,
         #"data.item: "post:" is not an item (expected post:<id> or review:<id>, id of 1–64 characters)"#),
        ("user.followed", #"{"target":"u2","via":"carrier pigeon"}"#,
         #"data.via: unknown value "carrier pigeon" (expected quickadd, suggested, profile, search, hearts, feed)"#),
        ("product.suggested", #"{"product":"x","channel":"gtio","to":""}"#, "data.to: must not be empty (1–64 characters)"),
    ])
    func rejectsDataFieldsNamingTheField(type: String, data: String, expected: String) {
        #expect(reason(line(type: type, data: data)) == expected)
    }

    /// Control characters cut ids short when shown (a NUL ends a C string) or drive the
    /// terminal (ESC): no id may hold one, wherever it sits in the event.
    @Test(arguments: [
        (line(user: #""alice\u0000evil""#), "user: holds the control character U+0000 at character 6 (ids must be printable)"),
        (#"{"id":"e\u001b[31m","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u","data":{"post":"p"}}"#,
         "id: holds the control character U+001B at character 2 (ids must be printable)"),
        (line(type: "app.opened", user: nil, data: #"{"first_launch":true}"#, extra: #","device":"d\u007f""#),
         "device: holds the control character U+007F at character 2 (ids must be printable)"),
        (line(data: #"{"post":"été\u0085"}"#), "data.post: holds the control character U+0085 at character 4 (ids must be printable)"),
        (line(type: "quickadd.shown", data: #"{"suggested":["a","b\nc"]}"#),
         "data.suggested[1]: holds the control character U+000A at character 2 (ids must be printable)"),
        (line(type: "moderation.resolved", data: #"{"item":"post:p\t1","action":"remove"}"#),
         "data.item: holds the control character U+0009 at character 7 (ids must be printable)"),
    ])
    func rejectsControlCharactersInIDs(text: String, expected: String) {
        #expect(reason(text) == expected)
    }

    @Test func acceptsControlCharactersInFreeText() {
        #expect(reason(line(type: "review.added", data: #"{"review":"r1","post":"p1","text":"line one\nline two"}"#)) == nil)
    }

    /// A time that converts to a year outside 0001–9999 would be shown as another year and
    /// could become "now"; a number past a double's range would be stored as infinity.
    @Test func rejectsTimesOutsideFourDigitYearsAndInfiniteNumbers() {
        let late = #"{"id":"e1","type":"post.hearted","at":"9999-12-31T23:59:59.999-23:59","user":"u","data":{"post":"p"}}"#
        #expect(reason(late) == #"at: "9999-12-31T23:59:59.999-23:59" falls outside the years 0001–9999 once converted to UTC"#)
        let early = #"{"id":"e1","type":"post.hearted","at":"0001-01-01T00:30:00+01:00","user":"u","data":{"post":"p"}}"#
        #expect(reason(early) == #"at: "0001-01-01T00:30:00+01:00" falls outside the years 0001–9999 once converted to UTC"#)
        let last = #"{"id":"e1","type":"post.hearted","at":"9999-12-31T23:59:59.999Z","user":"u","data":{"post":"p"}}"#
        #expect(reason(last) == nil)
        #expect(reason(line(type: "post.created", data: #"{"post":"p","kind":"product","voting":false,"price":1e400}"#))
            == "data.price: must be a finite number (this one is too large for a double)")
        #expect(reason(line(type: "post.created", data: #"{"post":"p","kind":"outfit","voting":true,"location":{"name":"x","lat":-1e999}}"#))
            == "data.location.lat: must be a finite number (too large for a double)")
    }

    @Test func acceptsOptionalNullsAndEmptyNonIDStrings() {
        #expect(reason(line(type: "post.flagged", data: #"{"post":"p1","reason":null}"#)) == nil)
        #expect(reason(line(type: "user.profile_updated", data: #"{"name":"","bio":null}"#)) == nil)
        #expect(reason(line(type: "moderation.resolved", data: #"{"item":"review:r1","action":"dismiss","note":""}"#)) == nil)
        // An id that starts with a combining mark is still an id after the colon.
        #expect(reason(line(type: "moderation.resolved", data: #"{"item":"post:\u0301p","action":"remove"}"#)) == nil)
    }

    @Test func countsLengthsInCodePoints() {
        let sixtyFourEmoji = String(repeating: "👏", count: 64)
        #expect(reason(line(data: #"{"post":"\#(sixtyFourEmoji)"}"#)) == nil)
        #expect(reason(line(data: #"{"post":"\#(sixtyFourEmoji)x"}"#)) == "data.post: is 65 characters long (at most 64)")
        let longID = String(repeating: "é", count: 129)
        #expect(reason(#"{"id":"\#(longID)","type":"track"}"#) == "id: is 129 characters long (at most 128)")
    }

    @Test func checksTheEnvelopeBeforeData() {
        // Both the user and data.post are wrong: the envelope's field is named.
        #expect(reason(line(user: "5", data: #"{"post":""}"#)) == "user: expected a string, got 5")
    }

    /// A track's `props` become properties in their order, a duplicate key's last value kept in
    /// its own place, in small objects and in large ones (found another way) alike.
    @Test(arguments: [3, 40]) func propsKeepTheLastOfADuplicateKeyInItsPlace(filler: Int) throws {
        let fillers = (0..<filler).map { #""k\#($0)":\#($0)"# }
        let props = ([#""a":"first""#, #""b":true"#] + fillers + [#""a":"last""#, #""c":null"#, #""b":[1,null,"x"]"#])
            .joined(separator: ",")
        let event = try EventValidator.validate(
            line(type: "track", user: nil, data: #"{"name":"Splash","props":{\#(props)}}"#, extra: #","device":"d1""#)
        ).get()
        let named = event.properties.map { "\($0.name) \($0.position) \($0.text ?? "-")" }
        #expect(named == (0..<filler).map { "props.k\($0) 0 \($0)" } + ["props.a 0 last", "props.b 0 1", "props.b 2 x"])
    }
}
