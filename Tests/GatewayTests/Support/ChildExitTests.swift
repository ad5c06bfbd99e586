import Foundation
import Testing

@testable import TestSupport

/// `Process.exit()`, the tests' way to wait for a child: it holds no thread of the cooperative
/// pool and sees a child's end while Foundation's process monitor is stuck on another child.
@Suite(.timeLimit(.minutes(2)), .dedicatedExecutor)
struct ChildExitTests {
    @Test("The status and the signal a child ended with")
    func howAChildEnded() async throws {
        #expect(try await Self.start("exit 3").exit() == ChildExit(reason: .exit, status: 3))
        #expect(try await Self.start("true").exit().succeeded)
        #expect(try await Self.start("kill -KILL $$").exit() == ChildExit(reason: .signal, status: SIGKILL))
        let ended = try Self.start("true")
        try await #require(eventually { !ended.isRunning })
        #expect(await ended.exit().succeeded, "a child Foundation reaped already")
    }

    /// Foundation learns of a child's end when the socket the child inherited closes, then reaps it
    /// with a blocking `waitpid` on its one monitor thread. A child that closes the socket while
    /// it runs holds that thread until it ends, and no other child's end is seen meanwhile.
    @Test("A child's end is seen while Foundation's monitor waits for another child")
    func seenWhileTheMonitorWaits() async throws {
        try await withTemporaryDirectory { root in
            let release = root.appendingPathComponent("release").path
            let closer = try Self.start(
                """
                for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done
                while [ ! -e '\(release)' ]; do sleep 0.05; done
                """)
            defer { _ = FileManager.default.createFile(atPath: release, contents: nil) }
            #expect(
                await eventually { Self.threadsInWait4(on: closer.processIdentifier) == 1 },
                "Foundation's monitor thread waits in wait4 for the child that closed its socket")
            let quick = try Self.start("exit 7")
            #expect(await quick.exit() == ChildExit(reason: .exit, status: 7))
            #expect(quick.isRunning, "Foundation has not seen the quick child end: its monitor still waits")
            _ = FileManager.default.createFile(atPath: release, contents: nil)
            #expect(await closer.exit().succeeded)
            #expect(await eventually { !quick.isRunning }, "Foundation catches up once the first child ended")
            #expect(quick.terminationStatus == 7)
        }
    }

    /// The cluster's commands start with their descriptors closed, so that the server `pg_ctl`
    /// leaves running holds none of this process's; the shell that starts them keeps Foundation's
    /// socket, so its monitor is free to see other children end meanwhile.
    @Test("A PostgreSQL command with its descriptors closed leaves Foundation's monitor free")
    func closedDescriptorsLeaveTheMonitorFree() async throws {
        try await withTemporaryDirectory { root in
            let release = root.appendingPathComponent("release").path
            let descriptors = root.appendingPathComponent("descriptors").path
            let command = try Self.start(
                PostgresCluster.closingDescriptors,
                arguments: [
                    "/bin/bash", "-c", "ls /proc/$$/fd > '\(descriptors)'; while [ ! -e '\(release)' ]; do sleep 0.05; done",
                ])
            defer { _ = FileManager.default.createFile(atPath: release, contents: nil) }
            #expect(await eventually { FileManager.default.fileExists(atPath: descriptors) })
            let quick = try Self.start("exit 0")
            #expect(await eventually(timeout: .seconds(20)) { !quick.isRunning }, "Foundation saw the quick child end")
            let open = try String(contentsOfFile: descriptors, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
            #expect(open.filter { $0 > 2 }.count <= 1, "the command inherited no descriptor (ls opens one): \(open)")
            _ = FileManager.default.createFile(atPath: release, contents: nil)
            #expect(await command.exit().succeeded)
        }
    }

    @Test("A pipe read to its end off the pool")
    func pipeReadToItsEnd() async throws {
        let output = Pipe()
        let process = try Self.start("printf 'one\\ntwo'", output: output)
        let data = await output.fileHandleForReading.readToEndOffThePool()
        #expect(await process.exit().succeeded)
        #expect(String(decoding: data, as: UTF8.self) == "one\ntwo")
    }

    private static func start(_ script: String, arguments: [String] = [], output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, "bash"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// How many of this process's threads wait in `wait4` for `pid` (Linux's
    /// /proc/self/task/N/syscall: the call's number, then its first argument in hex).
    private static func threadsInWait4(on pid: Int32) -> Int {
        #if arch(x86_64)
            let wait4 = "61"
        #else
            let wait4 = "260"
        #endif
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let call = (try? String(contentsOfFile: "/proc/self/task/\(task)/syscall", encoding: .utf8)) ?? ""
            let fields = call.split(separator: " ")
            return fields.count > 1 && fields[0] == wait4 && fields[1] == "0x" + String(pid, radix: 16)
        }.count
    }
}
