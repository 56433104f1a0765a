#ifndef CBRISTLE_OVER_BLOCKS_H
#define CBRISTLE_OVER_BLOCKS_H

#include <stdint.h>

/* The exact fill's row resolve composited at once (ShapeScratch.fill through
 * CoverageSpans.resolveOverBlocks): one band row of accumulated cells, read only in the blocks a
 * TouchedBlocks row marks, resolved (nonzero rule) and blended source-over at full opacity onto
 * its RGBA8 pixels. Defined in CBristleOverBlocks.c. */

/* The paint: premultiplied red, green, blue and alpha as 16-bit lanes from the low one up. */
typedef struct {
    uint64_t colour;
} CBristleOverBlocks_Paint;

/* The columns lo..<hi holding every non-zero coverage of a row (lo >= hi: none). */
typedef struct {
    intptr_t lo, hi;
} CBristleOverBlocks_Span;

/* Resolves the band row whose `w + 2` cells start at `cells` (nonzero rule) and composites it
 * source-over at full opacity onto its `w` RGBA8 pixels at `pixels` (premultiplied), reading
 * only the blocks of 1 << shift cells (shift 3...6; another traps) `bits` marks (bit b: cells
 * b << shift ..< (b + 1) << shift; a clear bit's cells must be zero) and, of a marked block, its cells in
 * groups of four up to the cell after the row's `w + 2`. Each pixel x gets coverage
 * m = quantize(min(|cells[0] + ... + cells[x]|, 1)) (the prefix summed in order, so the same
 * floats as CoverageSpans.resolve) and, where m != 0, per channel
 * out = div255(S * m) + div255(d * (255 - div255(Sa * m))) (CBristleComposite_overMaskRow's
 * formula; the same bytes as SpanCompositor.OverPixel and SolidRun); pixels of coverage 0 are
 * not touched. `coverage` is scratch of `w + 8` bytes. Zeroes every cell it reads and the two
 * past `w`. Returns the columns holding every non-zero coverage.
 *
 * The row is walked from one non-zero cell to the next by bit scans of each marked block's
 * non-zero cells. A stretch of one coverage (from a non-zero cell up to the next) only writes
 * its coverage into `coverage` (eight bytes at once); each cluster of covered pixels (up to a
 * stretch of coverage 0) is then blended by one CBristleComposite_overMaskRow (four pixels per
 * SSE2 step): no blend per stretch, and no loop pixel by pixel, whose exit was mispredicted
 * about once per stretch. A stretch longer than eight pixels of coverage 255 under an opaque
 * paint is stored as the colour. Out of line: compiled on its own, the loop keeps its state in
 * registers. */
CBristleOverBlocks_Span CBristleOverBlocks_row(float *cells, intptr_t w, uint64_t bits, intptr_t shift,
                                               uint8_t *pixels, uint8_t *coverage, CBristleOverBlocks_Paint paint);

/* CBristleOverBlocks_row blending pixel by pixel in plain C: the tests' plain reference (the same
 * bytes, compared there), used by no production path. (A target without SSE2 runs
 * CBristleOverBlocks_row, whose blend is then CBristleComposite_overMaskRowAs's scalar loop.) */
CBristleOverBlocks_Span CBristleOverBlocks_rowPlain(float *cells, intptr_t w, uint64_t bits, intptr_t shift,
                                                    uint8_t *pixels, uint8_t *coverage,
                                                    CBristleOverBlocks_Paint paint);

/* Asks, without waiting, for the cells of a band row (`cells`) in the blocks of 1 << shift cells
 * `bits` marks and for the RGBA8 pixels under them (`pixels`: the pixel of band column 0, of a
 * row that may lie past the plane's last: prefetches never fault), with the intent to write:
 * every cache line of each block's pixels before `w`, and its first and last cells. The exact
 * fill calls it two rows ahead of the row it resolves (ShapeScratch.fill): a long thin stroke's
 * rows touch a few scattered blocks each, which the hardware's prefetchers do not foresee. */
void CBristleOverBlocks_prefetch(const float *cells, uint64_t bits, intptr_t shift, intptr_t w, const uint8_t *pixels);

#endif
