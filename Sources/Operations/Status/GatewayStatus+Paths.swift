public import Store

extension GatewayStatus {
    /// The status as someone who may read it but not run the gateway sees it (a console viewer,
    /// an API token without the admin scope): every state, count and time, but no path and no
    /// error text, which names files, directories and devices (a backup's directory, file and
    /// error; a modem's and an outbox entry's last error; why the store refuses writes).
    ///
    /// The backups' ``BackupStatus/directory`` is then empty, and their
    /// ``BackupStatus/warning`` says what failed and when without saying where.
    public func withoutPaths() -> GatewayStatus {
        var status = self
        for index in status.modems.indices { status.modems[index].lastError = nil }
        for index in status.queue.indices { status.queue[index].lastError = nil }
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

extension GatewayStatus {
    /// The status as a console operator of `role` sees it: an operator or an admin all of it, a
    /// viewer ``withoutPaths()``.
    public func shown(to role: OperatorRole) -> GatewayStatus {
        role.allows(.operator) ? self : withoutPaths()
    }

    /// The status as `GET /v1/status` answers `token`: with the admin scope all of it, else
    /// ``withoutPaths()``.
    public func shown(to token: APIToken) -> GatewayStatus {
        token.allows(.admin) ? self : withoutPaths()
    }
}
