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

/// The hand-written RFC 3339 times say exactly what Foundation's formatter says.
struct InternetTimeTests {
    static let zones = ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Pacific/Kiritimati", "America/Los_Angeles"]

    @Test("Times match ISO8601DateFormatter's internet date-time", arguments: zones)
    func matchesFoundation(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        var rng = SystemRandomNumberGenerator()
        var dates = [0, -0.5, 0.999, 0.9995, 0.9999, -0.0005, -0.4, 2.9995, 951_782_400, 4_107_542_399.75, 1_798_761_600, -86_400.25].map(
            Date.init(timeIntervalSince1970:))
        for _ in 0..<2000 { dates.append(Date(timeIntervalSince1970: Double.random(in: -600_000_000...4_000_000_000, using: &rng))) }
        for date in dates {
            #expect(InternetTime.string(date, in: zone) == formatter.string(from: date), "\(date.timeIntervalSince1970)")
        }
    }
}
