import CGammu
import Foundation
import Logging

/// Owns one libgammu `GSM_StateMachine` and makes every libgammu call of one modem.
///
/// Not thread-safe, like the state machine itself: a session lives on one ``ModemWorker`` thread and
/// only that thread calls it. The one exception is ``GammuAbortHandle``, which libgammu allows from
/// any thread. `deinit` terminates the connection and frees the state machine.
final class GammuSession {
    let machine: OpaquePointer
    let context = GammuCallbackContext()
    let configuration: ModemConfiguration
    private(set) var isConnected = false
    /// libgammu's descriptor of the open port, found when it opened; see ``portDescriptor``.
    private var openedDescriptor: Int32?

    /// The descriptor libgammu reads the port through, while connected and when it could be told
    /// apart (one new descriptor on the device after opening): the modem thread waits on it for
    /// unsolicited lines instead of reading the port on a timer.
    var portDescriptor: Int32? { isConnected ? openedDescriptor : nil }

    /// Allocates a state machine; nothing is opened until ``connect(pinRejected:attempt:)``.
    /// - Parameters:
    ///   - configuration: The modem's configuration.
    ///   - logger: libgammu's debug lines go here at `.trace` level (never while the PIN is entered).
    init(configuration: ModemConfiguration, logger: Logger) throws(ModemError) {
        guard let machine = GSM_AllocStateMachine() else {
            throw ModemError(.modemFailure, "libgammu could not allocate a state machine; the process is out of memory.")
        }
        self.machine = machine
        self.configuration = configuration
        if logger.logLevel <= .trace { context.traceLogger = logger }
    }

    deinit {
        if isConnected { _ = GSM_TerminateConnection(machine) }
        GSM_FreeStateMachine(machine)
    }

    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(context).toOpaque() }

    /// Turns a libgammu result into a thrown ``ModemError`` carrying any CMS/CME number seen.
    func check(_ error: GSM_Error, _ operation: String) throws(ModemError) {
        guard error != ERR_NONE else { return }
        let mapped = ModemError.gammu(
            error, operation, device: configuration.device, cms: context.lastCMSError, cme: context.lastCMEError
        )
        if mapped.code == .deviceGone || mapped.code == .deviceNotFound || error == ERR_NOTCONNECTED {
            if isConnected { _ = GSM_TerminateConnection(machine) }
            isConnected = false
        }
        throw mapped
    }

    func requireConnection() throws(ModemError) {
        guard isConnected else { throw ModemError.notConnected }
    }

    // MARK: Connection

    /// What ``connect(pinRejected:attempt:)`` learnt.
    struct Connected: Sendable {
        var supportsNotifications: Bool
        var manufacturer: String?
        var model: String?
    }

    /// Opens the port, initialises the modem, enters the PIN once if the SIM asks, enables notifications.
    /// - Parameters:
    ///   - pinRejected: The SIM refused this PIN before, or its answer was lost: do not offer it again.
    ///   - attempt: Records whether the PIN was offered and what the SIM said.
    func connect(pinRejected: Bool, attempt: PINAttempt) throws(ModemError) -> Connected {
        if isConnected {
            _ = GSM_TerminateConnection(machine)
            isConnected = false
        }
        context.resetErrors()
        let configured: GSM_Error
        switch configuration.source {
        case .explicit:
            configured = smsgw_configure(machine, configuration.device, configuration.connection, configuration.model)
        case .gammurc(let path, let section):
            configured = smsgw_configure_from_gammurc(machine, path, Int32(section))
        }
        try check(configured, "configuring libgammu")

        let openBefore = DeviceDescriptors.snapshot(device: configuration.device)
        let opened = GSM_InitConnection_Log(machine, 1, gammuDebugCallback, userData)
        if opened != ERR_NONE {
            // libgammu 1.42 leaves the port open when initialisation fails; see DeviceDescriptors.
            DeviceDescriptors.closeLeaked(device: configuration.device, before: openBefore)
        }
        try check(opened, "opening \(configuration.device)")
        isConnected = true
        let newDescriptors = DeviceDescriptors.snapshot(device: configuration.device).subtracting(openBefore)
        openedDescriptor = newDescriptors.count == 1 ? newDescriptors.first : nil
        smsgw_route_debug(machine, gammuDebugCallback, userData)
        do {
            try unlockSIM(pinRejected: pinRejected, attempt: attempt)
        } catch {
            _ = GSM_TerminateConnection(machine)
            isConnected = false
            throw error
        }

        GSM_SetSendSMSStatusCallback(machine, gammuSendStatusCallback, userData)
        GSM_SetIncomingSMSCallback(machine, gammuIncomingSMSCallback, userData)
        context.resetErrors()
        let notifications = GSM_SetIncomingSMS(machine, 1) == ERR_NONE
        return Connected(
            supportsNotifications: notifications,
            manufacturer: infoString(GSM_GetManufacturer),
            model: infoString(GSM_GetModel)
        )
    }

    /// Checks the SIM's security status and enters the configured PIN at most once.
    private func unlockSIM(pinRejected: Bool, attempt: PINAttempt) throws(ModemError) {
        var status = SEC_None
        let result = GSM_GetSecurityStatus(machine, &status)
        if result == ERR_NOTSUPPORTED || result == ERR_NOTIMPLEMENTED { return }
        try check(result, "checking the SIM's security status")
        switch status {
        case SEC_None:
            return
        case SEC_Pin:
            guard let pin = configuration.pin, !pin.isEmpty else {
                throw ModemError(
                    .pinRequired,
                    "The SIM in \(configuration.device) asks for its PIN and none is configured. Add the PIN to the modem configuration.")
            }
            guard !pinRejected else {
                throw Self.wrongPIN(device: configuration.device, again: true)
            }
            context.resetErrors()
            context.traceSuppressed = true
            // From here until a clear answer, the outcome counts as unknown, i.e. as rejected.
            guard attempt.beginOffer() else {
                throw ModemError(
                    .timeout, "The connection attempt was given up before the PIN was entered; the PIN was not sent. Reopen the modem.")
            }
            let entered = smsgw_enter_pin(machine, pin)
            context.discardTraceLine()
            context.traceSuppressed = false
            if entered == ERR_SECURITYERROR || context.lastCMEError == 16 {
                attempt.record(.rejected)
                throw Self.wrongPIN(device: configuration.device, again: false)
            }
            try check(entered, "entering the SIM PIN")
            // Some SIMs accept the command but stay locked; never offer the PIN a second time.
            var after = SEC_None
            if GSM_GetSecurityStatus(machine, &after) == ERR_NONE, after == SEC_Pin {
                attempt.record(.rejected)
                throw Self.wrongPIN(device: configuration.device, again: false)
            }
            attempt.record(.accepted)
        case SEC_Puk, SEC_Puk2:
            throw ModemError(
                .simLocked,
                "The SIM in \(configuration.device) is blocked and asks for its PUK. Unlock it in a phone with the PUK from the operator; smsgw never enters a PUK."
            )
        default:
            throw ModemError(
                .simLocked, "The SIM in \(configuration.device) asks for a security code other than the PIN. Unlock it in a phone first.")
        }
    }

    static func wrongPIN(device: String, again: Bool) -> ModemError {
        let lead =
            again
            ? "The SIM in \(device) refused the configured PIN earlier (or its answer was lost), so it was not offered again."
            : "The SIM in \(device) refused the configured PIN."
        return ModemError(
            .wrongPIN,
            lead
                + " Correct the PIN in the configuration and restart; each wrong attempt brings the SIM closer to a PUK lock (usually 3 tries)."
        )
    }

    /// Closes the port; errors are ignored since the port may already be gone.
    func disconnect() {
        guard isConnected else { return }
        _ = GSM_TerminateConnection(machine)
        isConnected = false
    }

    // MARK: Information

    typealias InfoGetter = (OpaquePointer?, UnsafeMutablePointer<CChar>?) -> GSM_Error

    /// Runs a getter that fills a char buffer; `nil` when it fails.
    func infoString(_ getter: InfoGetter) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(SMSGW_INFO_CAPACITY))
        guard getter(machine, &buffer) == ERR_NONE else { return nil }
        let value = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    /// A cheap round trip: signal quality.
    func probe() throws(ModemError) {
        try requireConnection()
        context.resetErrors()
        var quality = GSM_SignalQuality()
        try check(GSM_GetSignalQuality(machine, &quality), "probing the modem")
    }

    /// Signal, registration, identity and SMSC.
    func status() throws(ModemError) -> ModemStatus {
        try requireConnection()
        context.resetErrors()
        var status = ModemStatus()
        var quality = GSM_SignalQuality()
        let signal = GSM_GetSignalQuality(machine, &quality)
        try checkFatal(signal, "reading the signal quality")
        if signal == ERR_NONE {
            status.signalStrength = quality.SignalStrength != -1 ? Int(quality.SignalStrength) : nil
            status.signalPercent = quality.SignalPercent >= 0 ? Int(quality.SignalPercent) : nil
            status.bitErrorRate = quality.BitErrorRate >= 0 ? Int(quality.BitErrorRate) : nil
        }
        var network = GSM_NetworkInfo()
        let networkResult = GSM_GetNetworkInfo(machine, &network)
        try checkFatal(networkResult, "reading the network registration")
        if networkResult == ERR_NONE {
            status.registration = Self.registration(network.State)
            let code = withUnsafeBytes(of: &network.NetworkCode) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            status.networkCode = code.isEmpty ? nil : code
            let name = withUnsafeBytes(of: &network.NetworkName) { GammuText.decodeUCS2($0) }
            status.networkName = name.isEmpty ? nil : name
        }
        status.imei = infoString(GSM_GetIMEI)
        status.imsi = infoString(GSM_GetSIMIMSI)
        status.manufacturer = infoString(GSM_GetManufacturer)
        status.model = infoString(GSM_GetModel)
        let smsc = UnsafeMutablePointer<GSM_SMSC>.allocate(capacity: 1)
        defer { smsc.deallocate() }
        UnsafeMutableRawPointer(smsc).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<GSM_SMSC>.size)
        smsc.pointee.Location = 1
        let smscResult = GSM_GetSMSC(machine, smsc)
        try checkFatal(smscResult, "reading the SMSC number")
        if smscResult == ERR_NONE {
            let number = withUnsafeBytes(of: &smsc.pointee.Number) { GammuText.decodeUCS2($0) }
            status.smscNumber = number.isEmpty ? nil : number
        }
        return status
    }

    /// Throws only for errors that mean the modem itself is unusable; others leave a field empty.
    private func checkFatal(_ error: GSM_Error, _ operation: String) throws(ModemError) {
        switch error {
        case ERR_TIMEOUT, ERR_ABORTED, ERR_NOTCONNECTED, ERR_DEVICEREADERROR, ERR_DEVICEWRITEERROR,
            ERR_DEVICENOTEXIST, ERR_DEVICEOPENERROR:
            try check(error, operation)
        default:
            return
        }
    }

    static func registration(_ state: GSM_NetworkInfo_State) -> ModemStatus.Registration {
        switch state {
        case GSM_HomeNetwork: return .home
        case GSM_RoamingNetwork: return .roaming
        case GSM_RequestingNetwork: return .searching
        case GSM_RegistrationDenied: return .denied
        case GSM_NoNetwork: return .notRegistered
        default: return .unknown
        }
    }

    // MARK: Recovery

    /// Radio off, then on (`AT+CFUN=0` / `AT+CFUN=1` on AT modems); falls back to a soft reset.
    func radioReset() throws(ModemError) {
        try requireConnection()
        context.resetErrors()
        let off = GSM_SetPower(machine, 0)
        if off == ERR_NOTSUPPORTED || off == ERR_NOTIMPLEMENTED {
            try check(GSM_Reset(machine, 0), "resetting the modem")
            return
        }
        try check(off, "switching the radio off")
        try check(GSM_SetPower(machine, 1), "switching the radio on")
    }
}

@available(*, unavailable)
extension GammuSession: Sendable {}

/// The one libgammu entry point that may be called from another thread: `GSM_AbortOperation`.
///
/// `@unchecked Sendable` because the only thing it does with the pointer is call `GSM_AbortOperation`,
/// which sets a flag that the running call polls (libgammu's documented way to stop a call from
/// another thread), and it holds the session strongly so the state machine outlives the handle.
struct GammuAbortHandle: @unchecked Sendable {
    private let session: GammuSession

    init(_ session: GammuSession) { self.session = session }

    func abort() { _ = GSM_AbortOperation(session.machine) }
}
