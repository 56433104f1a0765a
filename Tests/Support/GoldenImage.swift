import BristleHost
import Foundation

/// Golden images: reference PNGs under `Tests/Golden/`, compared pixel by pixel (decoded
/// straight RGBA, not PNG bytes, since zlib output may differ between libpng builds).
///
/// Regenerate them, after checking that a change of output is intended, with:
///
///     BRISTLE_UPDATE_GOLDEN=1 swift test
///
/// and look at every changed PNG before committing it.
public enum GoldenImage {
    /// The result of a comparison; `nil` from ``compare`` means identical.
    public struct Mismatch: CustomStringConvertible {
        public var name: String
        public var differingPixels: Int
        public var maximumDifference: Int
        public var actualPath: String
        public var description: String {
            "golden image \(name): \(differingPixels) pixel(s) differ (max channel difference \(maximumDifference)); actual image written to \(actualPath); if the change is intended, regenerate with BRISTLE_UPDATE_GOLDEN=1 swift test"
        }
    }

    public static func path(_ name: String) -> String {
        TestEnvironment.packageRoot.appendingPathComponent("Tests/Golden/\(name).png").path
    }

    /// Compares straight RGBA pixels with `Tests/Golden/NAME.png` (or writes it when
    /// BRISTLE_UPDATE_GOLDEN=1). Returns nil when they are identical.
    public static func compare(_ pixels: [UInt8], width: Int, height: Int, name: String) throws -> Mismatch? {
        let golden = path(name)
        if ProcessInfo.processInfo.environment["BRISTLE_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: (golden as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try PNGCodec.write(rgba: pixels, width: width, height: height, strideBytes: width * 4, to: golden)
            return nil
        }
        let expected = try PNGCodec.read(path: golden)
        var differing = 0, maximum = 0
        if expected.width != width || expected.height != height {
            differing = width * height
            maximum = 255
        } else {
            for i in stride(from: 0, to: pixels.count, by: 4) {
                var d = 0
                for c in 0..<4 { d = max(d, abs(Int(pixels[i + c]) - Int(expected.pixels[i + c]))) }
                if d > 0 { differing += 1; maximum = max(maximum, d) }
            }
        }
        guard differing > 0 else { return nil }
        let actual = TestEnvironment.scratchDirectory("golden").appendingPathComponent(name.replacingOccurrences(of: "/", with: "-") + ".png").path
        try PNGCodec.write(rgba: pixels, width: width, height: height, strideBytes: width * 4, to: actual)
        return Mismatch(name: name, differingPixels: differing, maximumDifference: maximum, actualPath: actual)
    }
}
