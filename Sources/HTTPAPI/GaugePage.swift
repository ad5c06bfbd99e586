/// Gauges in Prometheus's text format, written in the order they were set: each family (its
/// `# HELP` and `# TYPE` once) where its first series was set, its series in the order set. So
/// two scrapes of an unchanged gateway read the same, line for line (a registry keeps its
/// families and series in dictionaries, whose order changes from one scrape to the next).
struct GaugePage {
    private var families: [(name: String, help: String, series: [String])] = []

    /// Sets `smsgw_NAME{labels}` to `value`.
    mutating func set(_ name: String, _ labels: [(String, String)], _ help: String, _ value: Int) {
        set(name, labels, help, text: "\(value)")
    }

    /// Sets `smsgw_NAME{labels}` to the fraction `value`.
    mutating func set(_ name: String, _ labels: [(String, String)], _ help: String, _ value: Double) {
        set(name, labels, help, text: "\(value)")
    }

    private mutating func set(_ name: String, _ labels: [(String, String)], _ help: String, text value: String) {
        let metric = "smsgw_\(name)"
        let labelText = labels.isEmpty ? "" : "{" + labels.map { "\($0)=\"\(Self.escaped($1))\"" }.joined(separator: ",") + "}"
        let line = "\(metric)\(labelText) \(value)"
        if let index = families.firstIndex(where: { $0.name == metric }) {
            families[index].series.append(line)
        } else {
            families.append((metric, help, [line]))
        }
    }

    /// The page, every line ended by a newline.
    var text: String {
        families.map { family in
            (["# HELP \(family.name) \(Self.escapedHelp(family.help))", "# TYPE \(family.name) gauge"] + family.series)
                .map { $0 + "\n" }.joined()
        }
        .joined()
    }

    /// A label value as the text format quotes it: backslash, double quote and line feed escaped
    /// (an endpoint URL or a modem name is the operator's, but is not trusted to be tidy).
    static func escaped(_ value: String) -> String { escapedHelp(value, quote: true) }

    /// Help text as the text format wants it: backslash and line feed escaped (and the double
    /// quote too, for a label value).
    static func escapedHelp(_ text: String, quote: Bool = false) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\n", "\r\n": result += "\\n"
            case "\"" where quote: result += "\\\""
            default: result.append(character)
            }
        }
        return result
    }
}
