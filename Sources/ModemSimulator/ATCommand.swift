/// A complete answer to one command line.
struct ATReply {
    var lines: [String] = []
    /// `OK`, `ERROR`, `+CME ERROR: n`, `+CMS ERROR: n`; `nil` for the "> " prompt of AT+CMGS.
    var final: String? = "OK"

    static let ok = ATReply()
    static let error = ATReply(final: "ERROR")
    static let prompt = ATReply(final: nil)

    static func info(_ lines: String...) -> ATReply { ATReply(lines: lines) }
    static func cms(_ code: Int) -> ATReply { ATReply(final: "+CMS ERROR: \(code)") }
}

/// One extended command split into name and operation.
struct ATCommand {
    enum Operation: Equatable {
        /// `AT+X`
        case execute
        /// `AT+X?`
        case read
        /// `AT+X=?`
        case test
        /// `AT+X=a,b`
        case set([String])
    }

    /// Upper-cased, with its prefix: `+CMGF`.
    var name: String
    var operation: Operation

    init(_ text: Substring) {
        var nameEnd = text.startIndex
        while nameEnd < text.endIndex, text[nameEnd] != "=", text[nameEnd] != "?" {
            nameEnd = text.index(after: nameEnd)
        }
        name = text[text.startIndex..<nameEnd].uppercased()
        let rest = text[nameEnd...]
        if rest.isEmpty {
            operation = .execute
        } else if rest == "?" {
            operation = .read
        } else if rest == "=?" {
            operation = .test
        } else {
            operation = .set(Self.parameters(rest.dropFirst()))
        }
    }

    /// Parameters split at commas outside quotes, quotes removed, spaces trimmed.
    static func parameters(_ text: Substring) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        for c in text {
            if c == "\"" {
                quoted.toggle()
            } else if c == ",", !quoted {
                out.append(current.trimmingSpaces)
                current = ""
            } else {
                current.append(c)
            }
        }
        out.append(quoted ? current : current.trimmingSpaces)
        return out
    }
}
