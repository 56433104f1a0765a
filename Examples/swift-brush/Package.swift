// swift-tools-version: 6.0
import PackageDescription

/// The installed BristleKit package: BRISTLE_KIT, else where `make install` puts it by default.
let kit = Context.environment["BRISTLE_KIT"] ?? "/usr/local/share/bristle/swift/BristleKit"

let package = Package(
    name: "swift-brush",
    products: [
        // `swift build -c release` makes .build/release/libswift-brush.so, the plugin.
        .library(name: "swift-brush", type: .dynamic, targets: ["SwiftBrush"]),
    ],
    dependencies: [
        .package(path: kit),
    ],
    targets: [
        .target(
            name: "SwiftBrush",
            dependencies: [.product(name: "BristleKit", package: "BristleKit")],
            // Export only bristle_entry_v1, not every public Swift symbol.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/exports.map"])]),
    ]
)
