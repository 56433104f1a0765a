// swift-tools-version: 6.0
import PackageDescription

/// Reference brushes are C or Swift dynamic libraries under Plugins/, each exporting only
/// `bristle_entry_v1` (hidden visibility plus a linker version script).
let pluginExportFlags: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Plugins/exports.map"]),
]

/// C reference brushes are compiled like a third party's: strict C99, hidden symbols.
let pluginCFlags: [CSetting] = [
    .unsafeFlags(["-std=c99", "-fvisibility=hidden", "-Wall", "-Wextra", "-pedantic"]),
]

let package = Package(
    name: "Bristle",
    products: [
        .executable(name: "bristle", targets: ["bristle"]),
        .executable(name: "bristle-fuzz", targets: ["BristleFuzz"]),
        .library(name: "BristleHost", targets: ["BristleHost"]),
        .library(name: "BristlePencil", type: .dynamic, targets: ["BristlePencil"]),
        .library(name: "BristleForceHue", type: .dynamic, targets: ["BristleForceHue"]),
        .library(name: "BristlePencilShading", type: .dynamic, targets: ["BristlePencilShading"]),
        .library(name: "BristleKit", targets: ["BristleKit"]),
        .library(name: "BristleSpray", type: .dynamic, targets: ["BristleSpray"]),
        .library(name: "BristleMarker", type: .dynamic, targets: ["BristleMarker"]),
        .library(name: "BristleShapes", type: .dynamic, targets: ["BristleShapes"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    targets: [
        // The ABI: include/bristle/bristle.h, header only, normative.
        .target(name: "CBristle", path: "include", publicHeadersPath: "."),
        // libpng behind a C shim that owns setjmp (Swift cannot call it).
        .target(
            name: "CBristlePNG",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("pthread")]),
        // Callgrind's collection toggle for `bristle bench --callgrind` (a no-op without valgrind).
        .target(name: "CBristleCallgrind"),
        // Removes unfinished atomic writes' temporary files on SIGINT/SIGTERM/SIGHUP (C: signal-safe).
        .target(name: "CBristleCleanup"),
        // The time-stamp counter the hook timeline reads per call (RDTSC, inline; a C intrinsic).
        .target(name: "CBristleClock"),
        // Float-to-integer conversions without Swift's range checks, for the rasteriser's cell walk.
        .target(name: "CBristleMath"),
        // Close-on-exec temporary files and closing inherited descriptors in spawned children (GNU).
        .target(name: "CBristleProcess"),
        // The host: loader, layers, rasteriser, drawing session, inputs, PNG; what apps embed.
        .target(name: "BristleHost", dependencies: ["CBristle", "CBristlePNG", "CBristleCleanup", "CBristleClock", "CBristleMath",
                                                     "CBristleProcess"]),
        // `bristle bench`: the peers' workload and timing protocol, over the host.
        .target(name: "BristleBench", dependencies: ["BristleHost", "CBristle", "CBristleCallgrind"]),
        // `bristle new`: brush project templates (C, C++, Rust, Swift), written whole or not at all.
        .target(name: "BristleScaffold", dependencies: ["BristleHost"]),
        // The harness's C helpers: names the buffer behind a fault (guard page, memory taken back
        // after a hook), and reads malloc's statistics.
        .target(name: "CBristleHarness"),
        // The conformance harness behind `bristle conform`: tests as values, child-process isolation.
        .target(name: "BristleConformance", dependencies: ["BristleHost", "CBristle", "CBristleHarness"]),
        // The Swift authoring kit: a brush is a small type; the kit generates the ABI plumbing.
        .target(name: "BristleKit", dependencies: ["CBristle"]),
        // `bristle play`: the local HTTP + WebSocket server, the page, brush workers, hot reload.
        .target(
            name: "BristlePlay",
            dependencies: ["BristleHost", .product(name: "FlyingFox", package: "FlyingFox"),
                           .product(name: "FlyingSocks", package: "FlyingFox")],
            resources: [.embedInCode("Page/index.html"), .embedInCode("Page/play.js"), .embedInCode("Page/play.css")]),
        // The CLI: parses arguments and calls the libraries; holds no host logic.
        .executableTarget(
            name: "bristle",
            dependencies: [
                "BristleHost",
                "BristleBench",
                "BristleScaffold",
                "BristleConformance",
                "BristlePlay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The fuzzer over every input format (docs/FUZZING.md): a seeded mutation driver, or,
        // built with -sanitize=fuzzer -D BRISTLE_LIBFUZZER (scripts/fuzz.sh), a libFuzzer target.
        .executableTarget(name: "BristleFuzz", dependencies: ["BristleHost"]),

        // Reference brushes.
        .target(
            name: "BristlePencil", dependencies: ["CBristle"], path: "Plugins/Pencil",
            publicHeadersPath: ".", cSettings: pluginCFlags,
            linkerSettings: pluginExportFlags + [.linkedLibrary("m")]),
        .target(
            name: "BristleForceHue", dependencies: ["CBristle"], path: "Plugins/ForceHue",
            publicHeadersPath: ".", cSettings: pluginCFlags,
            linkerSettings: pluginExportFlags + [.linkedLibrary("m")]),
        .target(
            name: "BristlePencilShading", dependencies: ["CBristle"], path: "Plugins/PencilShading",
            publicHeadersPath: ".", cSettings: pluginCFlags,
            linkerSettings: pluginExportFlags + [.linkedLibrary("m")]),
        // Reference brushes in Swift, written with BristleKit.
        .target(
            name: "BristleSpray", dependencies: ["BristleKit"], path: "Plugins/Spray",
            linkerSettings: pluginExportFlags),
        .target(
            name: "BristleMarker", dependencies: ["BristleKit"], path: "Plugins/Marker",
            linkerSettings: pluginExportFlags),

        .target(
            name: "BristleShapes", dependencies: ["CBristle"], path: "Plugins/Shapes",
            publicHeadersPath: ".", cSettings: pluginCFlags,
            linkerSettings: pluginExportFlags + [.linkedLibrary("m")]),

        // Tests. Plugin targets are never test dependencies (their entry symbols would clash);
        // `swift test` builds every product, and tests find the .so files beside the test binary.
        .target(name: "BristleTestSupport", dependencies: ["BristleHost"], path: "Tests/Support"),
        .testTarget(
            name: "BristleHostTests",
            dependencies: ["BristleHost", "BristleBench", "CBristle", "BristleTestSupport"]),
        .testTarget(name: "BristleKitTests", dependencies: ["BristleKit", "BristleHost", "CBristle", "BristleTestSupport"]),
        .testTarget(
            name: "BristleCLITests",
            dependencies: ["BristleHost", "BristleBench", "BristleTestSupport"]),
        .testTarget(
            name: "BristlePlayTests",
            dependencies: ["BristlePlay", "BristleHost", "BristleTestSupport", .product(name: "FlyingFox", package: "FlyingFox"),
                           .product(name: "FlyingSocks", package: "FlyingFox")]),
        .testTarget(
            name: "BristleConformanceTests",
            dependencies: ["BristleConformance", "BristleHost", "CBristle", "BristleTestSupport"]),
    ]
)
