/*
 * Runs the header's inline helpers (since 1.2): BRISTLE_ARRAY_AT and bristle_sample_at step by
 * struct_size; bristle_rect_union ignores empties and saturates; bristle_dirty_add appends,
 * merges when full, grows *dirty, and leaves a missing or broken list alone. Built by the tests
 * as C99 and as C++17 with every warning an error, then run: exit status 0 and no output when
 * every check holds, otherwise the first failing check on stderr and status 1.
 */
#include <bristle/bristle.h>
#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "helpers_check.c:%d: %s\n", __LINE__, #cond);                         \
            return 1;                                                                             \
        }                                                                                         \
    } while (0)

static bristle_rect_t rect(int32_t x, int32_t y, int32_t w, int32_t h) {
    bristle_rect_t r;
    r.x = x, r.y = y, r.width = w, r.height = h;
    return r;
}

static int contains(bristle_rect_t outer, bristle_rect_t inner) {
    return inner.x >= outer.x && inner.y >= outer.y &&
           (int64_t)inner.x + inner.width <= (int64_t)outer.x + outer.width &&
           (int64_t)inner.y + inner.height <= (int64_t)outer.y + outer.height;
}

/* Samples 24 bytes larger than this header's: a later minor's, trailing bytes 0xA5. */
static int check_stride(void) {
    enum { STRIDE = sizeof(bristle_sample_t) + 24 };
    static unsigned char buffer[3 * STRIDE + 8];
    const bristle_sample_t *samples;
    uint32_t i;
    memset(buffer, 0xA5, sizeof buffer);
    for (i = 0; i < 3; i++) {
        bristle_sample_t s;
        memset(&s, 0, sizeof s);
        s.struct_size = STRIDE;
        s.x = 10.0 * i, s.y = 20.0 * i + 1;
        memcpy(buffer + i * STRIDE, &s, sizeof s);
    }
    samples = (const bristle_sample_t *)(const void *)buffer;
    for (i = 0; i < 3; i++) {
        CHECK(bristle_sample_at(samples, i)->x == 10.0 * i);
        CHECK(BRISTLE_ARRAY_AT(const bristle_sample_t, samples, i)->y == 20.0 * i + 1);
    }
    return 0;
}

static int check_union(void) {
    bristle_rect_t u = bristle_rect_union(rect(5, 5, 0, 3), rect(1, 2, -1, 4));
    CHECK(u.x == 0 && u.y == 0 && u.width == 0 && u.height == 0);
    u = bristle_rect_union(rect(5, 5, 0, 3), rect(1, 2, 3, 4));
    CHECK(u.x == 1 && u.y == 2 && u.width == 3 && u.height == 4);
    u = bristle_rect_union(rect(1, 2, 3, 4), rect(10, -5, 2, 2));
    CHECK(u.x == 1 && u.y == -5 && u.width == 11 && u.height == 11);
    u = bristle_rect_union(rect(-2147483647 - 1, 0, 10, 1), rect(2147483647 - 5, 0, 5, 1));
    CHECK(u.x == -2147483647 - 1 && u.width == 2147483647); /* saturated, never wrapped */
    return 0;
}

static int check_dirty_add(void) {
    bristle_rect_t storage[BRISTLE_MAX_DIRTY_RECTS], added[BRISTLE_MAX_DIRTY_RECTS + 4];
    bristle_dirty_list_t list;
    bristle_target_t target;
    bristle_rect_t dirty = rect(0, 0, 0, 0);
    uint32_t i, j;
    memset(&target, 0, sizeof target);
    memset(&list, 0, sizeof list);
    target.struct_size = sizeof target;
    target.dirty_list = &list;
    list.struct_size = sizeof list;
    list.capacity = BRISTLE_MAX_DIRTY_RECTS;
    list.rects = storage;

    bristle_dirty_add(&target, &dirty, rect(3, 3, 0, 5)); /* empty: ignored */
    CHECK(list.count == 0 && dirty.width == 0);
    /* Twenty separate 2x2 squares on a diagonal: 16 appended, the last 4 merged. */
    for (i = 0; i < BRISTLE_MAX_DIRTY_RECTS + 4; i++) {
        added[i] = rect((int32_t)(10 * i), (int32_t)(10 * i), 2, 2);
        bristle_dirty_add(&target, &dirty, added[i]);
        CHECK(list.count == (i < BRISTLE_MAX_DIRTY_RECTS ? i + 1 : BRISTLE_MAX_DIRTY_RECTS));
    }
    CHECK(dirty.x == 0 && dirty.y == 0 && dirty.width == 192 && dirty.height == 192);
    for (i = 0; i < BRISTLE_MAX_DIRTY_RECTS + 4; i++) {
        int covered = 0;
        for (j = 0; j < list.count; j++) covered |= contains(storage[j], added[i]);
        CHECK(covered);
        CHECK(contains(dirty, added[i]));
    }
    /* The merges went into the nearest squares: no rectangle grew beyond a few squares. */
    for (j = 0; j < list.count; j++) CHECK(storage[j].width <= 52);

    /* A target from a 1.1 host (no dirty_list field): only *dirty grows. */
    target.struct_size = (uint32_t)offsetof(bristle_target_t, dirty_list);
    list.count = 0;
    dirty = rect(0, 0, 0, 0);
    bristle_dirty_add(&target, &dirty, rect(1, 1, 4, 4));
    CHECK(list.count == 0 && dirty.width == 4 && dirty.height == 4);
    /* No list, a broken list (count above capacity): only *dirty grows, nothing is written. */
    target.struct_size = sizeof target;
    target.dirty_list = NULL;
    bristle_dirty_add(&target, &dirty, rect(8, 1, 4, 4));
    CHECK(dirty.width == 11);
    target.dirty_list = &list;
    list.count = BRISTLE_MAX_DIRTY_RECTS + 1;
    storage[0] = rect(0, 0, 0, 0);
    bristle_dirty_add(&target, &dirty, rect(20, 1, 4, 4));
    CHECK(list.count == BRISTLE_MAX_DIRTY_RECTS + 1 && storage[0].width == 0 && dirty.width == 23);
    /* A NULL *dirty pointer and a NULL target are harmless. */
    list.count = 0;
    bristle_dirty_add(&target, NULL, rect(0, 0, 1, 1));
    CHECK(list.count == 1);
    bristle_dirty_add(NULL, &dirty, rect(40, 1, 1, 1));
    CHECK(dirty.x == 1 && dirty.width == 40);
    return 0;
}

int main(void) {
    if (check_stride() || check_union() || check_dirty_add()) return 1;
    return 0;
}
