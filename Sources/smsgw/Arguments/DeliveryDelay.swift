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
}
