#include "CBristleClock.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int CBristleClock_invariant_tsc(void) {
#if defined(__x86_64__) || defined(__i386__)
    unsigned int a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid_max(0x80000000u, 0) < 0x80000007u) return 0;
    if (!__get_cpuid(0x80000007u, &a, &b, &c, &d)) return 0;
    return (d >> 8) & 1u;
#else
    return 0;
#endif
}
