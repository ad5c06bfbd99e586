import OTP
import TerminalIO

/// An `otpauth://` URI, or a ciphertext, drawn as a QR code in half-block characters for a
/// phone's camera (an authenticator app; the SMS app of a peer without smsgw on the phone): a
/// rendering concern of the CLI (the OTP module has the encoder).
enum QRDrawing {
    /// The drawing of `uri`; `invert` draws light modules for a dark terminal background.
    ///
    /// - Throws: ``CLIError`` 65 when the URI does not fit a QR code.
    static func draw(_ uri: OTPAuthURI, invert: Bool) throws -> String {
        try draw(text: uri.string, invert: invert, instead: "use the URI without --qr")
    }

    /// The drawing of `text` as its UTF-8 bytes; `instead` says what to do when it cannot be drawn.
    static func draw(text: String, invert: Bool, instead: String) throws -> String {
        do {
            return try QRCode(Array(text.utf8)).terminalString(invert: invert)
        } catch {
            throw CLIError("The QR code cannot be drawn (\(error.message)); \(instead).", status: .dataError)
        }
    }

    /// Prints the drawing of `uri` on stdout, as it is (it ends with its own line break).
    static func print(_ uri: OTPAuthURI, invert: Bool) throws {
        Swift.print(try draw(uri, invert: invert), terminator: "")
        Output.flush()
    }
}
