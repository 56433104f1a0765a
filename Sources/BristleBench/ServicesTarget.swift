import BristleHost
import CBristle

/// The pieces every services-table case needs: a white benchmark canvas, a host whose
/// services table draws onto it, and the ABI target describing the canvas, built once.
final class ServicesTarget {
    let canvas: BenchCanvas
    let host = BrushHost()
    var target: bristle_target_t

    init(width: Int = BenchWorkload.canvasWidth, height: Int = BenchWorkload.canvasHeight) throws(BenchError) {
        canvas = try BenchCanvas(width: width, height: height)
        let layer = canvas.layer
        target = bristle_target_t()
        target.struct_size = UInt32(MemoryLayout<bristle_target_t>.size)
        target.format = BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED
        target.pixels = layer.pixels
        target.width = Int32(layer.width)
        target.height = Int32(layer.height)
        target.stride_bytes = Int32(layer.strideBytes)
        target.layer = BRISTLE_LAYER_COMMITTED
        target.services = host.ownServices
    }

    /// The services table the target carries.
    var services: UnsafePointer<bristle_services_t> { host.ownServices }

    /// A SRC_OVER paint of `color` (straight) at full opacity, as a brush would fill it in.
    static func paint(_ color: RGBAColor) -> bristle_paint_t {
        var paint = bristle_paint_t()
        paint.struct_size = UInt32(MemoryLayout<bristle_paint_t>.size)
        paint.blend = BRISTLE_BLEND_SRC_OVER
        paint.color = bristle_color_t(r: color.red, g: color.green, b: color.blue, a: color.alpha)
        paint.opacity = 1
        return paint
    }

    /// A stroke style with no dashes.
    static func style(width: Double, cap: UInt32, join: UInt32) -> bristle_stroke_style_t {
        var style = bristle_stroke_style_t()
        style.struct_size = UInt32(MemoryLayout<bristle_stroke_style_t>.size)
        style.cap = cap
        style.join = join
        style.width = width
        style.miter_limit = 10
        return style
    }
}
