#ifndef CBRISTLE_RESOLVE_MAX_H
#define CBRISTLE_RESOLVE_MAX_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "CBristleComposite.h" /* CBristleComposite_maxRun, CBristleComposite_firstLanes */

/* The mask resolve of a band of the exact-area accumulator (CoverageSpans.resolveMax in Swift):
 * each row's prefix sum of its cells, nonzero rule, quantised to a byte and max-combined into
 * a mask row. */

/* Cells the accumulator allocates past a band's last row (CoverageAccumulator.padding in Swift
 * uses this constant), which the C resolves may read (their values are not used): 5 past the
 * last row's w + 2 for CBristleResolveMax_denseSSE2 (eight cells per step from x <= w - 1: up to
 * cell w + 6), 1 for CBristleResolveMax_fourRows (four per step: up to cell w + 2) and 1 for
 * CBristleOverBlocks_row (groups of four up to the cell after the w + 2); CBristleResolveOver_rows
 * reads none. 16 leaves room for TouchedBlocks.zeroRunEnd's reads in Swift. */
#define CBRISTLE_CELL_PADDING 16
_Static_assert(CBRISTLE_CELL_PADDING >= 5, "CBristleResolveMax_denseSSE2 reads up to 5 cells past a row's w + 2");

/* The columns lo..<hi of the rows first...last a band's resolve raised (lo >= hi and
 * first > last when none). */
typedef struct {
    intptr_t lo, hi, first, last;
} CBristleResolveMax_Extent;

/* Cells x..<end of a row (end > x) summed in order onto `s`, one coverage byte per cell
 * max-combined into mask[x..<end], `lo` and `hi` moved to the raised columns; returns the sum.
 * One cell at a time: the plain path, and the reference of the SSE2 one. */
static inline float CBristleResolveMax_densePlain(const float *cells, intptr_t x, intptr_t end, float s,
                                                  uint8_t *mask, intptr_t *lo, intptr_t *hi) {
    for (; x < end; x++) {
        uint8_t m;
        s += cells[x];
        m = (uint8_t)CBristleComposite_quantize(s);
        if (mask[x] < m) mask[x] = m;
        if (m != 0) {
            if (*lo > x) *lo = x;
            *hi = x + 1;
        }
    }
    return s;
}

#if defined(__SSE2__)
/* Four cells' sums onto `run`'s lane 0 in order (each lane's add_ss onto the previous lane's sum:
 * the same additions in the same order as one at a time, so the same bits), made coverage words:
 * absolute, clamped by MINPS(1, v) (a NaN stays as in Swift's min), scaled, shifted by 2^23 and
 * masked to their low byte. `run` becomes the fourth sum; `sums` receives the four. */
static inline __m128i CBristleResolveMax_four(const float *cells, __m128 *run, float *sums) {
    __m128 c = _mm_loadu_ps(cells);
    __m128 s0 = _mm_add_ss(*run, c);
    __m128 s1 = _mm_add_ss(s0, _mm_shuffle_ps(c, c, _MM_SHUFFLE(1, 1, 1, 1)));
    __m128 s2 = _mm_add_ss(s1, _mm_shuffle_ps(c, c, _MM_SHUFFLE(2, 2, 2, 2)));
    __m128 s3 = _mm_add_ss(s2, _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 3, 3, 3)));
    __m128 v = _mm_movelh_ps(_mm_unpacklo_ps(s0, s1), _mm_unpacklo_ps(s2, s3));
    _mm_storeu_ps(sums, v);
    *run = s3;
    return CBristleComposite_quantize4(v);
}

/* CBristleResolveMax_densePlain with SSE2, eight cells per step (CBristleResolveMax_four twice)
 * and no branch on their values: the eight coverage bytes packed, cut to the step's n lanes
 * (CBristleComposite_firstLanes) and max-combined into the mask by one 8-byte load and store
 * when `room` (bytes from mask[0] to the mask row's end) allows, else one byte at a time.
 * Reads 8 cells from each step's start: up to 7 past `end`, which the caller's buffer must hold
 * (their values are not used). */
static inline float CBristleResolveMax_denseSSE2(const float *cells, intptr_t x, intptr_t end, float s,
                                                 uint8_t *mask, intptr_t room, intptr_t *lo, intptr_t *hi) {
    const __m128i zero = _mm_setzero_si128();
    while (x < end) {
        intptr_t n = end - x < 8 ? end - x : 8, k;
        float sums[8];
        __m128 run = _mm_set_ss(s);
        __m128i q0 = CBristleResolveMax_four(cells + x, &run, sums);
        __m128i q1 = CBristleResolveMax_four(cells + x + 4, &run, sums + 4);
        __m128i lanes = _mm_loadl_epi64((const __m128i *)(const void *)(CBristleComposite_firstLanes + (16 - n)));
        __m128i words = _mm_packs_epi32(q0, q1);
        __m128i bytes = _mm_and_si128(_mm_packus_epi16(words, words), lanes);
        unsigned raised;
        if (room - x >= 8) {
            __m128i old = _mm_loadl_epi64((const __m128i *)(const void *)(mask + x));
            _mm_storel_epi64((__m128i *)(void *)(mask + x), _mm_max_epu8(old, bytes));
        } else {
            uint8_t b[16];
            _mm_storeu_si128((__m128i *)(void *)b, bytes);
            /* Only a step within 8 bytes of the mask row's end comes here: kept small. */
#pragma clang loop vectorize(disable) unroll(disable)
            for (k = 0; k < n; k++)
                if (mask[x + k] < b[k]) mask[x + k] = b[k];
        }
        raised = ((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, zero)) & 0xffu) ^ 0xffu;
        if (raised != 0) {
            intptr_t first = x + __builtin_ctz(raised), past = x + 32 - __builtin_clz(raised);
            *lo = *lo < first ? *lo : first;
            *hi = past;
        }
        s = sums[n - 1];
        x += n;
    }
    return s;
}
#endif

/* The dense stretch [x, end) of a row: CBristleResolveMax_denseSSE2 when `simd` (a constant where
 * it is inlined) and SSE2 is there, else CBristleResolveMax_densePlain; the same bytes either way. */
static inline float CBristleResolveMax_dense(const float *cells, intptr_t x, intptr_t end, float s, uint8_t *mask,
                                             intptr_t room, intptr_t *lo, intptr_t *hi, int simd) {
#if defined(__SSE2__)
    if (simd) return CBristleResolveMax_denseSSE2(cells, x, end, s, mask, room, lo, hi);
#endif
    (void)simd;
    (void)room;
    return CBristleResolveMax_densePlain(cells, x, end, s, mask, lo, hi);
}

/* Two windows further apart than this many cells are resolved apart, the gap between them as one
 * run of the left one's last coverage; nearer ones as one dense stretch (the gap's cells are 0). */
#define CBRISTLE_RESOLVE_MAX_GAP 32

/* One band row: `cells` (w + 2 of them, zero outside the row's two windows, read up to 7 past
 * the last window's end, at most up to cell w + 6: 5 past the row's w + 2) and its RowWindows record `bounds` (the down chain's lowest and highest
 * cell, then the up chain's; an empty window is Int.max, -1) into `mask` (band column 0, `room`
 * bytes to the mask row's end, at least w) with max. The cells are left as they are. `simd` (a
 * constant where it is inlined) picks the SSE2 steps; without SSE2 it is ignored. */
static inline void CBristleResolveMax_row(const float *cells, intptr_t w, const intptr_t *bounds, uint8_t *mask,
                                          intptr_t room, intptr_t *lo, intptr_t *hi, int simd) {
    intptr_t a0 = bounds[0], a1 = bounds[1], b0 = bounds[2], b1 = bounds[3], end, x, e;
    float s = 0;
    uint8_t m;
    if (b0 < a0) {
        intptr_t t0 = a0, t1 = a1;
        a0 = b0;
        a1 = b1;
        b0 = t0;
        b1 = t1;
    }
    if (a1 < 0) return; /* no cell written */
    end = a1 > b1 ? a1 : b1;
    x = a0;
    if (b1 >= 0 && b0 - a1 > CBRISTLE_RESOLVE_MAX_GAP) {
        intptr_t e1 = a1 + 1 < w ? a1 + 1 : w, to = b0 < w ? b0 : w;
        s = CBristleResolveMax_dense(cells, a0, e1, s, mask, room, lo, hi, simd);
        m = (uint8_t)CBristleComposite_quantize(s);
        if (m != 0 && e1 < to) {
            CBristleComposite_maxRun(mask + e1, to - e1, m, room - e1);
            if (*lo > e1) *lo = e1;
            *hi = to;
        }
        x = b0;
    }
    e = end + 1 < w ? end + 1 : w;
    s = CBristleResolveMax_dense(cells, x, e, s, mask, room, lo, hi, simd);
    if (e < w) {
        m = (uint8_t)CBristleComposite_quantize(s);
        if (m != 0) {
            CBristleComposite_maxRun(mask + e, w - e, m, room - e);
            if (*lo > e) *lo = e;
            *hi = w;
        }
    }
}

/* cells[0..<count] = 0 (count >= 1): with SSE2 16-byte stores, the last one ending at `count`
 * (overlapping the one before). The zero is hidden from the optimiser (an empty asm), which
 * would otherwise make the loop a memset call: glibc's `rep stosb` there costs more than the
 * stores for a band of some 800 bytes. */
static inline void CBristleResolveMax_zero(float *cells, intptr_t count) {
    intptr_t i = 0;
#if defined(__SSE2__)
    if (count >= 4) {
        __m128 zero = _mm_setzero_ps();
        __asm__("" : "+x"(zero));
        for (; i + 4 < count; i += 4)
            _mm_storeu_ps(cells + i, zero);
        _mm_storeu_ps(cells + count - 4, zero);
        return;
    }
#endif
    for (; i < count; i++)
        cells[i] = 0;
}

/* Bands at most this wide are resolved over their whole width (with SSE2 four rows at a time,
 * CBristleResolveMax_fourRows), without RowWindows records; wider ones row by row through them,
 * where a gap between two windows can be left to a run. */
#define CBRISTLE_RESOLVE_MAX_DENSE_WIDTH 48
/* CBristleResolveMax_fourRows keeps its raised columns as bits of a uint64_t shifted by the
 * step's column: its steps must end before column 64. */
_Static_assert(CBRISTLE_RESOLVE_MAX_DENSE_WIDTH <= 60, "CBristleResolveMax_fourRows' column bitmap holds 64 columns");

#if defined(__SSE2__)

/* Four band rows at once over the band's whole width w, one row per SSE2 lane: `rows[k]` the
 * cells of lane k's row (w + 2, and 1 readable past its w + 2: steps of four up to cell w + 2), `masks[k]` its mask row at band
 * column 0 (a row may fill several lanes: the same bytes are then max-combined twice, which
 * changes nothing). Each lane's sum adds its row's cells in column order from column 0 (so the
 * same bits as one cell at a time); per step of four columns the 4x4 cells are transposed
 * (_MM_TRANSPOSE4_PS), summed, quantised as in CBristleResolveMax_four, packed, made row-major
 * by 16-bit unpacks, packed to bytes, cut to the columns below w, and max-combined into the four
 * mask rows by 4-byte loads and stores (one byte at a time within 4 bytes of `room`). `lo`, `hi`
 * take the raised columns; returns the lanes raised, bit k for lane k. */
static inline unsigned CBristleResolveMax_fourRows(const float *const rows[4], uint8_t *const masks[4], intptr_t w,
                                                   intptr_t room, intptr_t *lo, intptr_t *hi) {
    const __m128i zero = _mm_setzero_si128();
    __m128 s = _mm_setzero_ps();
    unsigned lanes = 0;
    uint64_t columns = 0; /* bit c: column c raised in some lane (w <= 48, steps end before 52) */
    intptr_t x;
    for (x = 0; x < w; x += 4) {
        __m128 c0 = _mm_loadu_ps(rows[0] + x), c1 = _mm_loadu_ps(rows[1] + x);
        __m128 c2 = _mm_loadu_ps(rows[2] + x), c3 = _mm_loadu_ps(rows[3] + x);
        __m128 v0, v1, v2, v3;
        __m128i w01, w23, bytes, t, cut, old;
        unsigned raised;
        intptr_t n;
        uint32_t keep;
        _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
        s = v0 = _mm_add_ps(s, c0);
        s = v1 = _mm_add_ps(s, c1);
        s = v2 = _mm_add_ps(s, c2);
        s = v3 = _mm_add_ps(s, c3);
        /* Column-major 16-bit words (word 4c + lane), made lane-major by two rounds of unpacks,
         * then packed to bytes (byte 4 lane + c). */
        w01 = _mm_packs_epi32(CBristleComposite_quantize4(v0), CBristleComposite_quantize4(v1));
        w23 = _mm_packs_epi32(CBristleComposite_quantize4(v2), CBristleComposite_quantize4(v3));
        t = _mm_unpacklo_epi16(w01, w23); /* c0 c2 of lanes 0..3 */
        bytes = _mm_unpackhi_epi16(w01, w23); /* c1 c3 of lanes 0..3 */
        t = _mm_packus_epi16(_mm_unpacklo_epi16(t, bytes), _mm_unpackhi_epi16(t, bytes));
        n = w - x < 4 ? w - x : 4;
        keep = n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1u;
        cut = _mm_and_si128(t, _mm_set1_epi32((int)keep));
        if (room - x >= 4) {
            uint32_t m0, m1, m2, m3;
            memcpy(&m0, masks[0] + x, 4);
            memcpy(&m1, masks[1] + x, 4);
            memcpy(&m2, masks[2] + x, 4);
            memcpy(&m3, masks[3] + x, 4);
            old = _mm_unpacklo_epi64(_mm_unpacklo_epi32(_mm_cvtsi32_si128((int)m0), _mm_cvtsi32_si128((int)m1)),
                                     _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)m2), _mm_cvtsi32_si128((int)m3)));
            old = _mm_max_epu8(old, cut);
            m0 = (uint32_t)_mm_cvtsi128_si32(old);
            m1 = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(old, _MM_SHUFFLE(1, 1, 1, 1)));
            m2 = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(old, _MM_SHUFFLE(2, 2, 2, 2)));
            m3 = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(old, _MM_SHUFFLE(3, 3, 3, 3)));
            memcpy(masks[0] + x, &m0, 4);
            memcpy(masks[1] + x, &m1, 4);
            memcpy(masks[2] + x, &m2, 4);
            memcpy(masks[3] + x, &m3, 4);
        } else {
            uint8_t b[16];
            intptr_t lane;
            _mm_storeu_si128((__m128i *)(void *)b, cut);
            /* Only a step within 4 bytes of the mask row's end comes here: kept small. */
#pragma clang loop vectorize(disable) unroll(disable)
            for (lane = 0; lane < 16; lane++)
                if ((lane & 3) < n && masks[lane >> 2][x + (lane & 3)] < b[lane])
                    masks[lane >> 2][x + (lane & 3)] = b[lane];
        }
        raised = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(cut, zero)) ^ 0xffffu;
        lanes |= raised;
        columns |= (uint64_t)((raised | raised >> 4 | raised >> 8 | raised >> 12) & 0xfu) << x;
    }
    if (columns != 0) {
        *lo = __builtin_ctzll(columns);
        *hi = 64 - __builtin_clzll(columns);
    }
    /* Lane k raised when its nibble of some step's bits is. */
    lanes = (lanes & 0xfu ? 1u : 0u) | (lanes & 0xf0u ? 2u : 0u) | (lanes & 0xf00u ? 4u : 0u) | (lanes & 0xf000u ? 8u : 0u);
    return lanes;
}
#endif

/* CBristleResolveMax_rows with the SSE2 steps (`simd` 1) or one cell at a time (0): the two give
 * the same bytes. */
static inline CBristleResolveMax_Extent CBristleResolveMax_rowsAs(float *cells, intptr_t cellStride, intptr_t w,
                                                                  const intptr_t *bounds, intptr_t h, uint8_t *mask,
                                                                  intptr_t maskStride, intptr_t room, int simd) {
    CBristleResolveMax_Extent extent;
    /* Without records (a band at most CBRISTLE_RESOLVE_MAX_DENSE_WIDTH wide), every row's one
     * window: the whole row, repeated for each row (`bounds` then steps by 0). */
    const intptr_t whole[4] = {0, w + 1, INTPTR_MAX, -1};
    intptr_t r, step = bounds == NULL ? 0 : 4;
    extent.lo = w;
    extent.hi = 0;
    extent.first = h;
    extent.last = -1;
#if defined(__SSE2__)
    if (simd && w <= CBRISTLE_RESOLVE_MAX_DENSE_WIDTH) {
        for (r = 0; r < h; r += 4) {
            const float *rows[4];
            uint8_t *masks[4];
            intptr_t k, lo = w, hi = 0;
            unsigned lanes;
            for (k = 0; k < 4; k++) {
                /* Past the band's last row, lanes repeat it. */
                intptr_t row = r + k < h ? r + k : h - 1;
                rows[k] = cells + row * cellStride;
                masks[k] = mask + row * maskStride;
            }
            lanes = CBristleResolveMax_fourRows(rows, masks, w, room, &lo, &hi);
            if (lanes != 0) {
                intptr_t top = r + __builtin_ctz(lanes), bottom = r + 31 - __builtin_clz(lanes);
                extent.lo = extent.lo < lo ? extent.lo : lo;
                extent.hi = extent.hi > hi ? extent.hi : hi;
                extent.first = extent.first < top ? extent.first : top;
                extent.last = bottom < h ? bottom : h - 1;
            }
        }
        CBristleResolveMax_zero(cells, cellStride * h);
        return extent;
    }
#endif
    if (bounds == NULL) bounds = whole;
    for (r = 0; r < h; r++) {
        intptr_t lo = w, hi = 0;
        CBristleResolveMax_row(cells + r * cellStride, w, bounds + step * r, mask + r * maskStride, room, &lo, &hi, simd);
        if (lo < hi) {
            extent.lo = extent.lo < lo ? extent.lo : lo;
            extent.hi = extent.hi > hi ? extent.hi : hi;
            extent.first = extent.first < r ? extent.first : r;
            extent.last = r;
        }
    }
    CBristleResolveMax_zero(cells, cellStride * h);
    return extent;
}

/* Resolves rows 0..<h of a band (nonzero rule) through their RowWindows records into a mask with
 * max, mask[x] = max(mask[x], coverage(x)), and zeroes the band's cells (CBristleResolveMax_zero).
 * `cells`: row r's w + 2 cells at cells + r * cellStride, zero outside its two windows; the
 * buffer must hold CBRISTLE_CELL_PADDING readable cells past the last row's w + 2 (5 are read at
 * most: each row up to its cell w + 6). Precondition: each record's written window has bounds in
 * 0...w + 1 (an empty one is INTPTR_MAX, -1); negative bounds are not checked.
 * `mask`: the byte of band column 0 in row 0, rows `maskStride` bytes apart, `room` bytes from a
 * row's band column 0 to its end (at least w). Every row is summed in order (so every coverage
 * byte is the one CoverageSpans.resolve gives) and resolved densely, with no search for runs: a
 * band at most CBRISTLE_RESOLVE_MAX_DENSE_WIDTH wide over its whole width, with SSE2 four rows at
 * a time (CBristleResolveMax_fourRows; `bounds` is not read and may be NULL); a wider one row by
 * row (CBristleResolveMax_row, eight cells per SSE2 step) through its RowWindows records
 * `bounds` (four per row), from each row's lowest window cell; two windows more than
 * CBRISTLE_RESOLVE_MAX_GAP apart leave their gap to one CBristleComposite_maxRun, as does the
 * row's end past its last window. Returns the raised
 * columns and rows.
 *
 * Bytes right of the band are touched: mask bytes from column w of each row, within `room`, are
 * read and stored back unchanged (max with 0) by the wide stores: up to 3 past the band
 * (fourRows' 4-byte steps), 7 (denseSSE2's 8-byte steps) and 15 (a CBristleComposite_maxRun of
 * 16 bytes). Nothing at or past `room` is read or written. Harmless on one thread, a data race
 * if another thread writes those columns meanwhile (see Rasterizer's Threading doc). */
static inline CBristleResolveMax_Extent CBristleResolveMax_rows(float *cells, intptr_t cellStride, intptr_t w,
                                                                const intptr_t *bounds, intptr_t h, uint8_t *mask,
                                                                intptr_t maskStride, intptr_t room) {
    return CBristleResolveMax_rowsAs(cells, cellStride, w, bounds, h, mask, maskStride, room, 1);
}

#endif
