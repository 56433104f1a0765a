/// The Swift brush project `bristle new NAME --lang swift` writes: a package with one dynamic
/// library product built with BristleKit (a path dependency on the installed kit package), a
/// version script exporting only `bristle_entry_v1`, and a README.
enum SwiftBrushTemplate {
    /// `Package.swift`. Placeholders: {{NAME}}, {{MODULE}}, {{KIT}}.
    static let manifest = #"""
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "{{NAME}}",
    products: [
        // `swift build -c release` makes .build/release/lib{{NAME}}.so, the plugin.
        .library(name: "{{NAME}}", type: .dynamic, targets: ["{{MODULE}}"]),
    ],
    dependencies: [
        // The BristleKit package that `make install` put beside the bristle command.
        .package(path: "{{KIT}}"),
    ],
    targets: [
        .target(
            name: "{{MODULE}}",
            dependencies: [.product(name: "BristleKit", package: "BristleKit")],
            // Export only bristle_entry_v1, not every public Swift symbol.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/exports.map"])]),
    ]
)
"""#

    /// `exports.map`: the linker version script.
    static let exports = #"""
/* A Bristle plugin exports exactly one symbol: the ABI entry. */
{
    global: bristle_entry_v1;
    local: *;
};
"""#

    /// `Sources/MODULE/MODULE.swift`: the brush. Placeholders: {{ID}}, {{TITLE}}, {{MODULE}}.
    static let brush = #"""
import BristleKit

/// {{ID}}: a round-capped line through the samples; the pen's pressure sets the width
/// (from a quarter of the stroke width at no pressure to all of it at full pressure).
struct {{MODULE}}: Brush {
    static let descriptor = BrushDescriptor(
        id: "{{ID}}", name: "{{TITLE}}", vendor: "Example", version: "1.0.0",
        description: "A round-capped line through the samples.")

    static let opacity = Parameter.float("opacity", name: "Opacity", range: 0...1, default: 1,
                                         description: "Opacity of each segment.")
    static var parameters: [Parameter] { [opacity] }

    /// A point of the line: position and width in pixels.
    private struct Point {
        var x, y, width: Double
    }

    private var stroke: Stroke?
    private var last: Point?
    private var pending: [Point] = []

    init(host: Host) {}

    mutating func begin(_ stroke: Stroke, at sample: Sample) {
        self.stroke = stroke
        last = nil
        pending = []
        add(sample)
    }

    mutating func moved(_ samples: [Sample]) {
        for sample in samples { add(sample) }
    }

    mutating func ended(at sample: Sample) { add(sample) }

    mutating func cancelled() { pending = [] }

    /// Keeps a usable sample for the next draw; bad input is skipped, never fatal.
    private mutating func add(_ sample: Sample) {
        guard let stroke, sample.isUsable else { return }
        let width = stroke.widthInPixels * (0.25 + 0.75 * (sample.pressure ?? 1))
        pending.append(Point(x: sample.x, y: sample.y, width: width))
    }

    mutating func draw(into canvas: Canvas) {
        guard canvas.layer == .committed, let stroke else { return }
        let paint = Paint(color: stroke.color, opacity: stroke.parameters[Self.opacity])
        for p in pending {
            let from = last ?? p  // the first point is a dot: a zero-length segment
            if let last, last.x == p.x, last.y == p.y { continue }
            canvas.fillSegment(from: (from.x, from.y), to: (p.x, p.y), startWidth: from.width, endWidth: p.width,
                               paint: paint)
            last = p
        }
        pending = []
    }
}
"""#

    /// `Sources/MODULE/MODULELibrary.swift`: the entry. Placeholder: {{MODULE}}.
    static let library = #"""
import BristleKit

/// The plugin's one exported symbol. It must stay `public`: a release build drops a
/// non-public `@c` function, and the host then cannot load the library.
@c(bristle_entry_v1)
public func bristleEntry() -> UnsafeRawPointer {
    BrushLibrary.entry(brushes: [{{MODULE}}.self])
}
"""#

    /// `README.md`.
    static let readme = #"""
# {{TITLE}}

A Bristle brush plugin in Swift, written with BristleKit: `{{ID}}`, a round-capped line
through the samples whose width follows the pen's pressure. Made with
`bristle new {{NAME}} --lang swift`.

Build it (Swift 6.3 or later; BristleKit is a path dependency on `{{KIT}}`):

```sh
swift build -c release
```

Render a stroke script through it, and check it against the ABI:

```sh
bristle render stroke.json -o out.png --brush .build/release/lib{{NAME}}.so
bristle conform .build/release/lib{{NAME}}.so --tier standard
```

The brush is `Sources/{{MODULE}}/{{MODULE}}.swift`: a type conforming to BristleKit's
`Brush`. `Sources/{{MODULE}}/{{MODULE}}Library.swift` exports it; keep that function `public`.

Draw with it live, with your pen, in a browser: run this, open the URL it prints, and pick
`{{ID}}`. Each `swift build -c release` replaces the library, and the next stroke uses the
new build (see "Draw with your brush live" in Bristle's `docs/guides/`):

```sh
bristle play --brushes .build/release
```
"""#
}
