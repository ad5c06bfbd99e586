import Glibc
import SystemCalls
import TerminalIO
import Testing

/// The prompts on a real pseudo-terminal: a masked line is not echoed and echo comes back, a
/// confirmation must match, and the login code comes from the variable before the terminal.
struct TerminalTests {
    @Test func aMaskedLineIsNotEchoedAndEchoComesBack() throws {
        let tty = try PseudoTerminal()
        guard let terminal = tty.terminal() else {
            Issue.record("the pseudo-terminal's slave did not open")
            return
        }
        let typed = try tty.withPerson({ person in
            _ = person.read(until: "Passphrase: ")
            person.type("correct horse\r\n")
        }) {
            try terminal.readMasked(prompt: "Passphrase: ")
        }
        #expect(typed == "correct horse")
        #expect(!tty.read(until: "\n", timeout: .seconds(2)).contains("correct horse"))
        let slave = try FileDescriptor.open(tty.slavePath, O_RDWR | O_NOCTTY)
        #expect(try slave.terminalAttributes().c_lflag & tcflag_t(ECHO) != 0)
    }

    @Test func anEmptyMaskedLineIsRefused() throws {
        let tty = try PseudoTerminal()
        guard let terminal = tty.terminal() else {
            Issue.record("the pseudo-terminal's slave did not open")
            return
        }
        #expect(throws: TerminalInputError.nothingTyped) {
            try tty.withPerson({ person in
                _ = person.read(until: "Code: ")
                person.type("\n")
            }) {
                try terminal.readMasked(prompt: "Code: ")
            }
        }
    }

    @Test func aMaskedPromptNeedsATerminal() throws {
        let scratch = "/tmp/smsgw-terminalio-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let notATerminal = Terminal(file: try FileDescriptor.open(scratch, O_RDWR | O_CREAT))
        defer { unlink(scratch) }
        #expect(throws: TerminalInputError.echoUnavailable) { try notATerminal.readMasked(prompt: "Passphrase: ") }
    }

    @Test func aConfirmationMustMatchTheName() throws {
        let tty = try PseudoTerminal()
        try tty.withPerson({ person in
            _ = person.read(until: "Type the name: ")
            person.type("  bob \n")
        }) {
            try Confirmation.require(typing: "bob", prompt: "Type the name: ", openTerminal: tty.terminal)
        }
        #expect(throws: TerminalInputError.confirmationMismatch(expected: "bob")) {
            try tty.withPerson({ person in
                _ = person.read(until: "Type the name: ")
                person.type("alice\n")
            }) {
                try Confirmation.require(typing: "bob", prompt: "Type the name: ", openTerminal: tty.terminal)
            }
        }
        #expect(throws: TerminalInputError.confirmationNeedsTerminal) {
            try Confirmation.require(typing: "bob", prompt: "Type the name: ", openTerminal: { nil })
        }
    }

    @Test func theLoginCodeComesFromTheVariableFirst() throws {
        #expect(try LoginCode.read(environment: [LoginCode.variable: "123456"], openTerminal: { nil }) == "123456")
        #expect(throws: TerminalInputError.noCodeSource(variable: LoginCode.variable)) {
            try LoginCode.read(environment: [LoginCode.variable: ""], openTerminal: { nil })
        }
        let tty = try PseudoTerminal()
        let typed = try tty.withPerson({ person in
            _ = person.read(until: "Authentication code: ")
            person.type("654321\n")
        }) {
            try LoginCode.read(environment: [:], openTerminal: tty.terminal)
        }
        #expect(typed == "654321")
    }
}
