import OTP
import TerminalIO

/// An `otpauth://` URI drawn as a QR code in half-block characters, for an authenticator app's
/// camera: a rendering concern of the CLI (the OTP module has the encoder).
enum QRDrawing {
    /// The drawing of `uri`; `invert` draws light modules for a dark terminal background.
    ///
    /// - Throws: ``CLIError`` 65 when the URI does not fit a QR code.
    static func draw(_ uri: OTPAuthURI, invert: Bool) throws -> String {
        do {
            return try QRCode(Array(uri.string.utf8)).terminalString(invert: invert)
        } catch {
            throw CLIError("The QR code cannot be drawn (\(error.message)); use the URI without --qr.", status: .dataError)
        }
    }

    /// Prints the drawing of `uri` on stdout, as it is (it ends with its own line break).
    static func print(_ uri: OTPAuthURI, invert: Bool) throws {
        Swift.print(try draw(uri, invert: invert), terminator: "")
        Output.flush()
    }
}
