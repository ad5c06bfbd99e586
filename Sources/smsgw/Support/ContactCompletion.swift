import ArgumentParser
import Foundation
import Gateway
import Operations

extension CompletionKind {
    /// Completes a contact's name in bash, zsh and fish (`smsgw --generate-completion-script SHELL`).
    static var contactNames: CompletionKind {
        .custom { words, _, _ in ContactCompletion.names(words: words) }
    }
}

/// Contact names for shell completion, read from the data directory without the passphrase
/// (names are stored in the clear); it never prompts, never creates a data directory, and gives
/// nothing when there is no database.
enum ContactCompletion {
    /// The names in the store the command line being completed would open: its `[store]`
    /// (SMSGW_CONFIG's file, the SMSGW_STORE_* variables), else SQLite in its data directory
    /// (`--data-dir`, else SMSGW_DATA_DIR, else the default), sorted; the shell keeps those
    /// matching the word.
    static func names(words: [String]) -> [String] {
        let settings = (try? StoreSettings.load(configurationFile: ConfigurationOption.environmentFile)) ?? StoreSettings()
        return settings.contactNames(dataDirectory: DataDirectory.resolve(dataDirectory(in: words)))
    }

    /// The last `--data-dir DIR` or `--data-dir=DIR` among `words`, with a leading `~/` expanded
    /// (the shell has not expanded it in a word being completed).
    static func dataDirectory(in words: [String]) -> String? {
        var value: String?
        for (index, word) in words.enumerated() {
            if word == "--data-dir", index + 1 < words.count {
                value = words[index + 1]
            } else if word.hasPrefix("--data-dir=") {
                value = String(word.dropFirst("--data-dir=".count))
            }
        }
        guard let value, value.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] else { return value }
        return home + value.dropFirst(1)
    }
}
