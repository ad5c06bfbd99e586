import Foundation
import TestSupport
import Testing

/// The simulated network's own directory, when none is given, goes when the network stops.
@Suite("Simulator directory")
struct SimulatorDirectoryTests {
    @Test("serve --sim without --sim-dir removes its temporary network directory when it stops; a given one is kept")
    func temporaryDirectoryGoes() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let temporary = root.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let networks = { try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("smsgw-sim-") } }

            let daemon = try ServeProcess(alice, ["--sim"], in: root, environment: ["TMPDIR": temporary.path])
            try await daemon.waitUntilServing(alice)
            #expect(try networks().count == 1)
            #expect(try await daemon.stop() == 0)
            let left = try networks()
            #expect(left.isEmpty, "\(left)")

            let given = root.appendingPathComponent("sim-given")
            let kept = try ServeProcess(alice, ["--sim", "--sim-dir", given.path], in: root)
            try await kept.waitUntilServing(alice)
            #expect(try await kept.stop() == 0)
            #expect(FileManager.default.fileExists(atPath: given.appendingPathComponent("traffic.log").path))
        }
    }
}
