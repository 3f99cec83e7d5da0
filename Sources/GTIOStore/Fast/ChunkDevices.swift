/// The device ids of a chunk of events as the reading thread copies them out of SQLite's rows,
/// keyed on the folding thread (a fold's table of devices). The reading thread is the busier of
/// the two through a rebuild (SQLite's own work is half of it), and devices, apart from every
/// other id, are the one kind of id it can leave to the other thread whole.
public struct ChunkDevices: Sendable {
    /// The ids' UTF-8 bytes one after another; device n (from 1) ends at `ends[n - 1]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    /// Copies a device id's bytes in; returns its number in the chunk, 0 for none.
    mutating func add(_ id: UnsafeBufferPointer<UInt8>?) -> Int {
        guard let id else { return 0 }
        bytes.append(contentsOf: id)
        ends.append(bytes.count)
        return ends.count
    }

    /// Replaces each event's device number by the device's key in `table`, adding the devices it
    /// has not seen in the order they came.
    public func key(_ events: inout [KeyedEvent], with table: inout KeyTable) {
        var keys = [0]
        keys.reserveCapacity(ends.count + 1)
        bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            for end in ends {
                keys.append(table.intern(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end])))
                start = end
            }
        }
        for index in events.indices { events[index].device = keys[events[index].device] }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }
}
