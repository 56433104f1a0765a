#ifndef CBRISTLE_MATH_H
#define CBRISTLE_MATH_H

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "CBristleComposite.h" /* the mask composites' SIMD rows */
#include "CBristleResolveMax.h" /* the mask resolve's dense rows */
#include "CBristleResolveOver.h" /* the segment's dense resolve and composite */

/* `v` truncated toward zero: one conversion instruction (CVTTSD2SI on x86-64), without the range
 * checks of Swift's Int(_:). Defined only for finite `v` with |v| < 2^63; callers guarantee it.
 * Inline, so that Swift callers pay no call. */
static inline int64_t CBristleMath_truncate(double v) {
    return (int64_t)v;
}

/* Asks for the cache line holding `p` with the intent to write it (PREFETCHW on x86-64, a
 * store prefetch elsewhere), without waiting for it: unlike a load, the instruction retires at
 * once and never faults, so `p` may be any address (a row past the end of a plane included). */
static inline void CBristleMath_prefetchForWrite(const void *p) {
#if defined(__x86_64__)
    __asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p, 1, 3);
#endif
}

/* Bit i set when the 32-bit word i of the `4 * groups` words at `p` is not zero (1 <= groups <=
 * 16; every word is read, unaligned is fine), with no branch on their values: the exact fill's
 * resolve finds its stretches' ends in these bits. SSE2: sixteen words per compare-and-pack
 * (one byte mask), the last groups four at a time. */
static inline uint64_t CBristleMath_nonZeroWords(const void *p, int64_t groups) {
    uint64_t zeros = 0;
    int64_t g = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const __m128i *v = (const __m128i *)p;
    for (; g + 4 <= groups; g += 4) {
        __m128i a = _mm_cmpeq_epi32(_mm_loadu_si128(v + g), zero);
        __m128i b = _mm_cmpeq_epi32(_mm_loadu_si128(v + g + 1), zero);
        __m128i c = _mm_cmpeq_epi32(_mm_loadu_si128(v + g + 2), zero);
        __m128i d = _mm_cmpeq_epi32(_mm_loadu_si128(v + g + 3), zero);
        __m128i bytes = _mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
        zeros |= (uint64_t)(uint32_t)_mm_movemask_epi8(bytes) << (4 * g);
    }
    for (; g < groups; g++) {
        __m128i a = _mm_cmpeq_epi32(_mm_loadu_si128(v + g), zero);
        zeros |= (uint64_t)(uint32_t)_mm_movemask_ps(_mm_castsi128_ps(a)) << (4 * g);
    }
#else
    const unsigned char *bytes = (const unsigned char *)p;
    for (; g < 4 * groups; g++) {
        uint32_t word;
        __builtin_memcpy(&word, bytes + 4 * g, 4);
        zeros |= (uint64_t)(word == 0) << g;
    }
#endif
    uint64_t all = groups >= 16 ? ~(uint64_t)0 : ((uint64_t)1 << (4 * groups)) - 1;
    return ~zeros & all;
}

#include "CBristleOverBlocks.h" /* the exact fill's rows resolved and composited (uses the above) */

#endif
