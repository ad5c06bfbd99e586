import Foundation

/// What a PostgreSQL server reports about how durable a commit is, read when a node opens the
/// store, and the rule that turns it into go, warn or refuse.
///
/// The pad rule behind it: a contact's ratchet step commits before its SMS leaves. A commit the
/// gateway saw succeed must never vanish, or the next text would be sealed at a position already
/// sent: pad reuse. It vanishes when the server crashes with `synchronous_commit = off`, or when a
/// standby that had not received it is promoted. Read with `SHOW synchronous_commit`,
/// `SHOW synchronous_standby_names`, `SELECT pg_is_in_recovery()` and
/// `SELECT application_name, sync_state FROM pg_stat_replication` (docs/OPERATIONS.md).
public struct ServerDurability: Sendable, Equatable {
    /// A standby streaming from this server, as `pg_stat_replication` shows it.
    public struct Replica: Sendable, Equatable {
        /// Its `application_name`.
        public var name: String
        /// `sync`, `quorum`, `potential` or `async`; nil when this role may not see it.
        public var syncState: String?

        public init(name: String, syncState: String?) {
            self.name = name
            self.syncState = syncState
        }
    }

    /// What the start-up check concludes.
    public enum Verdict: Sendable, Equatable {
        /// Every commit survives a server crash and, with standbys, the loss of the primary.
        case durable
        /// The gateway may run; the sentence says what an operator must not do or should fix.
        case warning(String)
        /// The gateway must not run on this server; the sentence says what to change.
        case refused(String)
    }

    /// The session's effective `synchronous_commit`: on, remote_apply, remote_write, local, off.
    public var synchronousCommit: String
    /// The server's `synchronous_standby_names` (empty: no commit waits for a standby).
    public var synchronousStandbyNames: String
    /// Whether the server is itself a standby in recovery (read-only).
    public var inRecovery: Bool
    /// The standbys streaming from it.
    public var replicas: [Replica]

    public init(synchronousCommit: String, synchronousStandbyNames: String, inRecovery: Bool, replicas: [Replica]) {
        self.synchronousCommit = synchronousCommit.lowercased()
        self.synchronousStandbyNames = synchronousStandbyNames.trimmingCharacters(in: .whitespaces)
        self.inRecovery = inRecovery
        self.replicas = replicas
    }

    /// Whether the store may run on this server.
    ///
    /// - Parameter allowAsynchronousReplicas: The operator's choice to run beside standbys that no
    ///   commit waits for (a warning instead of a refusal: such a standby must never be promoted).
    public func verdict(allowAsynchronousReplicas: Bool) -> Verdict {
        if inRecovery {
            return .refused("The PostgreSQL server is a standby in recovery and takes no writes; point the store's url at the primary.")
        }
        let waitsForStandby = ["on", "remote_apply", "remote_write"].contains(synchronousCommit)
        if synchronousCommit == "off" {
            return .refused(
                "synchronous_commit is off for the gateway's sessions: a commit it saw succeed can vanish in a server crash, and the next SMS would reuse its pad. Set synchronous_commit = on (or remote_apply) for the gateway's role or database."
            )
        }
        if synchronousStandbyNames.isEmpty {
            guard !replicas.isEmpty else { return .durable }
            let names = replicas.map(\.name).joined(separator: ", ")
            let sentence =
                "The standbys \(names) replicate asynchronously (synchronous_standby_names is empty): promoting one after losing the primary can bring back an older key state and reuse pads."
            return allowAsynchronousReplicas
                ? .warning(sentence + " Never promote them; restore the primary or its backup instead.")
                : .refused(
                    sentence
                        + " Make them synchronous (synchronous_standby_names, synchronous_commit = on or remote_apply), or allow asynchronous replicas in the store's settings if none of them will ever be promoted."
                )
        }
        guard waitsForStandby else {
            return .refused(
                "synchronous_commit is \(synchronousCommit) while synchronous_standby_names is set: commits do not wait for the standby, so promoting it can reuse pads. Set synchronous_commit = on (or remote_apply)."
            )
        }
        if replicas.isEmpty {
            return .warning(
                "synchronous_standby_names is set but no standby is connected: every commit, and so every SMS, waits until one connects.")
        }
        let asynchronous = replicas.filter { $0.syncState == "async" }.map(\.name)
        if !asynchronous.isEmpty {
            return .warning(
                "The standbys \(asynchronous.joined(separator: ", ")) are asynchronous: only a synchronous standby may be promoted, or pads can be reused."
            )
        }
        if synchronousCommit == "remote_write" {
            return .warning(
                "synchronous_commit is remote_write: a commit is on the standby's disk only after its operating system writes it, so losing both machines at once can reuse pads; on or remote_apply closes that."
            )
        }
        return .durable
    }
}
