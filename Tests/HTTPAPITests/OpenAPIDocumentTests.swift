import Console
import ExternalTool
import Failures
import Foundation
import HTTPTypes
import Store
import Testing

@testable import HTTPAPI

@Suite("The API's description and its status table")
struct OpenAPIDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("The served description is docs/openapi.yaml")
    func servedDescriptionIsTheDocument() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        #expect(OpenAPIDocument.yaml == file, "the build embeds docs/openapi.yaml byte for byte (the EmbedOpenAPI plugin)")
    }

    @Test("Every path the router serves is described, and every described path is served")
    func everyPathIsDescribed() {
        let described = Set(
            OpenAPIDocument.yaml.split(separator: "\n").filter { $0.hasPrefix("  /") }.map { String($0.dropFirst(2).dropLast()) })
        #expect(described == Set(APIRoutes.table.map(\.path)))
    }

    /// A YAML parser (PyYAML, which CI installs for schemathesis) reads the document: a broken one
    /// fails here, not only in the end-to-end schemathesis run. Each path the router serves is
    /// described with exactly the methods it serves.
    @Test("docs/openapi.yaml parses as YAML and describes each route with the methods it serves")
    func documentParsesAndMatchesTheRoutes() throws {
        guard let python = ExternalTool("python3", override: "PYTHON3").path,
            (try? ExternalTool.run(python, ["-c", "import yaml"]))?.status == 0
        else {
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "CI installs PyYAML with schemathesis (scripts/install-deps.sh)")
            print("Skipping the YAML parse of docs/openapi.yaml: python3 with PyYAML is not installed (pip install pyyaml).")
            return
        }
        let script = """
            import json, sys, yaml
            with open(sys.argv[1], encoding="utf-8") as file:
                document = yaml.safe_load(file)
            verbs = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
            paths = {path: sorted(verb for verb in item if verb in verbs) for path, item in document["paths"].items()}
            print(json.dumps({"openapi": str(document["openapi"]), "paths": paths}))
            """
        let result = try ExternalTool.run(
            python, ["-c", script, Self.root.appendingPathComponent("docs/openapi.yaml").path])
        try #require(result.status == 0, "docs/openapi.yaml does not parse as YAML: \(result.errors)")
        struct Parsed: Decodable {
            var openapi: String
            var paths: [String: [String]]
        }
        let parsed = try JSONDecoder().decode(Parsed.self, from: result.output)
        #expect(parsed.openapi.hasPrefix("3."))
        let served = Dictionary(
            uniqueKeysWithValues: APIRoutes.table.map { route in (route.path, route.methods.map { $0.0.rawValue.lowercased() }.sorted()) })
        #expect(parsed.paths == served)
    }

    /// Without an explicit link, schemathesis infers one from the request's optional `id` (an
    /// idempotency key) to `/v1/messages/{id}`, and a numeric key that is no message's id made its
    /// stateful phase report ST302 (a created resource not found).
    @Test("A queued message links to its own path by the response's id, not by the request's idempotency key")
    func theSendResponseLinksByItsID() throws {
        let send = try #require(OpenAPIDocument.yaml.range(of: "      operationId: sendMessage\n"))
        let list = try #require(OpenAPIDocument.yaml.range(of: "      operationId: listMessages\n"))
        let operation = OpenAPIDocument.yaml[send.upperBound..<list.lowerBound]
        #expect(
            operation.contains(
                """
                          links:
                            GetMessage:
                              operationId: getMessage
                """))
        #expect(operation.contains("              parameters:\n                id: '$response.body#/id'\n"))
    }

    @Test("The messages list's state parameter offers exactly the states the log writes")
    func stateParameterListsEveryState() throws {
        let list = try #require(OpenAPIDocument.yaml.range(of: "      operationId: listMessages\n"))
        let document = OpenAPIDocument.yaml
        let state = try #require(document.range(of: "        - name: state\n", range: list.upperBound..<document.endIndex))
        let line = try #require(document[state.upperBound...].split(separator: "\n").first { $0.contains("enum: [") })
        let offered = line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(offered == MessageStatus.known.map(\.rawValue))
    }

    @Test("Each error category has one status; retries are suggested only where waiting helps")
    func statusTable() {
        let table = Dictionary(uniqueKeysWithValues: ErrorCategory.allCases.map { ($0, HTTPResponse.Status($0).code) })
        #expect(table[.invalidInput] == 422 && table[.notFound] == 404 && table[.conflict] == 409)
        #expect(table[.authentication] == 401 && table[.forbidden] == 403 && table[.locked] == 429)
        #expect(table[.busy] == 503 && table[.storage] == 500 && table[.internalFault] == 500)
        #expect(ErrorCategory.internalFault.slug == "internal-fault")
        #expect(ErrorCategory.busy.retryAfter == 1 && ErrorCategory.notFound.retryAfter == nil)
        #expect(ErrorCategory.invalidInput.slug == "invalid-input")
        // The console answers from the same table, and every status keeps its reason phrase.
        for category in ErrorCategory.allCases {
            #expect(HTTPResponse.Status(category).code == category.httpStatus)
            #expect(!HTTPResponse.Status(category).reasonPhrase.isEmpty, "\(category)")
        }
    }
}
