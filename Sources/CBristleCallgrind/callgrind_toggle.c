#include "CBristleCallgrind.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CBRISTLE_HAVE_CALLGRIND 1
#endif
#endif

void CBristleCallgrind_toggle_collect(void) {
#ifdef CBRISTLE_HAVE_CALLGRIND
    CALLGRIND_TOGGLE_COLLECT;
#endif
}

int CBristleCallgrind_available(void) {
#ifdef CBRISTLE_HAVE_CALLGRIND
    return 1;
#else
    return 0;
#endif
}
