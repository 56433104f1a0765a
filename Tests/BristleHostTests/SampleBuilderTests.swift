@testable import BristleHost
import Testing

/// SampleBuilder: Pointer Events samples to `bristle_sample_t` (time, pressure, force, tilt).
@Suite struct SampleBuilderTests {
    private func pen(_ timeStamp: Double? = nil) -> PointerSample {
        PointerSample(x: 0, y: 0, pointerType: "pen", timeStamp: timeStamp)
    }

    private func build(_ p: PointerSample, strokeType: String? = nil) -> bristle_sample_t {
        var builder = SampleBuilder(strokePointerType: strokeType)
        return builder.make(p)
    }

    /// True when no field of `s` is NaN or infinite.
    private func allFinite(_ s: bristle_sample_t) -> Bool {
        let floats = [s.pressure, s.force, s.max_force, s.altitude, s.azimuth, s.tilt_x, s.tilt_y, s.twist,
                      s.tangential_pressure, s.width, s.height]
        return floats.allSatisfy(\.isFinite) && s.t.isFinite && s.x.isFinite && s.y.isFinite
    }

    private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool {
        abs(a - b) <= tolerance
    }

    // MARK: Time

    @Test func predictedSamplesDoNotMoveTheRealClock() {
        var builder = SampleBuilder(strokePointerType: "pen")
        var real: [Double] = []
        var predicted: [Double] = []
        for ms in [0.0, 8, 16, 24] {
            real.append(builder.make(pen(ms)).t)
            if ms == 8 {
                predicted.append(builder.make(pen(40), extraFlags: BRISTLE_SAMPLE_PREDICTED).t)
            }
        }
        #expect(real == [0, 0.008, 0.016, 0.024])
        #expect(predicted == [0.040])
    }

    @Test func predictedTimeIsNeverBeforeTheRealClock() {
        var builder = SampleBuilder(strokePointerType: "pen")
        _ = builder.make(pen(0))
        _ = builder.make(pen(8))
        #expect(builder.make(pen(4), extraFlags: BRISTLE_SAMPLE_PREDICTED).t == 0.008)
        #expect(builder.make(pen(), extraFlags: BRISTLE_SAMPLE_PREDICTED).t == 0.008)
        #expect(builder.make(pen(16)).t == 0.016)
    }

    @Test func predictedSampleDoesNotSetTheOrigin() {
        var builder = SampleBuilder(strokePointerType: "pen")
        #expect(builder.make(pen()).t == 0)
        #expect(builder.make(pen(40), extraFlags: BRISTLE_SAMPLE_PREDICTED).t == 0)
        #expect(builder.make(pen(100)).t == 0)
        #expect(builder.make(pen(110)).t == 0.010)
    }

    @Test func timeNeverDecreases() {
        var builder = SampleBuilder(strokePointerType: "pen")
        #expect([10.0, 5, 20].map { builder.make(pen($0)).t } == [0, 0, 0.010])
    }

    @Test func sampleWithoutTimeStampKeepsThePreviousTime() {
        var builder = SampleBuilder(strokePointerType: "pen")
        #expect([100.0, 125, nil, 150].map { builder.make(pen($0)).t } == [0, 0.025, 0.025, 0.050])
    }

    // MARK: Pressure and force

    @Test func mousePressureIsNotMeasured() {
        let s = build(PointerSample(x: 0, y: 0, pressure: 0.5, pointerType: "mouse"))
        #expect(s.flags & BRISTLE_SAMPLE_HAS_PRESSURE == 0)
        #expect(s.pressure == 0.5)
    }

    @Test func penPressureIsMeasured() {
        let s = build(PointerSample(x: 0, y: 0, pressure: 0.3, pointerType: "pen"))
        #expect(s.flags & BRISTLE_SAMPLE_HAS_PRESSURE != 0)
        #expect(s.pressure == 0.3)
    }

    @Test func pressureFromForce() {
        let s = build(PointerSample(x: 0, y: 0, pointerType: "pen", force: 1.5, maxForce: 6))
        #expect(s.flags & (BRISTLE_SAMPLE_HAS_FORCE | BRISTLE_SAMPLE_HAS_PRESSURE)
            == BRISTLE_SAMPLE_HAS_FORCE | BRISTLE_SAMPLE_HAS_PRESSURE)
        #expect(s.pressure == 0.25)
        #expect(s.force == 1.5)
        #expect(s.max_force == 6)
    }

    @Test func hugeForceGivesFinitePressure() {
        let s = build(PointerSample(x: 0, y: 0, pointerType: "pen", force: 1e300, maxForce: 1e300))
        #expect(s.flags == BRISTLE_SAMPLE_HAS_FORCE | BRISTLE_SAMPLE_HAS_PRESSURE)
        #expect(s.pressure == 1)
        #expect(s.force == .greatestFiniteMagnitude)
        #expect(s.max_force == .greatestFiniteMagnitude)
        #expect(allFinite(s))
    }

    @Test func tinyMaxForceGivesFinitePressure() {
        let s = build(PointerSample(x: 0, y: 0, pointerType: "pen", force: 0.5, maxForce: 1e-300))
        #expect(s.flags == BRISTLE_SAMPLE_HAS_PRESSURE)  // max_force is 0 as a Float
        #expect(s.pressure == 1)
        #expect(s.max_force == 0)
        #expect(allFinite(s))

        let zero = build(PointerSample(x: 0, y: 0, pointerType: "pen", force: 0, maxForce: 1e-300))
        #expect(zero.flags == BRISTLE_SAMPLE_HAS_PRESSURE)
        #expect(zero.pressure == 0)
        #expect(allFinite(zero))
    }

    @Test func forceWithoutMaxForceIsNotPressure() {
        let s = build(PointerSample(x: 0, y: 0, pointerType: "pen", force: 2))
        #expect(s.flags & (BRISTLE_SAMPLE_HAS_FORCE | BRISTLE_SAMPLE_HAS_PRESSURE) == 0)
        #expect(s.pressure == 0.5)
        #expect(s.max_force == 0)
    }

    // MARK: Orientation

    @Test func tiltRoundTrip() {
        for tiltX in stride(from: -89.0, through: 89, by: 4.5) {
            for tiltY in stride(from: -89.0, through: 89, by: 4.5) {
                let spherical = SampleBuilder.spherical(tiltX: tiltX, tiltY: tiltY)
                #expect(spherical.altitude > 0 && spherical.altitude <= .pi / 2)
                #expect(spherical.azimuth >= 0 && spherical.azimuth < 2 * .pi)
                let tilt = SampleBuilder.tilt(altitude: spherical.altitude, azimuth: spherical.azimuth)
                #expect(close(tilt.x, tiltX) && close(tilt.y, tiltY), "tilt (\(tiltX), \(tiltY)) came back as \(tilt)")
            }
        }
    }

    @Test func tiltKnownPoints() {
        let upright = SampleBuilder.spherical(tiltX: 0, tiltY: 0)
        #expect(upright.altitude == .pi / 2 && upright.azimuth == 0)
        let right = SampleBuilder.spherical(tiltX: 45, tiltY: 0)
        #expect(close(right.altitude, .pi / 4) && right.azimuth == 0)
        let up = SampleBuilder.spherical(tiltX: 0, tiltY: -30)
        #expect(close(up.altitude, .pi / 3) && up.azimuth == 3 * .pi / 2)
    }

    @Test func penLyingFlat() {
        let table: [(azimuth: Double, x: Double, y: Double)] = [
            (0, 90, 0), (.pi / 4, 90, 90), (.pi / 2, 0, 90), (3 * .pi / 4, -90, 90), (.pi, -90, 0),
            (5 * .pi / 4, -90, -90), (3 * .pi / 2, 0, -90), (7 * .pi / 4, 90, -90), (2 * .pi, 90, 0),
        ]
        for row in table {
            let tilt = SampleBuilder.tilt(altitude: 0, azimuth: row.azimuth)
            #expect(tilt.x == row.x && tilt.y == row.y, "azimuth \(row.azimuth)")
        }
        // The axes round-trip through altitude 0.
        for (tiltX, tiltY) in [(90.0, 0.0), (0, 90), (-90, 0), (0, -90)] {
            let spherical = SampleBuilder.spherical(tiltX: tiltX, tiltY: tiltY)
            #expect(spherical.altitude == 0)
            let tilt = SampleBuilder.tilt(altitude: spherical.altitude, azimuth: spherical.azimuth)
            #expect(tilt.x == tiltX && tilt.y == tiltY)
        }
        let s = build(PointerSample(x: 0, y: 0, altitudeAngle: 0, azimuthAngle: .pi / 2))
        #expect(s.flags & BRISTLE_SAMPLE_HAS_TILT != 0)
        #expect(s.tilt_x == 0 && s.tilt_y == 90)
    }

    @Test func altitudeWithoutAzimuthDefaultsAzimuthToZero() {
        let s = build(PointerSample(x: 0, y: 0, altitudeAngle: .pi / 4))
        #expect(s.flags & BRISTLE_SAMPLE_HAS_TILT != 0)
        #expect(s.altitude == Float(Double.pi / 4) && s.azimuth == 0)
        #expect(abs(s.tilt_x - 45) < 1e-4 && s.tilt_y == 0)
    }

    @Test func azimuthWithoutAltitudeDefaultsAltitudeToPerpendicular() {
        let s = build(PointerSample(x: 0, y: 0, azimuthAngle: .pi))
        #expect(s.flags & BRISTLE_SAMPLE_HAS_TILT != 0)
        #expect(s.altitude == Float(Double.pi / 2) && s.azimuth == Float(Double.pi))
        #expect(abs(s.tilt_x) < 1e-4 && abs(s.tilt_y) < 1e-4)
    }

    @Test func tiltGivesAltitudeAndAzimuth() {
        let s = build(PointerSample(x: 0, y: 0, tiltY: -30))
        #expect(s.flags & BRISTLE_SAMPLE_HAS_TILT != 0)
        #expect(s.tilt_x == 0 && s.tilt_y == -30)
        #expect(abs(s.altitude - Float.pi / 3) < 1e-6 && s.azimuth == Float(3 * Double.pi / 2))
    }

    @Test func noOrientationKeepsTheDefaults() {
        let s = build(pen())
        #expect(s.flags & BRISTLE_SAMPLE_HAS_TILT == 0)
        #expect(s.altitude == Float.pi / 2 && s.azimuth == 0 && s.tilt_x == 0 && s.tilt_y == 0)
    }

    // MARK: Other fields

    @Test func twistInRadians() {
        let s = build(PointerSample(x: 0, y: 0, twist: 90))
        #expect(s.flags & BRISTLE_SAMPLE_HAS_TWIST != 0)
        #expect(s.twist == Float(Double.pi / 2))
    }

    @Test func contactSize() {
        let s = build(PointerSample(x: 0, y: 0, width: 12))
        #expect(s.flags & BRISTLE_SAMPLE_HAS_CONTACT != 0)
        #expect(s.width == 12 && s.height == 0)
        #expect(build(pen()).flags & BRISTLE_SAMPLE_HAS_CONTACT == 0)
    }

    @Test func pointerTypeFallsBackToTheStrokeThenPen() {
        #expect(build(PointerSample(x: 0, y: 0, pointerType: "touch"), strokeType: "mouse").pointer_type
            == BRISTLE_POINTER_TOUCH)
        #expect(build(PointerSample(x: 0, y: 0), strokeType: "mouse").pointer_type == BRISTLE_POINTER_MOUSE)
        #expect(build(PointerSample(x: 0, y: 0)).pointer_type == BRISTLE_POINTER_PEN)
        // The stroke's mouse type also makes pressure synthetic.
        let s = build(PointerSample(x: 0, y: 0, pressure: 0.8), strokeType: "mouse")
        #expect(s.flags & BRISTLE_SAMPLE_HAS_PRESSURE == 0 && s.pressure == 0.5)
    }

    @Test func buttonsPositionFlagsAndSize() {
        let s = build(PointerSample(x: 3.5, y: -2, buttons: 33))
        #expect(s.buttons == 33)
        #expect(s.x == 3.5 && s.y == -2)
        #expect(s.struct_size == UInt32(MemoryLayout<bristle_sample_t>.size))
        var builder = SampleBuilder(strokePointerType: nil)
        #expect(builder.make(pen(), extraFlags: BRISTLE_SAMPLE_COALESCED).flags == BRISTLE_SAMPLE_COALESCED)
    }

    @Test func thePressureCurveShapesPressureAndForce() {
        var builder = SampleBuilder(strokePointerType: "pen", pressureCurve: .gamma(2))
        var p = PointerSample(x: 0, y: 0, pointerType: "pen")
        p.force = 2
        p.maxForce = 4
        let s = builder.make(p)
        #expect(s.pressure == 0.25, "(2 / 4)^2")
        #expect(s.force == 1, "0.25 of the device's range of 4")
        #expect(s.flags & BRISTLE_SAMPLE_HAS_FORCE != 0)
        var identity = SampleBuilder(strokePointerType: "pen")
        #expect(identity.make(p).force == 2, "identity leaves raw force alone")
    }
}
