/// The protocol's only primitive: HMAC-SHA256 under a label, and counter-mode expansion of it.
///
/// Labels are ASCII and start with "smsgw1 "; docs/PROTOCOL.md §4 lists every one.
enum KDF {
    /// HMAC-SHA256(key, label ‖ parts…).
    static func mac(_ key: [UInt8], _ label: Label, _ parts: [UInt8]...) -> [UInt8] {
        HMACKey(key).mac([label.bytes] + parts)
    }

    static func key(_ key: KeyBytes, _ label: Label, _ parts: [UInt8]...) -> KeyBytes {
        KeyBytes(HMACKey(key).mac([label.bytes] + parts))
    }

    /// Counter-mode expansion: T(j) = HMAC(key, label ‖ context ‖ j) for j = 1, 2, …, truncated to `count` bytes.
    static func expand(_ key: [UInt8], _ label: Label, context: [UInt8], count: Int) -> [UInt8] {
        let hmac = HMACKey(key)
        var output: [UInt8] = []
        output.reserveCapacity(count + 32)
        var block: UInt8 = 1
        while output.count < count {
            output.append(contentsOf: hmac.mac(label.bytes, context, [block]))
            block += 1
        }
        return Array(output.prefix(count))
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        HMACKey.sha256(bytes)
    }

    /// Every label of the protocol, so none is spelled twice.
    struct Label: Sendable {
        let bytes: [UInt8]
        init(_ text: StaticString) {
            self.bytes = Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        static let codeCheck = Label("smsgw1 code check")
        static let pairing = Label("smsgw1 pairing")
        static let safety = Label("smsgw1 safety")
        static let root = Label("smsgw1 root")
        static let resyncRoot = Label("smsgw1 resync")
        static let resyncCode = Label("smsgw1 resync code")
        static let chainAB = Label("smsgw1 chain A>B")
        static let chainBA = Label("smsgw1 chain B>A")
        static let freshA = Label("smsgw1 fresh A")
        static let freshB = Label("smsgw1 fresh B")
        static let handshakeA = Label("smsgw1 handshake A")
        static let handshakeB = Label("smsgw1 handshake B")
        static let messageKey = Label("smsgw1 mk")
        static let chainKey = Label("smsgw1 ck")
        static let identifier = Label("smsgw1 id")
        static let reference = Label("smsgw1 ref")
        static let payloadKey = Label("smsgw1 key")
        static let tag = Label("smsgw1 tag")
        static let padding = Label("smsgw1 padding")
        static let pad = Label("smsgw1 pad")
    }
}

extension FixedWidthInteger {
    /// Big-endian bytes, the only byte order the protocol uses.
    var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: self.bigEndian) { Array($0) }
    }
}
