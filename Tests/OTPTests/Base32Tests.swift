import OTP
import SplitMix
import Testing

/// RFC 4648 §10 vectors and the decoder's handling of careless and malformed input.
struct Base32Tests {
    static let rfc4648: [(plain: String, encoded: String)] = [
        ("", ""),
        ("f", "MY======"),
        ("fo", "MZXQ===="),
        ("foo", "MZXW6==="),
        ("foob", "MZXW6YQ="),
        ("fooba", "MZXW6YTB"),
        ("foobar", "MZXW6YTBOI======"),
    ]

    @Test("RFC 4648 §10: padded encoding", arguments: rfc4648)
    func encodePadded(_ vector: (plain: String, encoded: String)) {
        #expect(Base32.encodePadded(Array(vector.plain.utf8)) == vector.encoded)
    }

    @Test("RFC 4648 §10: encoding without padding", arguments: rfc4648)
    func encodeUnpadded(_ vector: (plain: String, encoded: String)) {
        let unpadded = String(vector.encoded.filter { $0 != "=" })
        #expect(Base32.encode(Array(vector.plain.utf8)) == unpadded)
    }

    @Test("RFC 4648 §10: decoding with and without padding, in any case", arguments: rfc4648)
    func decode(_ vector: (plain: String, encoded: String)) throws {
        let plain = Array(vector.plain.utf8)
        #expect(try Base32.decode(vector.encoded) == plain)
        #expect(try Base32.decode(String(vector.encoded.filter { $0 != "=" })) == plain)
        #expect(try Base32.decode(vector.encoded.lowercased()) == plain)
    }

    @Test("Spaces anywhere are ignored")
    func spaces() throws {
        #expect(try Base32.decode(" MZXW 6YTB OI== ==== ") == Array("foobar".utf8))
        #expect(try Base32.decode("jbsw y3dp ehpk 3pxp") == Base32.decode("JBSWY3DPEHPK3PXP"))
    }

    /// Malformed input and the words the error must contain.
    static let malformed: [(input: String, expected: [String])] = [
        ("MZXW6YT1", ["'1'", "position 8", "'I' or 'L'"]),
        ("MZXW0YTB", ["'0'", "position 5", "'O'"]),
        ("MZ!W6YTB", ["'!'", "position 3"]),
        ("MZXé6YTB", ["'é'", "position 4"]),
        ("MZ XW 8YTB", ["'8'", "position 7"]),
        ("MZXW6=YT", ["'Y'", "position 7", "after the '=' padding"]),
        ("MZXW6YTBO", ["9 characters", "truncated"]),
        ("MZX", ["3 characters"]),
        ("MY=====", ["5 '='", "2 characters", "padding"]),
        ("MZXW6YTB========", ["8 '='", "padding"]),
        ("MZXW-6YTB", ["'-'", "position 5"]),
    ]

    @Test("Malformed Base32 throws an error naming the problem", arguments: malformed)
    func malformedInput(_ example: (input: String, expected: [String])) {
        let error = #expect(throws: OTPError.self) { try Base32.decode(example.input) }
        #expect(error?.code == .invalidBase32)
        for word in example.expected {
            #expect(error?.description.contains(word) == true, "\(error?.description ?? "no error") lacks \(word)")
        }
    }

    @Test("Random bytes survive encode then decode (seeded)")
    func randomRoundTrip() throws {
        var random = SplitMix64.replayable("Base32 round trip")
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...70, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(try Base32.decode(Base32.encode(bytes)) == bytes)
            #expect(try Base32.decode(Base32.encodePadded(bytes)) == bytes)
            #expect(Base32.encodePadded(bytes).count % 8 == 0)
        }
    }
}
