/// A received ciphertext read once: its envelope and the digests every session compares.
///
/// Reading the 160 characters (a base-122 number of about 1,100 bits) and hashing them costs the
/// same whichever session then tries the message; the key search, which tries one SMS under many
/// contacts' sessions, reads it once with this and passes it to each.
public struct ReceivedCiphertext: Sendable, Equatable {
    let envelope: Envelope
    /// The first 64 bits of SHA-256 of the digits: what a session's recent digests hold.
    let digest: UInt64
    /// What the identifier authenticates (``Envelope/bodyDigest``).
    let bodyDigest: [UInt8]

    /// Reads a ciphertext as received; whitespace and invisible formatting characters anywhere are
    /// ignored, as ``Session/opening(_:now:using:)`` ignores them.
    ///
    /// - Throws: ``CipherError/malformed(_:)`` when `text` is no ciphertext: not 160 characters
    ///   of the alphabet, or a number out of range.
    public init(_ text: String) throws(CipherError) {
        let digits = try WireAlphabet.digits(from: text)
        envelope = try Envelope(digits: digits)
        digest = Session.uint64(KDF.sha256(digits))
        bodyDigest = envelope.bodyDigest
    }
}
