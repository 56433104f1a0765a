/*
 * "test.versioned": one brush source built against several headers, to prove that the host
 * runs plugins of every minor (Tests/BristleConformanceTests/VersionedPluginTests.swift):
 *
 *   -I Tests/Fixtures/abi/headers/1.0   as a 1.0 plugin was written: samples[i], no host_abi_min
 *   -I Tests/Fixtures/abi/headers/1.1   the same, as a 1.1 plugin
 *   -I include                          the 1.2 twin: bristle_sample_at, host_abi_min {1, 0, 0}
 *   -I Tests/Fixtures/abi/headers/1.9   a plugin from a made-up future: its sample, paint,
 *                                       descriptor, brush, target, services and entry have
 *                                       grown. It follows the rules (BRISTLE_HAS_FIELD before
 *                                       every 1.9 field and service, arrays by struct_size), so
 *                                       a 1.2 host runs it and it draws what its twin draws.
 *   -DHOST_ABI_MIN_MINOR=9              (with 1.2 or later) declares host_abi_min 1.9: a 1.2
 *                                       host must refuse it at load.
 *   -DINDEX_BY_SIZEOF                   (with 1.9) breaks the stride rule: indexes samples[i] by
 *                                       its own, larger sizeof, so on a 1.2 host it misreads
 *                                       every sample after the first of an event.
 *
 * The brush: continuous and deterministic, a round-capped line through the samples, its width
 * following pressure, drawn with fill_segment (or, on a 1.9 host, draw_segments).
 */
#include <bristle/bristle.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef HOST_ABI_MIN_MINOR
#define HOST_ABI_MIN_MINOR 0
#endif

/* BRISTLE_VERSION_MINOR is a typed constant, not usable in #if: tell the headers apart by what
 * they define. Only the made-up 1.9 header defines BRISTLE_SAMPLE_HAS_ROLL. */
#ifdef BRISTLE_SAMPLE_HAS_ROLL
#define FUTURE_1_9 1
#endif

#define MAX_POINTS 4096

typedef struct versioned {
    bristle_brush_t brush;
    bristle_stroke_context_t ctx;
    int in_stroke, has_last;
    double last[3];
    double pts[MAX_POINTS][3]; /* x, y, width */
    int n;
} versioned;

static versioned *self(const bristle_brush_t *b) { return (versioned *)b->brush_data; }

/* Sample i of a hook's array: by struct_size where the header says so (1.2 and later); a 1.0
 * or 1.1 plugin indexed by its own sizeof, and the host passes it samples of exactly that size. */
#if defined(BRISTLE_ARRAY_AT) && !defined(INDEX_BY_SIZEOF)
#define SAMPLE(s, i) bristle_sample_at(s, i)
#else
#define SAMPLE(s, i) (&(s)[i])
#endif

static void grow(bristle_rect_t *d, bristle_rect_t r) {
    int64_t x1, y1;
    if (r.width <= 0 || r.height <= 0) return;
    if (d->width <= 0 || d->height <= 0) {
        *d = r;
        return;
    }
    x1 = (int64_t)d->x + d->width > (int64_t)r.x + r.width ? (int64_t)d->x + d->width : (int64_t)r.x + r.width;
    y1 = (int64_t)d->y + d->height > (int64_t)r.y + r.height ? (int64_t)d->y + d->height : (int64_t)r.y + r.height;
    if (r.x < d->x) d->x = r.x;
    if (r.y < d->y) d->y = r.y;
    d->width = (int32_t)(x1 - d->x), d->height = (int32_t)(y1 - d->y);
}

static void add(versioned *v, const bristle_sample_t *s) {
    double w = (double)v->ctx.width * v->ctx.scale;
    if (!isfinite(s->x) || !isfinite(s->y) || fabs(s->x) > 1e6 || fabs(s->y) > 1e6) return;
    if ((s->flags & BRISTLE_SAMPLE_HAS_PRESSURE) && s->pressure >= 0 && s->pressure <= 1)
        w *= 0.25 + 0.75 * s->pressure;
#ifdef FUTURE_1_9
    /* A 1.9 field: read only when the host wrote it (never on a 1.2 host). */
    if (BRISTLE_HAS_FIELD(s, bristle_sample_t, roll) && (s->flags & BRISTLE_SAMPLE_HAS_ROLL) && isfinite(s->roll))
        w *= 1 + 0.01 * fabs(s->roll);
#endif
    if (w > 1000) w = 1000;
    if (v->n == MAX_POINTS) v->n = 0;
    v->pts[v->n][0] = s->x, v->pts[v->n][1] = s->y, v->pts[v->n][2] = w;
    v->n++;
}

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    versioned *v = self(b);
    memset(&v->ctx, 0, sizeof v->ctx);
    memcpy(&v->ctx, c, c->struct_size < sizeof v->ctx ? c->struct_size : sizeof v->ctx);
    v->in_stroke = 1, v->has_last = 0, v->n = 0;
    add(v, s);
    return BRISTLE_OK;
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    if (!self(b)->in_stroke) return BRISTLE_BAD_STATE;
    for (i = 0; i < n; i++) add(self(b), SAMPLE(s, i));
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
#ifdef FUTURE_1_9
static bristle_status_t hovered(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    (void)b, (void)s, (void)n;
    return BRISTLE_OK;
}
static const char *get_info(void) { return "built against the made-up 1.9 header"; }
#endif

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *dirty) {
    versioned *v = self(b);
    const bristle_services_t *sv = t->services;
    bristle_paint_t paint;
    int i;
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (t->layer != BRISTLE_LAYER_COMMITTED) return BRISTLE_OK;
#ifdef FUTURE_1_9
    /* A 1.9 target field: honoured only when present (never on a 1.2 host). */
    if (BRISTLE_HAS_FIELD(t, bristle_target_t, selection) && t->selection) return BRISTLE_UNSUPPORTED;
#endif
    memset(&paint, 0, sizeof paint);
    paint.struct_size = sizeof paint, paint.blend = BRISTLE_BLEND_SRC_OVER, paint.color = v->ctx.color;
    paint.opacity = 1;
    for (i = 0; i < v->n; i++) {
        bristle_segment_t seg;
        const double *p = v->pts[i];
        memset(&seg, 0, sizeof seg);
        seg.struct_size = sizeof seg, seg.cap = BRISTLE_CAP_ROUND;
        if (!v->has_last) memcpy(v->last, p, sizeof v->last), v->has_last = 1;
        seg.x0 = v->last[0], seg.y0 = v->last[1], seg.width0 = v->last[2];
        seg.x1 = p[0], seg.y1 = p[1], seg.width1 = p[2];
#ifdef FUTURE_1_9
        /* A 1.9 service: called only when the host's table has it (never on a 1.2 host). */
        if (BRISTLE_HAS_FIELD(sv, bristle_services_t, draw_segments))
            grow(dirty, sv->draw_segments(sv, t, &seg, 1, &paint));
        else
#endif
            grow(dirty, sv->fill_segment(sv, t, &seg, &paint));
        memcpy(v->last, p, sizeof v->last);
    }
    v->n = 0;
    return BRISTLE_OK;
}

static const char *const tags[] = {"test", NULL};
static const bristle_descriptor_t descriptor = {
    sizeof(bristle_descriptor_t), BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_DETERMINISTIC, BRISTLE_VERSION_INIT,
    "test.versioned", "Versioned", "Bristle tests", "1.0.0", "One source, built against every header.", tags
#ifdef FUTURE_1_9
    , "https://example.org/versioned"
#endif
};

static uint32_t f_count(const bristle_brush_factory_t *f) { (void)f; return 1; }
static const bristle_descriptor_t *f_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i == 0 ? &descriptor : NULL;
}
static const bristle_brush_t *f_create(const bristle_brush_factory_t *f, const bristle_host_t *h, const char *id) {
    versioned *v;
    (void)f, (void)h;
    if (!id || strcmp(id, descriptor.id) != 0 || !(v = calloc(1, sizeof *v))) return NULL;
    v->brush.struct_size = sizeof(bristle_brush_t);
    v->brush.descriptor = &descriptor;
    v->brush.brush_data = v;
    v->brush.destroy = destroy, v->brush.get_extension = get_extension, v->brush.begin = begin;
    v->brush.moved = moved, v->brush.ended = ended, v->brush.cancelled = cancelled, v->brush.draw = draw;
#ifdef FUTURE_1_9
    v->brush.hovered = hovered;
#endif
    return &v->brush;
}
static const bristle_brush_factory_t factory = {sizeof(bristle_brush_factory_t), 0, f_count, f_descriptor, f_create};

static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof entry, BRISTLE_VERSION_INIT, init, deinit, get_factory
#ifdef BRISTLE_MAX_DIRTY_RECTS /* a 1.2 or later header */
                                      , {1, HOST_ABI_MIN_MINOR, 0}
#endif
#ifdef FUTURE_1_9
                                      , get_info
#endif
};
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
