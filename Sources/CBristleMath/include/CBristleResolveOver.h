#ifndef CBRISTLE_RESOLVE_OVER_H
#define CBRISTLE_RESOLVE_OVER_H

#include <stdint.h>
#include <string.h>
#include "CBristleComposite.h" /* CBristleComposite_quantize(4), _div255, _overLanes */

/* What CBristleResolveOver_rows returns: the columns lo..<hi holding every non-zero coverage of
 * the rows and the first and last row holding any (first > last when none does). */
typedef struct {
    intptr_t lo, hi, first, last;
} CBristleResolveOver_Box;

/* One row, plain C (see CBristleResolveOver_rows): returns its coverage's columns through lo and
 * hi (left as they are when it has none) and whether it has any. */
static inline int CBristleResolveOver_rowPlain(float *cells, intptr_t w, const intptr_t *bounds, uint8_t *pixels,
                                               uint64_t colour, intptr_t *lo, intptr_t *hi) {
    intptr_t from = 0, last = w + 1, end, x, rowLo = w, rowHi = 0;
    float sum = 0;
    uint32_t m = 0;
    if (bounds) {
        from = bounds[0] < bounds[2] ? bounds[0] : bounds[2];
        last = bounds[1] > bounds[3] ? bounds[1] : bounds[3];
        if (last < 0) return 0; /* no cell written */
    }
    end = last + 1 < w ? last + 1 : w;
    for (x = from; x < end; x++) {
        sum += cells[x];
        cells[x] = 0;
        m = CBristleComposite_quantize(sum);
        CBristleComposite_overPixel(pixels + 4 * x, pixels + 4 * x, m, colour);
        if (m != 0) {
            if (rowLo > x) rowLo = x;
            rowHi = x + 1;
        }
    }
    /* Past the last written cell the cells are zero: the coverage stays m up to the row's end. */
    if (m != 0 && x < w) {
        for (; x < w; x++) CBristleComposite_overPixel(pixels + 4 * x, pixels + 4 * x, m, colour);
        rowHi = w;
    }
    cells[w] = 0;
    cells[w + 1] = 0;
    if (rowLo >= rowHi) return 0;
    if (*lo > rowLo) *lo = rowLo;
    if (*hi < rowHi) *hi = rowHi;
    return 1;
}

/* CBristleResolveOver_rows without SSE2, every row through CBristleResolveOver_rowPlain: the
 * same bytes and result (the tests compare the two). */
static inline CBristleResolveOver_Box CBristleResolveOver_rowsPlain(intptr_t rows, float *cells, intptr_t cellStride,
                                                                    intptr_t w, const intptr_t *bounds,
                                                                    uint8_t *pixels, intptr_t pixelStride,
                                                                    uint64_t colour) {
    CBristleResolveOver_Box box = {w, 0, rows, -1};
    intptr_t r;
    for (r = 0; r < rows; r++) {
        if (CBristleResolveOver_rowPlain(cells, w, bounds, pixels, colour, &box.lo, &box.hi)) {
            if (box.first > r) box.first = r;
            box.last = r;
        }
        cells += cellStride;
        if (bounds) bounds += 4;
        pixels += pixelStride;
    }
    return box;
}

/* Two windows of a row further apart than this many pixels are resolved one after the other
 * (CBristleResolveOver_rowSSE2), closer ones as one: a step of four pixels costs about as much
 * as a row's split. */
#define CBRISTLE_RESOLVE_OVER_GAP 8

#if defined(__SSE2__)
/* Where a row's covered pixels are, as its steps find them. In a band at most 64 pixels wide
 * (`narrow`), bit x of `bits` for each covered pixel x; otherwise the first step with a covered
 * pixel and the last (loT, hiT) with their covered lanes as bits (loBits, hiBits; 0 while none). */
typedef struct {
    intptr_t loT, hiT;
    unsigned loBits, hiBits;
    uint64_t bits;
} CBristleResolveOver_Marks;

/* One step of CBristleResolveOver_denseSSE2: the four pixels from t, the lanes `done` sets (a
 * step moved back from the band's right edge: pixels done already) left as they are. */
static inline __attribute__((always_inline)) void
CBristleResolveOver_stepSSE2(float *cells, uint8_t *pixels, intptr_t t, __m128i done, int masked, float *sum,
                             CBristleResolveOver_Marks *marks, uint64_t colour, int opaque, int narrow) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i lanes = _mm_set1_epi64x((long long)colour);
    const __m128i alpha = _mm_set1_epi16((short)(colour >> 48));
    float s0 = *sum + cells[t];
    float s1 = s0 + cells[t + 1];
    float s2 = s1 + cells[t + 2];
    float s3 = s2 + cells[t + 3];
    __m128i q = CBristleComposite_quantize4(_mm_setr_ps(s0, s1, s2, s3)), m;
    unsigned covered;
    *sum = s3;
    if (masked) q = _mm_andnot_si128(done, q);
    covered = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(q, zero))) ^ 15;
    if (narrow) {
        marks->bits |= (uint64_t)covered << t;
    } else {
        marks->loT = marks->loBits ? marks->loT : t;
        marks->loBits = marks->loBits ? marks->loBits : covered;
        marks->hiT = covered ? t : marks->hiT;
        marks->hiBits = covered ? covered : marks->hiBits;
    }
    m = _mm_packs_epi32(q, q);    /* m0 m1 m2 m3 (16-bit lanes) twice */
    m = _mm_unpacklo_epi16(m, m); /* m0 m0 m1 m1 m2 m2 m3 m3 */
    CBristleComposite_over4(pixels + 4 * t, pixels + 4 * t, m, lanes, alpha, opaque);
    _mm_storeu_ps(cells + t, _mm_setzero_ps());
}

/* The pixels x..<end (at least) of a row with SSE2 (w >= 4), four per step: each step's four
 * prefix sums added to *sum in order, their coverage, the blend, the cells zeroed. The step
 * that would reach past the band's right edge moves back to end there, the pixels it repeats
 * masked to coverage 0 (their cells are zero already). Records the covered pixels in *marks;
 * returns the pixel after the last step (end up to end + 3, at most w). `opaque` (a constant
 * where it is inlined) says the paint's alpha is 255. */
static inline __attribute__((always_inline)) intptr_t
CBristleResolveOver_denseSSE2(float *cells, intptr_t w, uint8_t *pixels, intptr_t x, intptr_t end, float *sum,
                              CBristleResolveOver_Marks *marks, uint64_t colour, int opaque, int narrow) {
    float s = *sum;
    CBristleResolveOver_Marks k = *marks;
    intptr_t whole = end < w - 3 ? end : w - 3; /* the steps from below this one fit */
    for (; x < whole; x += 4)
        CBristleResolveOver_stepSSE2(cells, pixels, x, _mm_setzero_si128(), 0, &s, &k, colour, opaque, narrow);
    if (x < end) {
        /* The 16 bytes of CBristleComposite_firstLanes at 16 - 4 * (4 - (w - x)): the bytes of
         * the first 4 - (w - x) lanes set, the pixels the step repeats. */
        __m128i done = _mm_loadu_si128((const __m128i *)(const void *)(CBristleComposite_firstLanes + 4 * (w - x)));
        CBristleResolveOver_stepSSE2(cells, pixels, w - 4, done, 1, &s, &k, colour, opaque, narrow);
        x = w;
    }
    *sum = s;
    *marks = k;
    return x;
}

/* One row with SSE2 (w >= 4; see CBristleResolveOver_rows); `windowed` and `narrow` (constants
 * where it is inlined) say bounds is its RowWindows record (otherwise the whole row is resolved)
 * and the band is at most 64 pixels wide. Two windows more than CBRISTLE_RESOLVE_OVER_GAP pixels
 * apart are resolved one after the other, the run between them at the first one's last
 * coverage: stored as the paint's colour when that is 255 under an opaque paint (a wide
 * segment's covered middle), otherwise resolved like the windows (its cells are zero). Returns
 * the row's covered columns lo..<hi (lo >= hi: none). */
static inline __attribute__((always_inline)) CBristleResolveOver_Box
CBristleResolveOver_rowSSE2(float *cells, intptr_t w, const intptr_t *bounds, uint8_t *pixels, uint64_t colour,
                            int opaque, int windowed, int narrow) {
    CBristleResolveOver_Box span = {w, 0, 0, 0};
    CBristleResolveOver_Marks marks = {0, 0, 0, 0, 0};
    intptr_t a0 = 0, a1 = w + 1, x, end;
    float sum = 0;
    if (windowed) {
        intptr_t b0 = bounds[2], b1 = bounds[3];
        a0 = bounds[0], a1 = bounds[1];
        if (b0 < a0) {
            intptr_t t0 = a0, t1 = a1;
            a0 = b0, a1 = b1, b0 = t0, b1 = t1;
        }
        if (a1 < 0) return span; /* no cell written */
        if (b0 - a1 > CBRISTLE_RESOLVE_OVER_GAP && b1 >= 0 && a1 + 1 < w) {
            x = CBristleResolveOver_denseSSE2(cells, w, pixels, a0, a1 + 1, &sum, &marks, colour, opaque, narrow);
            end = b0 < w ? b0 : w;
            if (opaque && end - x >= 4 && CBristleComposite_quantize(sum) == 255) {
                /* The pixels x..<end covered: the paint's colour, four pixels per store, the last
                 * four overlapping (at least four; up to eight with no loop). */
                const __m128i solid = _mm_set1_epi32((int)CBristleComposite_solid(colour));
                intptr_t i;
                _mm_storeu_si128((__m128i *)(void *)(pixels + 4 * x), solid);
                for (i = x + 4; i + 4 < end; i += 4) _mm_storeu_si128((__m128i *)(void *)(pixels + 4 * i), solid);
                _mm_storeu_si128((__m128i *)(void *)(pixels + 4 * (end - 4)), solid);
                if (narrow) {
                    marks.bits |= (~(uint64_t)0 >> (64 - (end - x))) << x;
                } else {
                    marks.hiT = end - 4;
                    marks.hiBits = 8;
                }
                x = end;
            }
            a0 = x;
        }
        if (a1 < b1) a1 = b1;
    }
    x = CBristleResolveOver_denseSSE2(cells, w, pixels, a0, a1 + 1 < w ? a1 + 1 : w, &sum, &marks, colour, opaque,
                                      narrow);
    /* Past the last written cell the cells are zero: a coverage left non-zero (the last pixel's)
     * goes on up to the row's end. */
    if (windowed && x < w &&
        (narrow ? (marks.bits >> (x - 1) & 1) != 0 : CBristleComposite_quantize(sum) != 0))
        CBristleResolveOver_denseSSE2(cells, w, pixels, x, w, &sum, &marks, colour, opaque, narrow);
    cells[w] = 0;
    cells[w + 1] = 0;
    if (narrow && marks.bits) {
        span.lo = __builtin_ctzll(marks.bits);
        span.hi = 64 - __builtin_clzll(marks.bits);
    } else if (!narrow && marks.hiBits) {
        span.lo = marks.loT + __builtin_ctz(marks.loBits);
        span.hi = marks.hiT + 32 - __builtin_clz(marks.hiBits);
    }
    return span;
}

/* CBristleResolveOver_rows with SSE2 (w >= 4), `opaque`, `windowed` and `narrow` constants. */
static inline __attribute__((always_inline)) CBristleResolveOver_Box
CBristleResolveOver_rowsSSE2(intptr_t rows, float *cells, intptr_t cellStride, intptr_t w, const intptr_t *bounds,
                             uint8_t *pixels, intptr_t pixelStride, uint64_t colour, int opaque, int windowed,
                             int narrow) {
    CBristleResolveOver_Box box = {w, 0, rows, -1};
    intptr_t r;
    for (r = 0; r < rows; r++) {
        CBristleResolveOver_Box span =
            CBristleResolveOver_rowSSE2(cells, w, bounds, pixels, colour, opaque, windowed, narrow);
        int some = span.lo < span.hi;
        box.lo = some && span.lo < box.lo ? span.lo : box.lo;
        box.hi = some && span.hi > box.hi ? span.hi : box.hi;
        box.first = some && r < box.first ? r : box.first;
        box.last = some ? r : box.last;
        cells += cellStride;
        if (windowed) bounds += 4;
        pixels += pixelStride;
    }
    return box;
}

/* CBristleResolveOver_rowsSSE2 for an opaque paint or not (`opaque` a constant). */
static inline __attribute__((always_inline)) CBristleResolveOver_Box
CBristleResolveOver_rowsAs(intptr_t rows, float *cells, intptr_t cellStride, intptr_t w, const intptr_t *bounds,
                           uint8_t *pixels, intptr_t pixelStride, uint64_t colour, int opaque) {
    if (!bounds) return CBristleResolveOver_rowsSSE2(rows, cells, cellStride, w, bounds, pixels, pixelStride, colour, opaque, 0, 1);
    if (w <= 64) return CBristleResolveOver_rowsSSE2(rows, cells, cellStride, w, bounds, pixels, pixelStride, colour, opaque, 1, 1);
    return CBristleResolveOver_rowsSSE2(rows, cells, cellStride, w, bounds, pixels, pixelStride, colour, opaque, 1, 0);
}
#endif

/* Resolves `rows` consecutive band rows (nonzero rule) and composites them source-over at full
 * opacity. Row r's cells (w + 2 floats, w the band's width) start at cells + r * cellStride,
 * its RowWindows record (four intptr_t: two windows' lowest and highest written cell, an
 * empty one Int.max and -1; precondition: a written window's bounds are in 0...w + 1, not
 * checked) at bounds + 4 * r (bounds NULL: every row resolved over the band's
 * whole width: with SSE2 for bands at most 64 pixels wide), its RGBA8 pixels at
 * pixels + r * pixelStride (bytes). `colour` is the paint's
 * premultiplied red, green, blue and alpha as 16-bit lanes from the low one up.
 *
 * Dense: every pixel from the row's lowest written cell to its highest is resolved, the
 * cells between the windows (zero) included, so there is no stretch to find. The prefix sum
 * is added cell by cell in the Swift resolve's order (adding a zero cell leaves it as it is),
 * each pixel's coverage is CBristleComposite_quantize of it and the pixel is blended as
 * CBristleComposite_overPixel: the same bytes as the Swift windowed resolve it replaced
 * (CoverageSpans.resolveWindows, now the tests' reference) blending through
 * SpanCompositor.OverPixel. With SSE2 (bands at least four pixels wide) four pixels per step
 * (their four sums in order, then abs, min, scale and round as four floats, the blend as
 * CBristleComposite_overMaskRow's, no branch on the coverage); a row's last step moves back to
 * end at the band's right edge, the pixels it repeats masked to coverage 0, so no pixel outside
 * the band is read or written. Zeroes every cell it reads and each row's two cells past its last
 * pixel. Which pixels are covered is kept as a bitmap per row in bands at most 64 pixels wide.
 * Returns the columns with non-zero coverage and its first and last row. */
static inline CBristleResolveOver_Box CBristleResolveOver_rows(intptr_t rows, float *cells, intptr_t cellStride,
                                                               intptr_t w, const intptr_t *bounds, uint8_t *pixels,
                                                               intptr_t pixelStride, uint64_t colour) {
#if defined(__SSE2__)
    if (w >= 4 && (bounds || w <= 64)) {
        if ((colour >> 48) == 255)
            return CBristleResolveOver_rowsAs(rows, cells, cellStride, w, bounds, pixels, pixelStride, colour, 1);
        return CBristleResolveOver_rowsAs(rows, cells, cellStride, w, bounds, pixels, pixelStride, colour, 0);
    }
#endif
    return CBristleResolveOver_rowsPlain(rows, cells, cellStride, w, bounds, pixels, pixelStride, colour);
}

#endif
