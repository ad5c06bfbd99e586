public import Store

extension GatewayStatus {
    /// The status as someone who may read it but not run the gateway sees it (a console viewer,
    /// an API token without the admin scope): every state, count and time, but no path and no
    /// error text, which names files, directories and devices (a backup's directory, file and
    /// error; a modem's last error; why the store refuses writes). An outbox entry's last error
    /// is shown as the message it carries shows it (``SMSErrorText/shown(_:seeingPaths:)``).
    ///
    /// The backups' ``BackupStatus/directory`` is then empty, and their
    /// ``BackupStatus/warning`` says what failed and when without saying where.
    public func withoutPaths() -> GatewayStatus {
        var status = self
        for index in status.modems.indices { status.modems[index].lastError = nil }
        for index in status.queue.indices {
            status.queue[index].lastError = SMSErrorText.shown(status.queue[index].lastError, seeingPaths: false)
        }
        status.storeRefusal?.error = nil
        if var backup = status.backup.status {
            backup.directory = ""
            backup.lastFile = nil
            backup.lastError = nil
            status.backup = Backups(backup)
        }
        return status
    }
}

extension OperatorRole {
    /// Whether a console operator of this role sees paths and error texts: an operator or an
    /// admin does, a viewer not (``GatewayStatus/withoutPaths()``).
    public var seesPaths: Bool { allows(.operator) }
}

extension APIToken {
    /// Whether the API shows this token paths and error texts: with the admin scope only.
    public var seesPaths: Bool { allows(.admin) }
}

extension GatewayStatus {
    /// The status as someone who sees paths (``OperatorRole/seesPaths``,
    /// ``APIToken/seesPaths``) or not sees it.
    public func shown(seeingPaths: Bool) -> GatewayStatus {
        seeingPaths ? self : withoutPaths()
    }
}

extension JournalEvent {
    /// The event without the error text a modem event carries (`data.modem.error` null), which
    /// names devices, for whoever does not see paths, as ``GatewayStatus/withoutPaths()``.
    public func shown(seeingPaths: Bool) -> JournalEvent {
        guard !seeingPaths, eventType == .modemDown || eventType == .modemUp else { return self }
        var event = self
        event.data.set(.null, at: ["modem", "error"])
        return event
    }
}
