import Foundation
import Operations
import Testing

/// The expiry a person gives `vault share`: a duration from now or a time, never the past.
@Suite("Share expiry")
struct ShareExpiryTests {
    let now = Date(timeIntervalSince1970: 1_900_000_000)

    @Test("Durations count from now; times are read as ISO 8601, a day from its start in UTC")
    func accepted() throws {
        #expect(try ShareExpiry.parse("90s", now: now) == now + 90)
        #expect(try ShareExpiry.parse("30m", now: now) == now + 1800)
        #expect(try ShareExpiry.parse("12h", now: now) == now + 43_200)
        #expect(try ShareExpiry.parse("7d", now: now) == now + 604_800)
        #expect(try ShareExpiry.parse("2w", now: now) == now + 1_209_600)
        #expect(try ShareExpiry.parse("2030-03-17T18:00:00Z", now: now) == Date(timeIntervalSince1970: 1_900_000_800))
        #expect(try ShareExpiry.parse("2030-03-18", now: now) == Date(timeIntervalSince1970: 1_900_022_400))
    }

    @Test("The past, zero, words and bare numbers are refused")
    func refused() {
        for text in ["0d", "-1h", "2020-01-01", "soon", "12", "d", "2030-03-17T17:00:00Z"] {
            #expect(throws: VaultError.self, "\(text)") { try ShareExpiry.parse(text, now: now) }
        }
    }
}
