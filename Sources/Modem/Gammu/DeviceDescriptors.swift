import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Works around a libgammu 1.42 leak: when `GSM_InitConnection_Log` fails after it opened the
/// port (the modem did not answer, the call was aborted), libgammu returns without closing the
/// descriptor. The leaked descriptor keeps the port's exclusive lock (TIOCEXCL), so every later
/// open fails with "device busy" and a hung modem that recovers could never be reopened.
///
/// ``snapshot(device:)`` before the call and ``closeLeaked(device:before:)`` after a failure close
/// exactly the descriptors opened on that device during the call. Linux only (`/proc/self/fd`).
enum DeviceDescriptors {
    /// The descriptors of this process that point at `device` (symlinks resolved).
    static func snapshot(device: String) -> Set<Int32> {
        #if os(Linux)
            guard let target = resolved(device) else { return [] }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            var result: Set<Int32> = []
            for entry in entries {
                guard let fd = Int32(entry),
                    let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                    link == target
                else { continue }
                result.insert(fd)
            }
            return result
        #else
            return []
        #endif
    }

    /// Closes descriptors on `device` that were not open in `before`; returns how many.
    @discardableResult
    static func closeLeaked(device: String, before: Set<Int32>) -> Int {
        let leaked = snapshot(device: device).subtracting(before)
        // libgammu lost them: this function owns them now, and closes them.
        for fd in leaked { FileDescriptor(owning: fd, path: device).close() }
        return leaked.count
    }

    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
