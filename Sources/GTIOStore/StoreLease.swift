/// The lead of one role among every process using a store (the read models' projector), held
/// while this value lives and not released: it ends when `release` is called, or when the
/// process ends however it ends (the operating system or the server lets go of it).
public protocol StoreLease: AnyObject, Sendable {
    /// Whether the lead is still this process's: false once released, or when the server that
    /// kept it lost this process's connection (another process may lead now).
    var isHeld: Bool { get }
    /// Gives the lead up.
    func release()
}
