import Foundation
import Glibc
import TerminalIO
import Testing

/// Where a passphrase comes from, in the documented order: the variable, then the file the other
/// variable names (its first line, whatever ends it), then the terminal.
struct PassphraseSourceTests {
    private let source = PassphraseSource.account

    private func file(_ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-passphrase-\(UUID().uuidString)").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theVariableWinsOverTheFileAndSaysSo() throws {
        let path = try file("from the file\n")
        defer { unlink(path) }
        let read = try source.readWithOrigin(
            prompt: "", environment: ["SMSGW_PASSPHRASE": "from the variable", "SMSGW_PASSPHRASE_FILE": path], openTerminal: { nil })
        #expect(read.value == "from the variable")
        #expect(read.origin == "SMSGW_PASSPHRASE (SMSGW_PASSPHRASE_FILE is ignored while it is set)")
    }

    @Test(arguments: ["secret\n", "secret\r\n", "secret\r", "secret", "secret\nsecond line\n"])
    func theFileGivesItsFirstLine(contents: String) throws {
        let path = try file(contents)
        defer { unlink(path) }
        let read = try source.readWithOrigin(prompt: "", environment: ["SMSGW_PASSPHRASE_FILE": path], openTerminal: { nil })
        #expect(read.value == "secret")
        #expect(read.origin == "the file \(path) (SMSGW_PASSPHRASE_FILE)")
    }

    @Test func anEmptyOrMissingFileIsAnErrorNamingIt() throws {
        let path = try file("\nsecret\n")
        defer { unlink(path) }
        #expect(throws: TerminalInputError.passphraseFileEmpty(path: path, variable: "SMSGW_PASSPHRASE_FILE")) {
            try source.readWithOrigin(prompt: "", environment: ["SMSGW_PASSPHRASE_FILE": path], openTerminal: { nil })
        }
        #expect(throws: TerminalInputError.passphraseFileUnreadable(path: path + ".missing", variable: "SMSGW_PASSPHRASE_FILE")) {
            try source.readWithOrigin(prompt: "", environment: ["SMSGW_PASSPHRASE_FILE": path + ".missing"], openTerminal: { nil })
        }
        // A directory is named as one, not as a file that cannot be read.
        let directory = (path as NSString).deletingLastPathComponent
        #expect(throws: TerminalInputError.passphraseFileIsDirectory(path: directory, variable: "SMSGW_PASSPHRASE_FILE")) {
            try source.readWithOrigin(prompt: "", environment: ["SMSGW_PASSPHRASE_FILE": directory], openTerminal: { nil })
        }
        #expect(
            TerminalInputError.passphraseFileIsDirectory(path: "/etc/smsgw", variable: "SMSGW_PASSPHRASE_FILE").description
                == "SMSGW_PASSPHRASE_FILE names /etc/smsgw, which is a directory; name the file in it that holds the passphrase.")
    }

    @Test func withoutVariablesOrTerminalNothingIsGuessed() {
        #expect(throws: TerminalInputError.noPassphraseSource(variable: "SMSGW_PASSPHRASE", fileVariable: "SMSGW_PASSPHRASE_FILE")) {
            try source.readWithOrigin(prompt: "", environment: [:], openTerminal: { nil })
        }
    }

    @Test func anInheritedDescriptorIsReadWithoutOpeningThePathAgain() throws {
        #expect(PassphraseSource.inheritedDescriptor("/dev/stdin") == 0)
        #expect(PassphraseSource.inheritedDescriptor("/dev/fd/7") == 7)
        #expect(PassphraseSource.inheritedDescriptor("/proc/self/fd/9") == 9)
        #expect(PassphraseSource.inheritedDescriptor("/etc/smsgw/passphrase") == nil)
        let path = try file("inherited\n")
        defer { unlink(path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        #expect(try source.firstLine(ofFile: "/dev/fd/\(descriptor)") == "inherited")
    }

    @Test func aNewPassphraseTypedTwiceMustMatch() throws {
        let tty = try PseudoTerminal()
        #expect(throws: TerminalInputError.passphrasesDiffer) {
            try tty.withPerson({ person in
                _ = person.read(until: "New passphrase: ")
                person.type("one\n")
                _ = person.read(until: "Repeat it: ")
                person.type("two\n")
            }) {
                try PassphraseSource.new.readWithOrigin(
                    prompt: "New passphrase: ", confirm: true, environment: [:], openTerminal: tty.terminal)
            }
        }
    }
}
