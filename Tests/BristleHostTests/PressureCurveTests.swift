import BristleHost
import Testing

/// The host pressure curve: parsing and mapping.
@Suite struct PressureCurveTests {
    @Test func identityGammaAndPoints() throws {
        #expect(try PressureCurve(parsing: "identity").apply(0.3) == 0.3)
        #expect(try PressureCurve(parsing: "gamma:2").apply(0.5) == 0.25)
        let points = try PressureCurve(parsing: "points:0.2,0;0.6,0.8;1,1")
        #expect(points.apply(0.1) == 0, "flat before the first point")
        #expect(abs(points.apply(0.4) - 0.4) < 1e-12, "halfway between (0.2,0) and (0.6,0.8)")
        #expect(abs(points.apply(0.8) - 0.9) < 1e-12)
        #expect(points.apply(2) == 1, "input is clamped to [0, 1]")
        #expect(PressureCurve.identity.apply(.nan) == 0)
    }

    @Test(arguments: ["gamma:0", "gamma:x", "points:0,0", "points:0.5,0;0.4,1", "points:0,0;1,2", "cubic"])
    func badCurvesAreRefusedWithTheAcceptedForms(_ text: String) {
        #expect {
            _ = try PressureCurve(parsing: text)
        } throws: { error in
            (error as! PressureCurve.ParseError).description.contains("gamma:G")
        }
    }
}
