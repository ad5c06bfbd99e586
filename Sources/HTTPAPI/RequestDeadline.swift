import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request has not fully arrived within `[http]
/// request_timeout_seconds` of its head: a client that sends a body a byte at a time (and so
/// keeps Hummingbird's idle timeout, which each body part resets, from firing) cannot hold a
/// connection and a handler for ever. The time a response takes is not limited (an event
/// stream lasts as long as its client reads it).
///
/// A head that never completes is the idle timeout's: Hummingbird sees no request part until
/// the head is whole, so such a connection counts as idle from its last complete request.
final class RequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}

@available(*, unavailable)
extension RequestDeadline: Sendable {}
