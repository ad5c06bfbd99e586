/// A snapshot of a modem's health and identity, from ``GammuModem/status()``.
public struct ModemStatus: Sendable, Hashable {
    /// Network registration (from `GSM_GetNetworkInfo`).
    public enum Registration: String, Sendable, Hashable {
        case home, roaming, searching, denied, notRegistered, unknown
    }

    /// Received signal strength in dBm, if known.
    public var signalStrength: Int?
    /// Signal quality in percent (0…100), if known.
    public var signalPercent: Int?
    /// Bit error rate in percent, if known.
    public var bitErrorRate: Int?
    /// Network registration.
    public var registration: Registration
    /// The operator's MCC MNC, for example `"001 01"`.
    public var networkCode: String?
    /// The operator's name as the network gives it.
    public var networkName: String?
    /// The modem's IMEI.
    public var imei: String?
    /// The SIM's IMSI.
    public var imsi: String?
    /// The SMSC number stored on the SIM.
    public var smscNumber: String?
    /// The manufacturer the modem reports.
    public var manufacturer: String?
    /// The model the modem reports.
    public var model: String?

    public init(
        signalStrength: Int? = nil, signalPercent: Int? = nil, bitErrorRate: Int? = nil,
        registration: Registration = .unknown, networkCode: String? = nil, networkName: String? = nil,
        imei: String? = nil, imsi: String? = nil, smscNumber: String? = nil,
        manufacturer: String? = nil, model: String? = nil
    ) {
        self.signalStrength = signalStrength
        self.signalPercent = signalPercent
        self.bitErrorRate = bitErrorRate
        self.registration = registration
        self.networkCode = networkCode
        self.networkName = networkName
        self.imei = imei
        self.imsi = imsi
        self.smscNumber = smscNumber
        self.manufacturer = manufacturer
        self.model = model
    }
}
