import TerminalIO
import Testing

/// The small text rules of terminal input and output: one trailing line break off a piped text,
/// and a decrypted text kept on one output line.
struct TextInputTests {
    @Test(arguments: [("text\n", "text"), ("text\r\n", "text"), ("text", "text"), ("text\n\n", "text\n"), ("", "")])
    func onlyOneTrailingLineBreakIsRemoved(input: String, expected: String) {
        #expect(TextInput.withoutTrailingNewline(input) == expected)
    }

    @Test func aTextStaysOnOneOutputLine() {
        #expect(Output.escapedLine("a\\b\nc\rd\r\ne") == "a\\\\b\\nc\\rd\\r\\ne")
        #expect(Output.escapedLine("plain [€]") == "plain [€]")
    }

    @Test func everyTerminalInputErrorSaysWhatToDoWithoutTheSecret() {
        let errors: [TerminalInputError] = [
            .noPassphraseSource(variable: "A", fileVariable: "B"), .passphraseFileUnreadable(path: "/p", variable: "B"),
            .passphraseFileIsDirectory(path: "/p", variable: "B"), .passphraseFileEmpty(path: "/p", variable: "B"), .passphrasesDiffer,
            .echoUnavailable, .nothingTyped,
            .noCodeSource(variable: "C"), .nothingGiven(what: "secret"), .nothingTypedFor(what: "secret"),
            .confirmationNeedsTerminal, .confirmationMismatch(expected: "bob"), .batchFailed(failures: 1, total: 2),
        ]
        for error in errors {
            #expect(error.description.hasSuffix("."))
            #expect(!error.description.contains("smsgw "))
        }
    }
}

/// Names in suggested commands paste into a shell as one word.
struct ShellTests {
    @Test func onlyWordsThatNeedItAreQuoted() {
        #expect(Shell.quote("bob") == "bob")
        #expect(Shell.quote("+447700900123") == "+447700900123")
        #expect(Shell.quote("Bob Smith") == "'Bob Smith'")
        #expect(Shell.quote("O'Brien") == #"'O'\''Brien'"#)
        #expect(Shell.quote("$(rm -rf ~)") == "'$(rm -rf ~)'")
    }
}
