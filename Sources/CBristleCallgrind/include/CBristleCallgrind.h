#ifndef CBRISTLE_CALLGRIND_H
#define CBRISTLE_CALLGRIND_H

/* Toggles callgrind's instruction collection (CALLGRIND_TOGGLE_COLLECT) so `bristle bench
 * --callgrind` under `valgrind --tool=callgrind --collect-atstart=no` counts only the timed
 * region, like the benchmark peers. Outside valgrind, or when <valgrind/callgrind.h> was
 * missing at build time, it does nothing. */
void CBristleCallgrind_toggle_collect(void);

/* 1 when built with <valgrind/callgrind.h>, else 0. */
int CBristleCallgrind_available(void);

#endif
