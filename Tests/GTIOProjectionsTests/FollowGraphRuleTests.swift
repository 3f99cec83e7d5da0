import Testing
@testable import GTIOProjections

@Suite struct FollowGraphRuleTests {
    @Test func followingAPublicUserMakesAFollowingEdge() {
        var log = TestLog()
        log.follow("a", "b")
        let models = log.models()
        #expect(models.state.edge(from: "a", to: "b") == .following)
        #expect(models.followers(of: "b") == ["a"])
        #expect(models.following(of: "a") == ["b"])
    }

    @Test func followingAPrivateUserMakesARequestThatIsNotCounted() {
        var log = TestLog()
        log.setPrivate("b", true)
        log.follow("a", "b")
        let models = log.models()
        #expect(models.state.edge(from: "a", to: "b") == .requested)
        #expect(models.followers(of: "b") == [])
        #expect(models.followerCount("b") == 0)
        #expect(models.followButton(viewer: "a", target: "b") == 2)
    }

    @Test func selfFollowsAndFollowsAcrossABlockAreIgnored() {
        var log = TestLog()
        log.follow("a", "a")
        log.block("b", "a")
        log.follow("a", "b")
        log.follow("b", "a")
        let models = log.models()
        #expect(models.state.edge(from: "a", to: "a") == nil)
        #expect(models.state.edge(from: "a", to: "b") == nil)
        #expect(models.state.edge(from: "b", to: "a") == nil)
        #expect(models.anomalies().map(\.count).reduce(0, +) == 3)
    }

    @Test func followingTwiceIsANoOp() {
        var log = TestLog()
        log.follow("a", "b")
        log.follow("a", "b")
        #expect(log.models().followerCount("b") == 1)
    }

    @Test func unfollowRemovesAFollowingOrARequestedEdge() {
        var log = TestLog()
        log.setPrivate("c", true)
        log.follow("a", "b")
        log.follow("a", "c")
        log.unfollow("a", "b")
        log.unfollow("a", "c")
        let models = log.models()
        #expect(models.state.edge(from: "a", to: "b") == nil)
        #expect(models.state.edge(from: "a", to: "c") == nil)
    }

    @Test func approvalTurnsARequestIntoFollowingAndDeclineRemovesIt() {
        var log = TestLog()
        log.setPrivate("owner", true)
        log.follow("a", "owner")
        log.follow("b", "owner")
        log.approve("owner", "a")
        log.decline("owner", "b")
        log.approve("owner", "c")  // no request: a no-op
        let models = log.models()
        #expect(models.state.edge(from: "a", to: "owner") == .following)
        #expect(models.state.edge(from: "b", to: "owner") == nil)
        #expect(models.state.edge(from: "c", to: "owner") == nil)
        #expect(models.followers(of: "owner") == ["a"])
    }

    @Test func approvingOrDecliningAFollowingEdgeChangesNothing() {
        var log = TestLog()
        log.follow("a", "owner")
        log.decline("owner", "a")
        #expect(log.models().state.edge(from: "a", to: "owner") == .following)
    }

    @Test func goingPublicApprovesEveryPendingRequest() {
        var log = TestLog()
        log.setPrivate("b", true)
        log.follow("a", "b")
        log.follow("c", "b")
        log.setPrivate("b", false)
        #expect(log.models().followers(of: "b") == ["a", "c"])
    }

    @Test func goingPrivateKeepsExistingFollowers() {
        var log = TestLog()
        log.follow("a", "b")
        log.setPrivate("b", true)
        log.follow("c", "b")
        let models = log.models()
        #expect(models.state.edge(from: "a", to: "b") == .following)
        #expect(models.state.edge(from: "c", to: "b") == .requested)
    }

    @Test func blockingRemovesBothEdgesWhateverTheirStateAndUnblockRestoresNone() {
        var log = TestLog()
        log.setPrivate("b", true)
        log.follow("a", "b")   // requested
        log.follow("b", "a")   // following
        log.block("a", "b")
        log.unblock("a", "b")
        let models = log.models()
        #expect(models.state.edge(from: "a", to: "b") == nil)
        #expect(models.state.edge(from: "b", to: "a") == nil)
        #expect(models.state.isBlocked("a", "b") == false)
    }

    @Test func followButtonIsOffFollowingRequestedOrNoneForOneself() {
        var log = TestLog()
        log.setPrivate("p", true)
        log.follow("v", "f")
        log.follow("v", "p")
        let models = log.models()
        #expect(models.followButton(viewer: "v", target: "x") == 0)
        #expect(models.followButton(viewer: "v", target: "f") == 1)
        #expect(models.followButton(viewer: "v", target: "p") == 2)
        #expect(models.followButton(viewer: "v", target: "v") == nil)
    }

    @Test func listsSortByLowercasedDisplayNameByCodePointsThenID() {
        var log = TestLog()
        log.signUp("u1", name: "zoë")
        log.signUp("u2", name: "Émile")
        log.signUp("u3", name: "adam")
        log.signUp("u4", name: "Adam")
        log.signUp("u5", name: "bob")
        log.rename("u5", "Zed")           // the latest name counts
        log.signUp("u6", name: "ann")
        log.signUp("u6", name: "Yan")     // a second sign-up renames
        log.rename("u6", nil)             // a profile update without a name keeps it
        for user in ["u1", "u2", "u3", "u4", "u5", "u6", "u0"] { log.follow(user, "star") }
        let models = log.models()
        // "adam" = "adam" → by id; "u0" has no name and sorts as "u0"; "zed" < "zoë"; "émile" (U+00E9) last.
        #expect(models.followers(of: "star") == ["u3", "u4", "u0", "u6", "u5", "u1", "u2"])
        #expect(models.name(of: "u6") == "Yan")
        #expect(models.name(of: "u0") == nil)
        #expect(models.state.signup(of: "u6")?.provider == "facebook")
    }

    /// A capital sigma ending a word lowercases to a final sigma (U+03C2), which sorts before
    /// σ (U+03C3): "ΟΔΟΣ" is "οδος" and comes before "οδοσ" rather than tying with it.
    @Test func aCapitalSigmaEndingAWordLowercasesToAFinalSigma() {
        var log = TestLog()
        log.signUp("a", name: "οδοσ")
        log.signUp("z", name: "ΟΔΟΣ")
        log.signUp("m", name: "ΣΑΣ")
        for user in ["a", "z", "m"] { log.follow(user, "star") }
        #expect(log.models().followers(of: "star") == ["z", "a", "m"])
        // What Python's str.lower() gives for each.
        #expect(NameOrder.lowercased("ΣΑΣ") == "σας")
        #expect(NameOrder.lowercased("Σ") == "σ")
        #expect(NameOrder.lowercased("ΑΣ'") == "ας'")
        #expect(NameOrder.lowercased("AΣ.b") == "aσ.b")
        #expect(NameOrder.lowercased("ΌΣΟΣ Σ") == "όσος σ")
        #expect(NameOrder.lowercased("İ Émile") == "i\u{307} émile")
        #expect(NameOrder.lowercased("İΣ") == "i\u{307}ς")
    }

    @Test func usersWhoNeverSignedUpAreTreatedLikeAnyoneElse() {
        var log = TestLog()
        log.follow("ghost", "star")
        let models = log.models()
        #expect(models.followers(of: "star") == ["ghost"])
        #expect(models.knows(user: "star"))
        #expect(!models.knows(user: "nobody"))
    }
}
