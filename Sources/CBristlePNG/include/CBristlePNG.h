/*
 * CBristlePNG: a small C shim over the system libpng (1.6) for Bristle.
 *
 * libpng reports errors by longjmp()ing to a jmp_buf set with setjmp(); Swift cannot call
 * setjmp, so every libpng call lives here. Each function sets up its own setjmp, turns any
 * libpng error into a status code and copies a human-readable message (always
 * NUL-terminated, possibly truncated) into a caller-supplied buffer. Nothing here ever
 * aborts the process on bad input.
 *
 * libpng itself is deliberately not included by this header, so Swift never sees png.h.
 *
 * Thread safety: functions may be called from any thread; one reader must not be used by
 * two threads at once.
 */
#ifndef CBRISTLEPNG_H
#define CBRISTLEPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes returned by every CBristlePNG_ function that can fail. */
enum {
    CBristlePNG_OK = 0,
    CBristlePNG_NOT_PNG = 1,          /* input does not start with the PNG signature */
    CBristlePNG_CORRUPT = 2,          /* damaged or truncated PNG data */
    CBristlePNG_TOO_LARGE = 3,        /* dimensions exceed the caller's limits */
    CBristlePNG_IO = 4,               /* read() / write() failed; message has strerror */
    CBristlePNG_NO_MEMORY = 5,        /* allocation failed */
    CBristlePNG_INVALID_ARGUMENT = 6  /* bad parameters from the caller */
};

/* Row filters for CBristlePNG_write_rgba8 (same bit values as libpng's PNG_FILTER_*).
 * Several may be OR-ed together; libpng then picks one per row (slower). */
enum {
    CBristlePNG_FILTER_NONE = 0x08,
    CBristlePNG_FILTER_SUB = 0x10,
    CBristlePNG_FILTER_UP = 0x20,
    CBristlePNG_FILTER_AVG = 0x40,
    CBristlePNG_FILTER_PAETH = 0x80,
    CBristlePNG_FILTER_ALL = 0xf8
};

/* Flags for CBristlePNG_write_rgba8. */
enum {
    /* The pixels are premultiplied; they are converted to straight alpha while encoding
     * (c = min(255, round(c * 255 / a)), all zero when a = 0). */
    CBristlePNG_PREMULTIPLIED = 1
};

/* zlib strategies for CBristlePNG_write_rgba8 (same values as zlib's Z_* constants). */
enum {
    CBristlePNG_STRATEGY_DEFAULT = 0, /* Z_DEFAULT_STRATEGY */
    CBristlePNG_STRATEGY_FILTERED = 1, /* Z_FILTERED */
    CBristlePNG_STRATEGY_HUFFMAN_ONLY = 2, /* Z_HUFFMAN_ONLY */
    CBristlePNG_STRATEGY_RLE = 3 /* Z_RLE */
};

/*
 * Encodes an 8-bit RGBA image as a non-interlaced PNG (colour type 6, straight alpha, with
 * an sRGB chunk) and writes it to the open file descriptor `fd`, starting at its current
 * offset. The descriptor is not closed, synced or seeked.
 *
 *   pixels            first byte of the top row; row y starts at pixels + y * stride_bytes
 *   width, height     1 ... max_side each, width * height <= max_pixels
 *   stride_bytes      >= width * 4
 *   flags             0 (straight alpha) or CBristlePNG_PREMULTIPLIED
 *   compression_level 0 (store) ... 9 (smallest); out-of-range values are clamped
 *   strategy          one of CBristlePNG_STRATEGY_*
 *   filters           one CBristlePNG_FILTER_* value, or several OR-ed together to pick
 *                     per row by libpng's heuristic (minimum sum of absolute differences)
 *   threads           compression threads, 0 = one per online CPU (at most 8); images
 *                     under 512 KiB always use one. The calling thread is one of them.
 *
 * The rows are filtered and deflated in horizontal strips (in parallel when threads > 1),
 * each written as soon as it and the strips above it are done (compression runs at most
 * 2 x threads strips ahead of the file, and a strip holds at most 8 MiB of rows, so the
 * compressed image is never held whole); libpng writes the chunks. Returns CBristlePNG_OK, or a status with a message in
 * `message` (capacity `message_capacity` bytes, may be 0). On failure an unspecified
 * prefix of the PNG may already have been written to `fd`.
 */
int CBristlePNG_write_rgba8(int fd, const uint8_t *pixels, uint32_t width, uint32_t height,
                            size_t stride_bytes, int flags, int compression_level,
                            int strategy, int filters, int threads, uint32_t max_side,
                            uint64_t max_pixels, char *message, size_t message_capacity);

/*
 * Supplies row `y` of an image to CBristlePNG_write_rgba8_rows: writes width * 4 bytes of
 * RGBA8 (straight or premultiplied, as the call's flags say) into `row`. It is called from
 * several threads at once, for different rows, each row once or twice (a strip also reads the
 * row above it), in no particular order; it must not fail.
 */
typedef void (*CBristlePNG_row_source)(void *context, uint32_t y, uint8_t *row);

/*
 * As CBristlePNG_write_rgba8, but the rows come from `source` (called with `context`) instead
 * of a buffer, so an image that exists only row by row (a layer flattened over a background
 * while it is encoded) is never held whole. Memory: a few rows per thread, plus the
 * compressed data of a few strips.
 */
int CBristlePNG_write_rgba8_rows(int fd, CBristlePNG_row_source source, void *context,
                                 uint32_t width, uint32_t height, int flags,
                                 int compression_level, int strategy, int filters, int threads,
                                 uint32_t max_side, uint64_t max_pixels, char *message,
                                 size_t message_capacity);

/* A PNG being decoded; opaque to callers. */
typedef struct CBristlePNG_Reader CBristlePNG_Reader;

/*
 * Reads the PNG signature and every chunk up to the image data from `fd` (which stays
 * open and owned by the caller; it must stay open until CBristlePNG_reader_close),
 * checks the dimensions against the limits *before* any pixel memory is allocated, and
 * sets up conversion of any colour type / bit depth / interlacing to RGBA8 straight alpha
 * (palette and gray expanded, tRNS turned into alpha, 16-bit scaled to 8-bit with
 * rounding, missing alpha filled with 255; gamma is not changed).
 *
 * On success returns CBristlePNG_OK, stores a reader in *out_reader and the size in
 * *out_width / *out_height. On failure *out_reader is NULL.
 */
int CBristlePNG_reader_open(int fd, uint32_t max_side, uint64_t max_pixels,
                            CBristlePNG_Reader **out_reader, uint32_t *out_width,
                            uint32_t *out_height, char *message, size_t message_capacity);

/*
 * Decodes the whole image into `destination`: row y goes to destination + y * stride_bytes,
 * width * 4 bytes per row, RGBA8 straight alpha, top row first. Also reads and checks the
 * rest of the file up to IEND, so a truncated file is an error. Call at most once.
 */
int CBristlePNG_reader_read_rgba8(CBristlePNG_Reader *reader, uint8_t *destination,
                                  size_t stride_bytes, char *message,
                                  size_t message_capacity);

/* Frees the reader (NULL is allowed). Does not close the file descriptor. */
void CBristlePNG_reader_close(CBristlePNG_Reader *reader);

/* The libpng version the shim runs against, e.g. "1.6.39". */
const char *CBristlePNG_libpng_version(void);

#ifdef __cplusplus
}
#endif

#endif /* CBRISTLEPNG_H */
