import Foundation
import Testing

@testable import HTTPAPI

/// The 400 sentences for a body that is not the JSON an endpoint takes: each a sentence that
/// names the place, starting with a capital as every other error does.
@Suite("The API's sentences for a malformed body")
struct DecodingSentenceTests {
    static func sentence(_ body: String) throws -> String {
        do {
            _ = try JSONDecoder().decode(APIHandlers.SendRequest.self, from: Data(body.utf8))
        } catch let error as DecodingError {
            return APIHandlers.sentence(error)
        }
        Issue.record("\(body) decoded")
        return ""
    }

    @Test("A body that is not an object, a key of the wrong type, a missing key, no JSON at all")
    func sentences() throws {
        #expect(try Self.sentence("[1, 2]") == "The body must be an object of the documented shape; see /v1/openapi.yaml.")
        #expect(try Self.sentence(#"{"contact": 5, "text": "x"}"#) == #""contact" must be a string; see /v1/openapi.yaml."#)
        #expect(try Self.sentence(#"{"text": "x"}"#).hasPrefix(#"The body lacks the key "contact""#))
        #expect(try Self.sentence("{").hasPrefix("The body is not valid JSON"))
    }
}
