public import Operations

extension GatewayStatus {
    /// Whether any modem is ready (the daemon runs and can send).
    public var hasReadyModem: Bool { modems.contains { $0.state == .ready } }
}
