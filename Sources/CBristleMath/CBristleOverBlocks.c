#include <string.h>

#include "CBristleMath.h"

/* Bit i set when cell (b << shift) + i of the row at `cells` is non-zero (by its bits: a
 * negative zero counts as written, as in the resolves), for the cells of block b before `w`
 * (shift <= 6, a constant where it is inlined; none when the block starts at or past `w`).
 * Reads the block's cells in groups of four (CBristleMath_nonZeroWords, unrolled for a whole
 * block), up to the cell after the row's `w + 2`, with no branch on their values. */
static inline __attribute__((always_inline)) uint64_t CBristleOverBlocks_blockBits(const float *cells, intptr_t b,
                                                                                   intptr_t shift, intptr_t w) {
    intptr_t base = b << shift;
    intptr_t valid = w - base;
    const intptr_t size = (intptr_t)1 << shift;
    if (valid >= size) return CBristleMath_nonZeroWords(cells + base, size >> 2);
    if (valid <= 0) return 0;
    return CBristleMath_nonZeroWords(cells + base, (valid + 3) >> 2) & (((uint64_t)1 << valid) - 1);
}

/* The cluster of pixels start..<end (start < end <= w) of the row at `pixels` blended with the
 * coverages coverage[start..<end] (CBristleComposite_overMaskRow's formula). With SSE2
 * (`vector`), when the row holds the pixels up to the next multiple of four past start: four
 * pixels per step, the coverages past `end` in the last step zeroed first (their pixels are
 * stored back unchanged, div255(d * 255) = d; `coverage` holds four bytes past `end`, and the
 * stretches after the cluster write theirs later), so no tail of two and one pixels; else
 * CBristleComposite_overMaskRowAs, or pixel by pixel in plain C. The same bytes every way. */
static inline __attribute__((always_inline)) void CBristleOverBlocks_cluster(uint8_t *pixels, uint8_t *coverage,
                                                                             intptr_t start, intptr_t end, intptr_t w,
                                                                             uint64_t colour, const int opaque,
                                                                             const int vector) {
    intptr_t x, n = end - start;
    uint8_t *p = pixels + 4 * start;
    const uint8_t *m = coverage + start;
    if (vector) {
#if defined(__SSE2__)
        if (start + ((n + 3) & ~(intptr_t)3) <= w) {
            const __m128i zero = _mm_setzero_si128();
            const __m128i lanes = _mm_set1_epi64x((long long)colour);
            const __m128i alpha = _mm_set1_epi16((short)(colour >> 48));
            memset(coverage + end, 0, 4);
            for (x = 0; x < n; x += 4) {
                uint32_t m4;
                __m128i mm;
                memcpy(&m4, m + x, 4);
                mm = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)m4), zero);
                mm = _mm_unpacklo_epi16(mm, mm);
                CBristleComposite_over4(p + 4 * x, p + 4 * x, mm, lanes, alpha, opaque);
            }
            return;
        }
#endif
        CBristleComposite_overMaskRowAs(p, p, m, n, colour, opaque);
        return;
    }
    for (x = 0; x < n; x++) CBristleComposite_overPixel(p + 4 * x, p + 4 * x, m[x], colour);
}

/* Where a row's resolve stands between stretches: the columns holding non-zero coverage so far
 * (lo..<hi) and where the current cluster began. A cluster is a maximal stretch of pixels of
 * non-zero coverage: `start` is the end of the last stretch of coverage 0 (or of a stored run),
 * so a stretch of non-zero coverage only writes its coverage, and the cluster is blended (and
 * lo, hi widened) when a stretch of coverage 0, a stored run or the row's end closes it. */
typedef struct {
    intptr_t lo, hi, start;
} CBristleOverBlocks_State;

/* The stretch x..<next (next <= w) of coverage q of CBristleOverBlocks_rowAs. */
static inline __attribute__((always_inline)) void
CBristleOverBlocks_stretch(CBristleOverBlocks_State *state, intptr_t x, intptr_t next, uint32_t q, intptr_t w,
                           uint8_t *pixels, uint8_t *coverage, uint64_t colour, const int opaque, const int vector) {
    if (q != 0 && next - x <= 8) {
        /* Past `next` the bytes are rewritten by the stretches that follow, or never read. */
        uint64_t eight = (uint64_t)q * 0x0101010101010101ull;
        memcpy(coverage + x, &eight, 8);
    } else if (q != 0 && !(q == 255 && opaque)) {
        memset(coverage + x, (int)q, (size_t)(next - x));
    } else {
        /* Coverage 0, or a long run of the colour: the cluster before it is closed. */
        if (x > state->start) {
            CBristleOverBlocks_cluster(pixels, coverage, state->start, x, w, colour, opaque, vector);
            state->lo = state->start < state->lo ? state->start : state->lo;
            state->hi = x;
        }
        if (q != 0) {
            const uint32_t solid = CBristleComposite_solid(colour);
            intptr_t i;
            for (i = x; i < next; i++) memcpy(pixels + 4 * i, &solid, 4);
            state->lo = x < state->lo ? x : state->lo;
            state->hi = next;
        }
        state->start = next;
    }
}

/* CBristleOverBlocks_row with `shift`, `opaque` (the paint's alpha is 255) and `vector`
 * constants. The walk leaves its loop when the marked blocks hold no more non-zero cell; the
 * stretch from the last one to `w` is taken after it (the row's width is not needed per cell). */
static inline __attribute__((always_inline)) CBristleOverBlocks_Span
CBristleOverBlocks_rowAs(float *cells, intptr_t w, uint64_t bits, const intptr_t shift, uint8_t *pixels,
                         uint8_t *coverage, uint64_t colour, const int opaque, const int vector) {
    CBristleOverBlocks_State state = {w, 0, 0};
    float sum = 0;
    uint64_t rest = bits, nonZero = 0;
    intptr_t base = 0, x = 0;
    uint32_t q = 0;
    CBristleOverBlocks_Span span;
    for (;;) {
        intptr_t next;
        while (nonZero == 0) {
            intptr_t b;
            if (rest == 0) goto last;
            b = __builtin_ctzll(rest);
            rest &= rest - 1;
            base = b << shift;
            nonZero = CBristleOverBlocks_blockBits(cells, b, shift, w);
        }
        next = base + __builtin_ctzll(nonZero);
        nonZero &= nonZero - 1;
        CBristleOverBlocks_stretch(&state, x, next, q, w, pixels, coverage, colour, opaque, vector);
        sum += cells[next];
        cells[next] = 0;
        q = CBristleComposite_quantize(sum);
        x = next;
    }
last:
    CBristleOverBlocks_stretch(&state, x, w, q, w, pixels, coverage, colour, opaque, vector);
    /* The cluster reaching w, when the last stretch's coverage is not 0 (start < w). */
    if (w > state.start) {
        CBristleOverBlocks_cluster(pixels, coverage, state.start, w, w, colour, opaque, vector);
        state.lo = state.start < state.lo ? state.start : state.lo;
        state.hi = w;
    }
    cells[w] = 0;
    cells[w + 1] = 0;
    span.lo = state.lo;
    span.hi = state.hi;
    return span;
}

/* CBristleOverBlocks_rowAs with `vector` and `opaque` for each block size (shift 3...6, as
 * TouchedBlocks picks it); any other shift traps rather than resolve the wrong cells. */
static inline __attribute__((always_inline)) CBristleOverBlocks_Span
CBristleOverBlocks_rowOf(float *cells, intptr_t w, uint64_t bits, intptr_t shift, uint8_t *pixels, uint8_t *coverage,
                         uint64_t colour, const int opaque, const int vector) {
    switch (shift) {
    case 3: return CBristleOverBlocks_rowAs(cells, w, bits, 3, pixels, coverage, colour, opaque, vector);
    case 4: return CBristleOverBlocks_rowAs(cells, w, bits, 4, pixels, coverage, colour, opaque, vector);
    case 5: return CBristleOverBlocks_rowAs(cells, w, bits, 5, pixels, coverage, colour, opaque, vector);
    case 6: return CBristleOverBlocks_rowAs(cells, w, bits, 6, pixels, coverage, colour, opaque, vector);
    default: __builtin_trap();
    }
}

CBristleOverBlocks_Span CBristleOverBlocks_row(float *cells, intptr_t w, uint64_t bits, intptr_t shift,
                                               uint8_t *pixels, uint8_t *coverage, CBristleOverBlocks_Paint paint) {
    if ((paint.colour >> 48) == 255)
        return CBristleOverBlocks_rowOf(cells, w, bits, shift, pixels, coverage, paint.colour, 1, 1);
    return CBristleOverBlocks_rowOf(cells, w, bits, shift, pixels, coverage, paint.colour, 0, 1);
}

CBristleOverBlocks_Span CBristleOverBlocks_rowPlain(float *cells, intptr_t w, uint64_t bits, intptr_t shift,
                                                    uint8_t *pixels, uint8_t *coverage,
                                                    CBristleOverBlocks_Paint paint) {
    return CBristleOverBlocks_rowOf(cells, w, bits, shift, pixels, coverage, paint.colour, 0, 0);
}

void CBristleOverBlocks_prefetch(const float *cells, uint64_t bits, intptr_t shift, intptr_t w, const uint8_t *pixels) {
    const intptr_t size = (intptr_t)1 << shift;
    while (bits != 0) {
        intptr_t first = (intptr_t)__builtin_ctzll(bits) << shift;
        intptr_t last;
        const uint8_t *p, *end;
        bits &= bits - 1;
        if (first >= w) return;
        last = (first + size < w ? first + size : w) - 1;
        end = pixels + 4 * last;
        for (p = pixels + 4 * first; p <= end; p += 64) CBristleMath_prefetchForWrite(p);
        CBristleMath_prefetchForWrite(end);
        CBristleMath_prefetchForWrite(cells + first);
        CBristleMath_prefetchForWrite(cells + last);
    }
}
