/*
 * "test.mirror": a brush written the way a binding in another language is, with its own
 * copies ("mirrors") of the header's paint, segment and descriptor structs instead of the
 * header's types. Correct without a switch (a continuous, deterministic round-capped line
 * through the samples, drawn with fill_segment); each switch breaks one mirror the way a
 * hand-written binding does, and the tests check what the host and `bristle conform` say:
 *
 *   -DPAINT_WITHOUT_OPACITY     the paint mirror lacks `opacity` (struct_size 24, not 28): the
 *                               host draws nothing for it, so the brush renders blank
 *   -DSEGMENT_WITH_EXTRA_FIELD  the segment mirror has a `pressure` field appended (64, not 56):
 *                               the host reads it as a 1.2 segment and draws, but no published
 *                               version has that size
 *   -DDESCRIPTOR_WITHOUT_TAGS   the descriptor mirror lacks `tags` (64, not 72): the loader
 *                               refuses the library
 */
#include <bristle/bristle.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The mirrors. */
typedef struct my_paint {
    uint32_t struct_size, blend;
    bristle_color_t color;
#ifndef PAINT_WITHOUT_OPACITY
    float opacity;
#endif
} my_paint;

typedef struct my_segment {
    uint32_t struct_size, cap;
    double x0, y0, x1, y1, width0, width1;
#ifdef SEGMENT_WITH_EXTRA_FIELD
    double pressure;
#endif
} my_segment;

typedef struct my_descriptor {
    uint32_t struct_size, flags;
    bristle_version_t abi;
    const char *id, *name, *vendor, *version, *description;
#ifndef DESCRIPTOR_WITHOUT_TAGS
    const char *const *tags;
#endif
} my_descriptor;

#define MAX_POINTS 4096

typedef struct mirror {
    bristle_brush_t brush;
    bristle_stroke_context_t ctx;
    int in_stroke, has_last;
    double last_x, last_y;
    double xy[MAX_POINTS][2];
    int n;
} mirror;

static mirror *self(const bristle_brush_t *b) { return (mirror *)b->brush_data; }

static void add(mirror *m, const bristle_sample_t *s) {
    if (!isfinite(s->x) || !isfinite(s->y) || fabs(s->x) > 1e6 || fabs(s->y) > 1e6) return;
    if (m->n == MAX_POINTS) m->n = 0;
    m->xy[m->n][0] = s->x, m->xy[m->n][1] = s->y;
    m->n++;
}

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    mirror *m = self(b);
    memset(&m->ctx, 0, sizeof m->ctx);
    memcpy(&m->ctx, c, c->struct_size < sizeof m->ctx ? c->struct_size : sizeof m->ctx);
    m->in_stroke = 1, m->has_last = 0, m->n = 0;
    add(m, s);
    return BRISTLE_OK;
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    if (!self(b)->in_stroke) return BRISTLE_BAD_STATE;
    for (i = 0; i < n; i++) add(self(b), bristle_sample_at(s, i));
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    if (!self(b)->in_stroke) return BRISTLE_BAD_STATE;
    self(b)->in_stroke = 0;
    add(self(b), s);
    return BRISTLE_OK;
}
static void cancelled(const bristle_brush_t *b) { self(b)->in_stroke = 0, self(b)->n = 0; }
static void destroy(const bristle_brush_t *b) { free(self(b)); }
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b, (void)id;
    return NULL;
}

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *dirty) {
    mirror *m = self(b);
    const bristle_services_t *sv = t->services;
    double w = (double)m->ctx.width * m->ctx.scale;
    my_paint paint;
    int i;
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (t->layer != BRISTLE_LAYER_COMMITTED) return BRISTLE_OK;
    memset(&paint, 0, sizeof paint);
    paint.struct_size = sizeof paint, paint.blend = BRISTLE_BLEND_SRC_OVER, paint.color = m->ctx.color;
#ifndef PAINT_WITHOUT_OPACITY
    paint.opacity = 1;
#endif
    for (i = 0; i < m->n; i++) {
        my_segment seg;
        memset(&seg, 0, sizeof seg);
        seg.struct_size = sizeof seg, seg.cap = BRISTLE_CAP_ROUND;
        seg.x0 = m->has_last ? m->last_x : m->xy[i][0], seg.y0 = m->has_last ? m->last_y : m->xy[i][1];
        seg.x1 = m->xy[i][0], seg.y1 = m->xy[i][1], seg.width0 = seg.width1 = w;
        *dirty = bristle_rect_union(*dirty, sv->fill_segment(sv, t, (const bristle_segment_t *)(const void *)&seg,
                                                             (const bristle_paint_t *)(const void *)&paint));
        m->has_last = 1, m->last_x = m->xy[i][0], m->last_y = m->xy[i][1];
    }
    m->n = 0;
    return BRISTLE_OK;
}

static const my_descriptor descriptor = {
    sizeof(my_descriptor), BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_DETERMINISTIC, BRISTLE_VERSION_INIT,
    "test.mirror", "Mirror", "Bristle tests", "1.0.0", "Hand-mirrored structs, as a binding writes them."
#ifndef DESCRIPTOR_WITHOUT_TAGS
    , NULL
#endif
};

static uint32_t f_count(const bristle_brush_factory_t *f) { (void)f; return 1; }
static const bristle_descriptor_t *f_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i == 0 ? (const bristle_descriptor_t *)(const void *)&descriptor : NULL;
}
static const bristle_brush_t *f_create(const bristle_brush_factory_t *f, const bristle_host_t *h, const char *id) {
    mirror *m;
    (void)f, (void)h;
    if (!id || strcmp(id, descriptor.id) != 0 || !(m = calloc(1, sizeof *m))) return NULL;
    m->brush.struct_size = sizeof(bristle_brush_t);
    m->brush.descriptor = (const bristle_descriptor_t *)(const void *)&descriptor;
    m->brush.brush_data = m;
    m->brush.destroy = destroy, m->brush.get_extension = get_extension, m->brush.begin = begin;
    m->brush.moved = moved, m->brush.ended = ended, m->brush.cancelled = cancelled, m->brush.draw = draw;
    return &m->brush;
}
static const bristle_brush_factory_t factory = {sizeof(bristle_brush_factory_t), 0, f_count, f_descriptor, f_create};

static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof entry, BRISTLE_VERSION_INIT, init, deinit, get_factory, {1, 0, 0}};
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
