import ArgumentParser
import ModemSimulator

/// `sim --delay 0.5-3` parses itself: seconds as MIN-MAX or one value, never negative; anything
/// else is a usage error naming the option.
struct DeliveryDelay: ExpressibleByArgument {
    let seconds: ClosedRange<Double>

    init?(argument: String) {
        guard let seconds = FaultPlan.delay(parsing: argument) else { return nil }
        self.seconds = seconds
    }

    var defaultValueDescription: String { "\(seconds.lowerBound)-\(seconds.upperBound)" }

    /// Parses an option's value, failing with what to give instead: "invalid" alone does not say.
    static func parsing(_ argument: String) throws -> DeliveryDelay {
        guard let delay = DeliveryDelay(argument: argument) else {
            throw ValidationError("It takes seconds, never negative: one value or MIN-MAX with MIN no more than MAX, e.g. 0.5-3.")
        }
        return delay
    }
}
