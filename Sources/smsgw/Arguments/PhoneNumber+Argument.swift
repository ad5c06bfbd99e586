public import ArgumentParser
public import Store

/// `--number +447700900123` parses itself: a value that is not an international number is a
/// usage error naming the option, before the passphrase is asked for. The conformance lives here,
/// so Store does not import ArgumentParser.
extension PhoneNumber: ExpressibleByArgument {
    public init?(argument: String) {
        guard let number = try? PhoneNumber(argument) else { return nil }
        self = number
    }

    public static var defaultCompletionKind: CompletionKind { .default }

    /// Parses an option's value, failing with the store's sentence (no country code, too few
    /// digits, a letter), which ``init(argument:)`` cannot carry: a local number is what a
    /// person in a hurry types first, and "invalid" alone does not say what to type instead.
    static func parsing(_ argument: String) throws -> PhoneNumber {
        do {
            return try PhoneNumber(argument)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
