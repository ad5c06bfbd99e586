/// A FIFO mutual exclusion for async code: one modem call at a time.
///
/// The Modem module times each call from the moment it is queued on the modem thread, so two
/// calls queued together could make the second one overrun; the gateway queues them here instead.
actor AsyncGate {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !held {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
