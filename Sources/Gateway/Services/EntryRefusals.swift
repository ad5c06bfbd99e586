import Logging

/// What the inbox receiver says about entries the store refused besides ordinary SMS: an entry
/// that cannot be read (its log row) and a concatenated SMS. Both stay on the modem and are taken
/// again at each read; the receiver says so once when the store starts refusing them, and once
/// when it takes them again, not at every read meanwhile.
struct EntryRefusals {
    /// The kinds the store refuses in this episode.
    private(set) var failing: Set<Kind> = []

    enum Kind: CaseIterable {
        case unreadable, concatenated

        /// The line that starts an episode.
        var refused: Logger.Message {
            switch self {
            case .unreadable:
                "Could not log an unreadable entry; it stays on the modem and is tried again at each read until the store takes it."
            case .concatenated:
                "Could not process a concatenated SMS; it stays on the modem and is tried again at each read until the store takes it."
            }
        }

        /// The line that ends it.
        var taken: Logger.Message {
            switch self {
            case .unreadable: "Unreadable entries are logged again; the store accepts writes."
            case .concatenated: "Concatenated SMS are processed again; the store accepts writes."
            }
        }

        func count(in left: InboxLeftovers) -> Int {
            switch self {
            case .unreadable: left.refusedUnreadable
            case .concatenated: left.refusedConcatenated
            }
        }
    }

    /// Takes one scan's leftovers into account; a scan that could not read the modem says nothing.
    mutating func note(_ left: InboxLeftovers, logger: Logger) {
        guard left.listed else { return }
        for kind in Kind.allCases {
            let count = kind.count(in: left)
            if count > 0, !failing.contains(kind) {
                failing.insert(kind)
                logger.error(kind.refused, metadata: [GatewayLog.count: "\(count)", GatewayLog.error: "\(left.error ?? "")"])
            } else if count == 0, failing.contains(kind) {
                failing.remove(kind)
                logger.notice(kind.taken)
            }
        }
    }
}
