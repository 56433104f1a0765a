import CBristle

/// The `bristle.params/1` extension every kit brush with parameters returns: one shared table
/// whose functions find the instance through `brush_data`. Setters clamp and round, refuse
/// unknown ids, colour/number mix-ups and non-finite values (BAD_ARG), and refuse changes
/// during a stroke (BAD_STATE).
enum ParamsExtension {
    nonisolated(unsafe) static let table: UnsafeMutablePointer<bristle_params_t> = {
        let table = UnsafeMutablePointer<bristle_params_t>.allocate(capacity: 1)
        table.initialize(to: bristle_params_t(
            struct_size: UInt32(MemoryLayout<bristle_params_t>.size), reserved: 0,
            count: { brush in UInt32(BrushInstance.of(brush)?.parameters.count ?? 0) },
            info: { brush, index in
                guard let instance = BrushInstance.of(brush), Int(index) < instance.parameters.count else { return nil }
                return UnsafePointer(instance.infos + Int(index))
            },
            set_value: { brush, id, value in
                guard let instance = BrushInstance.of(brush), let p = parameter(instance, id), !p.isColor,
                      let normalized = p.normalized(value) else { return BRISTLE_BAD_ARG }
                guard !instance.inStroke else { return BRISTLE_BAD_STATE }
                instance.values.set(id: p.id, number: normalized)
                return BRISTLE_OK
            },
            get_value: { brush, id, value in
                guard let instance = BrushInstance.of(brush), let p = parameter(instance, id), let value,
                      let number = instance.values.number(id: p.id) else { return BRISTLE_BAD_ARG }
                value.pointee = number
                return BRISTLE_OK
            },
            set_color: { brush, id, color in
                guard let instance = BrushInstance.of(brush), let p = parameter(instance, id), p.isColor,
                      let color else { return BRISTLE_BAD_ARG }
                guard !instance.inStroke else { return BRISTLE_BAD_STATE }
                instance.values.set(id: p.id, color: Color(color.pointee))
                return BRISTLE_OK
            },
            get_color: { brush, id, color in
                guard let instance = BrushInstance.of(brush), let p = parameter(instance, id), let color,
                      let value = instance.values.color(id: p.id) else { return BRISTLE_BAD_ARG }
                color.pointee = value.c
                return BRISTLE_OK
            }))
        return table
    }()

    /// The instance's parameter whose id equals `id` exactly.
    private static func parameter(_ instance: BrushInstance, _ id: UnsafePointer<CChar>?) -> Parameter? {
        instance.parameters.first { CStrings.equal(id, $0.id) }
    }
}
