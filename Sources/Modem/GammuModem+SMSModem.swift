import Foundation

/// The libgammu modem is the gateway's ``SMSModem``: the connection, message and health calls are
/// its own; this adds what the protocol names from its configuration.
extension GammuModem: SMSModem {
    public var name: String { configuration.name }

    public var device: String { configuration.device }

    /// A path that does not exist means unplugged (or a wrong `device`); gammu also takes devices
    /// that are not paths, which only opening can check.
    public var deviceIsPresent: Bool {
        !device.hasPrefix("/") || FileManager.default.fileExists(atPath: device)
    }
}
