#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The size of a file, asked of the system directly.
///
/// Foundation's `attributesOfItem` answers with a dictionary of `Any`, and the first cast of
/// one of its values scans every protocol conformance in the binary: ~0.2 ms of a one-shot
/// command's start, for one number.
public enum FileSize {
    /// The size in bytes of what is at `path`, following symbolic links; nil when nothing is
    /// there or it cannot be asked.
    public static func of(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}
