/*
 * The conformance harness's zoo: one small brush, "test.zoo", that is correct without any
 * switch and broken in exactly one way per -D switch, so that `bristle conform` can be shown
 * to give each mistake its verdict (Tests/BristleConformanceTests/ZooTests.swift and
 * HygieneZooTests.swift).
 *
 * The correct brush is CONTINUOUS | WANTS_PREDICTED | DETERMINISTIC: it paints a block
 * (parameter "size", 1...9 px, default 3; parameter "shape": square, bar, column or dot) at
 * every sample into committed, in the stroke's colour premultiplied by its alpha, and at every
 * predicted sample into the preview, clipped, with an exact dirty rectangle; between two real
 * samples it also paints a block at their midpoint (remembering the last sample of the stroke).
 *
 * Crashes, exits, hangs (the harness's isolation):
 *   -DCRASH_IN_BEGIN     writes through a NULL pointer in `begin`
 *   -DABORT_IN_DRAW      calls abort() in `draw`
 *   -DEXIT_IN_ENDED      calls exit(3) in `ended`
 *   -DEXIT_ZERO          calls exit(0) in `ended` (must read as an exit, not as a descriptor problem)
 *   -DHANG_IN_MOVED      loops forever in `moved`
 *   -DFLOODS_OUTPUT      writes 128 MiB to stdout in `moved`
 * Pixels and rectangles:
 *   -DROW_PAST_END       forgets to clip at the bottom: writes row `height`, one past the buffer
 *   -DWRITE_PADDING      forgets to clip at the right: writes the byte after each row's pixels
 *   -DPAST_LAST_PIXEL    an off-by-one at the bottom-right corner only: a block that reaches it
 *                        also writes the 4 bytes after the last pixel (a host's row padding or
 *                        page rounding would hide them)
 *   -DSMALL_DIRTY        reports a dirty rectangle one pixel too narrow
 *   -DLIST_TOO_SMALL     lists each block in target->dirty_list one pixel too narrow (*dirty is right)
 *   -DLIST_OUTSIDE_DIRTY lists each block in target->dirty_list, but *dirty holds only its first pixel
 *   -DLIST_PAST_CAPACITY appends every block to target->dirty_list itself, without checking its
 *                        capacity (bristle_dirty_add would merge instead)
 *   -DRESTORES_PADDING   at the right edge, writes the 4 bytes after the row, calls a service,
 *                        and puts the bytes back before returning
 *   -DOVERREADS_ROW_END  at the right edge, reads 8 bytes from the last pixel (4 past the row)
 *   -DSTRIDE_IN_PIXELS   finds row y at pixel y * (stride / 4): wrong when stride % 4 != 0
 *   -DSTRAIGHT_ALPHA     writes the colour without premultiplying it by its alpha
 *   -DMAX_ALPHA          blends source-over but keeps the larger alpha instead of adding:
 *                        right on opaque and transparent canvases and with opaque colours, a
 *                        colour channel above alpha on a translucent canvas with a translucent colour
 *   -DDIRTY_Y_WRAPS      keeps its dirty rows in int16 12.4 fixed point: wrong from row 2048
 *   -DSCALE_UNCLIPPED    scales its blocks by context->scale after clipping them
 *   -DSHAPE_2_UNCLIPPED  shape 2 (a middle enum value) forgets to clip at the right
 * Memory kept past the call that passed it (bristle.h: valid until the call returns):
 *   -DKEEPS_PIXELS       keeps target->pixels and writes through it in the next `moved`
 *   -DKEEPS_SAMPLES      keeps the samples of `moved` and reads them in `draw`
 *   -DKEEPS_CONTEXT      keeps the stroke context of `begin` and reads its colour in `draw`
 *   -DKEEPS_DIRTY_LIST   keeps target->dirty_list and empties it in the next `moved`
 *   -DKEEPS_TARGET       keeps the target struct of `draw` and reads its width in the next `moved`
 *                        (and ignores it, so only the read itself can show)
 * Input:
 *   -DINDEXES_BY_SIZEOF  steps through the samples of `moved` and `predicted` with `s[i]` (its own
 *                        sizeof) instead of bristle_sample_at (their struct_size), though it
 *                        declares ABI 1.2
 *   -DNEEDS_PRESSURE     refuses samples without HAS_PRESSURE (mouse input) with UNSUPPORTED
 *   -DBATCH_LIMIT        refuses events of more than 512 samples with FAILED
 *   -DLATE_NONDETERMINISM after 300 events of an instance, jitters its colour with rand()
 * Semantics and state:
 *   -DNONDETERMINISTIC   jitters its colour with rand(), yet claims DETERMINISTIC
 *   -DCOMMITS_PREDICTED  keeps predicted samples at the next `moved` and commits them
 *   -DEXTRA_EXPORTS      exports a helper function besides the entry
 *   -DSHARED_GLOBAL      remembers the stroke's last sample in a global shared by all instances
 *   -DBROKEN_PARAM_TABLE declares "size" with min 9 > max 1
 * Process hygiene (each changes what belongs to the host process):
 *   -DLEAKS              allocates 4 KiB per stroke and never frees it
 *   -DLEAVES_THREAD      starts a thread in the first `begin` that never ends
 *   -DTHREAD_IN_INIT     starts a thread in init (and joins it in the last deinit)
 *   -DCHANGES_CWD        chdir("/") in `begin`
 *   -DBLOCKS_SIGNALS     blocks SIGINT in `begin`
 *   -DIGNORES_SIGPIPE    sets SIGPIPE to SIG_IGN in init
 *   -DINSTALLS_HANDLER   installs a SIGTERM handler of its own in create (to save its state)
 *   -DCHANGES_UMASK      umask(077) in create
 *   -DSETS_LOCALE        setlocale(LC_NUMERIC, "C.UTF-8") in create
 *   -DSETS_ENV           setenv("ZOO_WAS_HERE", "1") in `ended`
 *   -DCHANGES_FP_MODE    fesetround(FE_TOWARDZERO) in `begin`
 *   -DWRITES_STDOUT      printf()s a debug line in `ended`
 *   -DCLOSES_HARNESS_FDS closes file descriptors 3 and 4 in `begin`, which it does not own
 *
 * Correct variants the harness must pass (what the header allows):
 *   -DHONEST_RANDOM      jitters its colour with rand() and does not claim DETERMINISTIC
 *   -DPREVIEW_ONLY       not CONTINUOUS, no predictions: draws its blocks into the preview and
 *                        never commits anything (a laser pointer)
 *   -DJOINED_THREAD      runs a helper thread in every `ended` and joins it before returning
 *   -DOWN_FILE           opens /dev/null in create, writes to it in every hook, closes it in destroy
 *   -DMANY_BRUSHES       lists 4096 brushes with ids of 255 bytes ("test.zoo" stays the one it
 *                        creates): the loader's limits
 *   -DLISTS_DIRTY        reports every block in target->dirty_list too (bristle_dirty_add, ABI 1.2)
 *   -DSLOW_DRAW          spins for 200 000 loop iterations in every `draw`: slow but
 *                        correct (robustness.time-per-sample may warn, never fail)
 */
#if defined(BLOCKS_SIGNALS) || defined(IGNORES_SIGPIPE) || defined(SETS_ENV) || defined(CHANGES_CWD) ||             \
    defined(CLOSES_HARNESS_FDS) || defined(LEAVES_THREAD) || defined(THREAD_IN_INIT) || defined(JOINED_THREAD) ||  \
    defined(OWN_FILE) || defined(CHANGES_UMASK) || defined(INSTALLS_HANDLER)
#define _POSIX_C_SOURCE 200809L
#endif
#include <bristle/bristle.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(CLOSES_HARNESS_FDS) || defined(CHANGES_CWD) || defined(LEAVES_THREAD) || defined(THREAD_IN_INIT) ||     \
    defined(OWN_FILE)
#include <unistd.h>
#endif
#if defined(MANY_BRUSHES) || defined(FLOODS_OUTPUT) || defined(WRITES_STDOUT)
#include <stdio.h>
#endif
#if defined(BLOCKS_SIGNALS) || defined(IGNORES_SIGPIPE) || defined(INSTALLS_HANDLER)
#include <signal.h>
#endif
#if defined(LEAVES_THREAD) || defined(THREAD_IN_INIT) || defined(JOINED_THREAD)
#include <pthread.h>
#endif
#ifdef CHANGES_UMASK
#include <sys/stat.h>
#endif
#ifdef SETS_LOCALE
#include <locale.h>
#endif
#ifdef CHANGES_FP_MODE
#include <fenv.h>
#endif
#ifdef OWN_FILE
#include <fcntl.h>
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
    int shape;
    float scale;
    points own_pending;
    points predicted;
    unsigned long events;
#ifdef KEEPS_PIXELS
    uint8_t *kept_pixels;
#endif
#ifdef KEEPS_SAMPLES
    const bristle_sample_t *kept_samples;
#endif
#ifdef KEEPS_CONTEXT
    const bristle_stroke_context_t *kept_context;
#endif
#ifdef KEEPS_DIRTY_LIST
    bristle_dirty_list_t *kept_list;
#endif
#ifdef KEEPS_TARGET
    const bristle_target_t *kept_target;
#endif
#ifdef OWN_FILE
    int own_fd;
#endif
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
#ifdef DIRTY_Y_WRAPS
    y0 = (int16_t)(y0 * 16) / 16, y1 = (int16_t)(y1 * 16) / 16;
#endif
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

/* Row y of the target. */
static uint8_t *row_at(const bristle_target_t *t, int y) {
#ifdef STRIDE_IN_PIXELS
    return t->pixels + (size_t)y * (size_t)(t->stride_bytes / 4) * 4;
#else
    return t->pixels + (size_t)y * (size_t)t->stride_bytes;
#endif
}

/* The block around (cx, cy): size x size for shape 0, a bar, a column or a dot. */
static void block(int shape, int size, int cx, int cy, int *x0, int *y0, int *x1, int *y1) {
    int half = size / 2;
    *x0 = cx - half, *y0 = cy - half, *x1 = *x0 + size, *y1 = *y0 + size;
    if (shape == 1) *y0 = cy, *y1 = cy + 1;
    if (shape == 2) *x0 = cx, *x1 = cx + 1;
    if (shape == 3) *x0 = cx, *x1 = cx + 1, *y0 = cy, *y1 = cy + 1;
}

/* Reports the block [x0, x1) x [y0, y1): grows *dirty, and with the LIST switches also (or
 * only) lists it in the target's dirty list. */
static void report(const bristle_target_t *t, bristle_rect_t *dirty, int x0, int y0, int x1, int y1) {
#if defined(LIST_PAST_CAPACITY)
    bristle_rect_t r;
    r.x = x0, r.y = y0, r.width = x1 - x0, r.height = y1 - y0;
    grow(dirty, x0, y0, x1, y1);
    if (BRISTLE_HAS_FIELD(t, bristle_target_t, dirty_list) && t->dirty_list)
        t->dirty_list->rects[t->dirty_list->count++] = r;
#elif defined(LISTS_DIRTY) || defined(LIST_TOO_SMALL) || defined(LIST_OUTSIDE_DIRTY)
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
static void paint(const zoo *z, const bristle_target_t *t, const points *p, const uint8_t rgba[4],
                  bristle_rect_t *dirty) {
    int i, x, y;
    for (i = 0; i < p->count; i++) {
        int x0, y0, x1, y1;
        int xmax = t->width, ymax = t->height;
        block(z->shape, (int)z->size, (int)floor(p->xy[i][0]), (int)floor(p->xy[i][1]), &x0, &y0, &x1, &y1);
#ifdef WRITE_PADDING
        xmax = t->width + 1;
#endif
#ifdef SHAPE_2_UNCLIPPED
        if (z->shape == 2) xmax = t->width + 1;
#endif
#ifdef ROW_PAST_END
        ymax = t->height + 1;
#endif
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 > xmax) x1 = xmax;
        if (y1 > ymax) y1 = ymax;
        if (x0 >= x1 || y0 >= y1) continue;
#ifdef SCALE_UNCLIPPED
        if (z->scale > 1) x1 = x0 + (int)((float)(x1 - x0) * z->scale), y1 = y0 + (int)((float)(y1 - y0) * z->scale);
#endif
        for (y = y0; y < y1; y++) {
            uint8_t *row = row_at(t, y);
#ifdef MAX_ALPHA
            for (x = x0; x < x1; x++) {
                uint8_t *px = row + x * 4;
                int k;
                for (k = 0; k < 3; k++) px[k] = (uint8_t)(rgba[k] + px[k] * (255 - rgba[3]) / 255);
                if (rgba[3] > px[3]) px[3] = rgba[3];
            }
#else
            for (x = x0; x < x1; x++) memcpy(row + x * 4, rgba, 4);
#endif
#ifdef OVERREADS_ROW_END
            if (x1 == t->width) {
                volatile uint8_t pair[8];
                memcpy((void *)pair, row + (x1 - 1) * 4, 8);
            }
#endif
#ifdef RESTORES_PADDING
            if (x1 == t->width) {
                uint8_t saved[4];
                bristle_paint_t none = {sizeof none, BRISTLE_BLEND_SRC_OVER, {0, 0, 0, 0}, 0};
                memcpy(saved, row + x1 * 4, 4);
                memcpy(row + x1 * 4, rgba, 4);
                t->services->fill_disc(t->services, t, 0, 0, 0, &none);
                memcpy(row + x1 * 4, saved, 4);
            }
#endif
        }
#ifdef PAST_LAST_PIXEL
        if (x1 == t->width && y1 == t->height) memcpy(row_at(t, y1 - 1) + x1 * 4, rgba, 4);
#endif
#ifdef SMALL_DIRTY
        report(t, dirty, x0, y0, x1 - 1, y1);
#else
        report(t, dirty, x0, y0, x1 < t->width ? x1 : t->width, y1 < t->height ? y1 : t->height);
#endif
    }
}

/* ---- parameters: "size" and "shape" ---- */
static const char *const shape_names[] = {"square", "bar", "column", "dot", NULL};
#ifdef BROKEN_PARAM_TABLE
#define ZOO_SIZE_MIN 9
#define ZOO_SIZE_MAX 1
#else
#define ZOO_SIZE_MIN 1
#define ZOO_SIZE_MAX 9
#endif
static const bristle_param_info_t param_infos[] = {
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_FLOAT, "size", "Size", "Block size in pixels.", "px", ZOO_SIZE_MIN,
     ZOO_SIZE_MAX, 3, NULL, {0, 0, 0, 0}},
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_ENUM, "shape", "Shape", "What each sample paints.", "", 0, 3, 0,
     shape_names, {0, 0, 0, 0}},
};
static uint32_t pcount(const bristle_brush_t *b) { (void)b; return 2; }
static const bristle_param_info_t *pinfo(const bristle_brush_t *b, uint32_t i) {
    (void)b;
    return i < 2 ? &param_infos[i] : NULL;
}
static bristle_status_t pset(const bristle_brush_t *b, const char *id, double v) {
    if (!id || !isfinite(v)) return BRISTLE_BAD_ARG;
    if (strcmp(id, "size") == 0) {
        if (Z(b)->in_stroke) return BRISTLE_BAD_STATE;
        Z(b)->size = v < 1 ? 1 : v > 9 ? 9 : v;
        return BRISTLE_OK;
    }
    if (strcmp(id, "shape") == 0) {
        if (Z(b)->in_stroke) return BRISTLE_BAD_STATE;
        v = floor(v + 0.5);
        Z(b)->shape = (int)(v < 0 ? 0 : v > 3 ? 3 : v);
        return BRISTLE_OK;
    }
    return BRISTLE_BAD_ARG;
}
static bristle_status_t pget(const bristle_brush_t *b, const char *id, double *v) {
    if (!id || !v) return BRISTLE_BAD_ARG;
    if (strcmp(id, "size") == 0) return *v = Z(b)->size, BRISTLE_OK;
    if (strcmp(id, "shape") == 0) return *v = Z(b)->shape, BRISTLE_OK;
    return BRISTLE_BAD_ARG;
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

/* ---- threads ---- */
#if defined(LEAVES_THREAD) || defined(THREAD_IN_INIT)
static void *sleep_forever(void *arg) {
    (void)arg;
    for (;;) pause();
    return NULL;
}
#endif
#ifdef JOINED_THREAD
static void *nothing(void *arg) { return arg; }
#endif

/* ---- hooks ---- */
#ifdef INSTALLS_HANDLER
static volatile sig_atomic_t terminating;
static void on_term(int signal) { terminating = signal; }
#endif
#ifdef OWN_FILE
static void touch_own_file(const bristle_brush_t *b) {
    if (write(Z(b)->own_fd, "z", 1) != 1) Z(b)->size = 3;
}
#define OWN(b) touch_own_file(b)
#else
#define OWN(b) (void)(b)
#endif

static void destroy(const bristle_brush_t *b) {
#ifdef OWN_FILE
    close(Z(b)->own_fd);
#endif
    free(Z(b));
}
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b;
    return id && strcmp(id, BRISTLE_EXT_PARAMS) == 0 ? &params : NULL;
}
static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    zoo *z = Z(b);
#ifdef CRASH_IN_BEGIN
    *(volatile int *)(uintptr_t)(s->x < -1e300 ? 8 : 0) = 1;
#endif
#ifdef CLOSES_HARNESS_FDS
    close(3);
    close(4);
#endif
#ifdef CHANGES_CWD
    if (chdir("/") != 0) return BRISTLE_FAILED;
#endif
#ifdef BLOCKS_SIGNALS
    {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigprocmask(SIG_BLOCK, &set, NULL);
    }
#endif
#ifdef CHANGES_FP_MODE
    fesetround(FE_TOWARDZERO);
#endif
#ifdef LEAVES_THREAD
    {
        static int started;
        pthread_t thread;
        if (!started && pthread_create(&thread, NULL, sleep_forever, NULL) == 0) started = 1;
    }
#endif
#ifdef LEAKS
    {
        volatile char *lost = malloc(4096);
        if (lost) lost[0] = 1;
    }
#endif
#ifdef KEEPS_CONTEXT
    z->kept_context = c;
#endif
    OWN(b);
    z->scale = c->scale;
    z->in_stroke = 1;
    PENDING(z)->count = 0;
    z->predicted.count = 0;
    LAST(z)->has = 0;
    add_real(z, s->x, s->y);
    return BRISTLE_OK;
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    zoo *z = Z(b);
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
#ifdef KEEPS_PIXELS
    if (z->kept_pixels) z->kept_pixels[0] = 1;
#endif
#ifdef KEEPS_SAMPLES
    z->kept_samples = s;
#endif
#ifdef KEEPS_DIRTY_LIST
    if (z->kept_list) z->kept_list->count = 0;
#endif
#ifdef KEEPS_TARGET
    if (z->kept_target) {
        volatile int32_t width = z->kept_target->width; /* only read, and ignored */
        (void)width;
    }
#endif
#ifdef BATCH_LIMIT
    if (n > 512) return BRISTLE_FAILED;
#endif
#ifdef COMMITS_PREDICTED
    for (i = 0; i < (uint32_t)z->predicted.count; i++) add(PENDING(z), z->predicted.xy[i][0], z->predicted.xy[i][1]);
#endif
    OWN(b);
    z->events++;
    z->predicted.count = 0;
    for (i = 0; i < n; i++) {
#ifdef NEEDS_PRESSURE
        if (!(SAMPLE(s, i)->flags & BRISTLE_SAMPLE_HAS_PRESSURE)) return BRISTLE_UNSUPPORTED;
#endif
        add_real(z, SAMPLE(s, i)->x, SAMPLE(s, i)->y);
    }
    return BRISTLE_OK;
}
static bristle_status_t predicted(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    OWN(b);
    Z(b)->predicted.count = 0;
    for (i = 0; i < n; i++) add(&Z(b)->predicted, SAMPLE(s, i)->x, SAMPLE(s, i)->y);
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
#ifdef EXIT_IN_ENDED
    if (s->t >= 0) exit(3);
#endif
#ifdef EXIT_ZERO
    if (s->t >= 0) exit(0);
#endif
#ifdef SETS_ENV
    setenv("ZOO_WAS_HERE", "1", 1);
#endif
#ifdef WRITES_STDOUT
    printf("zoo: stroke ended at %g, %g\n", s->x, s->y);
    fflush(stdout);
#endif
#ifdef JOINED_THREAD
    {
        pthread_t thread;
        if (pthread_create(&thread, NULL, nothing, NULL) == 0) pthread_join(thread, NULL);
    }
#endif
    OWN(b);
    Z(b)->in_stroke = 0;
    Z(b)->predicted.count = 0;
    add_real(Z(b), s->x, s->y);
    return BRISTLE_OK;
}
static void cancelled(const bristle_brush_t *b) {
    OWN(b);
    Z(b)->in_stroke = 0;
    PENDING(Z(b))->count = 0;
    Z(b)->predicted.count = 0;
}
static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *d) {
    zoo *z = Z(b);
    const bristle_color_t *c = &t->stroke->color;
    uint8_t rgba[4];
#ifdef KEEPS_CONTEXT
    if (z->kept_context) c = &z->kept_context->color;
#endif
#ifdef ABORT_IN_DRAW
    if (t->width > 0) abort();
#endif
#ifdef KEEPS_PIXELS
    z->kept_pixels = t->pixels;
#endif
#ifdef KEEPS_DIRTY_LIST
    if (BRISTLE_HAS_FIELD(t, bristle_target_t, dirty_list)) z->kept_list = t->dirty_list;
#endif
#ifdef KEEPS_TARGET
    z->kept_target = t;
#endif
#ifdef SLOW_DRAW
    {
        volatile unsigned long spin;
        for (spin = 0; spin < 200000ul; spin++) {
        }
    }
#endif
#ifdef KEEPS_SAMPLES
    if (z->kept_samples && z->kept_samples->x > 1e300) return BRISTLE_FAILED;
#endif
    OWN(b);
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
#ifdef STRAIGHT_ALPHA
    rgba[0] = channel(c->r), rgba[1] = channel(c->g), rgba[2] = channel(c->b);
#else
    rgba[0] = channel(c->r * c->a), rgba[1] = channel(c->g * c->a), rgba[2] = channel(c->b * c->a);
#endif
    rgba[3] = channel(c->a);
#if defined(NONDETERMINISTIC) || defined(HONEST_RANDOM)
    rgba[0] = (uint8_t)(rand() % (rgba[3] + 1));
#endif
#ifdef LATE_NONDETERMINISM
    if (z->events > 300) rgba[0] = (uint8_t)(rand() % (rgba[3] + 1));
#endif
#ifdef PREVIEW_ONLY
    if (t->layer == BRISTLE_LAYER_COMMITTED) {
        PENDING(z)->count = 0;
        return BRISTLE_OK;
    }
    paint(z, t, PENDING(z), rgba, d);
#else
    if (t->layer == BRISTLE_LAYER_COMMITTED) {
        paint(z, t, PENDING(z), rgba, d);
        PENDING(z)->count = 0;
    } else {
        static const uint8_t blue[4] = {0, 0, 255, 255};
        paint(z, t, &z->predicted, blue, d);
    }
#endif
    return BRISTLE_OK;
}

/* ---- library ---- */
#if defined(PREVIEW_ONLY)
#define ZOO_FLAGS BRISTLE_BRUSH_DETERMINISTIC
#elif defined(HONEST_RANDOM)
#define ZOO_FLAGS (BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_WANTS_PREDICTED)
#else
#define ZOO_FLAGS (BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_WANTS_PREDICTED | BRISTLE_BRUSH_DETERMINISTIC)
#endif
static const bristle_descriptor_t descriptor = {
    sizeof descriptor, ZOO_FLAGS,
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
#ifdef CHANGES_UMASK
    umask(077);
#endif
#ifdef SETS_LOCALE
    setlocale(LC_NUMERIC, "C.UTF-8");
#endif
#ifdef INSTALLS_HANDLER
    {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_term;
        sigaction(SIGTERM, &action, NULL);
    }
#endif
    z = (zoo *)calloc(1, sizeof *z);
    if (!z) return NULL;
#ifdef OWN_FILE
    z->own_fd = open("/dev/null", O_WRONLY);
#endif
    z->size = 3;
    z->scale = 1;
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

#ifdef THREAD_IN_INIT
static pthread_t init_thread;
static int init_count;
#endif
static bool init(const char *path) {
    (void)path;
#ifdef IGNORES_SIGPIPE
    signal(SIGPIPE, SIG_IGN);
#endif
#ifdef THREAD_IN_INIT
    if (init_count++ == 0) pthread_create(&init_thread, NULL, sleep_forever, NULL);
#endif
    return true;
}
static void deinit(void) {
#ifdef THREAD_IN_INIT
    if (--init_count == 0) pthread_cancel(init_thread), pthread_join(init_thread, NULL);
#endif
}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof entry, BRISTLE_VERSION_INIT, init, deinit, get_factory, {1, 0, 0}};

#ifdef EXTRA_EXPORTS
BRISTLE_EXPORT int zoo_helper(int x) { return x + 1; }
#endif

BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
