/// An error from ``QRCode``: what went wrong and what to do.
public struct QRCodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across releases so callers can branch on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The payload is longer than the version and level can hold.
        public static let dataTooLong = Code("dataTooLong")
        /// A version outside 1...40.
        public static let invalidVersion = Code("invalidVersion")
        /// A mask outside 0...7.
        public static let invalidMask = Code("invalidMask")

        public var description: String { name }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What happened and what to do, ready to show to a user.
    public let message: String

    /// Creates an error from a code and a message.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func dataTooLong(_ count: Int, version: Int?, correction: QRCode.Correction) -> QRCodeError {
        let limit = QRCode.byteCapacity(version: version ?? 40, correction: correction)
        let target = version.map { "version \($0)" } ?? "any QR code version"
        return QRCodeError(
            code: .dataTooLong,
            message:
                "\(count) bytes do not fit in \(target) at correction level \(correction), which holds \(limit); shorten the data or choose a lower correction level"
        )
    }

    static func invalidVersion(_ version: Int) -> QRCodeError {
        QRCodeError(code: .invalidVersion, message: "QR code version \(version) does not exist; use 1 to 40")
    }

    static func invalidMask(_ mask: Int) -> QRCodeError {
        QRCodeError(code: .invalidMask, message: "QR code mask \(mask) does not exist; use 0 to 7")
    }
}
