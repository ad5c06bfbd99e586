import Foundation
import Gateway
import Store
import Testing

@Suite("The [node] table: this daemon's name among the store's nodes")
struct NodeSettingsTests {
    @Test("The name defaults to the host name, comes from [node] or SMSGW_NODE_NAME, and sets the lease")
    func nameAndOverride() throws {
        let defaults = try GatewayConfiguration(toml: "")
        #expect(defaults.node.name == NodeSettings.hostName && !defaults.node.name.isEmpty)
        let file = try GatewayConfiguration(toml: "[node]\nname = \" gateway-1 \"\n[intervals]\nhealth_seconds = 20\n")
        #expect(file.node.name == "gateway-1")
        let node = file.gatewayNode
        #expect(node.name == "gateway-1" && node.healthSeconds == 20 && node.leaseSeconds == 60)
        // A modem call may hold the heartbeat up: the lease outlasts a heartbeat and two calls.
        var slow = file
        slow.modems = [ModemSettings(name: "m1", source: .device(path: "/dev/ttyUSB0", connection: "at"), callTimeoutSeconds: 45)]
        #expect(slow.gatewayNode.leaseSeconds == 130)
        #expect(GatewayConfiguration().gatewayNode.leaseSeconds == 90)
        let environment = try GatewayConfiguration(toml: "[node]\nname = \"gateway-1\"\n", environment: ["SMSGW_NODE_NAME": "gateway-2"])
        #expect(environment.node.name == "gateway-2")
    }

    @Test("A bad node name or key is refused with the key named")
    func badNames() {
        for toml in ["[node]\nname = \"\"\n", "[node]\nname = \"a\\tb\"\n", "[node]\nname = \"\(String(repeating: "n", count: 65))\"\n"] {
            #expect(throws: ConfigurationError.self) { try GatewayConfiguration(toml: toml) }
        }
        #expect { try GatewayConfiguration(toml: "[node]\nlease = 3\n") } throws: { ($0 as? ConfigurationError)?.key == "node.lease" }
        #expect { try GatewayConfiguration(toml: "node = \"x\"\n") } throws: { ($0 as? ConfigurationError)?.key == "node" }
        #expect { try GatewayConfiguration(toml: "", environment: ["SMSGW_NODE_NAME": " "]) } throws: {
            ($0 as? ConfigurationError)?.key == "SMSGW_NODE_NAME"
        }
    }
}
