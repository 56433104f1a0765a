import BristleHost

/// The `params` group, for brushes with `bristle.params/1`: the table is well formed,
/// defaults are in range and read back, values round-trip, setters refuse to work during a
/// stroke, and the setters clamp, round and refuse exactly as the ABI says, with strokes drawn
/// at every bound and every whole-number value near one.
enum ParameterTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("params.table", tier: .basic, scope: .brush,
                        "The bristle.params/1 table is well formed (struct_size, no NULL function, at most 256 parameters, every info valid: kind, id, names, finite min <= default <= max, enum names), as the host's loader checks it; a broken table fails here once, and the tests that need an instance skip.") { ctx throws(CheckFailure) in
            let brush = try ctx.makeBrush(host: BrushHost(logHandler: { _, _ in }))
            guard !brush.parameters.isEmpty else { return .skip("the brush has no bristle.params/1 extension") }
            return TestOutcome(.pass, "\(brush.parameters.count) parameter(s): \(brush.parameters.map(\.id).joined(separator: ", "))")
        },
        ConformanceTest("params.defaults", tier: .standard, scope: .brush,
                        "Right after create, every parameter reads back its declared default, which lies in [min, max].") { ctx throws(CheckFailure) in
            let (brush, params) = try open(ctx)
            guard let params else { return .skip("the brush has no bristle.params/1 extension") }
            for p in brush.parameters {
                if p.kind == .color {
                    let c = try getColor(ctx, brush, params, p.id)
                    let d = p.defaultColor
                    guard abs(c.r - d.red) < 1e-6, abs(c.g - d.green) < 1e-6, abs(c.b - d.blue) < 1e-6, abs(c.a - d.alpha) < 1e-6 else {
                        return .fail("colour parameter '\(p.id)' reads (\(c.r), \(c.g), \(c.b), \(c.a)) but declares default \(d)")
                    }
                } else {
                    guard p.minimum <= p.defaultValue, p.defaultValue <= p.maximum else {
                        return .fail("parameter '\(p.id)' declares default \(p.defaultValue) outside [\(p.minimum), \(p.maximum)]")
                    }
                    let v = try getValue(ctx, brush, params, p.id)
                    guard v == p.defaultValue else {
                        return .fail("parameter '\(p.id)' reads \(v) right after create but declares default \(p.defaultValue)")
                    }
                }
            }
            return .pass
        },
        ConformanceTest("params.round-trip", tier: .standard, scope: .brush,
                        "Setting min, max and a middle value (and a colour) reads the same value back.") { ctx throws(CheckFailure) in
            let (brush, params) = try open(ctx)
            guard let params else { return .skip("the brush has no bristle.params/1 extension") }
            for p in brush.parameters {
                if p.kind == .color {
                    var c = bristle_color_t(r: 0.25, g: 0.5, b: 0.75, a: 0.5)
                    try expectStatus(ctx.recorder.record("params->set_color(\"\(p.id)\", (0.25,0.5,0.75,0.5))") {
                        params.pointee.set_color!(brush.cInstance, p.id, &c)
                    }, BRISTLE_OK, "set_color(\"\(p.id)\")")
                    let back = try getColor(ctx, brush, params, p.id)
                    guard abs(back.r - 0.25) < 1e-6, abs(back.g - 0.5) < 1e-6, abs(back.b - 0.75) < 1e-6, abs(back.a - 0.5) < 1e-6 else {
                        return .fail("colour parameter '\(p.id)' set to (0.25, 0.5, 0.75, 0.5) reads back (\(back.r), \(back.g), \(back.b), \(back.a))")
                    }
                    continue
                }
                let whole = p.kind != .float
                var middle = (p.minimum + p.maximum) / 2
                if whole { middle = middle.rounded(.down) }
                for value in [p.minimum, p.maximum, middle] {
                    try expectStatus(setValue(ctx, brush, params, p.id, value), BRISTLE_OK, "set_value(\"\(p.id)\", \(value))")
                    let back = try getValue(ctx, brush, params, p.id)
                    guard abs(back - value) <= 1e-9 * max(1, abs(value)) else {
                        return .fail("parameter '\(p.id)' set to \(value) reads back \(back)")
                    }
                }
            }
            return .pass
        },
        ConformanceTest("params.bad-state", tier: .standard, scope: .brush,
                        "During a stroke set_value and set_color return BRISTLE_BAD_STATE and change nothing.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(checks: .none)
            let brush = driver.brush
            guard let params = extensionTable(ctx, brush) else { return .skip("the brush has no bristle.params/1 extension") }
            try driver.begin(TestStroke.sample(x: 10, y: 10, t: 0))
            for p in brush.parameters {
                if p.kind == .color {
                    var c = bristle_color_t(r: 1, g: 0, b: 0, a: 1)
                    try expectStatus(ctx.recorder.record("params->set_color(\"\(p.id)\") during a stroke") {
                        params.pointee.set_color!(brush.cInstance, p.id, &c)
                    }, BRISTLE_BAD_STATE, "set_color(\"\(p.id)\") during a stroke")
                } else {
                    let before = try getValue(ctx, brush, params, p.id)
                    let other = before == p.maximum ? p.minimum : p.maximum
                    try expectStatus(setValue(ctx, brush, params, p.id, other), BRISTLE_BAD_STATE,
                                     "set_value(\"\(p.id)\", \(other)) during a stroke")
                    guard try getValue(ctx, brush, params, p.id) == before else {
                        return .fail("set_value(\"\(p.id)\") during a stroke changed the value; parameters change only between strokes")
                    }
                }
            }
            try driver.end(TestStroke.sample(x: 12, y: 10, t: 0.01))
            return .pass
        },
        ConformanceTest("params.fuzz", tier: .strict, scope: .brush,
                        "Setters clamp out-of-range values, round whole-number types, refuse NaN, infinities, unknown ids and the wrong kind with BRISTLE_BAD_ARG; strokes at every parameter's min and max pass every canvas check.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            let brush = driver.brush
            guard let params = extensionTable(ctx, brush) else { return .skip("the brush has no bristle.params/1 extension") }
            try expectStatus(setValue(ctx, brush, params, "conform-no-such-parameter", 1), BRISTLE_BAD_ARG,
                             "set_value of an unknown id")
            var dummy = 0.0
            try expectStatus(ctx.recorder.record("params->get_value(\"conform-no-such-parameter\")") {
                params.pointee.get_value!(brush.cInstance, "conform-no-such-parameter", &dummy)
            }, BRISTLE_BAD_ARG, "get_value of an unknown id")
            driver.fill(StandardStrokes.paper)
            for p in brush.parameters {
                if p.kind == .color {
                    try expectStatus(setValue(ctx, brush, params, p.id, 0.5), BRISTLE_BAD_ARG, "set_value on colour '\(p.id)'")
                    var c = bristle_color_t(r: -1, g: 2, b: .nan, a: 7)
                    _ = ctx.recorder.record("params->set_color(\"\(p.id)\", (-1, 2, nan, 7))") {
                        params.pointee.set_color!(brush.cInstance, p.id, &c)
                    }
                    let back = try getColor(ctx, brush, params, p.id)
                    for v in [back.r, back.g, back.b, back.a] where !(v >= 0 && v <= 1) {
                        return .fail("colour '\(p.id)' holds \(v) after set_color with out-of-range components; clamp to [0, 1]")
                    }
                    try driver.draw(.wave(count: 20, width: 96, height: 64))
                    continue
                }
                var c = bristle_color_t(r: 0, g: 0, b: 0, a: 1)
                try expectStatus(ctx.recorder.record("params->set_color(\"\(p.id)\") on a numeric parameter") {
                    params.pointee.set_color!(brush.cInstance, p.id, &c)
                }, BRISTLE_BAD_ARG, "set_color on numeric '\(p.id)'")
                let before = try getValue(ctx, brush, params, p.id)
                for bad in [Double.nan, .infinity, -.infinity] {
                    try expectStatus(setValue(ctx, brush, params, p.id, bad), BRISTLE_BAD_ARG, "set_value(\"\(p.id)\", \(bad))")
                    guard try getValue(ctx, brush, params, p.id) == before else {
                        return .fail("set_value(\"\(p.id)\", \(bad)) changed the value; a refused value changes nothing")
                    }
                }
                let span = max(p.maximum - p.minimum, 1)
                let probes: [(Double, Double)] = [(p.minimum - span, p.minimum), (p.maximum + span, p.maximum),
                                                  (-1e300, p.minimum), (1e300, p.maximum)]
                for (value, expected) in probes {
                    try expectStatus(setValue(ctx, brush, params, p.id, value), BRISTLE_OK, "set_value(\"\(p.id)\", \(value))")
                    let back = try getValue(ctx, brush, params, p.id)
                    guard back == expected else {
                        return .fail("set_value(\"\(p.id)\", \(value)) reads back \(back); out-of-range values clamp to \(expected)")
                    }
                }
                if p.kind != .float, p.maximum - p.minimum >= 1 {
                    try expectStatus(setValue(ctx, brush, params, p.id, p.minimum + 0.75), BRISTLE_OK, "set_value(\"\(p.id)\", min + 0.75)")
                    let back = try getValue(ctx, brush, params, p.id)
                    guard back == back.rounded(), back >= p.minimum, back <= p.maximum else {
                        return .fail("whole-number parameter '\(p.id)' set to \(p.minimum + 0.75) reads back \(back); round it")
                    }
                }
                for bound in [p.minimum, p.maximum] {
                    try expectStatus(setValue(ctx, brush, params, p.id, bound), BRISTLE_OK, "set_value(\"\(p.id)\", \(bound))")
                    try driver.draw(.wave(count: 20, width: 96, height: 64))
                }
                try expectStatus(setValue(ctx, brush, params, p.id, p.defaultValue), BRISTLE_OK, "set_value(\"\(p.id)\", default)")
            }
            return .pass
        },
        ConformanceTest("params.every-value", tier: .strict, scope: .brush,
                        "Every int, bool and enum parameter set, one at a time, to min, min + 1, max - 1, max and (up to 64 values) every value between, draws strokes across the canvas and its edges that pass every canvas check.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            let brush = driver.brush
            guard let params = extensionTable(ctx, brush) else { return .skip("the brush has no bristle.params/1 extension") }
            let whole = brush.parameters.filter { $0.kind != .float && $0.kind != .color }
            guard !whole.isEmpty else { return .skip("the brush has no int, bool or enum parameter") }
            driver.fill(StandardStrokes.paper)
            for p in whole {
                for value in wholeValues(p) {
                    try expectStatus(setValue(ctx, brush, params, p.id, value), BRISTLE_OK, "set_value(\"\(p.id)\", \(value))")
                    try driver.draw(.wave(count: 16, width: 96, height: 64))
                    for stroke in StandardStrokes.edges(width: 96, height: 64) { try driver.draw(stroke) }
                }
                try expectStatus(setValue(ctx, brush, params, p.id, p.defaultValue), BRISTLE_OK, "set_value(\"\(p.id)\", default)")
            }
            return .pass
        },
    ]

    /// min, min + 1, max - 1, max and, when there are at most 64, every value of a whole-number
    /// parameter, in order.
    static func wholeValues(_ p: BrushParameter) -> [Double] {
        var values: Set<Double> = [p.minimum, p.maximum, min(p.minimum + 1, p.maximum), max(p.maximum - 1, p.minimum)]
        if p.maximum - p.minimum < 64 { values.formUnion(stride(from: p.minimum, through: p.maximum, by: 1)) }
        return values.sorted()
    }

    /// The settings the pixel-format test draws with: the defaults, then each value of each
    /// enum parameter (up to 16 per parameter), the others at their defaults.
    static func enumSettings(_ brush: Brush) -> [(id: String, value: Double)?] {
        var settings: [(id: String, value: Double)?] = [nil]
        for p in brush.parameters {
            guard case .enumeration = p.kind else { continue }
            for v in stride(from: p.minimum, through: min(p.maximum, p.minimum + 15), by: 1) { settings.append((p.id, v)) }
        }
        return settings
    }

    /// Puts every enum parameter back to its default, then applies `setting`.
    static func set(_ ctx: TestContext, _ brush: Brush, _ setting: (id: String, value: Double)?) throws(CheckFailure) {
        guard let params = extensionTable(ctx, brush) else { return }
        for p in brush.parameters {
            guard case .enumeration = p.kind else { continue }
            let value = p.id == setting?.id ? setting!.value : p.defaultValue
            try expectStatus(setValue(ctx, brush, params, p.id, value), BRISTLE_OK, "set_value(\"\(p.id)\", \(value))")
        }
    }

    private static func extensionTable(_ ctx: TestContext, _ brush: Brush) -> UnsafePointer<bristle_params_t>? {
        guard !brush.parameters.isEmpty else { return nil }
        let b = brush.cInstance
        return ctx.recorder.record("brush->get_extension(\"\(BRISTLE_EXT_PARAMS)\")") {
            b.pointee.get_extension!(b, BRISTLE_EXT_PARAMS)?.assumingMemoryBound(to: bristle_params_t.self)
        }
    }

    private static func open(_ ctx: TestContext) throws(CheckFailure) -> (Brush, UnsafePointer<bristle_params_t>?) {
        let brush = try ctx.makeBrush(host: BrushHost(logHandler: { _, _ in }))
        return (brush, extensionTable(ctx, brush))
    }

    private static func setValue(_ ctx: TestContext, _ brush: Brush, _ params: UnsafePointer<bristle_params_t>,
                                 _ id: String, _ value: Double) -> Int32 {
        ctx.recorder.record("params->set_value(\"\(id)\", \(value))") { params.pointee.set_value!(brush.cInstance, id, value) }
    }

    private static func getValue(_ ctx: TestContext, _ brush: Brush, _ params: UnsafePointer<bristle_params_t>,
                                 _ id: String) throws(CheckFailure) -> Double {
        var v = 0.0
        let status = ctx.recorder.record("params->get_value(\"\(id)\")") { params.pointee.get_value!(brush.cInstance, id, &v) }
        try expectStatus(status, BRISTLE_OK, "get_value(\"\(id)\")")
        return v
    }

    private static func getColor(_ ctx: TestContext, _ brush: Brush, _ params: UnsafePointer<bristle_params_t>,
                                 _ id: String) throws(CheckFailure) -> bristle_color_t {
        var c = bristle_color_t()
        let status = ctx.recorder.record("params->get_color(\"\(id)\")") { params.pointee.get_color!(brush.cInstance, id, &c) }
        try expectStatus(status, BRISTLE_OK, "get_color(\"\(id)\")")
        return c
    }

    private static func expectStatus(_ status: Int32, _ expected: Int32, _ call: String) throws(CheckFailure) {
        guard status == expected else {
            throw CheckFailure("\(call) returned \(StatusName.of(status)); expected \(StatusName.of(expected))")
        }
    }
}
