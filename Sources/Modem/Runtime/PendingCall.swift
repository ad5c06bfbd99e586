import Synchronization

/// One caller waiting for a job on the modem thread: resumed exactly once, by the job or by the
/// watchdog, whichever comes first.
final class PendingCall<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, any Error>?>(nil)
    private let finished = Atomic<Bool>(false)

    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// Whether the call already has its answer (so a queued job can skip its work).
    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Resumes the caller unless someone already did; returns whether this call did.
    @discardableResult
    func resume(_ result: Result<Value, ModemError>) -> Bool {
        guard finished.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return false
        }
        let continuation = self.continuation.withLock { value -> CheckedContinuation<Value, any Error>? in
            defer { value = nil }
            return value
        }
        continuation?.resume(with: result.mapError { $0 as any Error })
        return true
    }
}

/// Set by a send job once the PDU went to the modem: from then on a timeout is ambiguous.
final class SubmissionFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
