/*
 * playbrush.c: "test.play", the brush of the `bristle play` tests. Correct without switches:
 * CONTINUOUS | DETERMINISTIC, a round-capped segment from each sample to the next, in the
 * stroke colour and width. Switches make a version that differs or breaks in one way:
 *
 *   -DINK=0xRRGGBB          paints in this colour instead of the stroke colour (a "new build")
 *   -DCRASH_IN_MOVED=N      writes through a NULL pointer in the N-th `moved` of a stroke
 *   -DFAIL_IN_MOVED=N       returns BRISTLE_FAILED from the N-th `moved` of a stroke
 *   -DHANG_IN_MOVED         loops forever in `moved`
 *   -DHANG_IGNORING_SIGXCPU also ignores SIGXCPU first (what RLIMIT_RTTIME's soft limit sends)
 *   -DWRITE_PAST_LAYER      writes 64 MiB past the end of the layer in `draw`
 *   -DCRASH_IN_INIT         writes through a NULL pointer when the library is initialised
 */
#ifdef HANG_IGNORING_SIGXCPU
#define _POSIX_C_SOURCE 200809L /* SIGXCPU */
#define HANG_IN_MOVED
#endif
#include <bristle/bristle.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef struct play {
    bristle_brush_t brush;
    bristle_stroke_context_t ctx;
    int in_stroke, has_last, moves;
    double last_x, last_y;
    double xy[4096][2];
    int n;
} play;

static play *P(const bristle_brush_t *b) { return (play *)b->brush_data; }

#if defined(CRASH_IN_MOVED) || defined(CRASH_IN_INIT)
/* Writes through a null pointer the compiler cannot see is null (it may delete a plain one). */
static int *volatile nowhere;
static void crash(void) { *nowhere = 1; }
#endif

static void add(play *p, const bristle_sample_t *s) {
    if (!isfinite(s->x) || !isfinite(s->y) || p->n == 4096) return;
    p->xy[p->n][0] = s->x, p->xy[p->n][1] = s->y;
    p->n++;
}

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    play *p = P(b);
    memset(&p->ctx, 0, sizeof p->ctx);
    memcpy(&p->ctx, c, c->struct_size < sizeof p->ctx ? c->struct_size : sizeof p->ctx);
    p->in_stroke = 1, p->has_last = 0, p->n = 0, p->moves = 0;
    add(p, s);
    return BRISTLE_OK;
}

static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    play *p = P(b);
    uint32_t i;
    p->moves++;
#ifdef CRASH_IN_MOVED
    if (p->moves == CRASH_IN_MOVED) crash();
#endif
#ifdef FAIL_IN_MOVED
    if (p->moves == FAIL_IN_MOVED) return BRISTLE_FAILED;
#endif
#ifdef HANG_IGNORING_SIGXCPU
    signal(SIGXCPU, SIG_IGN);
#endif
#ifdef HANG_IN_MOVED
    for (;;) {}
#endif
    for (i = 0; i < n; i++) add(p, (const bristle_sample_t *)((const char *)s + i * s->struct_size));
    return BRISTLE_OK;
}

static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    P(b)->in_stroke = 0;
    add(P(b), s);
    return BRISTLE_OK;
}

static void cancelled(const bristle_brush_t *b) { P(b)->in_stroke = 0, P(b)->n = 0; }
static void destroy(const bristle_brush_t *b) { free(P(b)); }
static const void *get_extension(const bristle_brush_t *b, const char *id) { (void)b, (void)id; return NULL; }

static bristle_rect_t grow(bristle_rect_t a, bristle_rect_t r) {
    int32_t x1, y1;
    if (r.width <= 0 || r.height <= 0) return a;
    if (a.width <= 0 || a.height <= 0) return r;
    x1 = a.x + a.width > r.x + r.width ? a.x + a.width : r.x + r.width;
    y1 = a.y + a.height > r.y + r.height ? a.y + a.height : r.y + r.height;
    a.x = a.x < r.x ? a.x : r.x, a.y = a.y < r.y ? a.y : r.y;
    a.width = x1 - a.x, a.height = y1 - a.y;
    return a;
}

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *dirty) {
    play *p = P(b);
    bristle_paint_t paint = {sizeof(bristle_paint_t), BRISTLE_BLEND_SRC_OVER, {0, 0, 0, 0}, 1.0f};
    double width = (double)p->ctx.width * p->ctx.scale;
    int i;
    if (t->layer != BRISTLE_LAYER_COMMITTED) return BRISTLE_OK;
#ifdef WRITE_PAST_LAYER
    memset(t->pixels + (size_t)t->height * (size_t)t->stride_bytes, 0x7f, (size_t)64 << 20);
#endif
    paint.color = p->ctx.color;
#ifdef INK
    paint.color.r = (float)((INK >> 16) & 0xff) / 255.0f;
    paint.color.g = (float)((INK >> 8) & 0xff) / 255.0f;
    paint.color.b = (float)(INK & 0xff) / 255.0f;
    paint.color.a = 1.0f;
#endif
    for (i = 0; i < p->n; i++) {
        bristle_segment_t seg = {sizeof(bristle_segment_t), BRISTLE_CAP_ROUND, 0, 0, 0, 0, width, width};
        if (!p->has_last) p->last_x = p->xy[i][0], p->last_y = p->xy[i][1], p->has_last = 1;
        seg.x0 = p->last_x, seg.y0 = p->last_y, seg.x1 = p->xy[i][0], seg.y1 = p->xy[i][1];
        *dirty = grow(*dirty, t->services->fill_segment(t->services, t, &seg, &paint));
        p->last_x = p->xy[i][0], p->last_y = p->xy[i][1];
    }
    p->n = 0;
    return BRISTLE_OK;
}

static const bristle_descriptor_t descriptor = {
    .struct_size = sizeof(bristle_descriptor_t),
    .flags = BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_DETERMINISTIC, .abi = BRISTLE_VERSION_INIT,
    .id = "test.play", .name = "Play test brush", .vendor = "Bristle tests", .version = "1.0.0",
    .description = "A round line through the samples; -D switches break it.", .tags = NULL};

static uint32_t f_count(const bristle_brush_factory_t *f) { (void)f; return 1; }
static const bristle_descriptor_t *f_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i == 0 ? &descriptor : NULL;
}
static const bristle_brush_t *f_create(const bristle_brush_factory_t *f, const bristle_host_t *h,
                                       const char *id) {
    play *p;
    (void)f, (void)h;
    if (!id || strcmp(id, descriptor.id) != 0 || !(p = calloc(1, sizeof *p))) return NULL;
    p->brush = (bristle_brush_t){
        .struct_size = sizeof(bristle_brush_t), .descriptor = &descriptor, .brush_data = p,
        .destroy = destroy, .get_extension = get_extension, .begin = begin, .moved = moved,
        .ended = ended, .cancelled = cancelled, .draw = draw};
    return &p->brush;
}
static const bristle_brush_factory_t factory = {
    .struct_size = sizeof(bristle_brush_factory_t), .count = f_count,
    .descriptor = f_descriptor, .create = f_create};

static bool init(const char *path) {
    (void)path;
#ifdef CRASH_IN_INIT
    crash();
#endif
    return true;
}
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {.struct_size = sizeof(bristle_entry_t),
                                      .abi = BRISTLE_VERSION_INIT, .init = init,
                                      .deinit = deinit, .get_factory = get_factory};

BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
