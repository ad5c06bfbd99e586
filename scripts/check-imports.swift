// Checks the import rules of docs/ARCHITECTURE.md: every `import` in Sources/, Benchmarks/ and
// Fuzz/, and every dependency Package.swift gives a non-test target, must be listed in that
// target's row of the table between `<!-- import-rules: begin -->` and `<!-- import-rules: end -->`.
// The table is read from the document, so the document and the check cannot drift apart.
//
//   swift scripts/check-imports.swift              check this checkout (exit 1 on a violation)
//   swift scripts/check-imports.swift --no-package  imports only, without `swift package dump-package`
//   swift scripts/check-imports.swift --self-test   show that wrong imports and dependencies fail
import Foundation

/// What each target may import, as the document's table says.
struct ImportRules {
    /// Shorthands the table may use for several modules.
    static let aliases = ["libc": ["Glibc", "Musl", "Darwin"]]
    /// The table's `*` row: what every target may import.
    var everywhere: Set<String> = []
    var allowed: [String: Set<String>] = [:]

    /// Reads the table from the markdown text of docs/ARCHITECTURE.md.
    init(markdown: String) throws {
        guard let begin = markdown.range(of: "<!-- import-rules: begin -->"),
            let end = markdown.range(of: "<!-- import-rules: end -->"), begin.upperBound < end.lowerBound
        else { throw Failure("docs/ARCHITECTURE.md has no table between <!-- import-rules: begin --> and <!-- import-rules: end -->.") }
        for line in markdown[begin.upperBound..<end.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let target = Self.names(in: cells[1]).first else { continue }
            var modules = Set(Self.names(in: cells[3]))
            for (alias, expansion) in Self.aliases where cells[3].split(whereSeparator: { ", ".contains($0) }).contains(Substring(alias)) {
                modules.formUnion(expansion)
            }
            if target == "*" { everywhere = modules } else { allowed[target] = modules }
        }
        guard !allowed.isEmpty else { throw Failure("The import-rules table of docs/ARCHITECTURE.md has no rows.") }
    }

    /// The `backticked` names in a cell.
    static func names(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// Why `target` may not import `module`, or nil when it may.
    func violation(_ target: String, imports module: String) -> String? {
        guard let modules = allowed[target] else {
            return "\(target) has no row in the import-rules table of docs/ARCHITECTURE.md; add one"
        }
        if module == target || modules.contains(module) || everywhere.contains(module) { return nil }
        let listed = modules.sorted().joined(separator: ", ")
        return "\(target) may not import \(module) (docs/ARCHITECTURE.md allows: \(listed.isEmpty ? "nothing beyond the * row" : listed))"
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The modules one Swift file imports, with their line numbers.
func imports(in text: String) -> [(line: Int, module: String)] {
    let pattern =
        #"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:class|struct|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#
    let regex = try! NSRegularExpression(pattern: pattern)
    var found: [(Int, String)] = []
    var inBlockComment = false
    var inMultilineString = false
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
        // A multi-line string holds text (a script run by a test), not imports.
        if line.components(separatedBy: "\"\"\"").count % 2 == 0 {
            inMultilineString.toggle()
            continue
        }
        if inMultilineString { continue }
        // Block comments hold examples, not imports (no nesting in practice here).
        if inBlockComment {
            if line.contains("*/") { inBlockComment = false }
            continue
        }
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("/*"), !line.contains("*/") {
            inBlockComment = true
            continue
        }
        let range = NSRange(line.startIndex..., in: line)
        if let match = regex.firstMatch(in: line, range: range), let module = Range(match.range(at: 1), in: line) {
            found.append((index + 1, String(line[module])))
        }
    }
    return found
}

/// Every Swift target directory of the checkout: Sources/*, Benchmarks/*, Fuzz/* that hold Swift files.
func targetDirectories(root: URL) -> [(name: String, url: URL)] {
    let manager = FileManager.default
    var targets: [(String, URL)] = []
    for folder in ["Sources", "Benchmarks", "Fuzz"] {
        let parent = root.appendingPathComponent(folder)
        let children = (try? manager.contentsOfDirectory(at: parent, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        for child in children.sorted(by: { $0.path < $1.path }) where !swiftFiles(in: child).isEmpty {
            targets.append((child.lastPathComponent, child))
        }
    }
    return targets
}

func swiftFiles(in directory: URL) -> [URL] {
    let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
    return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
}

/// The violations of the import statements under `root`.
func importViolations(root: URL, rules: ImportRules) -> [String] {
    var violations: [String] = []
    for (target, directory) in targetDirectories(root: root) {
        if rules.allowed[target] == nil {
            violations.append(
                "\(directory.path.replacingOccurrences(of: root.path + "/", with: "")): \(rules.violation(target, imports: "")!)")
            continue
        }
        for file in swiftFiles(in: directory) {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            for (line, module) in imports(in: text) {
                if let reason = rules.violation(target, imports: module) {
                    violations.append("\(file.path.replacingOccurrences(of: root.path + "/", with: "")):\(line): \(reason)")
                }
            }
        }
    }
    return violations
}

/// The non-test targets of Package.swift with their dependencies' module names, from
/// `swift package dump-package`.
func packageDependencies(root: URL) throws -> [String: [String]] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "--package-path", root.path, "dump-package"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let package = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let targets = package["targets"] as? [[String: Any]]
    else { throw Failure("`swift package dump-package` failed (exit \(process.terminationStatus)); run it to see why.") }
    var result: [String: [String]] = [:]
    for target in targets where (target["type"] as? String) != "test" {
        guard let name = target["name"] as? String else { continue }
        let dependencies = target["dependencies"] as? [[String: Any]] ?? []
        // Each is {"byName": [name, condition]}, {"target": [name, condition]} or
        // {"product": [name, package, moduleAliases, condition]}: the first element is the module.
        result[name] = dependencies.compactMap { ($0.values.first as? [Any])?.first as? String }
    }
    return result
}

func packageViolations(_ dependencies: [String: [String]], rules: ImportRules) -> [String] {
    dependencies.keys.sorted().flatMap { target in
        rules.allowed[target] == nil
            ? ["Package.swift: \(rules.violation(target, imports: "")!)"]
            : dependencies[target]!.compactMap { module in
                rules.violation(target, imports: module).map { "Package.swift: target \(target) depends on \(module): \($0)" }
            }
    }
}

/// Builds a small tree with wrong imports beside this checkout's document and checks that each
/// is reported, and that an allowed one is not.
func selfTest(root: URL) throws {
    let rules = try ImportRules(markdown: String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8))
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("check-imports-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let files = [
        "Sources/Operations/Wrong.swift":
            "import Foundation\nimport Gateway\n@testable import ModemSimulator\npublic import ArgumentParser\n/*\nimport Modem\n*/\n",
        "Sources/Gateway/Right.swift":
            "import Operations\nimport Store\n#if canImport(Glibc)\nimport Glibc\n#endif\nlet script = \"\"\"\n    import TestSupport\n    \"\"\"\n",
        "Sources/Gateway/Wrong.swift": "import ModemSimulator\n",
        "Sources/SMSCipher/Wrong.swift": "import struct Store.Contact\n",
        "Sources/Store/Wrong.swift": "import TestSupport\n",
        "Sources/Unlisted/Code.swift": "import Foundation\n",
    ]
    for (path, text) in files {
        let url = scratch.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let found = importViolations(root: scratch, rules: rules)
    let expected = [
        "Sources/Operations/Wrong.swift:2: Operations may not import Gateway",
        "Sources/Operations/Wrong.swift:3: Operations may not import ModemSimulator",
        "Sources/Operations/Wrong.swift:4: Operations may not import ArgumentParser",
        "Sources/Gateway/Wrong.swift:1: Gateway may not import ModemSimulator",
        "Sources/SMSCipher/Wrong.swift:1: SMSCipher may not import Store",
        "Sources/Store/Wrong.swift:1: Store may not import TestSupport",
        "Sources/Unlisted: Unlisted has no row",
    ]
    var failures = expected.filter { prefix in !found.contains { $0.hasPrefix(prefix) } }.map { "not reported: \($0)" }
    failures += found.filter { line in !expected.contains { line.hasPrefix($0) } }.map { "reported wrongly: \($0)" }
    let wrongPackage = packageViolations(["Operations": ["Store", "Modem"], "Gateway": ["Operations", "Logging"]], rules: rules)
    if wrongPackage.count != 1 || !wrongPackage[0].contains("Operations depends on Modem") {
        failures.append("Package.swift check: expected only Operations → Modem, got \(wrongPackage)")
    }
    guard failures.isEmpty else { throw Failure("self-test failed:\n" + failures.joined(separator: "\n")) }
    print(
        "check-imports self-test: the \(expected.count) wrong imports and the wrong package dependency are reported, the right ones are not"
    )
}

let arguments = Set(CommandLine.arguments.dropFirst())
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
do {
    if arguments.contains("--self-test") {
        try selfTest(root: root)
        exit(0)
    }
    let rules = try ImportRules(markdown: String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8))
    var violations = importViolations(root: root, rules: rules)
    if !arguments.contains("--no-package") {
        violations += packageViolations(try packageDependencies(root: root), rules: rules)
    }
    guard violations.isEmpty else {
        FileHandle.standardError.write(Data((violations.joined(separator: "\n") + "\n").utf8))
        FileHandle.standardError.write(
            Data(
                "check-imports: \(violations.count) import(s) cross the layers of docs/ARCHITECTURE.md; change the code, or the table if the design changed.\n"
                    .utf8))
        exit(1)
    }
    let checked = arguments.contains("--no-package") ? "every import" : "every import and package dependency"
    print("check-imports: \(checked) follows docs/ARCHITECTURE.md")
} catch {
    FileHandle.standardError.write(Data("check-imports: \(error)\n".utf8))
    exit(1)
}
