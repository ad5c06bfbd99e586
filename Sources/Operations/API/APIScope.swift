/// What an API token may do: `send` queues messages, `read` reads messages, contacts, the status,
/// the event stream and the metrics, `admin` starts resyncs (and implies every other scope),
/// `metrics` reads the metrics alone (a Prometheus scraper's token, which sees no message).
public enum APIScope: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case send
    case read
    case admin
    case metrics

    public static func < (lhs: APIScope, rhs: APIScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Scopes from a comma-separated list such as `send,read`.
    ///
    /// - Throws: ``APITokenError/unknownScope(_:)``, ``APITokenError/noScope``.
    public static func parse(_ list: String) throws(APITokenError) -> Set<APIScope> {
        var scopes: Set<APIScope> = []
        for part in list.split(separator: ",") {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard let scope = APIScope(rawValue: name) else { throw .unknownScope(String(part.prefix(40))) }
            scopes.insert(scope)
        }
        guard !scopes.isEmpty else { throw .noScope }
        return scopes
    }

    /// The stored spelling: sorted, comma-separated.
    static func stored(_ scopes: Set<APIScope>) -> String {
        scopes.sorted().map(\.rawValue).joined(separator: ",")
    }
}
