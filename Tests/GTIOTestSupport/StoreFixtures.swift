import GTIOCatalog
import GTIOStore

/// A valid post.hearted line with id `id`, by `user`, at second `second` of 2012-04-23.
public func heart(_ id: String, user: String = "u1", post: String = "p1", second: Int = 0) -> ValidatedEvent {
    let at = "2012-04-23T00:00:" + (second < 10 ? "0\(second)" : "\(second)") + "Z"
    return try! EventValidator.validate(
        #"{"id":"\#(id)","type":"post.hearted","at":"\#(at)","user":"\#(user)","data":{"post":"\#(post)"}}"#).get()
}

/// `events` as one batch of `source`, numbered from line 1.
public func batch(_ events: [ValidatedEvent], source: String = "test.jsonl", rejected: [RejectedLine] = []) -> EventBatch {
    EventBatch(source: source, events: events.enumerated().map { ($0.offset + 1, $0.element) }, rejected: rejected)
}
