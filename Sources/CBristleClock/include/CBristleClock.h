#ifndef CBRISTLE_CLOCK_H
#define CBRISTLE_CLOCK_H

#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* The CPU's time-stamp counter (RDTSC): about 20 cycles, against some 70 ns for
 * clock_gettime(CLOCK_MONOTONIC) in a VM. Ticks, not nanoseconds: calibrate against the
 * monotonic clock. Only meaningful when CBristleClock_invariant_tsc() is 1; 0 on CPUs
 * without one. Inline, so that Swift callers pay no call. */
static inline uint64_t CBristleClock_ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return 0;
#endif
}

/* 1 when the time-stamp counter ticks at a constant rate in every power state and on every
 * core (CPUID 0x80000007 EDX bit 8, "invariant TSC"; Linux's constant_tsc and nonstop_tsc
 * flags), so that ticks measure time; else 0 (other CPUs, or a hypervisor hiding the bit). */
int CBristleClock_invariant_tsc(void);

#endif
