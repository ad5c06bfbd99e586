import Operations
import Testing

/// A retention age is a whole number of days ≥ 0, however a front end reads it.
@Suite("Retention age")
struct RetentionAgeTests {
    @Test("Whole days of 0 or more parse; negative, fractional and other text do not")
    func parsing() throws {
        #expect(RetentionAge(parsing: "30")?.days == 30)
        #expect(RetentionAge(parsing: " 0 ")?.days == 0)
        for text in ["-1", "1.5", "30d", "", "thirty"] {
            #expect(RetentionAge(parsing: text) == nil, "\(text)")
        }
        #expect(throws: MaintenanceError.negativeAge(days: -2)) { try RetentionAge(days: -2) }
        #expect(try RetentionAge(days: 1).description == "1 day")
    }
}
