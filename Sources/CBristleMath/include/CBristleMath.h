#ifndef CBRISTLE_MATH_H
#define CBRISTLE_MATH_H

#include <stdint.h>

/* `v` truncated toward zero: one conversion instruction (CVTTSD2SI on x86-64), without the range
 * checks of Swift's Int(_:). Defined only for finite `v` with |v| < 2^63; callers guarantee it.
 * Inline, so that Swift callers pay no call. */
static inline int64_t CBristleMath_truncate(double v) {
    return (int64_t)v;
}

#endif
