import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Ends a request that has not fully arrived within `[http] request_timeout_seconds` of its head:
/// a client that sends a body a byte at a time (and so keeps Hummingbird's idle timeout, which
/// each body part resets, from firing) cannot hold a connection and a handler for ever. It is
/// answered 408 with the API's problem body and `Connection: close`, then its connection is
/// closed; when an answer to the request has already begun (a handler that answered before
/// reading the whole body), the connection is closed without another. The time a response takes
/// is not limited (an event stream lasts as long as its client reads it).
///
/// A head that never completes is the idle timeout's, closed without an answer: Hummingbird sees
/// no request part until the head is whole, so such a connection counts as idle from its last
/// complete request.
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Whether an answer to the request now arriving has begun.
    private var answering = false

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            answering = false
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) {
                let (handler, context) = loopBound.value
                handler.expire(context: context)
            }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) { answering = true }
        context.write(data, promise: promise)
    }

    /// The request did not arrive in time: 408 unless an answer has begun, then the connection closes.
    private func expire(context: ChannelHandlerContext) {
        deadline = nil
        guard !answering else {
            context.close(promise: nil)
            return
        }
        answering = true
        let problem = Self.problem(after: timeout)
        var fields = problem.fields
        fields[.connection] = "close"
        fields[.contentLength] = "\(problem.body.readableBytes)"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: problem.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(problem.body)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    /// The answer to a request whose body did not arrive within `timeout` of its head.
    static func problem(after timeout: TimeAmount) -> Problem {
        let seconds = Double(timeout.nanoseconds) / 1e9
        let limit = seconds.rounded() == seconds ? "\(Int64(seconds))" : "\(seconds)"
        return Problem(
            status: .requestTimeout, type: "request-timeout",
            detail:
                "The request did not arrive whole within \(limit) s of its head, so the connection is closed; "
                + "send it again, all at once.")
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
