@testable import BristleKit
import Testing

/// BristleKit's own rules, in process: declarations it refuses, values it normalises, the
/// pixel and rectangle arithmetic brushes rely on, and the seeded generator's sequence.
@Suite struct BristleKitTests {
    @Test func validDeclarationsHaveNoProblems() {
        let d = BrushDescriptor(id: "org.example.ok", name: "OK")
        let p = [Parameter.float("size", name: "Size", range: 0...10, default: 2),
                 Parameter.choice("mode", name: "Mode", names: ["a", "b"], default: 1),
                 Parameter.color("tint", name: "Tint", default: Color(red: 1, green: 0, blue: 0))]
        #expect(BrushTable.problems([d], [p]).isEmpty)
    }

    @Test func invalidDeclarationsAreRefusedWithReasons() {
        let problems = BrushTable.problems(
            [BrushDescriptor(id: "org.example bad", name: ""), BrushDescriptor(id: "org.example.twice", name: "A"),
             BrushDescriptor(id: "org.example.twice", name: "B")],
            [[Parameter.float("Size", name: "Size", range: 0...1, default: 2)],
             [Parameter.integer("n", name: "N", range: 0...3, default: 1), Parameter.boolean("n", name: "N", default: true)],
             [Parameter.choice("mode", name: "Mode", names: [], default: 0)]])
        #expect(problems.contains { $0.contains("without spaces") })
        #expect(problems.contains { $0.contains("empty name") })
        #expect(problems.contains { $0.contains("lower-case") })
        #expect(problems.contains { $0.contains("not a finite value in") })
        #expect(problems.contains { $0.contains("parameter n is declared twice") })
        #expect(problems.contains { $0.contains("org.example.twice is declared twice") })
        #expect(problems.contains { $0.contains("at least one name") })
        #expect(BrushTable.problems([], []) == ["the library declares no brush"])
    }

    @Test func valuesAreClampedAndRoundedByKind() {
        #expect(Parameter.float("f", name: "F", range: 0...1, default: 0).normalized(1.7) == 1)
        #expect(Parameter.integer("i", name: "I", range: 0...9, default: 0).normalized(2.5) == 3)
        #expect(Parameter.boolean("b", name: "B", default: false).normalized(0.4) == 0)
        #expect(Parameter.choice("c", name: "C", names: ["x", "y"], default: 0).normalized(7) == 1)
        #expect(Parameter.float("f", name: "F", range: 0...1, default: 0).normalized(.infinity) == nil)
    }

    @Test func rectanglesUnionAndClip() {
        let a = Rect(x: -5, y: 2, width: 10, height: 3), b = Rect(x: 20, y: 0, width: 1, height: 1)
        #expect(a.union(b) == Rect(x: -5, y: 0, width: 26, height: 5))
        #expect(a.union(.empty) == a && Rect.empty.union(a) == a)
        #expect(a.clipped(width: 3, height: 3) == Rect(x: 0, y: 2, width: 3, height: 1))
        #expect(b.clipped(width: 10, height: 10).isEmpty)
        #expect(Rect.covering(minX: 1.5, minY: -3, maxX: 2.2, maxY: .nan, within: 9, 9).isEmpty)
        #expect(Rect.covering(minX: 1.5, minY: 0.5, maxX: 2.2, maxY: 3, within: 9, 9) == Rect(x: 1, y: 0, width: 3, height: 4))
    }

    @Test func sourceOverIsPremultiplied() {
        let white = Pixel(r: 255, g: 255, b: 255, a: 255)
        #expect(white.over(Color(red: 0, green: 0, blue: 0), coverage: 0.5) == Pixel(r: 128, g: 128, b: 128, a: 255))
        #expect(Pixel.clear.over(Color(red: 1, green: 0, blue: 0, alpha: 0.5), coverage: 1) == Pixel(r: 128, g: 0, b: 0, a: 128))
        #expect(white.over(Color(red: 0, green: 0, blue: 0), coverage: .nan) == white)
    }

    @Test func seededRandomIsSplitMix64() {
        var r = SeededRandom(seed: 0)
        // SplitMix64's published first outputs for seed 0.
        #expect(r.next() == 0xE220_A839_7B1D_CDAF)
        #expect(r.next() == 0x6E78_9E6A_A1B9_65F4)
        var u = SeededRandom(seed: 42)
        #expect((0..<1000).map { _ in u.unit() }.allSatisfy { $0 >= 0 && $0 < 1 })
    }
}
