/// Where a supervised modem is in its life, as the status shows it: the daemon's supervisor sets
/// it, ``ModemStatusRecord`` keeps it. Its raw value is the stored and JSON spelling.
public enum ModemPhase: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Opening the port (first time or after a failure).
    case connecting
    /// Connected and answering: sends and reads go through it.
    case ready
    /// A call failed or timed out: probing, resetting the radio, reopening.
    case recovering
    /// The device is gone (unplugged): waiting for it to come back.
    case waitingForDevice = "waiting for device"
    /// The SIM refused the PIN: stopped, so the SIM does not lock. Fix pin_file and restart.
    case wrongPIN = "wrong PIN"
    /// Stopped for a reason a person must fix (no SIM, PUK lock, bad configuration), or shut down.
    case stopped

    public var description: String { rawValue }
}
