// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Typist",
    // The oldest systems with what the code uses throughout: Synchronization's `Mutex` and
    // `Atomic`, task executor preferences (`Task(executorPreference:)`, the curl engine's and the
    // demo server's threads) — macOS 15 and iOS 18. CI builds on Linux only: the code behind
    // `#if canImport(Darwin)` is not built there.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "TypedAPI", targets: ["TypedAPI"]),
        .library(name: "TypedAPIAsyncHTTPClient", targets: ["TypedAPIAsyncHTTPClient"]),
        .library(name: "TypedAPICurl", targets: ["TypedAPICurl"]),
        .library(name: "TypedAPICombine", targets: ["TypedAPICombine"]),
        .library(name: "DemoService", targets: ["DemoService"]),
        .library(name: "APIScript", targets: ["APIScript"]),
        .library(name: "TypistCore", targets: ["TypistCore"]),
        .library(name: "Typist", targets: ["Typist"]),
        .library(name: "TypistCurl", targets: ["TypistCurl"]),
        .library(name: "TypistWorkshop", targets: ["TypistWorkshop"]),
        .library(name: "TypistOpenAPI", targets: ["TypistOpenAPI"]),
        .library(name: "TypistGraphQL", targets: ["TypistGraphQL"]),
        .library(name: "TypedAPITesting", targets: ["TypedAPITesting"]),
        .library(name: "TypistTesting", targets: ["TypistTesting"]),
        .executable(name: "typist", targets: ["typist"]),
        .executable(name: "demo-server", targets: ["demo-server"]),
    ],
    // A host pays only for what it uses: the AsyncHTTPClient transport (SwiftNIO) and the others hang
    // on traits, on by default (so `swift test` here has them) and off for a host that writes
    // `traits: []`, whose resolution then skips them. `typist` itself links no SwiftNIO. GraphQL is
    // off by default: the plain `typist` build and `swift test` pay nothing for it; `.ci/run` tests
    // it in a second pass with every trait on.
    traits: [
        // Kept for hosts that name it: the demo service no longer needs a server library to be left out.
        .trait(name: "DemoService", description: "The offline demo service: typist's built-in service, the DemoService product (its own small server; no dependency)."),
        .trait(name: "AsyncHTTPClient", description: "The AsyncHTTPClient transport (SwiftNIO, NIOSSL): the TypedAPIAsyncHTTPClient product."),
        .trait(name: "YAML", description: "OpenAPI documents written in YAML (Yams); without it TypistOpenAPI reads JSON documents only."),
        .trait(name: "Combine", description: "Publishers for calls and streams (TypedAPICombine): Combine where the system has it, OpenCombine elsewhere."),
        .trait(name: "GraphQL", description: "GraphQL APIs in typist (--graphql, --graphql-schema, :graphql) and TypistGraphQL, on GraphQLSwift/GraphQL. Off by default: `swift run --traits defaults,GraphQL typist`."),
        .default(enabledTraits: ["DemoService", "AsyncHTTPClient", "YAML", "Combine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
        // Documentation only (`Scripts/docs`): a command plugin, built when it is invoked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "TypedAPI",
            dependencies: ["TypistText", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        // Text rules the client and the language share: control characters, escapes.
        .target(name: "TypistText"),
        .target(
            name: "APIScript",
            dependencies: ["TypistText"],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            name: "TypedAPIAsyncHTTPClient",
            dependencies: [
                "TypedAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["AsyncHTTPClient"])),
            ]
        ),
        .systemLibrary(name: "CTypistPlatform", path: "Sources/CTypistPlatform"),
        // Child processes without Foundation's Process (whose launch can crash on Linux): the
        // workshop's swift-check, TypistTesting's commands, the tests' servers (not a product).
        .target(name: "TypistProcess", dependencies: ["CTypistPlatform"]),
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .target(
            name: "TypedAPICurl",
            dependencies: [
                "TypedAPI", "CCurl",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            // Seed 001's `publisher(for:)`: Combine on Apple's systems, OpenCombine elsewhere.
            name: "TypedAPICombine",
            dependencies: [
                "TypedAPI",
                .product(name: "OpenCombine", package: "OpenCombine",
                         condition: .when(platforms: [.linux, .windows, .android, .wasi], traits: ["Combine"])),
            ]
        ),
        .target(
            // The offline demo service, on a small HTTP/1.1 server of its own over POSIX sockets
            // (no SwiftNIO: `swift run typist` builds in about a minute).
            name: "DemoService",
            dependencies: [
                "TypedAPI",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .systemLibrary(
            name: "CReadline",
            path: "Sources/CReadline",
            // No pkgConfig: on Linux readline's .pc file adds flags SwiftPM rejects with a warning.
            providers: [.apt(["libreadline-dev"]), .brew(["readline"])]
        ),
        .target(
            name: "LineEditor",
            dependencies: ["CReadline"]
        ),
        .target(
            // The shell without a terminal: session, registry, evaluation, completions, rendering.
            // No readline, no ArgumentParser, no platform shim: an app's in-app console links this.
            name: "TypistCore",
            dependencies: ["APIScript", "TypedAPI"],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            // The front ends over the core: the readline prompt and the command line.
            name: "Typist",
            dependencies: [
                "TypistCore", "APIScript", "TypedAPI", "LineEditor", "CTypistPlatform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            // Course material: lessons, exercises, swift-check, :explain, the glossary. `typist`
            // links it; a host that embeds the shell does not, unless it asks (ShellHost.withWorkshop()).
            name: "TypistWorkshop",
            dependencies: [
                "Typist", "TypistCore", "APIScript", "TypedAPI", "TypistProcess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            // Endpoints from an OpenAPI document: its schemas as the type model, its operations as
            // script functions, its security schemes as endpoint kinds. `typist` links it
            // (`--openapi`); a host adds it with ShellHost.withOpenAPI() or as registry content.
            name: "TypistOpenAPI",
            dependencies: [
                "TypistCore", "APIScript", "TypedAPI", "TypistText",
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["YAML"])),
            ],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            // Operations from a GraphQL schema: named operations (`.graphql` files) and inline
            // queries as script functions, typed from their selection sets. `typist` links it (the
            // `GraphQL` trait); a host adds it with ShellHost.withGraphQL().
            name: "TypistGraphQL",
            dependencies: [
                "TypistCore", "APIScript", "TypedAPI", "TypistText",
                .product(name: "GraphQL", package: "GraphQL", condition: .when(traits: ["GraphQL"])),
            ],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            name: "TypistCurl",
            dependencies: ["Typist", "TypedAPICurl"],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            // For tests of code that uses the client alone: an in-memory transport, no shell.
            name: "TypedAPITesting",
            dependencies: ["TypedAPI", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        .target(
            name: "TypistTesting",
            dependencies: ["TypistCore", "TypedAPI", "TypedAPITesting", "APIScript", "TypistProcess", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            name: "DemoBindings",
            dependencies: ["Typist", "TypistCurl", "TypistWorkshop", "TypistOpenAPI", "DemoService", "TypedAPI",
                           .target(name: "TypistGraphQL", condition: .when(traits: ["GraphQL"]))],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .executableTarget(
            name: "typist",
            dependencies: ["DemoBindings", "Typist"],
            // Not `Sources/typist`: on a case-insensitive disk (macOS's default) that is `Sources/Typist`.
            path: "Sources/typist-command",
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .executableTarget(
            name: "example-host",
            dependencies: ["Typist", "TypistCurl", "TypedAPI", "DemoService"],
            path: "Examples/ExampleHost",
            exclude: ["reading-list.api"],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        // An app's in-app API console (a debug screen's model), driven in a test without a terminal:
        // it links TypistCore alone (not a product).
        .target(
            name: "AppConsoleExample",
            dependencies: ["TypistCore", "TypedAPI"],
            path: "Examples/AppConsole",
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .executableTarget(
            name: "typist-bench",
            dependencies: [
                "TypedAPI", "TypedAPIAsyncHTTPClient", "TypedAPICurl", "DemoService",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "apiscript-bench",
            dependencies: ["APIScript"]
        ),
        .executableTarget(
            name: "demo-server",
            dependencies: [
                "DemoService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A host written against an earlier release, which must keep compiling and starting (not a product).
        .executableTarget(
            name: "compat-host",
            dependencies: ["Typist", "TypistCurl", "TypedAPI"],
            path: "Tests/CompatibilityHost",
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        // A host built from `typist generate`'s output for the demo's OpenAPI document, and for parts
        // of three real ones, each a module of its own (not products).
        .executableTarget(
            name: "generated-host",
            dependencies: ["Typist", "TypistCore", "TypedAPI", "GeneratedPetstore", "GeneratedGoogleBooks", "GeneratedGHES", "GeneratedGraphQLTracker"],
            path: "Tests/GeneratedHost",
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(name: "GeneratedPetstore", dependencies: ["Typist", "TypedAPI"], path: "Tests/GeneratedDocuments/Petstore"),
        .target(name: "GeneratedGoogleBooks", dependencies: ["Typist", "TypedAPI"], path: "Tests/GeneratedDocuments/GoogleBooks"),
        .target(name: "GeneratedGHES", dependencies: ["Typist", "TypedAPI"], path: "Tests/GeneratedDocuments/GHES"),
        // `typist generate --graphql-schema … --graphql-operations …` for Examples/GraphQL's tracker.
        .target(name: "GeneratedGraphQLTracker", dependencies: ["Typist", "TypedAPI"], path: "Tests/GeneratedDocuments/GraphQLTracker"),
        // Prints what ShellCommandLine.prepareProcess() did, in a process of its own (not a product).
        .executableTarget(name: "typist-allocator-probe", dependencies: ["Typist"], path: "Tests/AllocatorProbe"),
        // A misbehaving HTTP server for the fault tests (not a product).
        .target(name: "FaultServer", dependencies: ["TypistProcess"], path: "Tests/FaultServer"),
        // What both test targets share besides servers: a seeded random generator (not a product).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "TypedAPITests",
            dependencies: ["TypedAPI", "TypedAPIAsyncHTTPClient", "TypedAPICurl", "TypedAPICombine", "DemoService", "FaultServer", "TestSupport", "TypistTesting",
                           .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android, .wasi]))]
        ),
        .testTarget(
            name: "APIScriptTests",
            dependencies: ["APIScript"],
            resources: [.copy("Golden"), .copy("FuzzFindings")],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .testTarget(
            name: "TypistTests",
            dependencies: ["Typist", "TypistCore", "TypistCurl", "TypistWorkshop", "TypistOpenAPI", "TypistGraphQL", "TypistTesting", "DemoBindings", "DemoService", "TypedAPI", "TypedAPICurl",
                           "TypedAPIAsyncHTTPClient", "APIScript", "FaultServer", "TestSupport", "TypistProcess", "typist", "example-host", "compat-host", "generated-host"],
            exclude: ["Scripts", "Transcripts", "WriteupDesigns"],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .testTarget(
            name: "ExampleHostTests",
            dependencies: ["example-host", "AppConsoleExample", "DemoService", "TypistTesting", "Typist"],
            path: "Examples/ExampleHostTests",
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .testTarget(
            name: "ReadmeTests",
            dependencies: ["TypedAPI", "TypedAPIAsyncHTTPClient", "TypedAPICurl", "TypedAPICombine", "DemoService",
                           .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android, .wasi]))]
        ),
    ],
    swiftLanguageModes: [.v6]
)
