import ExternalTool
import Foundation
import TestSupport
import Testing

/// `encrypt --qr`: each SMS drawn for a phone's camera, read back by ZBar's `zbarimg` (what a
/// camera app would read) as exactly the line printed under it.
@Suite("encrypt --qr", .blockingOffPool)
struct EncryptQRTests {
    @Test("Each SMS of a text is drawn above its line, and zbarimg reads the line back, on either background")
    func eachSMSScansAsItsLine() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            for light in [true, false] {
                let text = light ? "Meet at the north gate at noon" : String(repeating: "a longer report, ", count: 12)
                let result = try alice.expect(["encrypt", "bob", "--qr"] + (light ? ["--light-background"] : []), input: text + "\n")
                let drawings = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).split { $0.count == 160 }
                let lines = result.lines.filter { $0.count == 160 }
                #expect(lines.count == (light ? 1 : 2), "\(result.stdout)")
                for (drawing, line) in zip(drawings, lines) {
                    #expect(try Self.scan(drawing.map { String($0) }, inkIsDark: light) == Array(line.utf8))
                }
                let decrypted = try bob.expect(["decrypt", "alice", "--lines"], input: lines.map { $0 + "\n" }.joined())
                #expect(decrypted.stdout.contains(text))
            }
            let refused = try alice.run(["encrypt", "bob", "--qr", "--json"], input: "x\n")
            #expect(refused.status == 64 && refused.stderr.contains("--qr draws for a person to scan"))
        }
    }

    /// The half-block drawing turned back into modules (each character two rows), written as a
    /// PBM with a wide quiet zone and decoded by `zbarimg` as bytes.
    static func scan(_ rows: [String], inkIsDark: Bool) throws -> [UInt8] {
        let path = try #require(ExternalTool("zbarimg", override: "ZBARIMG").path, "zbarimg is not installed (apt-get install zbar-tools)")
        let cells = rows.filter { !$0.isEmpty }.map(Array.init)
        var modules: [[Bool]] = []
        for row in cells {
            let top = row.map { "█▀".contains($0) == inkIsDark }
            let bottom = row.map { "█▄".contains($0) == inkIsDark }
            modules += [top, bottom]
        }
        let width = try #require(modules.first?.count)
        let scale = 4
        let margin = 8
        var image = "P1\n\((width + 2 * margin) * scale) \((modules.count + 2 * margin) * scale)\n"
        let blank = String(repeating: "0 ", count: (width + 2 * margin) * scale) + "\n"
        image += String(repeating: blank, count: margin * scale)
        for row in modules {
            let pixels = Array(repeating: false, count: margin) + row + Array(repeating: false, count: margin)
            let line = pixels.flatMap { Array(repeating: $0 ? "1" : "0", count: scale) }.joined(separator: " ") + "\n"
            image += String(repeating: line, count: scale)
        }
        image += String(repeating: blank, count: margin * scale)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sms-qr-\(UUID().uuidString).pbm")
        try Data(image.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ExternalTool.run(path, ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", "-Sbinary", file.path])
        try #require(result.status == 0, "zbarimg exited with \(result.status): \(result.errors)")
        return [UInt8](result.output)
    }
}
