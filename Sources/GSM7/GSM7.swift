/// The GSM 03.38 (3GPP TS 23.038) default alphabet: tables, validation, septet counting and 7-bit packing.
///
/// Encoding works on Unicode scalars, not `Character`s: in Swift `"\r\n"` is one `Character` but two
/// septets (0x0D 0x0A), and a combining sequence such as `"e\u{301}"` is not GSM-7 even though it looks
/// like `é` (use ``transliterate(_:)`` to compose or strip it). Positions shown to users in errors and
/// replacements are 1-based and counted in `Character`s, which is what a person counts on screen.
///
/// Everything here is pure, `Sendable` and free of global mutable state: the tables are `static let`s,
/// initialised once by the runtime.
public enum GSM7 {
    /// The escape septet (ESC): the next septet is looked up in ``extensionTable``.
    public static let escape: UInt8 = 0x1B

    /// The number of septets that fit in one SMS without a user data header.
    public static let septetsPerSMS = 160
}
