/// Drawing a ``QRCode`` as text.
extension QRCode {
    /// The symbol as lines of half-block characters, two module rows per line, with a quiet
    /// zone of two modules.
    ///
    /// Scanners need dark modules on a light background. With `invert` false the characters
    /// (`▀`, `▄`, `█`) are the dark modules, for dark text on a light terminal; with `invert`
    /// true they are the light modules and the quiet zone, for light text on a dark terminal.
    /// - Parameter invert: Whether the characters draw the light modules.
    /// - Returns: The lines, each ending in a newline.
    public func terminalString(invert: Bool = false) -> String {
        let quietZone = 2
        let range = -quietZone..<(size + quietZone)
        // Inside the symbol and its quiet zone, whether a character cell is inked; below the
        // last row (the total height is odd) nothing is.
        func inked(_ x: Int, _ y: Int) -> Bool {
            guard range.contains(y) else { return false }
            return isDark(x: x, y: y) != invert
        }
        var text = ""
        for y in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            for x in range {
                switch (inked(x, y), inked(x, y + 1)) {
                case (true, true): text += "█"
                case (true, false): text += "▀"
                case (false, true): text += "▄"
                case (false, false): text += " "
                }
            }
            text += "\n"
        }
        return text
    }

    /// The symbol as a plain PBM (P1) image, one pixel per module scaled by `scale`, with a
    /// quiet zone of `quietZone` modules: a form any image reader and QR decoder accepts.
    /// - Parameters:
    ///   - scale: Pixels per module side.
    ///   - quietZone: Light modules around the symbol; the standard asks for 4.
    /// - Returns: The image file's text.
    public func portableBitmap(scale: Int = 4, quietZone: Int = 4) -> String {
        let side = (size + 2 * quietZone) * scale
        var text = "P1\n\(side) \(side)\n"
        for py in 0..<side {
            let y = py / scale - quietZone
            var line = ""
            line.reserveCapacity(side * 2)
            for px in 0..<side {
                line += isDark(x: px / scale - quietZone, y: y) ? "1 " : "0 "
            }
            text += line + "\n"
        }
        return text
    }
}
