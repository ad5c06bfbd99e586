import ArgumentParser

extension SMSGW {
    /// Every top-level command, in the order `smsgw --help` lists them.
    static let commands: [any ParsableCommand.Type] = [
        InitCommand.self,
        AccountCommand.self,
        ContactCommand.self,
        EncryptCommand.self,
        DecryptCommand.self,
        SendCommand.self,
        ServeCommand.self,
        BackupCommand.self,
        RestoreCommand.self,
        StoreCommand.self,
        StatusCommand.self,
        NodeCommand.self,
        LogCommand.self,
        ResyncCommand.self,
        SimCommand.self,
        OTPCommand.self,
        APICommand.self,
        WebhookCommand.self,
        OperatorCommand.self,
        AuditCommand.self,
        VaultCommand.self,
    ]
}
