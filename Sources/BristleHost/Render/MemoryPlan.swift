import Glibc

/// The memory a render needs beyond what it holds already, checked before any layer is
/// allocated or any brush runs, so that a canvas too large for the memory the process may use
/// (`ulimit -v`, a strict overcommit policy) fails at once with a figure, never with a signal
/// half-way or with a brush blamed for a failed allocation.
///
/// A render of a `width` x `height` canvas allocates:
/// - two canvas layers (committed, and base: the pixels before the current stroke), each
///   ``Layer/stride(width:)`` bytes per row (`4 x width` rounded up to an odd multiple of 64),
///   times `height`;
/// - what brushes allocate: the reference brushes keep canvas-sized 8-bit stroke masks, two
///   at most (`2 x width x height` bytes; the pencil pads each row by up to 127 bytes, which
///   the headroom covers);
/// - ``headroomBytes`` for everything small (samples, history indices, PNG strips).
///
/// The preview layer is allocated later, only if a brush draws a preview; the undo history
/// grows step by step up to its budget. Neither is part of the check.
public struct MemoryPlan: Sendable {
    public var width: Int
    public var height: Int

    /// Memory for what is not canvas-sized: 64 MiB.
    public static let headroomBytes = 64 << 20

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The two canvas layers, in bytes.
    public var layerBytes: Int { 2 * Layer.stride(width: width) * height }
    /// The brushes' stroke masks, in bytes.
    public var maskBytes: Int { 2 * width * height }
    /// Everything the check reserves, in bytes.
    public var neededBytes: Int { layerBytes + maskBytes + Self.headroomBytes }

    /// True when `bytes` of address space can be had now: maps them (readable and writable,
    /// as an allocation would) and unmaps them at once. Untouched pages cost no physical
    /// memory, so the probe itself is free.
    public static func canReserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let p, p != UnsafeMutableRawPointer(bitPattern: -1) else { return false }
        munmap(p, bytes)
        return true
    }

    /// True when the render's memory can be had now (see ``canReserve(_:)``).
    public var fits: Bool { Self.canReserve(neededBytes) }

    /// What the plan reserves, for a message: `2.0 GiB: two canvas layers of 1 GiB, stroke masks of 512 MiB`.
    public var breakdown: String {
        "\(ByteCount.text(neededBytes)) (two canvas layers of \(ByteCount.text(layerBytes / 2)) each, "
            + "brush stroke masks of \(ByteCount.text(maskBytes)), \(ByteCount.text(Self.headroomBytes)) for the rest)"
    }
}
