import Foundation

/// Puts a report's files in place all at once: they are written to a hidden folder beside the
/// target, then renamed into place, so a reader never sees half a report.
public enum ReportWriter {
    /// Writes `files` to `folder/name/` and returns that path.
    @discardableResult
    public static func write(_ files: [(name: String, contents: String)], to folder: String, as name: String) throws -> String {
        let fileManager = FileManager.default
        var isFolder: ObjCBool = false
        if fileManager.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw ReportError.outIsAFile(folder)
        }
        let target = (folder as NSString).appendingPathComponent(name)
        let staging = (folder as NSString).appendingPathComponent(".\(name).\(getpid()).tmp")
        do {
            try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try? fileManager.removeItem(atPath: staging)
            try fileManager.createDirectory(atPath: staging, withIntermediateDirectories: false)
            for file in files {
                try Data(file.contents.utf8).write(to: URL(fileURLWithPath: (staging as NSString).appendingPathComponent(file.name)))
            }
        } catch {
            try? fileManager.removeItem(atPath: staging)
            throw ReportError.cannotWrite(target, Self.reason(error))
        }
        // A report already there is moved aside first; the new one then appears with one rename.
        // (renameat2's RENAME_EXCHANGE would close the moment between the two, but Glibc's
        // Swift module does not export it.)
        let previous = (folder as NSString).appendingPathComponent(".\(name).\(getpid()).old")
        let hadPrevious = rename(target, previous) == 0
        guard rename(staging, target) == 0 else {
            let why = String(cString: strerror(errno))
            if hadPrevious { rename(previous, target) }
            try? fileManager.removeItem(atPath: staging)
            throw ReportError.cannotWrite(target, why)
        }
        if hadPrevious { try? fileManager.removeItem(atPath: previous) }
        return target
    }

    private static func reason(_ error: Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
