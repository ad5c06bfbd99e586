/// How the gateway answers incoming traffic on its own: the `[resync]` and `[replies]` tables.
///
/// A peer-initiated resync waits for the operator by default, because a thief holding a copied key
/// state can ask for one just as the real peer can (docs/PROTOCOL.md §7.4); and every SMS the
/// gateway sends by itself in answer to one it received counts against a per-contact hourly budget,
/// so replayed SMS cannot make it send without bound.
public struct ResyncSettings: Sendable, Equatable {
    /// Who completes a resync the peer asked for.
    public enum Acceptance: String, Sendable, Equatable, CaseIterable {
        /// Keep the request until the operator accepts or rejects it.
        case `operator`
        /// Answer at once, as versions before the operator gate did.
        case auto
    }

    /// `[resync] accept`: `"operator"` (default) or `"auto"`; env `SMSGW_RESYNC_ACCEPT`.
    public var accept: Acceptance
    /// `[replies] per_contact_per_hour`: most SMS sent to one contact per hour on the gateway's
    /// own initiative (resync answers); 0 sends none. Default 4; env
    /// `SMSGW_REPLIES_PER_CONTACT_PER_HOUR`.
    public var automaticRepliesPerHour: Int

    public init(accept: Acceptance = .operator, automaticRepliesPerHour: Int = 4) {
        self.accept = accept
        self.automaticRepliesPerHour = automaticRepliesPerHour
    }
}
