import Console
import Failures
import Foundation
import HTTPTypes
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

    @Test("Each error category has one status; retries are suggested only where waiting helps")
    func statusTable() {
        let table = Dictionary(uniqueKeysWithValues: ErrorCategory.allCases.map { ($0, HTTPResponse.Status($0).code) })
        #expect(table[.invalidInput] == 422 && table[.notFound] == 404 && table[.conflict] == 409)
        #expect(table[.authentication] == 401 && table[.forbidden] == 403 && table[.locked] == 429)
        #expect(table[.busy] == 503 && table[.storage] == 500)
        #expect(ErrorCategory.busy.retryAfter == 1 && ErrorCategory.notFound.retryAfter == nil)
        #expect(ErrorCategory.invalidInput.slug == "invalid-input")
        // The console answers from the same table, and every status keeps its reason phrase.
        for category in ErrorCategory.allCases {
            #expect(HTTPResponse.Status(category).code == category.httpStatus)
            #expect(!HTTPResponse.Status(category).reasonPhrase.isEmpty, "\(category)")
        }
    }
}
