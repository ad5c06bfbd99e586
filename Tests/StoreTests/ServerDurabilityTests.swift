import Store
import Testing

/// The start-up rule for a PostgreSQL store: a commit the gateway saw succeed must never vanish,
/// in a server crash or a failover, or a pad would be used twice.
struct ServerDurabilityTests {
    private func verdict(
        commit: String = "on", standbys: String = "", recovery: Bool = false, replicas: [(String, String?)] = [],
        allowAsync: Bool = false
    ) -> ServerDurability.Verdict {
        ServerDurability(
            synchronousCommit: commit, synchronousStandbyNames: standbys, inRecovery: recovery,
            replicas: replicas.map { ServerDurability.Replica(name: $0.0, syncState: $0.1) }
        ).verdict(allowAsynchronousReplicas: allowAsync)
    }

    private func isRefused(_ verdict: ServerDurability.Verdict, saying words: String) -> Bool {
        if case .refused(let sentence) = verdict { return sentence.contains(words) }
        return false
    }

    private func isWarning(_ verdict: ServerDurability.Verdict, saying words: String) -> Bool {
        if case .warning(let sentence) = verdict { return sentence.contains(words) }
        return false
    }

    @Test func aLoneServerWithCommitsOnDiskIsDurable() {
        #expect(verdict() == .durable)
        #expect(verdict(commit: "local") == .durable, "local is on when no standby exists")
        #expect(verdict(commit: "ON") == .durable)
    }

    @Test func commitsThatMayVanishOrAStandbyAsPrimaryAreRefused() {
        #expect(isRefused(verdict(commit: "off"), saying: "synchronous_commit is off"))
        #expect(isRefused(verdict(recovery: true), saying: "standby in recovery"))
        #expect(isRefused(verdict(commit: "local", standbys: "FIRST 1 (b)", replicas: [("b", "sync")]), saying: "do not wait"))
    }

    @Test func asynchronousStandbysAreRefusedUnlessAllowedThenWarned() {
        let replicas: [(String, String?)] = [("node-b", "async")]
        #expect(isRefused(verdict(replicas: replicas), saying: "node-b replicate asynchronously"))
        #expect(isWarning(verdict(replicas: replicas, allowAsync: true), saying: "Never promote them"))
    }

    @Test func aSynchronousStandbyIsDurableAndWhatWeakensItIsWarned() {
        #expect(verdict(standbys: "FIRST 1 (b)", replicas: [("b", "sync")]) == .durable)
        #expect(verdict(commit: "remote_apply", standbys: "ANY 1 (b, c)", replicas: [("b", "quorum"), ("c", "quorum")]) == .durable)
        #expect(isWarning(verdict(standbys: "b", replicas: []), saying: "no standby is connected"))
        #expect(isWarning(verdict(standbys: "b", replicas: [("b", "sync"), ("c", "async")]), saying: "The standbys c are asynchronous"))
        #expect(isWarning(verdict(commit: "remote_write", standbys: "b", replicas: [("b", "sync")]), saying: "remote_write"))
        #expect(verdict(standbys: "b", replicas: [("b", nil)]) == .durable, "a sync state this role cannot see is not a warning")
    }
}
