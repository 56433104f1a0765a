/// Every conformance test, in report order, and the selection a run makes from them.
public enum ConformanceCatalog {
    /// All tests: library, descriptor, layout, lifecycle, canvas, semantics, determinism,
    /// params, robustness.
    public static let all: [ConformanceTest] = LibraryTests.all + DescriptorTests.all + LayoutTests.all + LifecycleTests.all
        + CanvasTests.all + SemanticsTests.all + DeterminismTests.all + ParameterTests.all + RobustnessTests.all

    /// The test with this id.
    public static func test(_ id: String) -> ConformanceTest? { all.first { $0.id == id } }

    /// The tests of `tier` and below whose ids match `include` (if given) and not `exclude`.
    public static func select(tier: ConformanceTier, include: Regex<AnyRegexOutput>?,
                              exclude: Regex<AnyRegexOutput>?) -> [ConformanceTest] {
        all.filter { t in
            t.tier <= tier
                && (include.map { (try? $0.firstMatch(in: t.id)) != nil } ?? true)
                && !(exclude.map { (try? $0.firstMatch(in: t.id)) != nil } ?? false)
        }
    }
}
