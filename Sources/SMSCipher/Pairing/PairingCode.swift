/// One side's pairing code: 80 random bits and a 20-bit check, in 20 Crockford base-32 symbols.
///
/// Shown as five groups of four ("7KQ2-M9XD-4HJP-R0TB-WC3N") to read aloud; parsing forgives case,
/// spaces, hyphens and the look-alikes O/0 and I/L/1, and the check catches typing mistakes.
public struct PairingCode: Sendable, Hashable, Comparable {
    static let byteCount = 10
    static let symbols = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    static let symbolCount = 20

    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        precondition(bytes.count == Self.byteCount)
        self.bytes = bytes
    }

    /// A new random code.
    public static func generate(using rng: inout some RandomNumberGenerator) -> PairingCode {
        let high = rng.next() as UInt64
        let low = rng.next() as UInt16
        return PairingCode(bytes: high.bigEndianBytes + low.bigEndianBytes)
    }

    /// Parses a code as a person typed it.
    public init(parsing text: String) throws(CipherError) {
        var values: [UInt8] = []
        for scalar in text.uppercased().unicodeScalars {
            switch scalar {
            case " ", "-", "\t": continue
            case "O": values.append(0)
            case "I", "L": values.append(1)
            default:
                guard scalar.isASCII, let index = Self.symbols.firstIndex(of: UInt8(scalar.value)) else {
                    throw .invalidPairing(
                        "A pairing code uses only the letters and digits it was shown with; '\(scalar)' is not one of them.")
                }
                values.append(UInt8(index))
            }
        }
        guard values.count == Self.symbolCount else {
            throw .invalidPairing(
                "A pairing code has \(Self.symbolCount) letters and digits but this one has \(values.count); check it and enter it again.")
        }
        var writer = BitWriter(capacityBits: 100)
        for value in values { writer.write(UInt64(value), bits: 5) }
        let bytes = Array(writer.bytes.prefix(Self.byteCount))
        guard Self.check(bytes) == Array(values.suffix(4)) else {
            throw .invalidPairing("That pairing code has a typing mistake; compare it with the one shown and enter it again.")
        }
        self.bytes = bytes
    }

    /// The 20 symbols in five groups of four, separated by hyphens.
    public var grouped: String {
        var reader = BitReader(bytes)
        var values = (0..<16).map { _ in UInt8(reader.read(bits: 5)) }
        values += Self.check(bytes)
        let characters = values.map { Character(Unicode.Scalar(Self.symbols[Int($0)])) }
        return stride(from: 0, to: 20, by: 4).map { String(characters[$0..<($0 + 4)]) }.joined(separator: "-")
    }

    /// Four 5-bit values from SHA-256 of the label and the code.
    static func check(_ bytes: [UInt8]) -> [UInt8] {
        let digest = KDF.sha256(KDF.Label.codeCheck.bytes + bytes)
        var reader = BitReader(digest)
        return (0..<4).map { _ in UInt8(reader.read(bits: 5)) }
    }

    public static func < (lhs: PairingCode, rhs: PairingCode) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}

extension PairingCode: CustomStringConvertible {
    /// Redacted: a code is a secret until both sides have entered it.
    public var description: String { "PairingCode(redacted)" }
}
