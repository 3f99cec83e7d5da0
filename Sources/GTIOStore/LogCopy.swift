import Foundation

/// Copies one store's log into another, batch for batch: the same seqs, batch numbers, times,
/// hash chain and signatures, so that the copy verifies with the same key and answers the
/// same. Each transaction on the destination holds whole batches, so an interrupted copy
/// leaves a prefix of the source, and running it again goes on from there.
public struct LogCopy {
    public let source: any EventLog
    public let destination: any EventLog

    /// What a copy did.
    public struct Outcome: Sendable, Equatable {
        /// The destination's last batch before this run (0: it started empty).
        public var resumedAfterBatch: Int64 = 0
        public var batches: Int64 = 0
        public var events: Int64 = 0
        /// Quarantine entries added or settled on the destination.
        public var quarantine = 0
        /// Both logs' events and chain head, each verified.
        public var totalEvents: Int64 = 0
        public var head: [UInt8] = EventHashChain.genesis
        /// What the verification of either store could not check there (`LogVerdict.intact`),
        /// each after the store's location and a colon.
        public var unchecked: [String] = []
    }

    public init(from source: any EventLog, to destination: any EventLog) {
        self.source = source
        self.destination = destination
    }

    /// Verifies the source's chain, copies the batches the destination lacks (`maxEvents` per
    /// transaction, at least one batch), takes over the quarantine, then verifies the destination
    /// and holds its head to the source's. `progress` hears the seq reached.
    public func run(maxEvents: Int = 20_000, progress: (Int64) -> Void = { _ in }) throws -> Outcome {
        var outcome = Outcome()
        // The source's end is pinned first: what is appended to it meanwhile is left for the
        // next run, and the chain verified just after covers at least everything copied.
        let end = try source.lastBatch()
        let sourceVerdict = try source.verify(LogAudit(), progress: { _ in })
        guard case .intact(_, _, _, let sourceUnchecked) = sourceVerdict else { throw refuse(in: source, sourceVerdict) }
        outcome.unchecked = sourceUnchecked.map { "\(source.location): \($0)" }
        let after = try destination.lastBatch()
        outcome.resumedAfterBatch = after
        if after > 0 {
            // The destination must be a prefix of the source: its last batch, hashes included
            // (which cover everything before them), the same on both sides.
            guard try bothHold(batch: after) else {
                throw StoreError.notAContinuation(
                    path: destination.location,
                    reason: "its batch \(after) is not \(source.location)'s (copy into an empty store, or the store this one was copied into)")
            }
        }
        // The next batches are read while the destination appends these: the two stores work
        // side by side rather than in turn.
        let channel = BatchChannel<Result<[CommittedBatch], any Error>>(capacity: 1)
        let reader = Thread { [source, after] in
            defer { channel.close() }
            var next = after
            while next < end {
                let read = Result { try source.committedBatches(after: next, maxEvents: maxEvents).filter { $0.record.batch <= end } }
                switch read {
                case .success(let batches):
                    guard let last = batches.last else { return }
                    next = last.record.batch
                case .failure:
                    next = end  // the appending side throws it
                }
                guard channel.send(read) else { return }
            }
        }
        reader.start()
        do {
            while let read = channel.receive() {
                let batches = try read.get()
                try destination.appendCommitted(batches)
                outcome.batches += Int64(batches.count)
                outcome.events += batches.reduce(0) { $0 + Int64($1.events.count) }
                if let seq = batches.compactMap(\.record.lastSeq).last { progress(seq) }
            }
        } catch {
            channel.cancel()
            throw error
        }
        outcome.quarantine = try destination.copyQuarantine(source.quarantineEntries(includeSettled: true, limit: nil))

        let verdict = try destination.verify(LogAudit(), progress: { _ in })
        guard case .intact(let events, let head, _, let unchecked) = verdict else { throw refuse(in: destination, verdict) }
        outcome.unchecked += unchecked.map { "\(destination.location): \($0)" }
        // Both end with the same batch, hashes and all: the same chain head.
        if end > 0 {
            guard try destination.lastBatch() == end, try bothHold(batch: end) else {
                throw StoreError.notAContinuation(
                    path: destination.location, reason: "after the copy its last batch is not \(source.location)'s batch \(end)")
            }
        }
        outcome.totalEvents = events
        outcome.head = head
        return outcome
    }

    /// Whether batch `number` is on both sides and the same there: record, events, hashes and
    /// signature.
    private func bothHold(batch number: Int64) throws -> Bool {
        let theirs = try source.committedBatches(after: number - 1, maxEvents: 0).first
        let ours = try destination.committedBatches(after: number - 1, maxEvents: 0).first
        return theirs != nil && theirs == ours
    }

    private func refuse(in log: any EventLog, _ verdict: LogVerdict) -> StoreError {
        guard case .broken(let seq, let problem) = verdict else { return .database("\(verdict)") }
        return .notAContinuation(
            path: destination.location,
            reason: "\(log.location) is not intact at seq \(seq) (\(problem)); gtio verify --store \(log.location) says more")
    }
}
