#include "bristle_harness.h"

#include <malloc.h>

size_t bristle_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
