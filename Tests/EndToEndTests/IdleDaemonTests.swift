import Foundation
import TestSupport
import Testing

/// A daemon with nothing to do sleeps (docs/PERFORMANCE.md, "Idle"), and `smsgw send` wakes it:
/// the real `smsgw serve` on `smsgw sim`, as a user runs it.
@Suite("An idle daemon sleeps until there is work", .serialized)
struct IdleDaemonTests {
    /// Wake-ups per second of all the daemon's threads that fail the check: far above what an idle
    /// daemon needs (about 3 a second, most of them libdispatch's own once-a-second timer), far
    /// below the polling daemon's 270, so a noisy machine cannot make it fail and a return to
    /// polling cannot pass.
    static let ceiling = 50.0

    @Test("over 10 idle seconds the daemon's threads wake fewer than 50 times a second (polling woke about 270)")
    func idleWakeUps() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            try rig.startDaemon(rig.alice)
            try await GatewayRig.wait("alice's modem to be ready", timeout: 60) { try rig.status(rig.alice).modemReady }
            let pid = try #require(rig.daemonProcessID(rig.alice))
            // Past the start-up's own work (the first storage read, the health read after connecting).
            try await Task.sleep(for: .seconds(2))
            let start = ContinuousClock.now
            let before = Self.contextSwitches(of: pid)
            try await Task.sleep(for: .seconds(10))
            let after = Self.contextSwitches(of: pid)
            let (whole, fraction) = (ContinuousClock.now - start).components
            let seconds = Double(whole) + Double(fraction) / 1e18
            // Threads that started during the window count from zero; one that ended is not counted.
            let switches = after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
            let perSecond = Double(switches) / seconds
            #expect(perSecond < Self.ceiling, "the idle daemon woke \(perSecond) times a second over \(Int(seconds)) s")
            try await rig.stopDaemon(rig.alice)
        }
    }

    @Test("smsgw send wakes the daemon: with an hour between fallback reads, the text still leaves at once")
    func sendWakesTheDaemon() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            // Without the wake, a row would wait for the next fallback read, an hour away.
            let slow = ["SMSGW_INTERVALS_HEALTH_SECONDS": "3600", "SMSGW_INTERVALS_POLL_SECONDS": "3600"]
            for peer in [rig.alice, rig.bob] { try rig.startDaemon(peer, environment: slow) }
            for peer in [rig.alice, rig.bob] {
                try await GatewayRig.wait("\(peer.name)'s modem to be ready", timeout: 60) { try rig.status(peer).modemReady }
            }
            try await Task.sleep(for: .seconds(2))  // both senders asleep
            try rig.send("woken, to bob", from: rig.alice, to: rig.bob)
            try await GatewayRig.wait("bob to decrypt the text", timeout: 60) {
                try rig.log(rig.bob).contains { $0.status == "decrypted" && $0.text == "woken, to bob" }
            }
            try await rig.stopBoth()
        }
    }

    /// Voluntary and involuntary context switches of each live thread of `pid`, by thread id.
    static func contextSwitches(of pid: Int32) -> [String: Int] {
        let tasks = "/proc/\(pid)/task"
        var counts: [String: Int] = [:]
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else { continue }
            counts[thread] = status.split(separator: "\n").reduce(0) { total, line in
                guard line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") else { return total }
                return total + (Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0)
            }
        }
        return counts
    }
}
