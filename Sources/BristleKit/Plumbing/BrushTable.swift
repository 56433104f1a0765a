import CBristle

/// The brushes of one library as the ABI shows them, built once when the entry is first
/// called: the validated Swift types, their C descriptors and parameter infos, and the
/// problems that make the library refuse `init` (an empty list means usable).
final class BrushTable {
    let types: [any Brush.Type]
    let parameters: [[Parameter]]
    let descriptors: UnsafeMutablePointer<bristle_descriptor_t>
    let parameterInfos: [UnsafeMutablePointer<bristle_param_info_t>]
    let problems: [String]

    init(_ types: [any Brush.Type]) {
        self.types = types
        parameters = types.map { $0.parameters }
        problems = BrushTable.problems(types.map { $0.descriptor }, parameters)
        descriptors = .allocate(capacity: max(types.count, 1))
        for (i, type) in types.enumerated() { (descriptors + i).initialize(to: BrushTable.descriptor(type.descriptor)) }
        parameterInfos = parameters.map { list in
            let infos = UnsafeMutablePointer<bristle_param_info_t>.allocate(capacity: max(list.count, 1))
            for (i, p) in list.enumerated() { (infos + i).initialize(to: BrushTable.info(p)) }
            return infos
        }
    }

    /// Everything wrong with a set of declarations: an empty library, invalid descriptors or
    /// parameters, duplicate brush or parameter ids.
    static func problems(_ descriptors: [BrushDescriptor], _ parameters: [[Parameter]]) -> [String] {
        var found: [String] = descriptors.isEmpty ? ["the library declares no brush"] : []
        var ids = Set<String>()
        for (d, list) in zip(descriptors, parameters) {
            found += d.problems
            if !ids.insert(d.id).inserted { found.append("brush id \(d.id) is declared twice") }
            var parameterIDs = Set<String>()
            for p in list {
                found += p.problems.map { "brush \(d.id): \($0)" }
                if !parameterIDs.insert(p.id).inserted { found.append("brush \(d.id): parameter \(p.id) is declared twice") }
            }
        }
        return found
    }

    /// The index of the brush whose id equals `id` exactly.
    func index(of id: UnsafePointer<CChar>?) -> Int? {
        types.indices.first { CStrings.equal(id, types[$0].descriptor.id) }
    }

    private static func descriptor(_ d: BrushDescriptor) -> bristle_descriptor_t {
        bristle_descriptor_t(
            struct_size: UInt32(MemoryLayout<bristle_descriptor_t>.size), flags: d.capabilities.rawValue,
            abi: bristle_version_t(major: BRISTLE_VERSION_MAJOR, minor: BRISTLE_VERSION_MINOR, patch: BRISTLE_VERSION_PATCH),
            id: CStrings.permanent(d.id), name: CStrings.permanent(d.name), vendor: CStrings.permanent(d.vendor),
            version: CStrings.permanent(d.version), description: CStrings.permanent(d.description),
            tags: d.tags.isEmpty ? nil : CStrings.permanentList(d.tags))
    }

    private static func info(_ p: Parameter) -> bristle_param_info_t {
        var names: UnsafePointer<UnsafePointer<CChar>?>?
        var color = bristle_color_t()
        switch p.kind {
        case .choice(let list): names = CStrings.permanentList(list)
        case .color(let value): color = value.clamped.c
        case .float, .integer, .boolean: break
        }
        return bristle_param_info_t(
            struct_size: UInt32(MemoryLayout<bristle_param_info_t>.size), type: p.typeCode,
            id: CStrings.permanent(p.id), name: CStrings.permanent(p.name),
            description: CStrings.permanent(p.description), unit: CStrings.permanent(p.unit),
            min_value: p.isColor ? 0 : p.range.lowerBound, max_value: p.isColor ? 0 : p.range.upperBound,
            default_value: p.isColor ? 0 : p.defaultValue, enum_names: names, default_color: color)
    }
}
