/// How to reach one GSM modem through libgammu: device, connection, optional PIN, and timing.
///
/// Build it in code with ``init(name:device:connection:model:pin:callTimeout:watchdogTimeout:pollingInterval:)``
/// or load it from a gammurc file with ``load(gammurc:section:name:pin:)`` so gammu users keep theirs.
/// The PIN never appears in ``description``, logs or errors.
public struct ModemConfiguration: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Where the settings came from; a gammurc source is handed to libgammu whole at connect time.
    public enum Source: Sendable, Hashable {
        /// Device, connection and model given in code.
        case explicit
        /// Section `section` of a gammurc file (0 is `[gammu]`, N is `[gammuN]`).
        case gammurc(path: String, section: Int)
    }

    /// A name for logs and status, for example `"modem0"` or the SIM's number.
    public var name: String
    /// The serial device, for example `/dev/ttyUSB0` or a simulator's pseudo-terminal.
    public var device: String
    /// The gammu connection string, for example `"at"` or `"at115200"`.
    public var connection: String
    /// The gammu model override (`""` lets libgammu detect it; `"at"` forces the generic AT driver).
    public var model: String
    /// The SIM PIN, entered at most once per ``GammuModem/connect()``; never logged.
    public var pin: String?
    /// How long one modem operation may take before the watchdog aborts it and the caller gets
    /// ``ModemError/Code/timeout``.
    public var callTimeout: Duration
    /// How long the modem thread may stay stuck after `GSM_AbortOperation` before it is declared
    /// wedged; ``GammuModem/reopen()`` then abandons it and starts a new thread and state machine.
    public var watchdogTimeout: Duration
    /// How often the idle modem thread reads the device for unsolicited notifications (+CMTI, +CDS)
    /// when it cannot wait on the port's descriptor.
    public var pollingInterval: Duration
    /// How long the idle modem thread waiting on the port's descriptor (which wakes it at once on
    /// input or a hang-up) sleeps before it looks at the device anyway, to notice one that went
    /// away without a hang-up. The gateway sets its health interval.
    public var idleCheckInterval: Duration = .seconds(30)
    /// Where the device settings came from.
    public var source: Source

    /// Creates a configuration from explicit values.
    /// - Parameters:
    ///   - name: A name for logs and status.
    ///   - device: The serial device path.
    ///   - connection: The gammu connection string (`"at"`, `"at115200"`, …).
    ///   - model: The gammu model override, `""` to detect.
    ///   - pin: The SIM PIN, if the SIM asks for one.
    ///   - callTimeout: The deadline of one operation.
    ///   - watchdogTimeout: The grace after an abort before the modem thread counts as wedged.
    ///   - pollingInterval: How often the idle thread reads unsolicited notifications.
    public init(
        name: String = "modem",
        device: String,
        connection: String = "at",
        model: String = "",
        pin: String? = nil,
        callTimeout: Duration = .seconds(20),
        watchdogTimeout: Duration = .seconds(10),
        pollingInterval: Duration = .milliseconds(200)
    ) {
        self.name = name
        self.device = device
        self.connection = connection
        self.model = model
        self.pin = pin
        self.callTimeout = callTimeout
        self.watchdogTimeout = watchdogTimeout
        self.pollingInterval = pollingInterval
        self.source = .explicit
    }

    public var description: String {
        let pinText = pin == nil ? "none" : "set"
        return "ModemConfiguration(name: \(name), device: \(device), connection: \(connection), "
            + "model: \(model.isEmpty ? "auto" : model), pin: \(pinText), callTimeout: \(callTimeout))"
    }

    /// Mirrors without the PIN, so `dump` and debuggers never show it.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "device": device, "connection": connection, "model": model,
                "pin": pin == nil ? "none" : "<redacted>", "callTimeout": callTimeout,
                "watchdogTimeout": watchdogTimeout, "pollingInterval": pollingInterval, "idleCheckInterval": idleCheckInterval,
                "source": source,
            ])
    }
}
