import Hummingbird
import NIOCore

/// The request context of the HTTP API: Hummingbird's core storage, the client's address (for
/// throttling failed authentications) and the 64 KiB body limit.
struct APIContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's IP address, or "unknown" for a socket without one.
    let clientAddress: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Bodies over this size get 413.
    static let bodyLimit = 64 * 1024

    var maxUploadSize: Int { Self.bodyLimit }
}
