import Foundation

/// A file an option names for an answer or a chart (`--out`, `--chart`), written whole.
enum OutputFile {
    /// Writes `data` to `path`, or says what keeps it from being written: a folder where a
    /// file was asked for, a folder that does not exist (or is a file), or a file that cannot be
    /// written.
    static func write(_ data: Data, to path: String, option: String) throws {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ConsoleError.badArgument("\(option) \(path) is a folder; give a file")
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            guard manager.fileExists(atPath: folder, isDirectory: &isFolder) else {
                throw ConsoleError.badArgument("\(option) \(path): the folder \(folder) does not exist")
            }
            guard isFolder.boolValue else { throw ConsoleError.badArgument("\(option) \(path): \(folder) is a file, not a folder") }
        }
        guard manager.createFile(atPath: path, contents: data) else {
            throw ConsoleError.failed("\(option) \(path) cannot be written (check its permissions and free space)")
        }
    }
}
