/*
 * The conformance harness's zoo: one small brush, "test.zoo", that is correct without any
 * switch and broken in exactly one way per -D switch, so that `bristle conform` can be shown
 * to give each mistake its verdict (Tests/BristleConformanceTests/ZooTests.swift).
 *
 * The correct brush is CONTINUOUS | WANTS_PREDICTED | DETERMINISTIC: it paints a square block
 * (parameter "size", 1...9 px, default 3) at every sample into committed, and at every
 * predicted sample into the preview, clipped, with an exact dirty rectangle; between two real
 * samples it also paints a block at their midpoint (remembering the last sample of the stroke).
 *
 *   -DCRASH_IN_BEGIN     writes through a NULL pointer in `begin`
 *   -DABORT_IN_DRAW      calls abort() in `draw`
 *   -DEXIT_IN_ENDED      calls exit(3) in `ended`
 *   -DHANG_IN_MOVED      loops forever in `moved`
 *   -DROW_PAST_END       forgets to clip at the bottom: writes row `height`, one past the buffer
 *   -DWRITE_PADDING      forgets to clip at the right: writes the byte after each row's pixels
 *   -DSMALL_DIRTY        reports a dirty rectangle one pixel too narrow
 *   -DNONDETERMINISTIC   jitters its colour with rand(), yet claims DETERMINISTIC
 *   -DCOMMITS_PREDICTED  keeps predicted samples at the next `moved` and commits them
 *   -DEXTRA_EXPORTS      exports a helper function besides the entry
 *   -DSHARED_GLOBAL      remembers the stroke's last sample in a global shared by all instances
 *   -DCLOSES_HARNESS_FDS closes file descriptors 3 and 4 in `begin`, which it does not own
 *   -DFLOODS_OUTPUT      writes 128 MiB to stdout in `moved`
 *   -DLIST_TOO_SMALL     lists each block in target->dirty_list one pixel too narrow (*dirty is right)
 *   -DLIST_OUTSIDE_DIRTY lists each block in target->dirty_list, but *dirty holds only its first pixel
 *   -DINDEXES_BY_SIZEOF  steps through the samples of `moved` and `predicted` with `s[i]` (its own
 *                        sizeof) instead of bristle_sample_at (their struct_size), though it
 *                        declares ABI 1.2
 *
 * And switches that are no mistake, which the harness must carry:
 *
 *   -DMANY_BRUSHES       lists 4096 brushes with ids of 255 bytes ("test.zoo" stays the one it creates)
 *   -DLISTS_DIRTY        reports every block in target->dirty_list too (bristle_dirty_add, ABI 1.2)
 */
#include <bristle/bristle.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef CLOSES_HARNESS_FDS
#include <unistd.h>
#endif
#if defined(MANY_BRUSHES) || defined(FLOODS_OUTPUT)
#include <stdio.h>
#endif

#define MAX_POINTS 1024

/* Sample i of a hook's array: by struct_size (the stride rule), or wrongly by sizeof. */
#ifdef INDEXES_BY_SIZEOF
#define SAMPLE(s, i) (&(s)[i])
#else
#define SAMPLE(s, i) bristle_sample_at(s, i)
#endif

typedef struct points {
    double xy[MAX_POINTS][2];
    int count;
} points;

typedef struct last_sample {
    int has;
    double x, y;
} last_sample;

typedef struct zoo {
    bristle_brush_t brush;
    last_sample own_last;
    int in_stroke;
    double size;
    points own_pending;
    points predicted;
} zoo;

#define PENDING(z) (&(z)->own_pending)
#ifdef SHARED_GLOBAL
static last_sample shared_last;
#define LAST(z) (&shared_last)
#else
#define LAST(z) (&(z)->own_last)
#endif

static zoo *Z(const bristle_brush_t *b) { return (zoo *)b->brush_data; }

static void add(points *p, double x, double y);

/* Adds a real sample, and the midpoint from the stroke's previous one. */
static void add_real(zoo *z, double x, double y) {
    last_sample *l = LAST(z);
    if (!isfinite(x) || !isfinite(y) || fabs(x) > 1e6 || fabs(y) > 1e6) return;
    if (l->has) add(PENDING(z), (l->x + x) / 2, (l->y + y) / 2);
    add(PENDING(z), x, y);
    l->has = 1, l->x = x, l->y = y;
}

static void add(points *p, double x, double y) {
    if (!isfinite(x) || !isfinite(y) || fabs(x) > 1e6 || fabs(y) > 1e6) return;
    if (p->count == MAX_POINTS) p->count = 0; /* drop what was not drawn; never overflow */
    p->xy[p->count][0] = x;
    p->xy[p->count][1] = y;
    p->count++;
}

static void grow(bristle_rect_t *d, int x0, int y0, int x1, int y1) {
    if (d->width <= 0 || d->height <= 0) {
        d->x = x0, d->y = y0, d->width = x1 - x0, d->height = y1 - y0;
        return;
    }
    {
        int dx1 = d->x + d->width, dy1 = d->y + d->height;
        if (x0 < d->x) d->x = x0;
        if (y0 < d->y) d->y = y0;
        d->width = (x1 > dx1 ? x1 : dx1) - d->x;
        d->height = (y1 > dy1 ? y1 : dy1) - d->y;
    }
}

static uint8_t channel(float c) {
    if (!(c >= 0)) return 0;
    if (c > 1) return 255;
    return (uint8_t)(c * 255.0f + 0.5f);
}

/* Reports the block [x0, x1) x [y0, y1): grows *dirty, and with the LIST switches also (or
 * only) lists it in the target's dirty list. */
static void report(const bristle_target_t *t, bristle_rect_t *dirty, int x0, int y0, int x1, int y1) {
#if defined(LISTS_DIRTY) || defined(LIST_TOO_SMALL) || defined(LIST_OUTSIDE_DIRTY)
    bristle_rect_t r;
    r.x = x0, r.y = y0, r.width = x1 - x0, r.height = y1 - y0;
#if defined(LIST_TOO_SMALL)
    grow(dirty, x0, y0, x1, y1);
    r.width -= 1;
    bristle_dirty_add(t, NULL, r);
#elif defined(LIST_OUTSIDE_DIRTY)
    grow(dirty, x0, y0, x0 + 1, y0 + 1); /* only the block's first pixel */
    bristle_dirty_add(t, NULL, r);
#else
    (void)grow;
    bristle_dirty_add(t, dirty, r);
#endif
#else
    (void)t;
    grow(dirty, x0, y0, x1, y1);
#endif
}

/* Paints one block per point onto the target; reports each block. */
static void paint(const bristle_target_t *t, const points *p, double size, uint8_t r, uint8_t g, uint8_t b,
                  bristle_rect_t *dirty) {
    int i, x, y;
    int half = (int)size / 2;
    for (i = 0; i < p->count; i++) {
        int cx = (int)floor(p->xy[i][0]), cy = (int)floor(p->xy[i][1]);
        int x0 = cx - half, y0 = cy - half, x1 = x0 + (int)size, y1 = y0 + (int)size;
        int xmax = t->width, ymax = t->height;
#ifdef WRITE_PADDING
        xmax = t->width + 1;
#endif
#ifdef ROW_PAST_END
        ymax = t->height + 1;
#endif
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 > xmax) x1 = xmax;
        if (y1 > ymax) y1 = ymax;
        if (x0 >= x1 || y0 >= y1) continue;
        for (y = y0; y < y1; y++) {
            uint8_t *row = t->pixels + (size_t)y * (size_t)t->stride_bytes;
            for (x = x0; x < x1; x++) {
                row[x * 4 + 0] = r;
                row[x * 4 + 1] = g;
                row[x * 4 + 2] = b;
                row[x * 4 + 3] = 255;
            }
        }
#ifdef SMALL_DIRTY
        report(t, dirty, x0, y0, x1 - 1, y1);
#else
        report(t, dirty, x0, y0, x1 < t->width ? x1 : t->width, y1 < t->height ? y1 : t->height);
#endif
    }
}

/* ---- parameters: "size" ---- */
static const bristle_param_info_t size_info = {sizeof size_info, BRISTLE_PARAM_FLOAT, "size", "Size",
                                               "Block size in pixels.", "px", 1, 9, 3, NULL, {0, 0, 0, 0}};
static uint32_t pcount(const bristle_brush_t *b) { (void)b; return 1; }
static const bristle_param_info_t *pinfo(const bristle_brush_t *b, uint32_t i) {
    (void)b;
    return i == 0 ? &size_info : NULL;
}
static bristle_status_t pset(const bristle_brush_t *b, const char *id, double v) {
    if (!id || strcmp(id, "size") != 0 || !isfinite(v)) return BRISTLE_BAD_ARG;
    if (Z(b)->in_stroke) return BRISTLE_BAD_STATE;
    Z(b)->size = v < 1 ? 1 : v > 9 ? 9 : v;
    return BRISTLE_OK;
}
static bristle_status_t pget(const bristle_brush_t *b, const char *id, double *v) {
    if (!id || strcmp(id, "size") != 0 || !v) return BRISTLE_BAD_ARG;
    *v = Z(b)->size;
    return BRISTLE_OK;
}
static bristle_status_t psetc(const bristle_brush_t *b, const char *id, const bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static bristle_status_t pgetc(const bristle_brush_t *b, const char *id, bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static const bristle_params_t params = {sizeof params, 0, pcount, pinfo, pset, pget, psetc, pgetc};

/* ---- hooks ---- */
static void destroy(const bristle_brush_t *b) { free(Z(b)); }
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b;
    return id && strcmp(id, BRISTLE_EXT_PARAMS) == 0 ? &params : NULL;
}
static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    zoo *z = Z(b);
    (void)c;
#ifdef CRASH_IN_BEGIN
    *(volatile int *)(uintptr_t)(s->x < -1e300 ? 8 : 0) = 1;
#endif
#ifdef CLOSES_HARNESS_FDS
    close(3);
    close(4);
#endif
    z->in_stroke = 1;
    PENDING(z)->count = 0;
    z->predicted.count = 0;
    LAST(z)->has = 0;
    add_real(z, s->x, s->y);
    return BRISTLE_OK;
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
#ifdef FLOODS_OUTPUT
    {
        static char line[1 << 16];
        int k;
        memset(line, 'x', sizeof line - 1);
        line[sizeof line - 2] = '\n';
        for (k = 0; k < 2048; k++) fputs(line, stdout); /* 128 MiB */
        fflush(stdout);
    }
#endif
#ifdef HANG_IN_MOVED
    volatile int forever = 1;
    while (forever) {
    }
#endif
#ifdef COMMITS_PREDICTED
    for (i = 0; i < (uint32_t)Z(b)->predicted.count; i++)
        add(PENDING(Z(b)), Z(b)->predicted.xy[i][0], Z(b)->predicted.xy[i][1]);
#endif
    Z(b)->predicted.count = 0;
    for (i = 0; i < n; i++) add_real(Z(b), SAMPLE(s, i)->x, SAMPLE(s, i)->y);
    return BRISTLE_OK;
}
static bristle_status_t predicted(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    Z(b)->predicted.count = 0;
    for (i = 0; i < n; i++) add(&Z(b)->predicted, SAMPLE(s, i)->x, SAMPLE(s, i)->y);
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
#ifdef EXIT_IN_ENDED
    if (s->t >= 0) exit(3);
#endif
    Z(b)->in_stroke = 0;
    Z(b)->predicted.count = 0;
    add_real(Z(b), s->x, s->y);
    return BRISTLE_OK;
}
static void cancelled(const bristle_brush_t *b) {
    Z(b)->in_stroke = 0;
    PENDING(Z(b))->count = 0;
    Z(b)->predicted.count = 0;
}
static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *d) {
    zoo *z = Z(b);
    const bristle_color_t *c = &t->stroke->color;
    uint8_t r = channel(c->r), g = channel(c->g), bl = channel(c->b);
#ifdef ABORT_IN_DRAW
    if (t->width > 0) abort();
#endif
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
#ifdef NONDETERMINISTIC
    r = (uint8_t)(rand() & 0xFF);
#endif
    if (t->layer == BRISTLE_LAYER_COMMITTED) {
        paint(t, PENDING(z), z->size, r, g, bl, d);
        PENDING(z)->count = 0;
    } else {
        paint(t, &z->predicted, z->size, 0, 0, 255, d);
    }
    return BRISTLE_OK;
}

/* ---- library ---- */
static const bristle_descriptor_t descriptor = {
    sizeof descriptor, BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_WANTS_PREDICTED | BRISTLE_BRUSH_DETERMINISTIC,
    BRISTLE_VERSION_INIT, "test.zoo", "Zoo", "Tests", "1.0.0", "A brush broken in one way per switch.", NULL};

#ifdef MANY_BRUSHES
#define BRUSH_COUNT 4096
static bristle_descriptor_t many[BRUSH_COUNT];
static char many_ids[BRUSH_COUNT][256];
#else
#define BRUSH_COUNT 1
#endif

static uint32_t count(const bristle_brush_factory_t *f) { (void)f; return BRUSH_COUNT; }
static const bristle_descriptor_t *get_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
#ifdef MANY_BRUSHES
    if (i > 0 && i < BRUSH_COUNT) {
        if (!many[i].struct_size) { /* "zzz...z.b0001": 255 bytes, unique */
            memset(many_ids[i], 'z', 255);
            sprintf(many_ids[i] + 249, ".b%04u", (unsigned)i);
            many[i] = descriptor;
            many[i].id = many_ids[i];
        }
        return &many[i];
    }
#endif
    return i == 0 ? &descriptor : NULL;
}
static const bristle_brush_t *create(const bristle_brush_factory_t *f, const bristle_host_t *h, const char *id) {
    zoo *z;
    (void)f, (void)h;
    if (!id || strcmp(id, "test.zoo") != 0) return NULL;
    z = (zoo *)calloc(1, sizeof *z);
    if (!z) return NULL;
    z->size = 3;
    z->brush.struct_size = sizeof z->brush;
    z->brush.descriptor = &descriptor;
    z->brush.brush_data = z;
    z->brush.destroy = destroy;
    z->brush.get_extension = get_extension;
    z->brush.begin = begin;
    z->brush.moved = moved;
    z->brush.predicted = predicted;
    z->brush.ended = ended;
    z->brush.cancelled = cancelled;
    z->brush.draw = draw;
    return &z->brush;
}
static const bristle_brush_factory_t factory = {sizeof factory, 0, count, get_descriptor, create};

static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof entry, BRISTLE_VERSION_INIT, init, deinit, get_factory, {1, 0, 0}};

#ifdef EXTRA_EXPORTS
BRISTLE_EXPORT int zoo_helper(int x) { return x + 1; }
#endif

BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
