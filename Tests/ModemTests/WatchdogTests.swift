import Foundation
import Logging
import Synchronization
import Testing

@testable import Modem

/// The watchdog and the thread bridge, without a modem: the jobs only sleep.
@Suite("Watchdog")
struct WatchdogTests {
    func modem() throws -> GammuModem {
        var logger = Logger(label: "smsgw.modem.test")
        logger.logLevel = .critical
        return try GammuModem(
            configuration: ModemConfiguration(device: "/dev/null-smsgw", callTimeout: .seconds(1)), logger: logger
        )
    }

    /// Blocks the modem thread, as a hung libgammu call would, until `flag` is set (at most 60 s),
    /// so the tests do not depend on how quickly a loaded machine runs the watchdog's timer.
    static func block(until flag: SubmissionFlag) {
        let limit = Date().addingTimeInterval(60)
        while !flag.isSet && Date() < limit { Thread.sleep(forTimeInterval: 0.01) }
    }

    @Test func overrunningCallTimesOutAndMarksRecovery() async throws {
        let modem = try modem()
        let fired = SubmissionFlag()
        let jobEnded = SubmissionFlag()
        do {
            try await modem.run(
                "sleeping", timeout: .milliseconds(300),
                timeoutError: {
                    fired.set()
                    return .timeout("sleeping", after: .milliseconds(300))
                }
            ) { _ throws(ModemError) in
                Self.block(until: fired)
                jobEnded.set()
            }
            Issue.record("the overrun was not noticed")
        } catch {
            #expect(error.code == .timeout)
        }
        // The caller got its answer from the watchdog while the job was still stuck.
        #expect(fired.isSet)
        #expect(modem.needsRecovery)
    }

    @Test func timeoutAfterSubmissionIsAmbiguous() async throws {
        let modem = try modem()
        let submitted = SubmissionFlag()
        let fired = SubmissionFlag()
        do {
            try await modem.run(
                "sending", timeout: .milliseconds(300),
                timeoutError: {
                    fired.set()
                    return submitted.isSet ? .ambiguousSend(after: .milliseconds(300)) : .timeout("sending", after: .milliseconds(300))
                }
            ) { _ throws(ModemError) in
                submitted.set()
                Self.block(until: fired)
            }
            Issue.record("the overrun was not noticed")
        } catch {
            #expect(error.code == .ambiguousSend)
            #expect(error.mayHaveBeenSent)
        }
    }

    @Test func queuedCallsBehindAStuckOneTimeOutToo() async throws {
        let modem = try modem()
        let stuckStarted = SubmissionFlag()
        let queuedAnswered = SubmissionFlag()
        let queuedRan = SubmissionFlag()
        async let stuck: Void = modem.run("stuck", timeout: .seconds(120)) { _ throws(ModemError) in
            stuckStarted.set()
            Self.block(until: queuedAnswered)
        }
        while !stuckStarted.isSet { try await Task.sleep(for: .milliseconds(20)) }
        await #expect(throws: ModemError.self) {
            try await modem.run("queued", timeout: .milliseconds(300)) { _ throws(ModemError) in
                queuedRan.set()
                return 42
            }
        }
        queuedAnswered.set()
        try await stuck
        // The queued job was dropped, not run late; the thread is free again and runs new work.
        #expect(!queuedRan.isSet)
        let value = try await modem.run("after", timeout: .seconds(10)) { _ throws(ModemError) in 7 }
        #expect(value == 7)
    }

    @Test func callsRunOffTheCooperativePoolOnOneThread() async throws {
        let modem = try modem()
        let threads = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await modem.run("name", timeout: .seconds(2)) { _ throws(ModemError) in
                        "\(pthread_self())"
                    }
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(threads.count == 1)
        #expect(threads.first != "\(pthread_self())")
    }

    @Test func deadlinesFireOnTheModemsOwnTimerThread() async throws {
        let modem = try modem()
        let fired = SubmissionFlag()
        let onTimerThread = Mutex<Bool?>(nil)
        do {
            try await modem.run(
                "sleeping", timeout: .milliseconds(200),
                timeoutError: {
                    onTimerThread.withLock { $0 = modem.watchdog.isCurrentThread }
                    fired.set()
                    return .timeout("sleeping", after: .milliseconds(200))
                }
            ) { _ throws(ModemError) in Self.block(until: fired) }
            Issue.record("the overrun was not noticed")
        } catch {
            #expect(error.code == .timeout)
        }
        // Compared by thread identity, not by name: Foundation on Linux may report another
        // thread's name for a thread it did not create the name of.
        #expect(onTimerThread.withLock { $0 } == true)
    }

    /// The watchdog fires while every thread of the shared dispatch pool is busy: the hung call it
    /// guards must not wait for unrelated work to finish.
    @Test func deadlinesFireWhileTheSharedPoolIsBusy() async throws {
        let modem = try modem()
        let started = SubmissionFlag()
        let fired = SubmissionFlag()
        let poolReleased = SubmissionFlag()
        let firedWhilePoolBusy = Mutex<Bool?>(nil)
        let call = Task {
            try await modem.run(
                "sleeping", timeout: .seconds(1),
                timeoutError: {
                    firedWhilePoolBusy.withLock { $0 = !poolReleased.isSet }
                    fired.set()
                    return .timeout("sleeping", after: .seconds(1))
                }
            ) { _ throws(ModemError) in
                started.set()
                Self.block(until: fired)
            }
        }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        // Busy (runnable) threads, not sleeping ones: libdispatch adds threads for blocked workers
        // only. On Linux Swift's own executor shares the pool, so nothing here awaits until they stop.
        for _ in 0..<(ProcessInfo.processInfo.activeProcessorCount + 1) {
            DispatchQueue.global().async {
                let limit = Date().addingTimeInterval(8)
                while !fired.isSet && Date() < limit {}
                poolReleased.set()
            }
        }
        await #expect(throws: ModemError.self) { try await call.value }
        #expect(firedWhilePoolBusy.withLock { $0 } == true)
    }

    @Test func aSealedPINAttemptNeverOffersThePIN() {
        let givenUp = PINAttempt()
        #expect(givenUp.seal() == .notOffered)
        #expect(!givenUp.beginOffer())
        let inFlight = PINAttempt()
        #expect(inFlight.beginOffer())
        #expect(inFlight.seal() == .offered)
        let answered = PINAttempt()
        #expect(answered.beginOffer())
        answered.record(.accepted)
        #expect(answered.seal() == .accepted)
    }

    @Test func connectingToAMissingDeviceSaysSo() async throws {
        let modem = try modem()
        do {
            try await modem.connect()
            Issue.record("connected to nothing")
        } catch {
            #expect(error.code == .deviceNotFound)
            #expect(error.isRetryable)
            #expect(error.description.contains("/dev/null-smsgw"))
        }
    }
}
