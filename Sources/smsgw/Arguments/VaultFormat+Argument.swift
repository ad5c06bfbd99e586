public import ArgumentParser
public import Operations

/// `--format bitwarden-json` or `keepassxc-csv`; help and completion offer both. The conformance
/// lives here, so Operations does not import ArgumentParser.
extension VaultFormat: ExpressibleByArgument {}
