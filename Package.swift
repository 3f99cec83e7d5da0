// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "gtio-console",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gtio", targets: ["gtio"]),
        .library(name: "GTIOCatalog", targets: ["GTIOCatalog"]),
        .library(name: "GTIOStore", targets: ["GTIOStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-algorithms", exact: "1.2.1"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    targets: [
        // The event contract: types, validation, timestamps. No I/O, no SQLite.
        .target(name: "GTIOCatalog"),
        // The append-only log in SQLite, its quarantine and its checkpoints.
        .target(
            name: "GTIOStore",
            dependencies: [
                "GTIOCatalog",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Streaming JSON Lines ingest: read, validate on one core, append on the other.
        .target(
            name: "GTIOIngest",
            dependencies: ["GTIOCatalog", "GTIOStore"]),
        // Read models: a fold of the log by the rules of EVENTS.md §3, and their queries.
        .target(
            name: "GTIOProjections",
            dependencies: [
                "GTIOCatalog", "GTIOStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Algorithms", package: "swift-algorithms"),
            ]),
        // Answers as named columns and rows, and their plain-text formats: CSV, Markdown, JSON.
        .target(name: "GTIOTables", dependencies: ["GTIOCatalog"]),
        // Figures over the read models: the onboarding funnel, retention, quick-add acceptance,
        // the moderation desk, and the standard answers as tables.
        .target(name: "GTIOAnalytics", dependencies: ["GTIOCatalog", "GTIOProjections", "GTIOTables"]),
        // The nightly report: HTML with inline SVG charts, Markdown and CSV, written atomically.
        .target(name: "GTIOReports", dependencies: ["GTIOCatalog", "GTIOStore", "GTIOProjections", "GTIOAnalytics", "GTIOTables"]),
        // A seeded, simulated GTIO community for demos and benchmarks.
        .target(name: "GTIOSimulation", dependencies: ["GTIOCatalog"]),
        // The system's GNU readline (libreadline-dev), for the REPL.
        .systemLibrary(name: "CReadline", path: "Sources/CReadline", providers: [.apt(["libreadline-dev"])]),
        // The command surface: subcommands, output formats, the REPL.
        .target(
            name: "GTIOConsole",
            dependencies: [
                "GTIOCatalog", "GTIOStore", "GTIOIngest", "GTIOSimulation", "GTIOProjections", "GTIOTables",
                "GTIOAnalytics", "GTIOReports", "CReadline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "gtio", dependencies: ["GTIOConsole"]),
        // Figures for scripts/bench-*.sh that the CLI cannot give: raw SQLite, validation alone.
        .executableTarget(
            name: "gtio-bench",
            dependencies: ["GTIOCatalog", "GTIOStore", "GTIOIngest", "GTIOProjections",
                           .product(name: "GRDBSQLite", package: "GRDB.swift")]),

        .target(
            name: "GTIOTestSupport",
            dependencies: ["GTIOCatalog", "GTIOStore"],
            path: "Tests/GTIOTestSupport"),
        .testTarget(
            name: "GTIOCatalogTests",
            dependencies: ["GTIOCatalog", "GTIOTestSupport",
                           .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(
            name: "GTIOStoreTests",
            dependencies: ["GTIOStore", "GTIOTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "GTIOIngestTests",
            dependencies: ["GTIOIngest", "GTIOSimulation", "GTIOTestSupport"]),
        .testTarget(
            name: "GTIOProjectionsTests",
            dependencies: ["GTIOProjections", "GTIOAnalytics", "GTIOIngest", "GTIOSimulation", "GTIOTestSupport",
                           .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(
            name: "GTIOReportsTests",
            // Runs the real `gtio`, which `swift test` builds through this dependency.
            dependencies: ["GTIOReports", "GTIOStore", "GTIOTestSupport", "gtio"],
            exclude: ["Golden"]),
        .testTarget(
            name: "GTIOConsoleTests",
            // Depending on the executable makes `swift test` build the real `gtio` the tests run.
            dependencies: ["GTIOConsole", "GTIOTables", "GTIOSimulation", "GTIOIngest", "GTIOStore", "GTIOTestSupport", "gtio",
                           .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Help"]),
    ]
)
