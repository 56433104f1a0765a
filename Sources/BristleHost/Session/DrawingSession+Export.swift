extension DrawingSession {
    /// The picture as straight-alpha RGBA8, tightly packed, top row first: the background
    /// under the committed layer, or the committed layer alone when `transparent`.
    public func flattenedPixels(transparent: Bool) -> [UInt8] {
        PixelConversion.unpremultiplied(flattenedPremultiplied(transparent: transparent))
    }

    /// The picture as premultiplied RGBA8, tightly packed (one copy of the committed layer).
    func flattenedPremultiplied(transparent: Bool) -> [UInt8] {
        var pixels = committed.packedPixels()
        if !transparent {
            switch background {
            case .color(let color):
                PixelConversion.flatten(premultiplied: &pixels, over: color)
            case .image(let layer):
                PixelConversion.flatten(premultiplied: &pixels, over: layer.packedPixels())
            }
        }
        return pixels
    }

    /// Writes the picture as a PNG, atomically: a temporary file beside `path` is renamed into
    /// place once complete, so a failure leaves no partial file and an existing file intact.
    public func exportPNG(to path: String, transparent: Bool) throws(PNGError) {
        if transparent {
            // Straight from the layer: the encoder un-premultiplies while it filters rows.
            try PNGCodec.write(premultipliedRGBA: UnsafeRawBufferPointer(start: committed.pixels,
                                                                         count: committed.strideBytes * height),
                               width: width, height: height, strideBytes: committed.strideBytes, to: path)
        } else {
            try PNGCodec.write(premultipliedRGBA: flattenedPremultiplied(transparent: false), width: width,
                               height: height, strideBytes: width * 4, to: path)
        }
    }

    /// Writes the picture as a PNG into an open file descriptor (standard output, a pipe).
    /// Not atomic: a failure may leave part of the PNG written.
    public func exportPNG(toFileDescriptor fd: Int32, transparent: Bool) throws(PNGError) {
        let pixels = flattenedPremultiplied(transparent: transparent)
        let result = pixels.withUnsafeBytes { raw in
            Result { () throws(PNGError) in
                try PNGCodec.write(rgba: raw, width: width, height: height, strideBytes: width * 4,
                                   premultiplied: true, toFileDescriptor: fd)
            }
        }
        try result.get()
    }
}
