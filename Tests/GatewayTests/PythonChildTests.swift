import Foundation
import TestSupport
import Testing

/// The python servers tests run beside them end when their parent does, so a test run that is
/// killed leaves none behind. Off the cooperative pool: all it waits for are other processes, and
/// in a full run a second's test waited minutes there for its turn.
@Suite(.timeLimit(.minutes(2)), .dedicatedExecutor)
struct PythonChildTests {
    @Test("A child whose parent ended exits by itself")
    func childEndsWithItsParent() async throws {
        try await withTemporaryDirectory { root in
            let pidFile = root.appendingPathComponent("child.pid")
            let server = "import os, sys, time\nopen(sys.argv[1], 'w').write(str(os.getpid()))\ntime.sleep(600)"
            // The shell starts the child in the background and ends once it runs, as a killed test run would.
            let parent = Process()
            parent.executableURL = URL(fileURLWithPath: "/bin/bash")
            // The child leaves the descriptors it inherited beyond the standard three: Foundation's
            // Process takes the shell's end of its own socket closing for the shell's exit.
            let script = """
                file=$1; shift
                parent=$$
                (
                    for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] 2>/dev/null && eval "exec $n>&-"; done
                    \(PythonChild.parentVariable)=$parent exec /usr/bin/env "$@"
                ) > /dev/null 2>&1 &
                while [ ! -s "$file" ]; do sleep 0.1; done
                """
            parent.arguments = ["-c", script, "bash", pidFile.path] + PythonChild.command(["-c", server, pidFile.path])
            try parent.run()
            _ = await parent.exit()
            let pid = try #require(Int32(try String(contentsOf: pidFile, encoding: .utf8)))
            #expect(await eventually(timeout: .seconds(30)) { !Self.isRunning(pid) }, "the child \(pid) outlived its parent")
            if Self.isRunning(pid) { kill(pid, SIGKILL) }
        }
    }

    /// Whether `pid` is a process that has not ended (a zombie nobody reaped has ended).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return false }
        return state != "Z" && state != "X"
    }
}
