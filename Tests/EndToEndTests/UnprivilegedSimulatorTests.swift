import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smsgw sim` as a normal user runs it: modems that open again and again, and a directory that
/// no other user can reach into.
@Suite("The simulator as a normal user", .serialized)
struct UnprivilegedSimulatorTests {
    @Test func everyOpenAfterACloseWorksAndOtherUsersAreKeptOut() async throws {
        guard let (binary, scratch) = try UnprivilegedUser.prepare() else { return }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dir = scratch.appendingPathComponent("sim")
        let sim = try UnprivilegedUser.process(binary, ["sim", "--modems", "1", "--dir", dir.path])
        let output = scratch.appendingPathComponent("sim.out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        sim.standardOutput = handle
        sim.standardError = handle
        sim.standardInput = FileHandle.nullDevice
        try sim.run()
        defer { try? handle.close() }
        try await sim.stopping {
            let started = await eventually(timeout: .seconds(30)) {
                String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self).contains("Press Ctrl-C")
            }
            #expect(started, "the simulator did not start: \(String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self))")
            guard started else { return }

            // libgammu sets TIOCEXCL on every open; each of these is a new open after a close.
            let gammurc = dir.appendingPathComponent("gammurc-1").path
            for attempt in 1...3 {
                let result = try await offPool { try UnprivilegedUser.run("/usr/bin/gammu", ["-c", gammurc, "identify"]) }
                #expect(result.status == 0, "open \(attempt): \(result.output)")
                #expect(result.output.contains("SMSGW-SIM"), "open \(attempt): \(result.output)")
            }

            #expect(mode(dir.path) == 0o700)
            for file in ["control.sock", "traffic.log", "gammurc-1"] {
                #expect(mode(dir.appendingPathComponent(file).path) == 0o600, "\(file)")
            }
            // Another user can neither reach the control socket nor read the device links.
            if case .success(let user?) = UnprivilegedUser.account, user != "nobody", getpwnam("nobody") != nil {
                let intruder = try await offPool {
                    try UnprivilegedUser.runAs("nobody", binary, ["sim", "ctl", "--dir", dir.path, "status"])
                }
                #expect(intruder.status == 69, "another user reached the control socket: \(intruder.output)")
            }
        }
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o777
    }
}
