/// The symbols a shared library exports: defined entries of its dynamic symbol table with
/// GLOBAL or WEAK binding, read with `readelf --dyn-syms` (LOCAL entries, which Swift leaves
/// in the table for its metadata, cannot be bound by anyone and are not exports).
public func exportedSymbols(_ path: String) throws -> [String] {
    let r = try ProcessResult.run("/usr/bin/env", ["readelf", "--dyn-syms", "-W", path])
    return r.stdout.split(separator: "\n").compactMap { line in
        let f = line.split(separator: " ", omittingEmptySubsequences: true)
        guard f.count >= 8, f[4] == "GLOBAL" || f[4] == "WEAK", f[6] != "UND" else { return nil }
        return String(f[7])
    }
}
