#ifndef CBRISTLE_COMPOSITE_H
#define CBRISTLE_COMPOSITE_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* round(v / 255) for v in 0...65535: ((v + 128) * 257) >> 16, see CBristleComposite_overMaskRow. */
static inline uint32_t CBristleComposite_div255(uint32_t v) {
    return ((v + 128) * 257) >> 16;
}

/* The coverage byte of a prefix sum (nonzero rule), as CoverageSpans.quantize(min(abs(sum), 1)):
 * c = min(|sum|, 1) as Swift's `1 < a ? 1 : a` (a NaN stays a NaN), c * 255 rounded to the
 * nearest integer (ties to even) by adding 2^23, which leaves it in the low mantissa bits, and
 * the low byte of the bits (a NaN sum gives the NaN's low byte, as in Swift). The multiply and
 * the add must round apart, as in Swift: the pragmas (for this body only) forbid a fused
 * multiply-add under clang's default -ffp-contract=on and under fast-honor-pragmas. Not under
 * clang's -ffp-contract=fast, which disregards pragmas, nor GCC's default (fast; it ignores the
 * STDC pragma): such a build may fuse on a target with FMA (aarch64) and change bytes there. Shared
 * by the three row resolves (CBristleResolveOver.h, CBristleResolveMax.h, CBristleOverBlocks.c). */
static inline uint32_t CBristleComposite_quantize(float sum) {
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    float a = __builtin_fabsf(sum);
    float c = 1.0f < a ? 1.0f : a;
    float scaled = c * 255.0f;
    float t = scaled + 8388608.0f;
    uint32_t bits;
    memcpy(&bits, &t, 4);
    return bits & 0xFF;
}

#if defined(__SSE2__)
/* CBristleComposite_quantize of four sums at once, as 32-bit words (the coverage in the low
 * byte, the other bytes 0): absolute value, MINPS(1, a) (it returns its second operand unless
 * the first is less: Swift's min, NaN included), * 255, + 2^23, the low byte. No fused
 * multiply-add either. */
static inline __m128i CBristleComposite_quantize4(__m128 sums) {
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
    const __m128 one = _mm_set1_ps(1.0f), scale = _mm_set1_ps(255.0f), shift = _mm_set1_ps(8388608.0f);
    __m128 u = _mm_add_ps(_mm_mul_ps(_mm_min_ps(one, _mm_and_ps(sums, magnitude)), scale), shift);
    return _mm_and_si128(_mm_castps_si128(u), _mm_set1_epi32(0xFF));
}

/* One 8-lane step: two pixels' channels `d` (16-bit lanes) blended with the mask values `m`
 * (each pixel's value in its four lanes). `opaque` (a constant where it is inlined) says the
 * paint's alpha is 255: the weight is then 255 - m, as div255(255 * m) = m. */
static inline __m128i CBristleComposite_overLanes(__m128i d, __m128i m, __m128i colour, __m128i alpha,
                                                  int opaque) {
    const __m128i half = _mm_set1_epi16(128), k257 = _mm_set1_epi16(257), full = _mm_set1_epi16(255);
    __m128i add = _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(colour, m), half), k257);
    __m128i weight = opaque ? _mm_sub_epi16(full, m)
                            : _mm_sub_epi16(full, _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(alpha, m), half), k257));
    return _mm_add_epi16(add, _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(d, weight), half), k257));
}

/* One 4-pixel step: the RGBA8 pixels at `from` blended with the coverages `m` (16-bit lanes
 * m0 m0 m1 m1 m2 m2 m3 m3: pixel k's in lanes 2k and 2k + 1) into `to` (16 bytes each, may be
 * the same), `colour` and `alpha` as in CBristleComposite_overMaskRowAs (the paint's lanes twice,
 * its alpha in every lane), `opaque` as in CBristleComposite_overLanes. */
static inline __attribute__((always_inline)) void CBristleComposite_over4(uint8_t *to, const uint8_t *from, __m128i m,
                                                                          __m128i colour, __m128i alpha, int opaque) {
    const __m128i zero = _mm_setzero_si128();
    __m128i d = _mm_loadu_si128((const __m128i *)(const void *)from);
    __m128i lo = CBristleComposite_overLanes(_mm_unpacklo_epi8(d, zero), _mm_unpacklo_epi32(m, m), colour, alpha, opaque);
    __m128i hi = CBristleComposite_overLanes(_mm_unpackhi_epi8(d, zero), _mm_unpackhi_epi32(m, m), colour, alpha, opaque);
    _mm_storeu_si128((__m128i *)(void *)to, _mm_packus_epi16(lo, hi));
}
#endif

/* Source-over of the paint `colour` (premultiplied red, green, blue and alpha as 16-bit lanes
 * from the low one up) with coverage m (0...255) on the RGBA8 pixel at `from`, into `to` (the
 * same pixel or not): per channel out = div255(S * m) + div255(d * (255 - div255(Sa * m))).
 * Coverage 0 leaves the bytes as they are, 255 under an opaque paint stores the colour. */
static inline void CBristleComposite_overPixel(uint8_t *to, const uint8_t *from, uint32_t m, uint64_t colour) {
    uint32_t weight = 255 - CBristleComposite_div255((uint32_t)(colour >> 48) * m);
    int c;
    for (c = 0; c < 4; c++) {
        uint32_t s = (uint32_t)(colour >> (16 * c)) & 0xFF;
        to[c] = (uint8_t)(CBristleComposite_div255(s * m) + CBristleComposite_div255(from[c] * weight));
    }
}

/* The paint `colour` (16-bit lanes as above) as one RGBA8 pixel's bytes, little-endian: what
 * coverage 255 under it stores when it is opaque. */
static inline uint32_t CBristleComposite_solid(uint64_t colour) {
    return (uint32_t)(colour & 0xFF) | (uint32_t)((colour >> 16) & 0xFF) << 8 | (uint32_t)((colour >> 32) & 0xFF) << 16 |
           (uint32_t)((colour >> 48) & 0xFF) << 24;
}

/* The row for an opaque paint (`opaque` 1) or any paint (0); see CBristleComposite_overMaskRow. */
static inline void CBristleComposite_overMaskRowAs(uint8_t *to, const uint8_t *from, const uint8_t *mask,
                                                   intptr_t count, uint64_t colour, int opaque) {
    intptr_t x = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const __m128i lanes = _mm_set1_epi64x((long long)colour);
    const __m128i alpha = _mm_set1_epi16((short)(colour >> 48));
    for (; x + 4 <= count; x += 4) {
        uint32_t m4;
        __m128i m;
        memcpy(&m4, mask + x, 4);
        m = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)m4), zero); /* m0 m1 m2 m3 */
        m = _mm_unpacklo_epi16(m, m);                             /* m0 m0 m1 m1 m2 m2 m3 m3 */
        CBristleComposite_over4(to + 4 * x, from + 4 * x, m, lanes, alpha, opaque);
    }
    if (x + 2 <= count) {
        /* Eight bytes in and out with MOVQ (_mm_loadl_epi64 / _mm_storel_epi64: SSE2 on 32-bit x86
         * too, unlike _mm_cvtsi64_si128 / _mm_cvtsi128_si64). */
        uint16_t m2;
        __m128i m, out;
        memcpy(&m2, mask + x, 2);
        m = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)m2), zero);
        m = _mm_unpacklo_epi16(m, m);
        out = CBristleComposite_overLanes(
            _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)(from + 4 * x)), zero),
            _mm_unpacklo_epi32(m, m), lanes, alpha, opaque);
        _mm_storel_epi64((__m128i *)(void *)(to + 4 * x), _mm_packus_epi16(out, out));
        x += 2;
    }
    if (x < count) {
        int d4;
        __m128i m, out;
        memcpy(&d4, from + 4 * x, 4);
        m = _mm_set1_epi16((short)mask[x]);
        out = CBristleComposite_overLanes(_mm_unpacklo_epi8(_mm_cvtsi32_si128(d4), zero), m, lanes, alpha, opaque);
        d4 = _mm_cvtsi128_si32(_mm_packus_epi16(out, out));
        memcpy(to + 4 * x, &d4, 4);
        x += 1;
    }
#endif
    for (; x < count; x++) CBristleComposite_overPixel(to + 4 * x, from + 4 * x, mask[x], colour);
}

/* Source-over at full opacity through an 8-bit mask, from `from` to `to` (RGBA8 premultiplied;
 * the same pixels or not), `count` pixels: for mask value m, per channel with S the paint's
 * premultiplied channel and Sa its alpha,
 *     out = div255(S * m) + div255(d * (255 - div255(Sa * m))),
 * div255(v) = round(v / 255) for v in 0...65535, computed as ((v + 128) * 257) >> 16 (the high
 * half of one 16-bit multiply, PMULHUW: equal to ((t + (t >> 8)) >> 8), t = v + 128, for every
 * 16-bit t). A mask value of 0 copies the pixel, 255 under an opaque paint stores the colour.
 * Every lane's sum is at most 255, so packing back to bytes never saturates.
 * `colour` is the paint's premultiplied red, green, blue and alpha as 16-bit lanes from the low
 * one up. Four pixels per step (one 16-byte load and store), then two, then one; no branch on
 * the mask's values; an opaque paint's weight is 255 - m without a multiply. Inline, so Swift
 * callers pay no call. */
static inline void CBristleComposite_overMaskRow(uint8_t *to, const uint8_t *from, const uint8_t *mask,
                                                 intptr_t count, uint64_t colour) {
    if ((colour >> 48) == 255)
        CBristleComposite_overMaskRowAs(to, from, mask, count, colour, 1);
    else
        CBristleComposite_overMaskRowAs(to, from, mask, count, colour, 0);
}

/* 16 bytes of 0xFF then 16 of 0: the 16 bytes at `16 - n` are n lanes of 0xFF, then 0s. */
static const uint8_t CBristleComposite_firstLanes[32] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

/* p[0..<n] = max(p[i], m), n >= 1, for a run of one coverage value resolved into a mask;
 * `room` is how many bytes from p the row holds (n or more). A run of at most 16 with 16 bytes
 * of room is one 16-byte load, a byte-wise max with m in its first n lanes (0 in the others, from
 * CBristleComposite_firstLanes: their bytes are stored back unchanged) and one store, with no
 * branch on n or m; a longer one is 16-byte maxes, the last overlapping (max is idempotent).
 * Otherwise (with SSE2, a run shorter than 16 within 16 bytes of the row's end; without SSE2,
 * every run) one byte at a time. */
static inline void CBristleComposite_maxRun(uint8_t *p, intptr_t n, uint8_t m, intptr_t room) {
#if defined(__SSE2__)
    const __m128i value = _mm_set1_epi64x((long long)((uint64_t)m * 0x0101010101010101ull));
    if (n <= 16 && room >= 16) {
        __m128i lanes = _mm_loadu_si128((const __m128i *)(const void *)(CBristleComposite_firstLanes + (16 - n)));
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        _mm_storeu_si128((__m128i *)(void *)p, _mm_max_epu8(v, _mm_and_si128(lanes, value)));
        return;
    }
    if (n >= 16) {
        intptr_t i;
        for (i = 0; i + 16 < n; i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
            _mm_storeu_si128((__m128i *)(void *)(p + i), _mm_max_epu8(v, value));
        }
        {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
            _mm_storeu_si128((__m128i *)(void *)(p + n - 16), _mm_max_epu8(v, value));
        }
        return;
    }
    /* Only a run shorter than 16 within 16 bytes of the row's end comes here: rare and short,
     * kept small, not vectorised. */
#pragma clang loop vectorize(disable) unroll(disable)
#else
    /* Without SSE2 every run comes here, long runs of 255 too: the compiler may vectorise it. */
    (void)room;
#endif
    for (; n > 0; n--, p++)
        if (*p < m) *p = m;
}

#endif
