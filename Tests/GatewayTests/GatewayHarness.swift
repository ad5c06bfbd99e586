import Foundation
import Gateway
import Logging
import Modem
import ModemSimulator
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// The suites that run real gateways over the simulator, one at a time: each pair of gateways runs
/// two libgammu modem threads and a simulator, and on a small machine several at once (beside the
/// other targets' modem tests) would make connections and watchdogs miss their deadlines.
@Suite("Gateways over the simulator", .serialized)
struct GatewayIntegrationTests {}

/// Two gateways, each with its own temporary store and simulated modems on one shared network,
/// whose contacts are paired with each other ("bob" on A's side is B, "alice" on B's side is A).
/// With several modems per side, each contact has all of the peer's numbers.
final class GatewayPair: @unchecked Sendable {
    struct Side {
        /// The peer's contact name in this side's store.
        let peer: String
        let number: String
        let directory: URL
        let store: UnlockedStore
        /// The side's modems, in the order of ``modemNames``.
        let sims: [SimulatedModem]
        /// The modems' names in the gateway's configuration.
        let modemNames: [String]
        let gateway: Gateway
        var sim: SimulatedModem { sims[0] }
        let task: Task<Void, any Error>
    }

    let seed: UInt64
    let network: SimulatedNetwork
    let root: URL
    let a: Side
    let b: Side
    /// Side a's store on PostgreSQL, kept as long as the pair (nil on SQLite).
    let postgres: TestStoreLocation?

    static let numberA = "+15550001"
    static let numberB = "+15550002"

    init(
        test: String, seed: UInt64 = UInt64.random(in: 1...UInt64.max), faults: FaultPlan = .none,
        intervals: GatewayConfiguration.Intervals = GatewayPair.fastIntervals, callTimeout: Double = 10,
        modemsPerSide: Int = 1, resync: ResyncSettings = ResyncSettings(), sideA backend: StoreBackendKind = .sqlite,
        statusReportsA: Bool = true
    ) throws {
        self.seed = seed
        print("\(test): simulator seed \(seed)")
        root = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-gateway-tests-\(UUID().uuidString.prefix(8))")
        network = SimulatedNetwork(
            directory: root.appendingPathComponent("sim"), seed: seed, faults: faults, logger: quietLogger("smsgw.sim.test"))
        let numbersA = (0..<modemsPerSide).map { "+1555000\(1 + 2 * $0)" }
        let numbersB = (0..<modemsPerSide).map { "+1555000\(2 + 2 * $0)" }
        let network = self.network
        let simsA = try numbersA.map { try network.addModem(number: $0) }
        let simsB = try numbersB.map { try network.addModem(number: $0) }
        try network.start()

        // Side a's store on `backend`: a PostgreSQL database (its data directory still holds its locks) or SQLite.
        let postgres = backend == .postgresql ? try location(.postgresql) : nil
        self.postgres = postgres
        let directoryA = root.appendingPathComponent("a")
        let storeA: UnlockedStore
        if let address = postgres?.address {
            storeA = try GatewayStore.open(postgres: address, directory: directoryA, logger: TestStore.logger)
                .createAccount(username: "tester", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        } else {
            storeA = try TestStore.unlockedStore(in: directoryA)
        }
        let storeB = try TestStore.unlockedStore(in: root.appendingPathComponent("b"))
        try Self.pair(storeA, named: "bob", numbers: numbersB, with: storeB, named: "alice", numbers: numbersA)

        a = try Self.side(
            peer: "bob", label: "a", number: Self.numberA, store: storeA, sims: simsA,
            dir: root.appendingPathComponent("a"), intervals: intervals, callTimeout: callTimeout, resync: resync,
            statusReports: statusReportsA)
        b = try Self.side(
            peer: "alice", label: "b", number: Self.numberB, store: storeB, sims: simsB,
            dir: root.appendingPathComponent("b"), intervals: intervals, callTimeout: callTimeout, resync: resync)
    }

    static let fastIntervals = GatewayConfiguration.Intervals(
        pollSeconds: 1, healthSeconds: 1, retryBaseSeconds: 0.5, retryMaxSeconds: 2, resyncRetrySeconds: 3)

    /// Pairs two stores' contacts as `smsgw contact add` + `contact pair` would.
    static func pair(
        _ first: UnlockedStore, named firstName: String, number firstNumber: String,
        with second: UnlockedStore, named secondName: String, number secondNumber: String
    ) throws {
        try pair(first, named: firstName, numbers: [firstNumber], with: second, named: secondName, numbers: [secondNumber])
    }

    /// Pairs two stores' contacts, each contact with all of the peer's numbers.
    static func pair(
        _ first: UnlockedStore, named firstName: String, numbers firstNumbers: [String],
        with second: UnlockedStore, named secondName: String, numbers secondNumbers: [String]
    ) throws {
        var rng = SystemRandomNumberGenerator()
        let codeFirst = PairingCode.generate(using: &rng)
        let codeSecond = PairingCode.generate(using: &rng)
        for (store, name, numbers, mine, peer) in [
            (first, firstName, firstNumbers, codeFirst, codeSecond), (second, secondName, secondNumbers, codeSecond, codeFirst),
        ] {
            try store.write { tx in
                var contact = try tx.addContact(name: name, number: nil, pairingCode: Data(mine.grouped.utf8))
                contact = try tx.setNumbers(numbers.map(PhoneNumber.init), forContactNamed: name)
                try tx.setPaired(contact, session: Data(Session.paired(mine: mine, peer: peer).storedForm()))
            }
        }
    }

    private static func side(
        peer: String, label: String, number: String, store: UnlockedStore, sims: [SimulatedModem], dir: URL,
        intervals: GatewayConfiguration.Intervals, callTimeout: Double, resync: ResyncSettings, statusReports: Bool = true
    ) throws -> Side {
        // One modem keeps the name the single-modem tests know; several are named a1, a2, ….
        let names = sims.count == 1 ? ["modem-\(peer)"] : sims.indices.map { "\(label)\($0 + 1)" }
        let configuration = GatewayConfiguration(
            dataDirectory: dir, intervals: intervals, resync: resync,
            modems: zip(names, sims).map { name, sim in
                ModemSettings(
                    name: name, source: .device(path: sim.devicePath, connection: "at"), statusReports: statusReports,
                    callTimeoutSeconds: callTimeout)
            })
        let gateway = try Gateway(
            store: store, configuration: configuration, logger: quietLogger("smsgw.gateway.test"), handlesSignals: false)
        let task = Task { try await gateway.run() }
        return Side(peer: peer, number: number, directory: dir, store: store, sims: sims, modemNames: names, gateway: gateway, task: task)
    }

    /// Waits until both gateways' modems are ready.
    func waitUntilReady(timeout: Duration = .seconds(120)) async throws -> Bool {
        await eventually(timeout: timeout) {
            let statusA = try? GatewayStatus.read(from: self.a.store)
            let statusB = try? GatewayStatus.read(from: self.b.store)
            let modems = (statusA?.modems ?? []) + (statusB?.modems ?? [])
            return modems.count == self.a.sims.count + self.b.sims.count && modems.allSatisfy { $0.state == .ready }
        }
    }

    /// Queues `count` texts each way and checks that each side decrypted exactly the other's texts.
    ///
    /// - Parameters:
    ///   - toBob: The i-th text A sends; `toAlice` the i-th text B sends.
    func exchange(
        _ count: Int, toBob: (Int) -> String, toAlice: (Int) -> String, timeout: Duration = .seconds(90),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for index in 0..<count {
            try Messages.queue(toBob(index), to: "bob", store: a.store)
            try Messages.queue(toAlice(index), to: "alice", store: b.store)
        }
        let arrived = await eventually(timeout: timeout) {
            try self.b.store.incoming(.decrypted).count == count && self.a.store.incoming(.decrypted).count == count
        }
        #expect(arrived, sourceLocation: sourceLocation)
        if !arrived { print(try diagnosis()) }
        #expect(Set(try b.store.incoming(.decrypted).compactMap(\.text)) == Set((0..<count).map(toBob)), sourceLocation: sourceLocation)
        #expect(Set(try a.store.incoming(.decrypted).compactMap(\.text)) == Set((0..<count).map(toAlice)), sourceLocation: sourceLocation)
    }

    /// Both sides' outbox states, incoming statuses and modem states, for a failure message.
    func diagnosis() throws -> String {
        try [("a", a), ("b", b)].map { label, side in
            let outbox = Dictionary(grouping: try side.store.outbox(), by: \.state.rawValue).mapValues(\.count)
            let incoming = Dictionary(
                grouping: try side.store.log(limit: 10_000).filter { $0.direction == .incoming }, by: \.status.rawValue
            ).mapValues(\.count)
            let modems = try GatewayStatus.read(from: side.store).modems.map {
                "\($0.name): \($0.state), sent \($0.sentCount), received \($0.receivedCount), last error \($0.lastError ?? "none")"
            }
            // Failed rows too: the error that ended a row is what a flaky run needs to show.
            let pending = try side.store.outbox([.queued, .submitting, .failed]).map {
                "#\($0.id) \($0.state.rawValue) attempts \($0.attempts) \($0.lastError ?? "")"
            }
            return "side \(label): outbox \(outbox) pending \(pending); incoming \(incoming); modems \(modems)"
        }.joined(separator: "\n")
    }

    /// Runs `body`, then stops the pair, before returning or throwing: the suite is serialized,
    /// so the next test must not start beside this pair's modem threads and simulator.
    func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await stop()
            throw error
        }
        await stop()
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

extension UnlockedStore {
    /// Incoming log rows with `status`.
    func incoming(_ status: MessageStatus) throws -> [LogEntry] {
        try log(limit: 10_000).filter { $0.direction == .incoming && $0.status == status }
    }

    func outbox(_ states: Set<OutboxState> = []) throws -> [OutboxItem] {
        try read { try $0.outboxItems(in: states) }
    }
}
