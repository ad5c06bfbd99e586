public import Foundation

/// A python3 program a test runs beside it (a webhook receiver, a loopback server) that ends
/// when the test process does.
///
/// A test that times out, or a test run that is killed, never reaches the code that stops its
/// children, and a python server left behind keeps its port and runs for ever. The child watches
/// its parent instead: once the test process is gone (the child is handed to another parent) it
/// exits within a second.
public enum PythonChild {
    /// The environment variable that names the process the child watches.
    public static let parentVariable = "SMSGW_TEST_PARENT"

    /// Runs the program given after it (`-c CODE ARGUMENTS…` or `SCRIPT ARGUMENTS…`) as python3
    /// would, with a thread that ends the process when its parent is not ``parentVariable``'s (it
    /// may have ended before python started).
    static let watcher = """
        import os, runpy, sys, threading, time
        parent = int(os.environ.pop("\(parentVariable)"))
        def watch():
            while os.getppid() == parent:
                time.sleep(1)
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
        if sys.argv[1] == "-c":
            code = sys.argv[2]
            sys.argv = ["-c"] + sys.argv[3:]
            exec(compile(code, "<test>", "exec"), {"__name__": "__main__"})
        else:
            sys.argv = sys.argv[1:]
            runpy.run_path(sys.argv[0], run_name="__main__")
        """

    /// The command line, for `/usr/bin/env` with ``parentVariable`` set to the parent's process
    /// id, that runs python3 (found on PATH) with `arguments` as its own (`["-c", code, …]` or
    /// `[script, …]`) and the parent watched.
    public static func command(_ arguments: [String]) -> [String] {
        ["python3", "-c", watcher] + arguments
    }

    /// Starts ``command(_:)`` as a child of this process, its output discarded.
    ///
    /// - Returns: The running process; the caller still stops it when done with it.
    public static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // env replaces itself with python3, so this process stays the child's parent.
        process.arguments = command(arguments)
        var environment = ProcessInfo.processInfo.environment
        environment[parentVariable] = String(ProcessInfo.processInfo.processIdentifier)
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
