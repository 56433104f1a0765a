@testable import BristleKit
import CBristle

/// BristleHost (imported by the tests that compare with the host's services) has types of the
/// same names; in these tests they mean the kit's.
typealias Paint = BristleKit.Paint
typealias StrokeStyle = BristleKit.StrokeStyle

/// A draw target over owned memory for calling services in process: premultiplied pixels and a
/// different `base` (or both one opaque colour), both with stride padding, a canvas-sized mask,
/// a stroke context, and the `bristle_target_t` naming a services table. Two surfaces made
/// alike start byte-identical.
final class KitSurface {
    let width: Int
    let height: Int
    let stride: Int
    let pixels: UnsafeMutablePointer<UInt8>
    let base: UnsafeMutablePointer<UInt8>
    let maskCells: UnsafeMutablePointer<UInt8>
    private let context: UnsafeMutablePointer<bristle_stroke_context_t>
    let target: UnsafeMutablePointer<bristle_target_t>

    init(width: Int = 64, height: Int = 48, services: UnsafePointer<bristle_services_t>, background: Pixel? = nil) {
        self.width = width
        self.height = height
        stride = width * 4 + 12
        pixels = .allocate(capacity: stride * height)
        base = .allocate(capacity: stride * height)
        maskCells = .allocate(capacity: width * height)
        maskCells.initialize(repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<stride {
                // Translucent, premultiplied content, different in base, so blends show.
                let a = UInt8((x / 4 * 5 + y * 3) % 200 + 40), b = UInt8((x / 4 * 2 + y * 7) % 180 + 60)
                pixels[y * stride + x] = x % 4 == 3 ? a : min(a, UInt8((x * 11 + y) % 256))
                base[y * stride + x] = x % 4 == 3 ? b : min(b, UInt8((x * 3 + y * 5) % 256))
                if let background {
                    let c = [background.r, background.g, background.b, background.a][x % 4]
                    pixels[y * stride + x] = c
                    base[y * stride + x] = c
                }
            }
        }
        context = .allocate(capacity: 1)
        context.initialize(to: bristle_stroke_context_t(
            struct_size: UInt32(MemoryLayout<bristle_stroke_context_t>.size), device_flags: 0,
            color: bristle_color_t(r: 0, g: 0, b: 0, a: 1), width: 4, scale: 1, seed: 1,
            pointer_type: BRISTLE_POINTER_PEN, max_force: 0, canvas_width: Int32(width), canvas_height: Int32(height)))
        target = .allocate(capacity: 1)
        var t = bristle_target_t()  // fields a later minor appends stay zero
        t.struct_size = UInt32(MemoryLayout<bristle_target_t>.size)
        t.format = BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED
        t.pixels = pixels
        t.base = UnsafePointer(base)
        t.width = Int32(width)
        t.height = Int32(height)
        t.stride_bytes = Int32(stride)
        t.layer = BRISTLE_LAYER_COMMITTED
        t.stroke = UnsafePointer(context)
        t.services = services
        target.initialize(to: t)
    }

    deinit {
        pixels.deallocate()
        base.deallocate()
        maskCells.deallocate()
        context.deallocate()
        target.deallocate()
    }

    /// The kit's canvas over this target.
    func canvas() -> Canvas { Canvas(UnsafePointer(target), pixels: pixels) }

    /// The C view of the mask cells.
    var mask: bristle_mask_t {
        bristle_mask_t(data: maskCells, width: Int32(width), height: Int32(height), stride_bytes: Int32(width))
    }

    /// Every pixel byte, padding included.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: pixels, count: stride * height)) }

    /// Every mask cell.
    var cells: [UInt8] { Array(UnsafeBufferPointer(start: maskCells, count: width * height)) }
}
