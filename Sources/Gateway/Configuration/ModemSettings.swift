import Foundation
public import Modem

/// One `[[modem]]` table: how to reach a modem, where its PIN is, and how to use it.
public struct ModemSettings: Sendable, Equatable {
    /// How often an idle modem thread reads the port for unsolicited lines (+CMTI, +CDS) when it
    /// cannot wait on the port's descriptor itself (see the Modem module's worker thread, which
    /// normally wakes on input at once). libgammu's read then listens for up to 50 ms each time.
    static let notificationPolling = Duration.milliseconds(20)

    /// Where the device settings come from.
    public enum Source: Sendable, Equatable {
        /// `device` and `connection` given in the table.
        case device(path: String, connection: String)
        /// `gammurc` and `section`: an existing gammu configuration.
        case gammurc(path: String, section: Int)
    }

    /// `name`: unique, for logs and `smsgw status`.
    public var name: String
    /// `device`+`connection` or `gammurc`+`section`.
    public var source: Source
    /// `pin_file`: a file holding the SIM PIN, or nil when the SIM has none.
    public var pinFile: String?
    /// `status_reports`: ask for delivery reports (default true).
    public var statusReports: Bool
    /// `call_timeout_seconds`: the deadline of one modem operation (default 30).
    public var callTimeoutSeconds: Double

    public init(name: String, source: Source, pinFile: String? = nil, statusReports: Bool = true, callTimeoutSeconds: Double = 30) {
        self.name = name
        self.source = source
        self.pinFile = pinFile
        self.statusReports = statusReports
        self.callTimeoutSeconds = callTimeoutSeconds
    }

    /// The device path, when the settings name one directly (nil for a gammurc source).
    public var devicePath: String? {
        if case .device(let path, _) = source { return path }
        return nil
    }

    /// The Modem module's configuration, reading the PIN from ``pinFile`` now.
    ///
    /// - Parameter index: The table's position (1-based) for error messages.
    /// - Throws: ``ConfigurationError`` naming `modem[N].pin_file` or `modem[N].gammurc`.
    public func modemConfiguration(index: Int = 1) throws(ConfigurationError) -> ModemConfiguration {
        var pin: String?
        if let pinFile {
            let data = try SecretFile.read(
                pinFile, key: "modem[\(index)].pin_file",
                unreadable:
                    "modem[\(index)].pin_file: cannot read \(pinFile); create it with the SIM PIN (mode 0400, owned by the smsgw user) or remove the key if the SIM has no PIN."
            )
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard (4...8).contains(text.count), text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else {
                throw ConfigurationError(
                    key: "modem[\(index)].pin_file",
                    "modem[\(index)].pin_file: \(pinFile) must hold the SIM PIN, 4 to 8 digits and nothing else.")
            }
            pin = text
        }
        let timeout = Duration.milliseconds(Int64(callTimeoutSeconds * 1000))
        let watchdog = min(Duration.seconds(10), timeout)
        switch source {
        case .device(let path, let connection):
            return ModemConfiguration(
                name: name, device: path, connection: connection, pin: pin, callTimeout: timeout,
                watchdogTimeout: watchdog, pollingInterval: Self.notificationPolling)
        case .gammurc(let path, let section):
            do {
                var configuration = try ModemConfiguration.load(
                    gammurc: URL(fileURLWithPath: path), section: section, name: name, pin: pin)
                configuration.callTimeout = timeout
                configuration.watchdogTimeout = watchdog
                configuration.pollingInterval = Self.notificationPolling
                return configuration
            } catch {
                throw ConfigurationError(key: "modem[\(index)].gammurc", "modem[\(index)].gammurc: \(error.message)")
            }
        }
    }
}
