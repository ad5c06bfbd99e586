import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemCalls

/// A signal that interrupts a call never reaches the caller as a failure: the call is made again.
///
/// Serialized: the tests count the signals the one handler saw.
@Suite("EINTR", .serialized, .blockingOffPool)
struct InterruptTests {
    @Test func aCallFailingWithEINTRIsMadeAgainUntilItAnswers() throws {
        var attempts = 0
        let result = try SystemCall.run("read") { () -> Int in
            attempts += 1
            guard attempts > 3 else {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(attempts == 4)
    }

    @Test func anotherErrnoIsThrownWithTheCallAndThePath() {
        var attempts = 0
        #expect {
            try SystemCall.run("flock", path: "/srv/smsgw/smsgw.serve.lock") { () -> Int32 in
                attempts += 1
                errno = EBADF
                return -1
            }
        } throws: { error in
            error as? SystemCallError == SystemCallError(call: "flock", path: "/srv/smsgw/smsgw.serve.lock", code: EBADF)
        }
        #expect(attempts == 1)
    }

    @Test func anExpectedErrnoIsAnAnswerNotAnError() throws {
        let answer = try SystemCall.run("read", unless: SystemCall.wouldBlock) { () -> Int in
            errno = EAGAIN
            return -1
        }
        #expect(answer == nil)
    }

    @Test func aBlockingReadSurvivesSignalsAndReturnsTheData() throws {
        let pipe = try BlockingPipe()
        let bytes = try Interrupter.interrupt(20, while: { try pipe.reading.read(upTo: 16) }) {
            try pipe.writing.writeAll([42])
        }
        #expect(bytes == [42])
    }

    @Test func aWaitingLockSurvivesSignalsAndIsTakenWhenTheHolderLetsGo() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let path = scratch.file("lock")
        let holder = try FileDescriptor.open(path, O_RDWR | O_CREAT)
        try holder.lock(.exclusive, waiting: true)
        let waiter = try FileDescriptor.open(path, O_RDWR)
        let waiting = SendableDescriptor(waiter)
        let taken = try Interrupter.interrupt(20, while: { try waiting.descriptor.lock(.exclusive, waiting: true) }) {
            holder.unlock()
        }
        #expect(taken)
        #expect(try !holder.lock(.shared, waiting: false))
    }

    @Test func aPollWithoutTimeoutSurvivesSignalsAndSeesTheWakeUp() throws {
        let pipe = try WakePipe()
        let ready = try Interrupter.interrupt(
            20,
            while: { () throws -> Int in
                var descriptors = [pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0)]
                return try SystemCall.poll(&descriptors, timeout: nil)
            }
        ) {
            pipe.wake()
        }
        #expect(ready == 1)
    }

    @Test func aPollInterruptedBySignalsStillWaitsItsWholeTimeout() throws {
        let pipe = try WakePipe()
        let timeout = Duration.milliseconds(400)
        let waited = try Interrupter.interrupt(
            20,
            while: { () throws -> (Int, Duration) in
                var descriptors = [pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0)]
                let start = ContinuousClock.now
                let ready = try SystemCall.poll(&descriptors, timeout: timeout)
                return (ready, ContinuousClock.now - start)
            }
        ) {}
        #expect(waited.0 == 0)
        #expect(waited.1 >= timeout)
    }
}

/// Lends a descriptor to another thread for one test; the test keeps it alive until that ends.
final class SendableDescriptor: Sendable {
    let descriptor: FileDescriptor
    init(_ descriptor: consuming FileDescriptor) { self.descriptor = descriptor }
}
