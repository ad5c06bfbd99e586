import Foundation
import OTP

extension OTPEnrolment {
    /// The blob as stored: JSON with sorted keys.
    func encoded() throws -> Data {
        try Self.encoder.encode(self)
    }

    /// Reads a stored blob.
    ///
    /// - Parameter unreadable: The error to throw when the blob does not decode, naming what it
    ///   belongs to (an entry, the login).
    init(decoding data: Data, unreadable: @autoclosure () -> any Error) throws {
        do {
            self = try JSONDecoder().decode(OTPEnrolment.self, from: data)
        } catch {
            throw unreadable()
        }
    }

    /// A stored verification state, or `initial` when none was stored yet.
    static func decodeState(
        _ data: Data?, initial: OTPVerificationState, unreadable: @autoclosure () -> any Error
    ) throws -> OTPVerificationState {
        guard let data else { return initial }
        do {
            return try JSONDecoder().decode(OTPVerificationState.self, from: data)
        } catch {
            throw unreadable()
        }
    }

    /// A verification state as stored: JSON with sorted keys.
    static func encodeState(_ state: OTPVerificationState) throws -> Data {
        try encoder.encode(state)
    }

    /// Sorted keys, so the same value always gives the same bytes.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
