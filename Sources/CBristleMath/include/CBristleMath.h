#ifndef CBRISTLE_MATH_H
#define CBRISTLE_MATH_H

#include <stdint.h>

#include "CBristleComposite.h" /* the mask composites' SIMD rows */

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

#endif
