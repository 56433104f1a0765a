import CBristle

extension BrushDescriptor {
    /// The most tags a descriptor may list; more is taken as a missing NULL terminator.
    static let maximumTagCount = 64

    /// Checks a plugin's descriptor against the contract in bristle.h and copies it.
    static func validate(_ raw: UnsafePointer<bristle_descriptor_t>, index: UInt32,
                         libraryPath path: String) -> Result<BrushDescriptor, PluginLoadError>
    {
        let d = raw.pointee
        let name = "descriptor[\(index)]"
        func bad(_ field: String, _ reason: String) -> Result<BrushDescriptor, PluginLoadError> {
            .failure(.malformed(path: path, field: "\(name).\(field)", reason: reason))
        }
        if let problem = ABILayout.descriptor.tooSmall(d.struct_size) {
            return .failure(.malformed(path: path, field: name, reason: problem))
        }
        let abi = "\(d.abi.major).\(d.abi.minor).\(d.abi.patch)"
        guard d.abi.major == BRISTLE_VERSION_MAJOR else {
            return .failure(.incompatibleABI(path: path, plugin: abi,
                                             host: PluginLoader.hostABIVersion))
        }
        func text(_ field: String, _ pointer: UnsafePointer<CChar>?, limit: Int = 4096)
            -> Result<String, PluginLoadError>
        {
            switch CString.read(pointer, limit: limit) {
            case .success(let s): return .success(s)
            case .failure(.null): return .failure(.malformed(path: path, field: "\(name).\(field)",
                                                             reason: "is NULL (use \"\" for none)"))
            case .failure(.tooLong): return .failure(.malformed(
                path: path, field: "\(name).\(field)", reason: "is longer than \(limit) bytes"))
            case .failure(.notUTF8): return .failure(.malformed(
                path: path, field: "\(name).\(field)", reason: "is not valid UTF-8"))
            }
        }
        do {
            let id = try text("id", d.id, limit: 255).get()
            guard !id.isEmpty else { return bad("id", "is empty") }
            if let c = id.unicodeScalars.first(where: { $0.value < 0x21 || $0.value > 0x7e }) {
                return bad("id", "'\(id)' contains \(c.value == 0x20 ? "a space" : "the character U+\(String(c.value, radix: 16, uppercase: true))"); ids are printable ASCII without spaces, e.g. org.example.charcoal")
            }
            let title = try text("name", d.name).get()
            guard !title.isEmpty else { return bad("name", "is empty") }
            let vendor = try text("vendor", d.vendor).get()
            let version = try text("version", d.version).get()
            let summary = try text("description", d.description).get()
            var tags: [String] = []
            if let list = d.tags {
                var i = 0
                while let tag = list[i] {
                    guard i < maximumTagCount else {
                        return bad("tags", "has more than \(maximumTagCount) entries (missing NULL terminator?)")
                    }
                    tags.append(try text("tags[\(i)]", tag, limit: 255).get())
                    i += 1
                }
            }
            return .success(BrushDescriptor(
                id: id, name: title, vendor: vendor, version: version, summary: summary, tags: tags,
                capabilities: Capabilities(rawValue: d.flags), abiVersion: abi, abiMinor: d.abi.minor,
                libraryPath: path))
        } catch {
            return .failure(error)
        }
    }
}
