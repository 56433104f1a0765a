import CBristle

/// The smallest `struct_size` the host accepts for each struct a plugin writes: the struct's
/// size in ABI 1.0. A plugin built against a later 1.x header writes a larger size (its
/// appended fields are ignored); a host built against a later 1.x header keeps these numbers,
/// so it still loads 1.0 plugins. These are frozen: never change them within major 1.
enum ABIMinimumSize {
    static let entry: UInt32 = 40
    static let factory: UInt32 = 32
    static let descriptor: UInt32 = 72
    static let brush: UInt32 = 96
    static let params: UInt32 = 56
    static let paramInfo: UInt32 = 88
    static let target: UInt32 = 56
    static let segment: UInt32 = 56
    static let paint: UInt32 = 28
    /// Structs new in 1.1: their 1.1 sizes.
    static let strokeStyle: UInt32 = 56
    static let pattern: UInt32 = 40
}
