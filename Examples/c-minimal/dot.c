/* dot.c: org.example.dot, a round-capped line through the samples. Plain C99. */
#include <bristle/bristle.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct dot {
    bristle_brush_t brush;        /* what the host sees; brush.brush_data points back here */
    bristle_stroke_context_t ctx; /* copied in begin: the host's pointer dies with the call */
    double opacity;               /* the one parameter, [0, 1] */
    int in_stroke, has_last;
    double last[3];               /* x, y, width of the last point drawn */
    double *pts;                  /* x, y, width of each point received but not drawn yet */
    size_t n, cap;
} dot;

static dot *self(const bristle_brush_t *b) { return (dot *)b->brush_data; }
static double clamp01(double v) { return v > 0 ? (v < 1 ? v : 1) : 0; } /* NaN -> 0 */

static bristle_status_t add(dot *d, const bristle_sample_t *s) {
    double w = (double)d->ctx.width * d->ctx.scale; /* points -> pixels (HiDPI) */
    if (!isfinite(s->x) || !isfinite(s->y)) return BRISTLE_OK; /* bad input: skip it */
    if (s->flags & BRISTLE_SAMPLE_HAS_PRESSURE) w *= 0.25 + 0.75 * clamp01(s->pressure);
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        double *p = realloc(d->pts, cap * 3 * sizeof *p);
        if (!p) return BRISTLE_FAILED;
        d->pts = p, d->cap = cap;
    }
    d->pts[3 * d->n] = s->x, d->pts[3 * d->n + 1] = s->y, d->pts[3 * d->n + 2] = w;
    d->n++;
    return BRISTLE_OK;
}

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    dot *d = self(b);
    memset(&d->ctx, 0, sizeof d->ctx); /* copy no more than the host wrote */
    memcpy(&d->ctx, c, c->struct_size < sizeof d->ctx ? c->struct_size : sizeof d->ctx);
    d->in_stroke = 1, d->has_last = 0, d->n = 0;
    return add(d, s); /* a tap is a dot: a zero-length segment */
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    if (!self(b)->in_stroke) return BRISTLE_BAD_STATE;
    for (i = 0; i < n; i++) /* step by struct_size, never by sizeof: bristle_sample_at */
        if (add(self(b), bristle_sample_at(s, i)) != BRISTLE_OK) return BRISTLE_FAILED;
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    if (!self(b)->in_stroke) return BRISTLE_BAD_STATE;
    self(b)->in_stroke = 0; /* the committed draw that follows still sees the points */
    return add(self(b), s);
}
static void cancelled(const bristle_brush_t *b) { self(b)->in_stroke = 0, self(b)->n = 0; }
static void destroy(const bristle_brush_t *b) { free(self(b)->pts), free(self(b)); }

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t,
                             bristle_rect_t *dirty) {
    dot *d = self(b);
    const bristle_services_t *sv = t->services;
    bristle_paint_t paint = {sizeof(bristle_paint_t), BRISTLE_BLEND_SRC_OVER, {0, 0, 0, 0}, 0};
    size_t i;
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (t->layer != BRISTLE_LAYER_COMMITTED) return BRISTLE_OK; /* nothing provisional */
    paint.color = d->ctx.color, paint.opacity = (float)d->opacity;
    for (i = 0; i < d->n; i++) {
        const double *p = &d->pts[3 * i];
        bristle_segment_t seg = {sizeof(bristle_segment_t), BRISTLE_CAP_ROUND, 0, 0, 0, 0, 0, 0};
        if (!d->has_last) memcpy(d->last, p, sizeof d->last), d->has_last = 1;
        else if (p[0] == d->last[0] && p[1] == d->last[1]) continue; /* no double dot */
        seg.x0 = d->last[0], seg.y0 = d->last[1], seg.width0 = d->last[2];
        seg.x1 = p[0], seg.y1 = p[1], seg.width1 = p[2];
        *dirty = bristle_rect_union(*dirty, sv->fill_segment(sv, t, &seg, &paint));
        memcpy(d->last, p, sizeof d->last);
    }
    d->n = 0;
    return BRISTLE_OK;
}

/* bristle.params/1: one parameter, "opacity" (Examples/strokes/hello.json sets it). */
static const bristle_param_info_t opacity_info = {
    .struct_size = sizeof(bristle_param_info_t), .type = BRISTLE_PARAM_FLOAT, .id = "opacity",
    .name = "Opacity", .description = "Opacity of each segment.", .unit = "",
    .min_value = 0, .max_value = 1, .default_value = 1};
static uint32_t p_count(const bristle_brush_t *b) { (void)b; return 1; }
static const bristle_param_info_t *p_info(const bristle_brush_t *b, uint32_t i) {
    (void)b;
    return i == 0 ? &opacity_info : NULL;
}
static bristle_status_t p_set(const bristle_brush_t *b, const char *id, double v) {
    if (!id || strcmp(id, "opacity") != 0 || !isfinite(v)) return BRISTLE_BAD_ARG;
    if (self(b)->in_stroke) return BRISTLE_BAD_STATE;
    self(b)->opacity = clamp01(v); /* out of range: clamp, do not refuse */
    return BRISTLE_OK;
}
static bristle_status_t p_get(const bristle_brush_t *b, const char *id, double *v) {
    if (!id || strcmp(id, "opacity") != 0 || !v) return BRISTLE_BAD_ARG;
    *v = self(b)->opacity;
    return BRISTLE_OK;
}
static bristle_status_t p_set_color(const bristle_brush_t *b, const char *id,
                                    const bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG; /* no colour parameters */
}
static bristle_status_t p_get_color(const bristle_brush_t *b, const char *id, bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static const bristle_params_t params = {
    .struct_size = sizeof(bristle_params_t), .count = p_count, .info = p_info, .set_value = p_set,
    .get_value = p_get, .set_color = p_set_color, .get_color = p_get_color};
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b;
    return id && strcmp(id, BRISTLE_EXT_PARAMS) == 0 ? &params : NULL;
}

/* Descriptor, factory, entry. */
static const bristle_descriptor_t descriptor = {
    .struct_size = sizeof(bristle_descriptor_t),
    .flags = BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_DETERMINISTIC, .abi = BRISTLE_VERSION_INIT,
    .id = "org.example.dot", .name = "Dot", .vendor = "Example", .version = "1.0.0",
    .description = "A round-capped line through the samples.", .tags = NULL};

static uint32_t f_count(const bristle_brush_factory_t *f) { (void)f; return 1; }
static const bristle_descriptor_t *f_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i == 0 ? &descriptor : NULL;
}
static const bristle_brush_t *f_create(const bristle_brush_factory_t *f, const bristle_host_t *h,
                                       const char *id) {
    dot *d;
    (void)f, (void)h;
    if (!id || strcmp(id, descriptor.id) != 0 || !(d = calloc(1, sizeof *d))) return NULL;
    d->opacity = 1;
    d->brush = (bristle_brush_t){ /* members not named here (predicted, tick) are NULL */
        .struct_size = sizeof(bristle_brush_t), .descriptor = &descriptor, .brush_data = d,
        .destroy = destroy, .get_extension = get_extension, .begin = begin, .moved = moved,
        .ended = ended, .cancelled = cancelled, .draw = draw};
    return &d->brush;
}
static const bristle_brush_factory_t factory = {
    .struct_size = sizeof(bristle_brush_factory_t), .count = f_count,
    .descriptor = f_descriptor, .create = f_create};

static bool init(const char *path) { (void)path; return true; } /* nothing to prepare */
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {.struct_size = sizeof(bristle_entry_t),
                                      .abi = BRISTLE_VERSION_INIT, .init = init,
                                      .deinit = deinit, .get_factory = get_factory,
                                      .host_abi_min = {1, 0, 0}}; /* runs on any 1.x host */

BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
