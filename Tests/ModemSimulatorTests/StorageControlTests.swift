import Foundation
import TestSupport
import Testing

@testable import ModemSimulator

#if canImport(Glibc)
    import Glibc
#endif

/// The private directory, `clear`, and the control verbs that shape a modem's storage.
@Suite("Storage and privacy controls")
struct StorageControlTests {
    static let a = "+15550001"
    static let b = "+15550002"

    private func network() throws -> SimulatorRig {
        try SimulatorRig.started(seed: 3) { network in
            try network.addModem(number: Self.a)
            try network.addModem(number: Self.b)
        }
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o777
    }

    @Test("The directory is 0700; the control socket, traffic log and gammurc files are 0600")
    func privateFiles() throws {
        let sim = try network()
        defer { sim.close() }
        _ = try sim.gammurc(Self.a)
        #expect(mode(sim.directory.path) == 0o700)
        #expect(mode(sim.network.controlSocketPath) == 0o600)
        #expect(mode(sim.network.trafficLogPath) == 0o600)
        #expect(mode(sim.directory.appendingPathComponent("gammurc-1").path) == 0o600)
    }

    @Test("An existing directory of this user is made private before the network starts")
    func existingDirectoryIsTightened() throws {
        let scratch = TemporaryDirectory(prefix: "smsgw-simtest-open")
        let directory = scratch.root
        _ = chmod(directory.path, 0o777)
        defer { withExtendedLifetime(scratch) {} }
        let network = SimulatedNetwork(directory: directory)
        try network.addModem(number: Self.a)
        try network.start()
        defer { network.stop() }
        #expect(mode(directory.path) == 0o700)
    }

    @Test("clear removes every fault on every modem: plans, hung firmware, unplugged ports")
    func clearEverything() throws {
        let sim = try network()
        defer { sim.close() }
        let socket = sim.network.controlSocketPath
        for command in [
            "drop 0.5", "drop 0.5 \(Self.a)", "corrupt 1 \(Self.b)", "senderror 38 1 \(Self.b)", "hang \(Self.a) on", "unplug \(Self.b)",
        ] {
            #expect(try ControlClient.send(command, socketPath: socket) == "OK", "\(command)")
        }
        #expect(try ControlClient.send("clear", socketPath: socket) == "OK")
        #expect(sim.network.faults.isEmpty)
        for number in [Self.a, Self.b] {
            let modem = try sim.modem(number)
            #expect(modem.faults.isEmpty && !modem.isHung && modem.isPlugged, "\(number)")
        }
        let client = try ATClient(path: try sim.modem(Self.b).devicePath)
        #expect(try client.command("AT")?.contains("OK") == true)
    }

    @Test("store, capacity and delivery shape the storage as AT+CMGL, AT+CPMS and AT+CNMI=? show it")
    func storageVerbs() throws {
        let sim = try network()
        defer { sim.close() }
        let socket = sim.network.controlSocketPath
        #expect(try ControlClient.send("store \(Self.a) 0 0791ZZZZ", socketPath: socket) == "OK 1")
        #expect(try ControlClient.send("store \(Self.a) 9 00", socketPath: socket).hasPrefix("ERROR"))
        #expect(try ControlClient.send("capacity \(Self.a) 1", socketPath: socket) == "OK")
        #expect(try ControlClient.send("delivery \(Self.a) direct", socketPath: socket) == "OK")
        let client = try ATClient(path: try sim.modem(Self.a).devicePath)
        let listing = try #require(try client.command("AT+CMGL=4"))
        #expect(listing.contains("+CMGL: 1,0,,") && listing.contains("0791ZZZZ"))
        #expect(try client.command("AT+CPMS?")?.contains("\"SM\",1,1") == true)
        #expect(try client.command("AT+CNMI=?")?.contains("(0-2),(0,2)") == true)
        #expect(try ControlClient.send("injectpart +15559999 \(Self.b) 7 2 3 middle part", socketPath: socket) == "OK")
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 2) { b.storedTexts == ["middle part"] })
    }
}
