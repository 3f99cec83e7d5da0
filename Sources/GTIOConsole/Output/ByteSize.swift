import Foundation

/// A size in bytes as people read it: whole kilobytes below a megabyte, megabytes with one
/// decimal from there on (decimal units, as `status` gives the store's size).
enum ByteSize {
    static func text(_ bytes: Int) -> String {
        bytes < 1_000_000 ? "\((bytes + 500) / 1000) KB" : String(format: "%.1f MB", Double(bytes) / 1e6)
    }
}
