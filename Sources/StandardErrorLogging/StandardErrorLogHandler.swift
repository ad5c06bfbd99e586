import Foundation
import Glibc
public import Logging
import SystemCalls
import TerminalIO

/// The swift-log handler of every smsgw command and of the daemon: one line per event on stderr,
/// in the form journald understands when stderr is the journal, else with a timestamp for a
/// terminal; a command without `--verbose` writes its warnings as the command line's sentences.
///
/// Under systemd (`JOURNAL_STREAM` names the device and inode of stderr) each line starts with
/// its syslog priority, `<3>` for error to `<7>` for debug, and carries no timestamp of its own
/// (journald adds one), so `journalctl -p err` filters:
///
///     <4>Modem connection failed; retrying. smsgw.error="…" smsgw.modem=north
///
/// Elsewhere the line reads like swift-log's `StreamLogHandler`:
///
///     2026-05-01T10:00:00+0200 warning smsgw: smsgw.error="…" smsgw.modem=north [Gateway] Modem connection failed; retrying.
///
/// A command line's warning reads as its other diagnostics do, one sentence and the facts it does
/// not already say (``Format/sentence(priority:)``):
///
///     smsgw: warning: The data directory /srv/smsgw is readable by other users (mode 755); make it private with chmod 700 /srv/smsgw.
///
/// The message and every metadata value go through ``TerminalText/escaped(_:)``: a value that came
/// from a modem or an SMS (an operator name, a sender, an error text) can neither break the line
/// in two nor forge another event. A value with a space, `"` or `=` is quoted.
public struct StandardErrorLogHandler: LogHandler {
    /// How lines are written.
    public enum Format: Sendable {
        /// Priority prefix, no timestamp: stderr is connected to journald.
        case journal
        /// Timestamp, level and label, as `StreamLogHandler` writes them.
        case terminal
        /// `smsgw: warning: SENTENCE (key=value, …)`, as the command line writes its diagnostics:
        /// metadata by the last part of its key, and only what the sentence does not already say;
        /// with `priority` (stderr is the journal) after the syslog priority.
        case sentence(priority: Bool)
    }

    public let label: String
    public let format: Format
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(label: String, format: Format) {
        self.label = label
        self.format = format
    }

    /// The factory for `Logger(label:factory:)`: journal lines when stderr is the journal.
    public static func standardError(label: String) -> StandardErrorLogHandler {
        StandardErrorLogHandler(label: label, format: isJournal ? .journal : .terminal)
    }

    /// The factory for a command's warnings without `--verbose`: ``Format/sentence(priority:)``,
    /// with the priority when stderr is the journal.
    public static func sentence(label: String) -> StandardErrorLogHandler {
        StandardErrorLogHandler(label: label, format: .sentence(priority: isJournal))
    }

    /// Whether stderr is the stream systemd connected to journald (``JournalStream``).
    public static var isJournal: Bool { JournalStream.isStandardError }

    /// Whether `descriptor` is the stream a `JOURNAL_STREAM` value ("DEV:INODE") names.
    public static func isJournal(stream value: String?, descriptor: Int32) -> Bool {
        JournalStream.matches(value, descriptor: descriptor)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        Self.write(line(for: event) + "\n")
    }

    /// The line for `event`, without its line break.
    public func line(for event: LogEvent) -> String {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        let sorted = merged.sorted { $0.key < $1.key }
        let fields = sorted.map { "\(Self.escaped($0.key))=\(Self.value($0.value))" }
        let text = TerminalText.escaped(event.message.description)
        switch format {
        case .sentence(let priority):
            let facts = sorted.filter { !Self.says(text, Self.escaped($0.value.description)) }.map {
                "\(Self.escaped(String($0.key.split(separator: ".").last ?? "")))=\(Self.value($0.value))"
            }
            let prefix = (priority ? "<\(Self.priority(event.level))>" : "") + Output.diagnosticPrefix + Self.word(event.level) + ": "
            return prefix + text + (facts.isEmpty ? "" : " (" + facts.joined(separator: ", ") + ")")
        case .journal:
            return "<\(Self.priority(event.level))>" + ([text] + fields).joined(separator: " ")
        case .terminal:
            let prefix = "\(Self.timestamp()) \(event.level) \(label):"
            return ([prefix] + fields + ["[\(event.source)]", text]).joined(separator: " ")
        }
    }

    /// The syslog priority of a level (sd-daemon(3)): critical 2, error 3, warning 4, notice 5,
    /// info 6, debug and trace 7.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .critical: 2
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug, .trace: 7
        }
    }

    /// The word a command line's diagnostic names a level by: `warning`, `error` (critical too),
    /// `note` (notice and info), `debug`.
    static func word(_ level: Logger.Level) -> String {
        switch level {
        case .critical, .error: "error"
        case .warning: "warning"
        case .notice, .info: "note"
        case .debug, .trace: "debug"
        }
    }

    /// A metadata value, escaped, and quoted when it holds a space, `"` or `=`.
    public static func value(_ value: Logger.Metadata.Value) -> String {
        let text = escaped(value.description)
        guard text.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func escaped(_ text: String) -> String { TerminalText.escaped(text) }

    /// Whether `sentence` already says `value`: as a whole word, so a retry count of 1 is still
    /// given after "mode 751", and a path after the same path with a longer name beside it.
    static func says(_ sentence: String, _ value: String) -> Bool {
        guard !value.isEmpty else { return true }
        var rest = sentence[...]
        while let found = rest.range(of: value) {
            let before = found.lowerBound == sentence.startIndex ? nil : sentence[sentence.index(before: found.lowerBound)]
            let after = found.upperBound == sentence.endIndex ? nil : sentence[found.upperBound]
            if !continuesWord(before) && !continuesWord(after) { return true }
            rest = sentence[sentence.index(after: found.lowerBound)...]
        }
        return false
    }

    /// A letter, a digit, `_` or `/`: a character that continues a name or a path.
    private static func continuesWord(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_" || character == "/"
    }

    /// The local time as StreamLogHandler writes it, e.g. 2026-05-01T10:00:00+0200.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One write(2) per line, so lines of concurrent threads never interleave.
    private static func write(_ line: String) {
        let bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let start = offset
            guard
                let written = try? SystemCall.run(
                    "write", { bytes[start...].withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) } }),
                written > 0
            else { return }
            offset += written
        }
    }
}
