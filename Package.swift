// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "gtio-console",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gtio", targets: ["gtio"]),
        .library(name: "GTIOCatalog", targets: ["GTIOCatalog"]),
        .library(name: "GTIOStore", targets: ["GTIOStore"]),
        .library(name: "GTIOStoreSQLite", targets: ["GTIOStoreSQLite"]),
        .library(name: "GTIOStorePostgres", targets: ["GTIOStorePostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-algorithms", exact: "1.2.1"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio", exact: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        // Tests only: reads Events/openapi.yaml to hold the server to it.
        .package(url: "https://github.com/jpsim/Yams", exact: "5.0.1"),
    ],
    targets: [
        // The event contract: types, validation, timestamps. No I/O, no SQLite.
        .target(name: "GTIOCatalog"),
        // What a store is, whatever holds it: the log, the read models' tables and read-only SQL
        // as protocols, the values that cross them, and the fast keyed scan over any backend.
        // Imports no database.
        .target(
            name: "GTIOStore",
            dependencies: [
                "GTIOCatalog",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The embedded store: one SQLite file through GRDB. The only module that sees SQLite.
        .target(
            name: "GTIOStoreSQLite",
            dependencies: [
                "GTIOCatalog", "GTIOStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLiteSettings",
            ]),
        // Process-wide settings of the system's SQLite, which Swift cannot make itself.
        .systemLibrary(name: "CSQLiteSettings", path: "Sources/CSQLiteSettings", providers: [.apt(["libsqlite3-dev"])]),
        // The shared store: one PostgreSQL database through postgres-nio, for many writers and
        // consoles on many hosts. The only module that sees PostgreSQL.
        .target(
            name: "GTIOStorePostgres",
            dependencies: [
                "GTIOCatalog", "GTIOStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
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
                .product(name: "Algorithms", package: "swift-algorithms"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]),
        // Answers as named columns and rows, and their plain-text formats: CSV, Markdown, JSON.
        .target(name: "GTIOTables", dependencies: ["GTIOCatalog"]),
        // Figures over the read models: the onboarding funnel, retention, quick-add acceptance,
        // the moderation desk, and the standard answers as tables.
        .target(name: "GTIOAnalytics", dependencies: ["GTIOCatalog", "GTIOStore", "GTIOProjections", "GTIOTables"]),
        // Insights: the analysts' own questions (trend, breakdown, funnel, retention, paths, top)
        // over the log's typed columns and extracted properties.
        .target(name: "GTIOInsights", dependencies: ["GTIOCatalog", "GTIOStore", "GTIOTables"]),
        // The nightly report: HTML with inline SVG charts, Markdown and CSV, written atomically.
        .target(name: "GTIOReports", dependencies: ["GTIOCatalog", "GTIOStore", "GTIOProjections", "GTIOAnalytics", "GTIOTables"]),
        // A seeded, simulated GTIO community for demos and benchmarks.
        .target(name: "GTIOSimulation", dependencies: ["GTIOCatalog"]),
        // `gtio serve`: the /Tracking collector (group commit, back-pressure) and the JSON read
        // API over HTTP, on Hummingbird, with keys, structured logs and Prometheus metrics.
        .target(
            name: "GTIOServer",
            dependencies: [
                "GTIOCatalog", "GTIOStore", "GTIOProjections", "GTIOAnalytics", "GTIOTables",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The system's GNU readline (libreadline-dev), for the REPL.
        .systemLibrary(name: "CReadline", path: "Sources/CReadline", providers: [.apt(["libreadline-dev"])]),
        // The C allocator's settings (glibc's mallopt), which Swift's Glibc module leaves out.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The command surface: subcommands, output formats, the REPL.
        .target(
            name: "GTIOConsole",
            dependencies: [
                "GTIOCatalog", "GTIOStore", "GTIOStoreSQLite", "GTIOStorePostgres", "GTIOIngest", "GTIOSimulation", "GTIOProjections",
                "GTIOTables", "GTIOAnalytics", "GTIOReports", "GTIOInsights", "GTIOServer", "CReadline", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The Swift runtime and Foundation linked in: a one-shot command starts without resolving
        // the shared libraries' symbols (docs/PERFORMANCE.md), and the binary runs on any host
        // of the same Linux without a Swift installation. Not position-independent and exporting
        // no symbols: the loader then has no pointers to relocate (143 k in a PIE, a private
        // copy of every page they sit on) nor 50 k symbols to search, a third of a start.
        .executableTarget(
            name: "gtio", dependencies: ["GTIOConsole"],
            linkerSettings: [.unsafeFlags(
                ["-static-stdlib", "-lFoundationInternationalization", "-lFoundationEssentials", "-lCoreFoundation",
                 "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections", "-lstdc++",
                 "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic"],
                .when(platforms: [.linux], configuration: .release))]),
        // Figures for scripts/bench-*.sh that the CLI cannot give: raw SQLite, validation alone.
        .executableTarget(
            name: "gtio-bench",
            dependencies: ["GTIOCatalog", "GTIOStore", "GTIOStoreSQLite", "GTIOStorePostgres", "GTIOIngest", "GTIOProjections"]),

        .target(
            name: "GTIOTestSupport",
            dependencies: ["GTIOCatalog", "GTIOStore", "GTIOStoreSQLite", "GTIOStorePostgres"],
            path: "Tests/GTIOTestSupport"),
        .testTarget(
            name: "GTIOCatalogTests",
            dependencies: ["GTIOCatalog", "GTIOTestSupport",
                           .product(name: "PropertyBased", package: "swift-property-based")]),
        // The store suite every backend passes (GTIOTestSupport's `StoreBackend.all`).
        .testTarget(
            name: "GTIOStoreTests",
            dependencies: ["GTIOStore", "GTIOStorePostgres", "GTIOTestSupport", .product(name: "NIOCore", package: "swift-nio")]),
        // What only the SQLite backend has: its file checks, triggers seen from SQL, bulk inserts.
        .testTarget(
            name: "GTIOStoreSQLiteTests",
            dependencies: ["GTIOStore", "GTIOStoreSQLite", "GTIOSimulation", "GTIOTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "GTIOIngestTests",
            dependencies: ["GTIOIngest", "GTIOSimulation", "GTIOStoreSQLite", "GTIOTestSupport"]),
        .testTarget(
            name: "GTIOProjectionsTests",
            dependencies: ["GTIOProjections", "GTIOAnalytics", "GTIOInsights", "GTIOIngest", "GTIOSimulation", "GTIOStoreSQLite", "GTIOTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(
            name: "GTIOInsightsTests",
            dependencies: ["GTIOInsights", "GTIOSimulation", "GTIOStoreSQLite", "GTIOTables", "GTIOTestSupport"]),
        .testTarget(
            name: "GTIOReportsTests",
            // Runs the real `gtio`, which `swift test` builds through this dependency.
            dependencies: ["GTIOReports", "GTIOStore", "GTIOStoreSQLite", "GTIOTestSupport", "gtio"],
            exclude: ["Golden"]),
        .testTarget(
            name: "GTIOConsoleTests",
            // Depending on the executable makes `swift test` build the real `gtio` the tests run.
            dependencies: ["GTIOConsole", "GTIOProjections", "GTIOTables", "GTIOSimulation", "GTIOIngest", "GTIOStore", "GTIOStoreSQLite", "GTIOTestSupport", "GTIOServer", "gtio",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Yams", package: "Yams")],
            exclude: ["Help"]),
    ]
)
