/*
 * A correct brush written from docs/ABI.md and bristle.h alone, without reading the harness
 * (issue 12, point 6: "anything the header allows must pass"). It does things that are allowed
 * but unusual, so that `bristle conform --tier strict` is shown to pass them:
 *
 *  - CONTINUOUS without DETERMINISTIC: dots scattered by a generator seeded from the clock and
 *    the instance's address, not from context->seed;
 *  - no `predicted` and no `tick` (both NULL, as its flags allow);
 *  - it writes pixels itself, source-over in premultiplied bytes, never calling a service;
 *  - one dirty rectangle per dot through bristle_dirty_add: dozens per draw into a list of 16;
 *  - pressure only with HAS_PRESSURE, the contact size only with HAS_CONTACT;
 *  - parameters: an INT whose range has zero width (0...0), an INT 1...40, an ENUM whose range
 *    starts at 1, a BOOL; no COLOR, so set_color and get_color always refuse.
 */
#include <bristle/bristle.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct stipple {
    bristle_brush_t brush;
    uint64_t rng;
    double last[2];
    int has_last;
    double pending[4096][3]; /* x, y, radius of the dots not drawn yet */
    int count;
    float spread_px;
    bristle_color_t color;
    double grain, dots, spread, square;
    int in_stroke;
} stipple;

static stipple *S(const bristle_brush_t *b) { return (stipple *)b->brush_data; }

static double uniform(stipple *s) {
    s->rng ^= s->rng << 13, s->rng ^= s->rng >> 7, s->rng ^= s->rng << 17;
    return (double)(s->rng >> 11) / 9007199254740992.0;
}

/* Scatters this sample's dots around (x, y). */
static void scatter(stipple *s, const bristle_sample_t *p) {
    double pressure = (p->flags & BRISTLE_SAMPLE_HAS_PRESSURE) && p->pressure >= 0 && p->pressure <= 1 ? p->pressure
                                                                                                     : 0.5;
    double reach = s->spread_px * (0.5 + s->spread / 2);
    double radius = 0.5 + pressure * 1.5;
    int i, n = (int)s->dots;
    if (!isfinite(p->x) || !isfinite(p->y) || fabs(p->x) > 1e7 || fabs(p->y) > 1e7) return;
    if ((p->flags & BRISTLE_SAMPLE_HAS_CONTACT) && p->width > 0 && p->width < 200) reach = p->width / 2;
    for (i = 0; i < n && s->count < 4096; i++) {
        double a = uniform(s) * 6.283185307179586, d = sqrt(uniform(s)) * reach;
        s->pending[s->count][0] = p->x + cos(a) * d;
        s->pending[s->count][1] = p->y + sin(a) * d;
        s->pending[s->count][2] = radius;
        s->count++;
    }
}

static uint8_t byte(double v) { return (uint8_t)(v <= 0 ? 0 : v >= 255 ? 255 : v + 0.5); }

/* One dot, source-over, clipped; reports its pixels. */
static void dot(const stipple *s, const bristle_target_t *t, bristle_rect_t *dirty, double cx, double cy, double r) {
    int x0 = (int)floor(cx - r), y0 = (int)floor(cy - r), x1 = (int)ceil(cx + r), y1 = (int)ceil(cy + r), x, y;
    double a = s->color.a;
    double src[4];
    bristle_rect_t rect;
    src[0] = s->color.r * a * 255, src[1] = s->color.g * a * 255, src[2] = s->color.b * a * 255, src[3] = a * 255;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > t->width) x1 = t->width;
    if (y1 > t->height) y1 = t->height;
    if (x0 >= x1 || y0 >= y1) return;
    for (y = y0; y < y1; y++) {
        uint8_t *row = t->pixels + (size_t)y * (size_t)t->stride_bytes;
        for (x = x0; x < x1; x++) {
            double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
            uint8_t *px = row + (size_t)x * 4;
            int c;
            if (s->square < 0.5 && dx * dx + dy * dy > r * r) continue;
            for (c = 0; c < 4; c++) px[c] = byte(src[c] + px[c] * (1 - a));
        }
    }
    rect.x = x0, rect.y = y0, rect.width = x1 - x0, rect.height = y1 - y0;
    bristle_dirty_add(t, dirty, rect);
}

/* ---- parameters ---- */
static const char *const spread_names[] = {"tight", "normal", "loose", NULL};
static const bristle_param_info_t infos[] = {
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_INT, "grain", "Grain", "Reserved; always 0.", "", 0, 0, 0, NULL,
     {0, 0, 0, 0}},
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_INT, "dots", "Dots", "Dots per sample.", "", 1, 40, 6, NULL,
     {0, 0, 0, 0}},
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_ENUM, "spread", "Spread", "How far the dots fly.", "", 1, 3, 2,
     spread_names, {0, 0, 0, 0}},
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_BOOL, "square", "Square dots", "Square instead of round dots.", "",
     0, 1, 0, NULL, {0, 0, 0, 0}},
};
#define NPARAMS (sizeof infos / sizeof infos[0])

static uint32_t pcount(const bristle_brush_t *b) { (void)b; return (uint32_t)NPARAMS; }
static const bristle_param_info_t *pinfo(const bristle_brush_t *b, uint32_t i) {
    (void)b;
    return i < NPARAMS ? &infos[i] : NULL;
}
static double *slot(stipple *s, const char *id, const bristle_param_info_t **info) {
    double *slots[NPARAMS];
    uint32_t i;
    slots[0] = &s->grain, slots[1] = &s->dots, slots[2] = &s->spread, slots[3] = &s->square;
    for (i = 0; i < NPARAMS; i++)
        if (strcmp(infos[i].id, id) == 0) return *info = &infos[i], slots[i];
    return NULL;
}
static bristle_status_t pset(const bristle_brush_t *b, const char *id, double v) {
    const bristle_param_info_t *info = NULL;
    double *p;
    if (!id || !isfinite(v) || !(p = slot(S(b), id, &info))) return BRISTLE_BAD_ARG;
    if (S(b)->in_stroke) return BRISTLE_BAD_STATE;
    v = floor(v + 0.5);
    *p = v < info->min_value ? info->min_value : v > info->max_value ? info->max_value : v;
    return BRISTLE_OK;
}
static bristle_status_t pget(const bristle_brush_t *b, const char *id, double *v) {
    const bristle_param_info_t *info = NULL;
    double *p;
    if (!id || !v || !(p = slot(S(b), id, &info))) return BRISTLE_BAD_ARG;
    *v = *p;
    return BRISTLE_OK;
}
static bristle_status_t no_color(const bristle_brush_t *b, const char *id, const bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static bristle_status_t no_color_get(const bristle_brush_t *b, const char *id, bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static const bristle_params_t params = {sizeof params, 0, pcount, pinfo, pset, pget, no_color, no_color_get};

/* ---- hooks ---- */
static void destroy(const bristle_brush_t *b) { free(S(b)); }
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b;
    return id && strcmp(id, BRISTLE_EXT_PARAMS) == 0 ? &params : NULL;
}
static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c, const bristle_sample_t *p) {
    stipple *s = S(b);
    double w = c->width * c->scale;
    s->color = c->color;
    s->spread_px = (float)(w > 0 && w < 400 ? w : 6);
    s->count = 0;
    s->in_stroke = 1;
    s->rng ^= (uint64_t)time(NULL) * 0x9E3779B97F4A7C15u + (uint64_t)clock();
    if (!s->rng) s->rng = 88172645463325252u;
    scatter(s, p);
    return BRISTLE_OK;
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *p, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i++) scatter(S(b), bristle_sample_at(p, i));
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *p) {
    (void)p;
    S(b)->in_stroke = 0;
    return BRISTLE_OK;
}
static void cancelled(const bristle_brush_t *b) {
    S(b)->count = 0;
    S(b)->in_stroke = 0;
}
static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *dirty) {
    stipple *s = S(b);
    int i;
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (t->layer != BRISTLE_LAYER_COMMITTED) return BRISTLE_OK;
    for (i = 0; i < s->count; i++) dot(s, t, dirty, s->pending[i][0], s->pending[i][1], s->pending[i][2]);
    s->count = 0;
    return BRISTLE_OK;
}

/* ---- library ---- */
static const bristle_descriptor_t descriptor = {
    sizeof descriptor, BRISTLE_BRUSH_CONTINUOUS, BRISTLE_VERSION_INIT, "org.stranger.stipple", "Stipple",
    "A stranger", "0.1.0", "Scatters small dots around the pen; never the same twice.", NULL};

static uint32_t count(const bristle_brush_factory_t *f) { (void)f; return 1; }
static const bristle_descriptor_t *get_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i == 0 ? &descriptor : NULL;
}
static const bristle_brush_t *create(const bristle_brush_factory_t *f, const bristle_host_t *h, const char *id) {
    stipple *s;
    (void)f;
    if (!id || strcmp(id, descriptor.id) != 0) return NULL;
    s = (stipple *)calloc(1, sizeof *s);
    if (!s) {
        h->log(h, BRISTLE_LOG_ERROR, "stipple: out of memory");
        return NULL;
    }
    s->rng = (uint64_t)(uintptr_t)s;
    s->grain = 0, s->dots = 6, s->spread = 2, s->square = 0;
    s->brush.struct_size = sizeof s->brush;
    s->brush.descriptor = &descriptor;
    s->brush.brush_data = s;
    s->brush.destroy = destroy;
    s->brush.get_extension = get_extension;
    s->brush.begin = begin;
    s->brush.moved = moved;
    s->brush.ended = ended;
    s->brush.cancelled = cancelled;
    s->brush.draw = draw;
    return &s->brush;
}
static const bristle_brush_factory_t factory = {sizeof factory, 0, count, get_descriptor, create};
static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof entry, BRISTLE_VERSION_INIT, init, deinit, get_factory, {1, 0, 0}};

BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
