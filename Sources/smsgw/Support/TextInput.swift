import Foundation

/// Reading a command's input: an argument, `-` for all of stdin, or stdin line by line.
enum TextInput {
    /// The argument, or all of stdin when it is `-` or absent, without one trailing newline.
    static func argumentOrStdin(_ argument: String?) -> String {
        if let argument, argument != "-" { return argument }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\r\n") {
            text.removeLast()  // "\r\n" is one Character
        } else if text.hasSuffix("\n") {
            text.removeLast()
        }
        return text
    }

    /// Calls `body` with each line of stdin (1-based number, line without its newline).
    static func forEachLine(_ body: (Int, String) throws -> Void) rethrows {
        var number = 0
        while let line = readLine(strippingNewline: true) {
            number += 1
            try body(number, line)
        }
    }
}

/// Runs a `--lines` batch: one result line per input line; a failed line prints an empty
/// result line and its error on stderr, and the batch goes on.
struct LineBatch {
    private(set) var failures = 0
    private(set) var total = 0

    /// Runs `body` on each stdin line (1-based number, line) and prints what it returns, or an
    /// empty line and the error; call ``finish()`` when done.
    static func overStdin(_ body: (Int, String) throws -> String) -> LineBatch {
        var batch = LineBatch()
        TextInput.forEachLine { number, line in
            batch.total = number
            batch.process(number) { try body(number, line) }
        }
        return batch
    }

    mutating func process(_ number: Int, _ body: () throws -> String) {
        do {
            Output.line(try body())
        } catch {
            failures += 1
            Output.line("")
            Output.error("line \(number): " + ErrorReport.message(for: error))
        }
    }

    /// Throws status 65 when any line failed.
    func finish() throws {
        if failures > 0 {
            throw CLIError("\(failures) of \(total) lines failed; see the messages above.", status: .dataError)
        }
    }
}
