/// The cost of the Argon2id passphrase hash, stored beside the salt so it can be raised later.
///
/// The defaults follow the better of the OWASP recommendations (64 MiB, 3 passes, 1 lane);
/// anything below the OWASP minimum (19 MiB, 2 passes) is refused.
public struct Argon2Parameters: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Memory cost in KiB (Argon2's `m`).
    public var memoryKiB: UInt32
    /// Number of passes over the memory (Argon2's `t`).
    public var iterations: UInt32
    /// Number of lanes (Argon2's `p`).
    public var parallelism: UInt32

    /// Creates parameters; call ``validate()`` (the store does) before using them.
    public init(memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// m = 64 MiB, t = 3, p = 1: the store's default.
    public static let `default` = Argon2Parameters(memoryKiB: 64 * 1024, iterations: 3, parallelism: 1)

    /// m = 19 MiB, t = 2, p = 1: the OWASP minimum, the least the store accepts (fast enough for tests).
    public static let minimum = Argon2Parameters(memoryKiB: 19 * 1024, iterations: 2, parallelism: 1)

    /// Limits that keep a tampered or mistyped row from exhausting the machine.
    static let maximumMemoryKiB: UInt32 = 4 * 1024 * 1024
    static let maximumIterations: UInt32 = 64
    static let maximumParallelism: UInt32 = 16

    /// Throws ``StoreError/invalidInput(_:)`` unless the parameters are at least the OWASP minimum
    /// and within sane upper bounds.
    public func validate() throws(StoreError) {
        if memoryKiB < Self.minimum.memoryKiB || iterations < Self.minimum.iterations || parallelism < 1 {
            throw .invalidInput(
                "Argon2 parameters \(self) are below the OWASP minimum (m=19 MiB, t=2, p=1); choose stronger ones."
            )
        }
        if memoryKiB > Self.maximumMemoryKiB || iterations > Self.maximumIterations
            || parallelism > Self.maximumParallelism
        {
            throw .invalidInput(
                "Argon2 parameters \(self) exceed the limits (m≤4 GiB, t≤64, p≤16); choose smaller ones."
            )
        }
        if memoryKiB < 8 * parallelism {
            throw .invalidInput("Argon2 needs at least 8 KiB of memory per lane; raise m or lower p.")
        }
    }

    public var description: String {
        let memory = memoryKiB % 1024 == 0 ? "\(memoryKiB / 1024) MiB" : "\(memoryKiB) KiB"
        return "m=\(memory), t=\(iterations), p=\(parallelism)"
    }
}
