// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "smsgw",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "smsgw", targets: ["smsgw"]),
        .library(name: "SMSCipher", targets: ["SMSCipher"]),
        .library(name: "GSM7", targets: ["GSM7"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // A seeded generator for replayable tests, fault plans and benchmarks (never for keys).
        .target(name: "SplitMix", swiftSettings: strict),

        // Finding and running the programs the tests compare against (oathtool, zbarimg). Tests only.
        .target(name: "ExternalTool", swiftSettings: strict),

        // What the test targets share: temporary directories, stores in them, `eventually`, a
        // quiet logger, a simulated network in a directory of its own. Tests only.
        .target(
            name: "TestSupport",
            dependencies: ["Store", "ModemSimulator", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        // GSM 03.38 alphabet, septet counting and packing. Pure.
        .target(name: "GSM7", dependencies: ["Failures"], swiftSettings: strict),

        // SHA-256 and HMAC-SHA256 with precomputed key states, for SMSCipher: the processor's SHA
        // extensions when it has them, portable C otherwise. Our own, so SMSCipher needs no
        // dependency's internal module.
        .target(name: "CSHA256"),

        // The protocol: pairing, ratchet, wire format, resync messages. Pure values, no I/O.
        .target(
            name: "SMSCipher",
            dependencies: ["GSM7", "CSHA256", "Failures"],
            swiftSettings: strict
        ),

        // libgammu, reached only through the Modem target.
        .systemLibrary(
            name: "CGammu",
            pkgConfig: "gammu",
            providers: [.apt(["libgammu-dev"])]
        ),
        .target(
            name: "Modem",
            dependencies: [
                "CGammu", "GSM7", "Failures", "SystemCalls", .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // glibc's mallopt and prctl, for the daemon's memory and process (Gateway's DaemonProcess).
        .systemLibrary(name: "CDaemon"),

        // libargon2, reached only through the Store target.
        .systemLibrary(
            name: "CArgon2",
            pkgConfig: "libargon2",
            providers: [.apt(["libargon2-dev"])]
        ),
        .target(
            name: "Store",
            dependencies: [
                "Failures",
                "SystemCalls",
                "CArgon2",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        .target(
            name: "OTP",
            dependencies: ["Failures", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),

        // A virtual GSM network of AT modems on pseudo-terminals.
        .target(
            name: "ModemSimulator",
            dependencies: ["GSM7", "SplitMix", "Failures", "SystemCalls", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        // What kind of failure an error is (ErrorCategory), in words no front end owns. A leaf.
        .target(name: "Failures", swiftSettings: strict),

        // Every POSIX call of smsgw in one place: EINTR retried, errno turned into a sentence with
        // a category, descriptors owned so they close on every path. Imports only Failures (a
        // leaf) and its C half, which wraps the pseudo-terminal calls the Glibc module hides.
        .target(name: "CSystemCalls"),
        .target(name: "SystemCalls", dependencies: ["Failures", "CSystemCalls"], swiftSettings: strict),

        // Terminal input and output for the command-line front ends: passphrase sources, masked
        // prompts, texts and secrets kept off argv, escaping of text from outside, result lines.
        .target(name: "TerminalIO", dependencies: ["Failures", "SystemCalls"], swiftSettings: strict),

        // The swift-log handler of the CLI and the daemon: one line per event on stderr, in
        // journald's form under systemd, every value escaped.
        .target(
            name: "StandardErrorLogging",
            dependencies: ["SystemCalls", "TerminalIO", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        // The application layer: the operations every front end (CLI, HTTP API, console) and the
        // daemon call, one transaction each, returning values; docs/ARCHITECTURE.md.
        .target(
            name: "Operations",
            dependencies: [
                "Failures", "Store", "SMSCipher", "GSM7", "OTP", "SystemCalls",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // The web console's pages, stylesheet and script, rendered from the application layer's
        // values with every string escaped. Pure: no I/O, no server.
        .target(
            name: "ConsoleViews",
            dependencies: ["Operations", "Store", "SMSCipher", "GSM7"],
            swiftSettings: strict
        ),

        // The web console's behaviour: sign-in, sessions, CSRF and origin checks, roles on the
        // server, the pages. Independent of the HTTP server that carries its requests.
        .target(
            name: "Console",
            dependencies: ["ConsoleViews", "Operations", "Store", "Failures"],
            swiftSettings: strict
        ),

        // The daemon: modem supervisors, outbox sender, inbox receiver, resync; a ServiceGroup.
        // It reaches modems through Modem's SMSModem protocol and knows nothing of the simulator.
        .target(
            name: "Gateway",
            dependencies: [
                "Operations", "Failures", "Store", "SMSCipher", "GSM7", "Modem", "SystemCalls", "CDaemon",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // `serve --sim`: a gateway on its own in-process simulated network.
        .target(
            name: "SimulatedGateway",
            dependencies: [
                "Gateway", "ModemSimulator", "Store", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        // Writes a text file into a Swift file as a string constant, for the plugin below.
        .executableTarget(name: "EmbedText", swiftSettings: strict),
        // Embeds docs/openapi.yaml in HTTPAPI at build time, so the document is kept once.
        .plugin(name: "EmbedOpenAPI", capability: .buildTool(), dependencies: ["EmbedText"]),

        // The HTTP API (`serve`'s listener): routes, bearer tokens, problem+json errors, the event
        // stream and the metrics page, over the operations; docs/openapi.yaml (embedded).
        .target(
            name: "HTTPAPI",
            dependencies: [
                "Operations", "Gateway", "Store", "Failures", "Console",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict,
            plugins: ["EmbedOpenAPI"]
        ),

        .executableTarget(
            name: "smsgw",
            dependencies: [
                "Operations", "Failures", "GSM7", "SMSCipher", "Store", "OTP", "ModemSimulator", "Gateway",
                "SimulatedGateway", "TerminalIO", "StandardErrorLogging", "HTTPAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // Benchmarks and fuzzing: separate executables, never part of `swift test`.
        .executableTarget(
            name: "CipherBenchmark",
            dependencies: ["SMSCipher", "GSM7", "SplitMix", "CSHA256"],
            path: "Benchmarks/CipherBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "WebhookBenchmark",
            dependencies: ["Gateway", "Operations", "Store", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/WebhookBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "KeySearchBenchmark",
            dependencies: ["Operations", "Store", "SMSCipher", "SplitMix", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/KeySearchBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CipherFuzz",
            dependencies: ["SMSCipher", "GSM7", "SplitMix"],
            path: "Fuzz/CipherFuzz",
            swiftSettings: strict
        ),

        .testTarget(
            name: "OperationsTests",
            dependencies: [
                "TestSupport", "Operations", "Failures", "Store", "OTP", "SMSCipher", "GSM7", "SplitMix",
                .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HTTPAPITests",
            dependencies: [
                "HTTPAPI", "Console", "Failures", "Operations", "Store", "SMSCipher", "TestSupport", "ExternalTool",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StandardErrorLoggingTests",
            dependencies: ["StandardErrorLogging", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(name: "TerminalIOTests", dependencies: ["TerminalIO", "SystemCalls", "Failures"], swiftSettings: strict),
        .testTarget(
            name: "ConsoleViewsTests", dependencies: ["ConsoleViews", "Console", "Operations", "Store", "TestSupport"],
            swiftSettings: strict),
        .testTarget(name: "SystemCallsTests", dependencies: ["TestSupport", "SystemCalls", "Failures"], swiftSettings: strict),
        .testTarget(name: "GSM7Tests", dependencies: ["GSM7", "Failures", "SplitMix"], swiftSettings: strict),
        .testTarget(
            name: "SMSCipherTests",
            dependencies: ["SMSCipher", "GSM7", "SplitMix", "CSHA256", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "TestSupport", "Store", "Failures", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "OTPTests", dependencies: ["OTP", "SplitMix", "ExternalTool"], swiftSettings: strict),
        .testTarget(
            name: "ModemSimulatorTests",
            dependencies: ["TestSupport", "ModemSimulator", "GSM7", "SplitMix", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ModemTests",
            dependencies: ["TestSupport", "Modem", "ModemSimulator", "GSM7", "SplitMix", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "TestSupport", "Gateway", "SimulatedGateway", "Operations", "Failures", "Store", "SMSCipher", "GSM7", "Modem",
                "ModemSimulator",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Store: a few tests write hostile modem statuses and log rows as a daemon would, then read them
        // through the binary. GRDB only to alter a copy of a database the way an attacker with the file would.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TestSupport", "smsgw", "Store", "SplitMix", "ExternalTool", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
    ]
)
