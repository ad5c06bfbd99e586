import ExternalTool
import Foundation
import OTP
import SplitMix
import Testing

/// Decoding by a real peer, ZBar's `zbarimg`: what a phone's camera app would read.
extension QRCodeTests {
    static let uris = [
        "otpauth://totp/a?secret=GEZDGNBV",
        "otpauth://totp/ACME%20Co:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30",
        "otpauth://hotp/smsgw:bob?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=smsgw&algorithm=SHA256&digits=8&counter=42",
        "otpauth://totp/Example%20Service%20With%20A%20Long%20Name:someone.with.a.long.address@subdomain.example.org?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Example%20Service%20With%20A%20Long%20Name&algorithm=SHA512&digits=8&period=60",
    ]

    @Test("zbarimg reads otpauth URIs back exactly, at every level")
    func zbarReadsURIs() throws {
        for uri in Self.uris {
            for correction in QRCode.Correction.allCases {
                let code = try QRCode(Array(uri.utf8), correction: correction)
                let decoded = try Self.zbarDecode(code, binary: false)
                #expect(decoded == Array(uri.utf8), "v\(code.version) \(correction) mask \(code.mask): \(uri)")
            }
        }
    }

    @Test("zbarimg reads every mask")
    func zbarReadsEveryMask() throws {
        let uri = Self.uris[1]
        for mask in 0..<8 {
            let code = try QRCode(Array(uri.utf8), mask: mask)
            #expect(try Self.zbarDecode(code, binary: false) == Array(uri.utf8), "mask \(mask)")
        }
    }

    @Test("zbarimg reads random bytes of lengths 1 to 200, and a few longer")
    func zbarReadsRandomBytes() throws {
        var generator = SplitMix64.replayable("QR random bytes")
        var lengths = Array(stride(from: 1, through: 200, by: 7)) + [200]
        lengths += (0..<12).map { _ in Int.random(in: 1...200, using: &generator) }
        lengths += [400, 1000, 2331]
        for length in lengths {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let correction = length > 1000 ? .medium : QRCode.Correction.allCases.randomElement(using: &generator)!
            let code = try QRCode(bytes, correction: correction)
            let decoded = try Self.zbarDecode(code, binary: true)
            #expect(decoded == bytes, "length \(length), v\(code.version) \(correction) mask \(code.mask), seed \(generator.seed)")
        }
    }

    /// Writes the symbol as a PBM image (scale 4, quiet zone 4) and decodes it with `zbarimg`,
    /// looking for QR codes only: with every symbology on, zbarimg once also read a run of random
    /// modules as a one-dimensional barcode ("710202") and printed it after the QR code's bytes.
    /// - Parameter binary: Ask for the bytes as they are (`-Sbinary`) rather than as text.
    /// - Returns: The decoded bytes; in text mode zbarimg's trailing newline is removed (in
    ///   binary mode it adds none).
    static func zbarDecode(_ code: QRCode, binary: Bool) throws -> [UInt8] {
        let path = try #require(
            ExternalTool("zbarimg", override: "ZBARIMG").path,
            "zbarimg is not installed, so the QR decoding tests cannot run: install it with `apt-get install zbar-tools` (or set ZBARIMG to its path)"
        )
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pbm")
        try Data(code.portableBitmap(scale: 4, quietZone: 4).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let result = try ExternalTool.run(
            path, ["--raw", "-q", "-Sdisable", "-Sqrcode.enable"] + (binary ? ["-Sbinary"] : []) + [file.path])
        try #require(result.status == 0, "zbarimg exited with \(result.status): \(result.errors)")
        var bytes = [UInt8](result.output)
        if !binary, bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return bytes
    }
}
