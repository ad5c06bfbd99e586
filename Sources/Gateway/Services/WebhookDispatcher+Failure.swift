import AsyncHTTPClient
import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

extension WebhookDispatcher {
    /// Why a request got no answer, as the sentence `webhook deliveries`, the console and the
    /// journal show: the usual network failures say what to check; others keep the HTTP
    /// client's own words.
    static func failure(_ error: any Error, timeoutSeconds: Double) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout:
                return "No answer within \(timeoutSeconds) seconds."
            case .connectTimeout:
                return
                    "Could not connect within \(connectTimeoutSeconds) seconds; check that the receiver runs and the url's host and port."
            case .remoteConnectionClosed:
                return "The receiver closed the connection without an answer; check its log."
            default:
                break
            }
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED:
                return "The connection was refused: nothing listens at the url's host and port; start the receiver or fix the url."
            case ECONNRESET, EPIPE:
                return "The receiver closed the connection without an answer; check its log."
            case EHOSTUNREACH, ENETUNREACH:
                return "The receiver's host cannot be reached; check the network and the url's host."
            default:
                break
            }
        }
        return "The request failed: \(error)."
    }
}
