import Foundation
import Gateway
import Logging
import Modem
import ModemSimulator
import SMSCipher
import Store
import Testing

/// The suites that run real gateways over the simulator, one at a time: each pair of gateways runs
/// two libgammu modem threads and a simulator, and on a small machine several at once (beside the
/// other targets' modem tests) would make connections and watchdogs miss their deadlines.
@Suite("Gateways over the simulator", .serialized)
struct GatewayIntegrationTests {}

/// Two gateways, each with its own temporary store and simulated modem on one shared network,
/// whose contacts are paired with each other ("bob" on A's side is B, "alice" on B's side is A).
final class GatewayPair: @unchecked Sendable {
    struct Side {
        /// The peer's contact name in this side's store.
        let peer: String
        let number: String
        let directory: URL
        let store: UnlockedStore
        let sim: SimulatedModem
        let gateway: Gateway
        let task: Task<Void, any Error>
    }

    let seed: UInt64
    let network: SimulatedNetwork
    let root: URL
    let a: Side
    let b: Side

    static let numberA = "+15550001"
    static let numberB = "+15550002"

    init(
        test: String, seed: UInt64 = UInt64.random(in: 1...UInt64.max), faults: FaultPlan = .none,
        intervals: GatewayConfiguration.Intervals = GatewayPair.fastIntervals, callTimeout: Double = 10
    ) throws {
        self.seed = seed
        print("\(test): simulator seed \(seed)")
        root = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-gateway-tests-\(UUID().uuidString.prefix(8))")
        var simLogger = Logger(label: "smsgw.sim.test")
        simLogger.logLevel = .critical
        network = SimulatedNetwork(directory: root.appendingPathComponent("sim"), seed: seed, faults: faults, logger: simLogger)
        let simA = try network.addModem(number: Self.numberA)
        let simB = try network.addModem(number: Self.numberB)
        try network.start()

        let storeA = try Self.makeStore(root.appendingPathComponent("a"))
        let storeB = try Self.makeStore(root.appendingPathComponent("b"))
        try Self.pair(storeA, named: "bob", number: Self.numberB, with: storeB, named: "alice", number: Self.numberA)

        a = try Self.side(peer: "bob", number: Self.numberA, store: storeA, sim: simA, dir: root.appendingPathComponent("a"),
                          intervals: intervals, callTimeout: callTimeout)
        b = try Self.side(peer: "alice", number: Self.numberB, store: storeB, sim: simB, dir: root.appendingPathComponent("b"),
                          intervals: intervals, callTimeout: callTimeout)
    }

    static let fastIntervals = GatewayConfiguration.Intervals(
        pollSeconds: 1, healthSeconds: 1, retryBaseSeconds: 0.5, retryMaxSeconds: 2, resyncRetrySeconds: 3)

    static var quietLogger: Logger {
        var logger = Logger(label: "smsgw.gateway.test")
        logger.logLevel = ProcessInfo.processInfo.environment["SMSGW_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }

    static func makeStore(_ directory: URL) throws -> UnlockedStore {
        let store = try GatewayStore.open(directory: directory, logger: quietLogger)
        return try store.createAccount(username: "tester", passphrase: "correct horse battery staple", parameters: .minimum)
    }

    /// Pairs two stores' contacts as `smsgw contact add` + `contact pair` would.
    static func pair(_ first: UnlockedStore, named firstName: String, number firstNumber: String,
                     with second: UnlockedStore, named secondName: String, number secondNumber: String) throws {
        var rng = SystemRandomNumberGenerator()
        let codeFirst = PairingCode.generate(using: &rng)
        let codeSecond = PairingCode.generate(using: &rng)
        try first.write { tx in
            let contact = try tx.addContact(name: firstName, number: PhoneNumber(firstNumber), pairingCode: Data(codeFirst.grouped.utf8))
            try tx.setPaired(contact, session: JSONEncoder().encode(Session.paired(mine: codeFirst, peer: codeSecond)))
        }
        try second.write { tx in
            let contact = try tx.addContact(name: secondName, number: PhoneNumber(secondNumber), pairingCode: Data(codeSecond.grouped.utf8))
            try tx.setPaired(contact, session: JSONEncoder().encode(Session.paired(mine: codeSecond, peer: codeFirst)))
        }
    }

    private static func side(
        peer: String, number: String, store: UnlockedStore, sim: SimulatedModem, dir: URL,
        intervals: GatewayConfiguration.Intervals, callTimeout: Double
    ) throws -> Side {
        let configuration = GatewayConfiguration(
            dataDirectory: dir, intervals: intervals,
            modems: [ModemSettings(name: "modem-\(peer)", source: .device(path: sim.devicePath, connection: "at"),
                                   callTimeoutSeconds: callTimeout)])
        let gateway = try Gateway(store: store, configuration: configuration, logger: quietLogger, handlesSignals: false)
        let task = Task { try await gateway.run() }
        return Side(peer: peer, number: number, directory: dir, store: store, sim: sim, gateway: gateway, task: task)
    }

    /// Waits until both gateways' modems are ready.
    func waitUntilReady(timeout: Duration = .seconds(120)) async throws -> Bool {
        await eventually(timeout: timeout) {
            let statusA = try? GatewayActions.status(store: self.a.store)
            let statusB = try? GatewayActions.status(store: self.b.store)
            return (statusA?.hasReadyModem ?? false) && (statusB?.hasReadyModem ?? false)
        }
    }

    func stop() async {
        await a.gateway.shutdown()
        await b.gateway.shutdown()
        _ = try? await a.task.value
        _ = try? await b.task.value
        network.stop()
        try? FileManager.default.removeItem(at: root)
    }
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(45), _ condition: () async throws -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if (try? await condition()) == true { return true }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return (try? await condition()) == true
}

extension UnlockedStore {
    /// Incoming log rows with `status`.
    func incoming(_ status: MessageStatus) throws -> [LogEntry] {
        try log(limit: 10_000).filter { $0.direction == .incoming && $0.status == status }
    }

    func outbox(_ states: Set<OutboxState> = []) throws -> [OutboxItem] {
        try read { try $0.outboxItems(in: states) }
    }
}
