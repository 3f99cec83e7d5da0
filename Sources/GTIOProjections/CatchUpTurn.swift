import Foundation
import GTIOStore

/// One process at a time catches a store's read models up; the next goes on from what the one
/// before wrote (the tables and its saved fold state) rather than folding the same events again.
///
/// Two writers that finish together (two ingesters of one server, an ingest beside a decision)
/// otherwise each fold everything since the tables' checkpoint and race to write it. The turn
/// is a lead of its own role (`EventStore.lead`), so the operating system or the server lets go
/// of it when its holder dies, however it dies.
public enum CatchUpTurn {
    /// The role whose lead a process holds while it catches the tables up.
    public static let role = "catch-up"

    /// How long a process waits for its turn before it catches up without one: longer than a
    /// catch-up of the largest logs takes (a 20 M-event fold, ~40 s), so that only a holder that
    /// hangs (stopped, not dead: a dead one loses the turn) is passed by. The turn saves work;
    /// what the tables hold never depends on it (a catch-up applies only on top of where the
    /// checkpoints stand).
    public static let longestWait = 300.0

    /// The turn of `store`, once no other process holds it; `longWait` is called once the wait
    /// has passed a second, for the caller to say what it waits for. Nil for a store this process
    /// may not write, which cannot catch anything up anyway, and after `longestWait`.
    public static func take(_ store: any EventStore, longWait: () -> Void = {}) throws -> (any StoreLease)? {
        do {
            if let turn = try store.lead(role, waitingUpTo: 1) { return turn }
            longWait()
            return try store.lead(role, waitingUpTo: longestWait - 1)
        } catch let error as StoreError where error.refusesWrites {
            return nil
        }
    }
}
