public import Failures
public import Foundation
public import OTP

/// Why an OTP operation refused, in words every front end can show; a front end that has a
/// better hint (a command, a page) matches the case.
public enum OTPEntryError: Error, Sendable, Hashable {
    /// The name is the one reserved for two-factor login, in a spelling the store takes for it.
    case reservedName(String)
    /// A new name that starts with a dash, which a command line reads as options.
    case nameStartsWithDash(String)
    /// A secret, URI or parameter the OTP module refuses; its sentence says which and why.
    case invalid(OTPError)
    /// An `otpauth://` URI came with parameters beside it (it carries its own).
    case parametersWithURI
    /// A time was given for an HOTP entry, whose codes follow a counter.
    case timeForCounterEntry(String)
    /// The HOTP entry's counter reached its maximum.
    case counterExhausted(String)
    /// The entry's stored secret and parameters cannot be decoded.
    case unreadable(String)
    /// The entry's stored verification state cannot be decoded.
    case stateUnreadable(String)
    /// The code is not `digits` digits (spaces aside): a typing slip, refused before it is
    /// compared or counted; `length` is how many characters it had.
    case malformedCode(String, digits: Int, length: Int)
    /// The code matches nothing in the window.
    case codeRejected(String)
    /// The code matched a step or counter that was already accepted.
    case codeReplayed(String)
    /// Too many wrong codes: refused until `until` (the sentence counts from `now`).
    case throttled(String, until: Date, now: Date)
}

extension OTPEntryError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .reservedName, .nameStartsWithDash, .invalid, .parametersWithURI, .timeForCounterEntry, .malformedCode: .invalidInput
        case .counterExhausted: .conflict
        case .unreadable, .stateUnreadable: .corrupted
        case .codeRejected, .codeReplayed: .verificationFailed
        case .throttled: .locked
        }
    }

    public var description: String {
        switch self {
        case .reservedName(let name):
            "\"\(name)\" is reserved for two-factor login; choose another name (two-factor login is an account setting)."
        case .nameStartsWithDash(let name):
            "The name \"\(name)\" starts with \"-\", which a command line reads as an option; choose a name that starts otherwise."
        case .invalid(let error):
            Self.sentence(error.message)
        case .parametersWithURI:
            "An otpauth URI carries its own parameters; give the URI alone, or a secret with the parameters."
        case .timeForCounterEntry(let name):
            "\"\(name)\" is an HOTP entry, whose codes follow a counter, not the time; ask for its next code without a time."
        case .counterExhausted(let name):
            "The counter of \"\(name)\" is exhausted; remove the entry and enrol a new secret."
        case .unreadable(let name):
            "The OTP entry \"\(name)\" cannot be read; remove it and add it again."
        case .stateUnreadable(let name):
            "The verification state of \"\(name)\" cannot be read; remove the entry and add it again."
        case .malformedCode(let name, let digits, let length):
            "A code for \"\(name)\" is \(digits) digits, and the one given is not (\(length) characters); type the whole code as the app shows it."
        case .codeRejected(let name):
            "The code is wrong for \"\(name)\"; check the code (and the clock) and try again."
        case .codeReplayed(let name):
            "The code for \"\(name)\" was already used; wait for the next code and enter that."
        case .throttled(let name, let until, let now):
            "Too many wrong codes for \"\(name)\"; try again after \(OperationsJSON.timestamp(until)) (in \(Self.seconds(from: now, to: until)) seconds)."
        }
    }

    /// Runs `body`, turning the OTP module's errors into ``invalid(_:)``.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as OTPError {
            throw OTPEntryError.invalid(error)
        }
    }

    /// The OTP module's messages start in lower case and end without a full stop.
    static func sentence(_ message: String) -> String {
        guard let first = message.first else { return message }
        let capitalised = first.uppercased() + message.dropFirst()
        return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
    }

    /// Whole seconds from `now` to `until`, at least 1.
    private static func seconds(from now: Date, to until: Date) -> Int64 {
        max(1, Int64(until.timeIntervalSince(now).rounded(.up)))
    }
}
