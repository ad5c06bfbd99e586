/// Runs a `--lines` batch: one result line per input line; a failed line prints an empty
/// result line and its error on stderr, and the batch goes on.
public struct LineBatch {
    public private(set) var failures = 0
    public private(set) var total = 0
    /// The sentence for a failed line's error (the front end's own wording of errors).
    private let describe: (any Error) -> String

    /// Runs `body` on each stdin line (1-based number, line) and prints what it returns, or an
    /// empty line and the error described by `describe`; call ``finish()`` when done.
    /// A line too long to read (``TerminalInputError/inputTooLong(limit:)``) fails as a line
    /// does, and the batch ends there: what follows it is not read.
    public static func overStdin(describing describe: @escaping (any Error) -> String, _ body: (Int, String) throws -> String) -> LineBatch
    {
        var batch = LineBatch(describe: describe)
        do {
            try TextInput.forEachLine { number, line in
                batch.total = number
                batch.process(number) { try body(number, line) }
            }
        } catch {
            batch.total += 1
            batch.process(batch.total) { throw error }
        }
        return batch
    }

    mutating func process(_ number: Int, _ body: () throws -> String) {
        do {
            Output.line(try body())
        } catch {
            failures += 1
            Output.line("")
            Output.diagnostic("line \(number): " + describe(error))
        }
    }

    /// Returns when every line succeeded.
    ///
    /// - Throws: ``TerminalInputError/batchFailed(failures:total:)`` when any line failed.
    public func finish() throws(TerminalInputError) {
        if failures > 0 { throw .batchFailed(failures: failures, total: total) }
    }
}
