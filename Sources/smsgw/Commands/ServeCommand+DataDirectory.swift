import Foundation
import Gateway
import Store
import TerminalIO

extension ServeCommand {
    /// The sentence for a daemon put on a data directory without a store while the one every
    /// other command uses (`--data-dir`'s default, or SMSGW_DATA_DIR) holds one, or nil. A
    /// configuration file without `data_dir` puts the daemon on /var/lib/smsgw, where a person
    /// who ran `smsgw init` as themselves has no store; "create one" would mislead them.
    func storeElsewhere(_ configuration: GatewayConfiguration) -> String? {
        guard configuration.store.backend == .sqlite else { return nil }
        let serving = configuration.dataDirectory.standardizedFileURL.path
        let others = global.dataDirectory.standardizedFileURL.path
        let database = GatewayStore.databaseFileName
        let files = FileManager.default
        guard serving != others, !files.fileExists(atPath: serving + "/" + database), files.fileExists(atPath: others + "/" + database)
        else { return nil }
        let file = configFile.configurationFile.map { " in \(Shell.quote($0.path))" } ?? ""
        return
            "There is no store in \(serving), where the configuration puts the daemon (data_dir; /var/lib/smsgw when the file sets none), but there is one in \(others), which the other smsgw commands use: pass `--data-dir \(Shell.quote(others))` to serve, or set data_dir\(file) to it."
    }
}
