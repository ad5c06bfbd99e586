import Logging
import Modem
import ModemSimulator
import TestSupport

extension SimulatorRig {
    /// A ``GammuModem`` for a simulated modem, not yet connected.
    func modem(
        for sim: SimulatedModem, pin: String? = nil, callTimeout: Duration = .seconds(15),
        watchdogTimeout: Duration = .seconds(5)
    ) throws -> GammuModem {
        let configuration = ModemConfiguration(
            name: sim.number, device: sim.devicePath, connection: "at", pin: pin,
            callTimeout: callTimeout, watchdogTimeout: watchdogTimeout, pollingInterval: .milliseconds(100)
        )
        return try GammuModem(configuration: configuration, logger: quietLogger("smsgw.modem.test"))
    }
}
