public import Foundation
public import Logging

/// A logger for tests that says nothing below `.critical`, unless `SMSGW_TEST_LOG` names a level
/// (`SMSGW_TEST_LOG=debug swift test --filter …` to watch one test).
///
/// - Parameter label: Which component logs.
public func quietLogger(_ label: String) -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = ProcessInfo.processInfo.environment["SMSGW_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
    return logger
}
