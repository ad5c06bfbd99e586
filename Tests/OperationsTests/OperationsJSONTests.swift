import Foundation
import Operations
import Testing

/// The one JSON encoding every front end prints.
struct OperationsJSONTests {
    struct Sample: Encodable {
        var name: String
        var time: Date
        var missing: String?

        enum CodingKeys: String, CodingKey { case name, time, missing }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(time, forKey: .time)
            try container.encode(missing, forKey: .missing)
        }
    }

    @Test func keysAreSortedTimesAreISO8601AndNullsStay() throws {
        let json = try OperationsJSON.string(Sample(name: "a/b", time: Date(timeIntervalSince1970: 0), missing: nil))
        #expect(json.hasPrefix("{\"missing\":null,\"name\":\"a/b\",\"time\":\""))
        let time = try #require(json.split(separator: "\"").dropLast().last.map(String.init))
        #expect(ISO8601DateFormatter().date(from: time) == Date(timeIntervalSince1970: 0))
    }
}
