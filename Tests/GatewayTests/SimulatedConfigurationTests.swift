import Foundation
import Gateway
import SimulatedGateway
import Testing

/// What `serve --sim` keeps of the configuration it was given.
@Suite("serve --sim's configuration")
struct SimulatedConfigurationTests {
    /// A node whose store is on PostgreSQL runs on it under `--sim` too, not on a SQLite store
    /// its data directory does not hold.
    @Test("[store] is kept, with the data directory, [node] and [outbox]; the modems and timing are the simulator's")
    func storeKept() {
        var given = GatewayConfiguration(dataDirectory: URL(fileURLWithPath: "/srv/node-2"))
        given.store.backend = .postgresql
        given.store.url = "postgresql://smsgw@db.example:5432/smsgw"
        given.store.passwordFile = "/etc/smsgw/database-password"
        given.node.name = "node-2"
        given.outbox = OutboxSettings(maxAttempts: 1, maxAgeSeconds: 60)
        given.modems = [ModemSettings(name: "m1", source: .device(path: "/dev/ttyUSB0", connection: "at"))]
        let simulated = given.simulated(logLevel: .info)
        #expect(simulated.store == given.store)
        #expect(simulated.dataDirectory == given.dataDirectory && simulated.node.name == "node-2")
        #expect(simulated.outbox == given.outbox)
        #expect(simulated.modems.isEmpty && simulated.intervals == .simulated)
    }
}
