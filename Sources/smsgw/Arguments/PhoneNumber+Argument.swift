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
}
