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
        guard claim() else { return false }
        deliver(result)
        return true
    }

    /// Takes the right to answer; returns whether this caller got it. Follow with ``deliver(_:)``.
    func claim() -> Bool {
        finished.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// Resumes the caller; only after a successful ``claim()``.
    func deliver(_ result: Result<Value, ModemError>) {
        let continuation = self.continuation.withLock { value -> CheckedContinuation<Value, any Error>? in
            defer { value = nil }
            return value
        }
        continuation?.resume(with: result.mapError { $0 as any Error })
    }
}

/// Set by a send job once the PDU went to the modem: from then on a timeout is ambiguous.
final class SubmissionFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// What became of the PIN offered during one connect, shared between the modem thread and the
/// caller so that even a call the watchdog cut short leaves the answer behind.
final class PINAttempt: Sendable {
    enum Outcome: UInt8 {
        case notOffered, offered, accepted, rejected, sealed
    }

    private let value = Atomic<UInt8>(Outcome.notOffered.rawValue)

    /// Called by the modem thread right before sending the PIN; `false` if the caller gave up on
    /// this connect already (then the PIN must not be sent).
    func beginOffer() -> Bool {
        value.compareExchange(
            expected: Outcome.notOffered.rawValue, desired: Outcome.offered.rawValue, ordering: .acquiringAndReleasing
        ).exchanged
    }

    func record(_ outcome: Outcome) { value.store(outcome.rawValue, ordering: .releasing) }

    /// Called by the caller once it has its answer: a PIN not offered by now never will be.
    /// - Returns: The outcome at that moment.
    func seal() -> Outcome {
        let (exchanged, original) = value.compareExchange(
            expected: Outcome.notOffered.rawValue, desired: Outcome.sealed.rawValue, ordering: .acquiringAndReleasing
        )
        return exchanged ? .notOffered : Outcome(rawValue: original) ?? .offered
    }
}
