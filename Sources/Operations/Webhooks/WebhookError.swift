public import Failures

/// A webhook setting the operations refuse.
public enum WebhookError: CategorizedError, Sendable, Equatable {
    /// A secret is not `whsec_` and 24 to 64 bytes in base64; the reason names the fault, never the secret.
    case invalidSecret(String)

    public var category: ErrorCategory { .configuration }

    public var description: String {
        switch self {
        case .invalidSecret(let reason):
            "A webhook secret \(reason); write it as whsec_ followed by 24 to 64 random bytes in base64."
        }
    }
}
