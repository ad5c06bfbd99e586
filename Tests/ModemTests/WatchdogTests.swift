import Foundation
import Logging
@testable import Modem
import Testing

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

    @Test func overrunningCallTimesOutAndMarksRecovery() async throws {
        let modem = try modem()
        let started = ContinuousClock.now
        do {
            try await modem.run("sleeping", timeout: .milliseconds(300)) { _ throws(ModemError) in
                Thread.sleep(forTimeInterval: 1)
            }
            Issue.record("the overrun was not noticed")
        } catch {
            #expect(error.code == .timeout)
        }
        #expect(ContinuousClock.now - started < .milliseconds(900))
        #expect(modem.needsRecovery)
    }

    @Test func timeoutAfterSubmissionIsAmbiguous() async throws {
        let modem = try modem()
        let flag = SubmissionFlag()
        do {
            try await modem.run(
                "sending", timeout: .milliseconds(300),
                timeoutError: { flag.isSet ? .ambiguousSend(after: .milliseconds(300)) : .timeout("sending", after: .milliseconds(300)) }
            ) { _ throws(ModemError) in
                flag.set()
                Thread.sleep(forTimeInterval: 1)
            }
            Issue.record("the overrun was not noticed")
        } catch {
            #expect(error.code == .ambiguousSend)
            #expect(error.mayHaveBeenSent)
        }
    }

    @Test func queuedCallsBehindAStuckOneTimeOutToo() async throws {
        let modem = try modem()
        async let stuck: Void = modem.run("stuck", timeout: .seconds(2)) { _ throws(ModemError) in
            Thread.sleep(forTimeInterval: 1.5)
        }
        try await Task.sleep(for: .milliseconds(100))
        let started = ContinuousClock.now
        await #expect(throws: ModemError.self) {
            try await modem.run("queued", timeout: .milliseconds(300)) { _ throws(ModemError) in 42 }
        }
        #expect(ContinuousClock.now - started < .milliseconds(1000))
        try await stuck
        // The thread is free again and runs new work.
        let value = try await modem.run("after", timeout: .seconds(1)) { _ throws(ModemError) in 7 }
        #expect(value == 7)
    }

    @Test func callsRunOffTheCooperativePoolOnOneThread() async throws {
        let modem = try modem()
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await modem.run("name", timeout: .seconds(2)) { _ throws(ModemError) in
                        Thread.current.name ?? ""
                    }
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(names == ["modem:modem"])
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
