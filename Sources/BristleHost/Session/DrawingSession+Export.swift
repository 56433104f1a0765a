extension DrawingSession {
    /// The picture as straight-alpha RGBA8, tightly packed, top row first: the background
    /// under the committed layer, or the committed layer alone when `transparent`. (One copy of
    /// the canvas: for files, ``exportPNG(to:transparent:)`` streams rows instead.)
    public func flattenedPixels(transparent: Bool) -> [UInt8] {
        let rowBytes = width * 4
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height { flattenedRow(y, transparent: transparent, into: buffer.baseAddress! + y * rowBytes) }
        }
        PixelConversion.unpremultiply(&pixels, width: width, height: height)
        return pixels
    }

    /// Row `y` of the picture, premultiplied: committed over the background, or committed
    /// alone when `transparent`. Reads the layers only, so rows may be made on several threads.
    func flattenedRow(_ y: Int, transparent: Bool, into row: UnsafeMutablePointer<UInt8>) {
        let source = UnsafePointer(committed.pixels + y * committed.strideBytes)
        if transparent {
            row.update(from: source, count: width * 4)
        } else {
            background.flatten(row: y, source: source, into: row, count: width)
        }
    }

    /// Writes the picture as a PNG, atomically: a temporary file beside `path` is renamed into
    /// place once complete, so a failure leaves no partial file and an existing file intact.
    /// Rows are flattened over the background as they are encoded: no copy of the canvas.
    public func exportPNG(to path: String, transparent: Bool) throws(PNGError) {
        if transparent {
            // Straight from the layer: the encoder un-premultiplies while it filters rows.
            try PNGCodec.write(premultipliedRGBA: UnsafeRawBufferPointer(start: committed.pixels,
                                                                         count: committed.strideBytes * height),
                               width: width, height: height, strideBytes: committed.strideBytes, to: path)
        } else {
            try PNGCodec.write(rows: { y, row in self.flattenedRow(y, transparent: false, into: row) },
                               width: width, height: height, premultiplied: true, to: path)
        }
    }

    /// Writes the picture as a PNG into an open file descriptor (standard output, a pipe).
    /// Not atomic: a failure may leave part of the PNG written.
    public func exportPNG(toFileDescriptor fd: Int32, transparent: Bool) throws(PNGError) {
        try PNGCodec.write(rows: { y, row in self.flattenedRow(y, transparent: transparent, into: row) },
                           width: width, height: height, premultiplied: true, toFileDescriptor: fd)
    }
}
