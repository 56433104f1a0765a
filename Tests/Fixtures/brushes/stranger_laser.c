/*
 * A correct brush written from docs/ABI.md and bristle.h alone, without reading the harness
 * (issue 12, point 6: "anything the header allows must pass"). It does things that are allowed
 * but unusual, so that `bristle conform --tier strict` is shown to pass them:
 *
 *  - a laser pointer: not CONTINUOUS, it draws its trail into the PREVIEW only and never
 *    changes a committed pixel (its committed draws report nothing);
 *  - WANTS_PREDICTED and WANTS_TICKS, but not DETERMINISTIC: the glow flickers with rand();
 *  - it keeps the host struct from `create` and draws through host->services (bristle.h: a
 *    brush may keep the host and its services table), and logs once through host->log;
 *  - one disc per remembered sample, each reported with bristle_dirty_add: up to 64
 *    rectangles per draw into a list of 16, so the list fills and merges;
 *  - parameters whose range has zero width (an INT 4...4, a FLOAT 0.5...0.5), an ENUM whose
 *    range starts at 3 (one name), a BOOL and a COLOR.
 */
#include <bristle/bristle.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TRAIL 64

typedef struct laser {
    bristle_brush_t brush;
    const bristle_host_t *host;
    double xy[TRAIL][2];
    int count, next;
    double guess[2];
    int has_guess;
    float width;
    float scale;
    bristle_color_t stroke_color;
    /* parameters */
    double ring, glow, tint, hollow;
    bristle_color_t core;
    int in_stroke;
} laser;

static laser *L(const bristle_brush_t *b) { return (laser *)b->brush_data; }

static void remember(laser *l, double x, double y) {
    if (!isfinite(x) || !isfinite(y)) return;
    l->xy[l->next][0] = x;
    l->xy[l->next][1] = y;
    l->next = (l->next + 1) % TRAIL;
    if (l->count < TRAIL) l->count++;
}

/* ---- parameters ---- */
static const char *const tint_names[] = {"red", NULL};
static const bristle_param_info_t infos[] = {
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_INT, "ring", "Ring", "Discs per ring (fixed).", "", 4, 4, 4, NULL,
     {0, 0, 0, 0}},
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_FLOAT, "glow", "Glow", "Glow opacity (fixed).", "", 0.5, 0.5, 0.5,
     NULL, {0, 0, 0, 0}},
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_ENUM, "tint", "Tint", "Colour of the glow.", "", 3, 3, 3,
     tint_names, {0, 0, 0, 0}},
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_BOOL, "hollow", "Hollow", "Draw rings instead of discs.", "", 0, 1,
     0, NULL, {0, 0, 0, 0}},
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_COLOR, "core", "Core", "Colour of the dot.", "", 0, 0, 0, NULL,
     {1, 0.1f, 0.1f, 0.9f}},
};
#define NPARAMS (sizeof infos / sizeof infos[0])

static uint32_t pcount(const bristle_brush_t *b) { (void)b; return (uint32_t)NPARAMS; }
static const bristle_param_info_t *pinfo(const bristle_brush_t *b, uint32_t i) {
    (void)b;
    return i < NPARAMS ? &infos[i] : NULL;
}
static double *slot(laser *l, const char *id) {
    if (strcmp(id, "ring") == 0) return &l->ring;
    if (strcmp(id, "glow") == 0) return &l->glow;
    if (strcmp(id, "tint") == 0) return &l->tint;
    if (strcmp(id, "hollow") == 0) return &l->hollow;
    return NULL;
}
static bristle_status_t pset(const bristle_brush_t *b, const char *id, double v) {
    uint32_t i;
    double *p;
    if (!id || !isfinite(v) || !(p = slot(L(b), id))) return BRISTLE_BAD_ARG;
    if (L(b)->in_stroke) return BRISTLE_BAD_STATE;
    for (i = 0; i < NPARAMS; i++) {
        if (strcmp(infos[i].id, id) != 0) continue;
        if (v < infos[i].min_value) v = infos[i].min_value;
        if (v > infos[i].max_value) v = infos[i].max_value;
        if (infos[i].type != BRISTLE_PARAM_FLOAT) v = floor(v + 0.5);
    }
    *p = v;
    return BRISTLE_OK;
}
static bristle_status_t pget(const bristle_brush_t *b, const char *id, double *v) {
    double *p;
    if (!id || !v || !(p = slot(L(b), id))) return BRISTLE_BAD_ARG;
    *v = *p;
    return BRISTLE_OK;
}
static float clamp01(float c) { return c >= 0 ? (c <= 1 ? c : 1) : 0; }
static bristle_status_t psetc(const bristle_brush_t *b, const char *id, const bristle_color_t *c) {
    if (!id || !c || strcmp(id, "core") != 0) return BRISTLE_BAD_ARG;
    if (L(b)->in_stroke) return BRISTLE_BAD_STATE;
    L(b)->core.r = clamp01(c->r), L(b)->core.g = clamp01(c->g);
    L(b)->core.b = clamp01(c->b), L(b)->core.a = clamp01(c->a);
    return BRISTLE_OK;
}
static bristle_status_t pgetc(const bristle_brush_t *b, const char *id, bristle_color_t *c) {
    if (!id || !c || strcmp(id, "core") != 0) return BRISTLE_BAD_ARG;
    *c = L(b)->core;
    return BRISTLE_OK;
}
static const bristle_params_t params = {sizeof params, 0, pcount, pinfo, pset, pget, psetc, pgetc};

/* ---- hooks ---- */
static void destroy(const bristle_brush_t *b) { free(L(b)); }
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b;
    return id && strcmp(id, BRISTLE_EXT_PARAMS) == 0 ? &params : NULL;
}
static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c, const bristle_sample_t *s) {
    laser *l = L(b);
    l->count = l->next = 0;
    l->has_guess = 0;
    l->width = c->width > 0 && c->width < 100 ? c->width : 6;
    l->scale = c->scale > 0 && c->scale <= 8 ? c->scale : 1;
    l->stroke_color = c->color;
    l->in_stroke = 1;
    remember(l, s->x, s->y);
    return BRISTLE_OK;
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    L(b)->has_guess = 0;
    for (i = 0; i < n; i++) remember(L(b), bristle_sample_at(s, i)->x, bristle_sample_at(s, i)->y);
    return BRISTLE_OK;
}
static bristle_status_t predicted(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    const bristle_sample_t *last = bristle_sample_at(s, n - 1);
    L(b)->has_guess = isfinite(last->x) && isfinite(last->y);
    L(b)->guess[0] = last->x, L(b)->guess[1] = last->y;
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    (void)s;
    L(b)->count = L(b)->next = 0; /* the laser goes out when the pen lifts */
    L(b)->has_guess = 0;
    L(b)->in_stroke = 0;
    return BRISTLE_OK;
}
static void cancelled(const bristle_brush_t *b) {
    L(b)->count = L(b)->next = 0;
    L(b)->has_guess = 0;
    L(b)->in_stroke = 0;
}
static bristle_status_t tick(const bristle_brush_t *b, double t, double dt) {
    (void)b, (void)t, (void)dt;
    return BRISTLE_OK; /* nothing stays on the drawing, so nothing fades */
}

static void disc(const laser *l, const bristle_target_t *t, bristle_rect_t *dirty, double x, double y, double r,
                 const bristle_paint_t *paint) {
    const bristle_services_t *svc = l->host->services;
    bristle_rect_t changed;
    if (l->hollow > 0.5 && svc->struct_size >= offsetof(bristle_services_t, draw_ellipse) + sizeof svc->draw_ellipse) {
        bristle_stroke_style_t style;
        memset(&style, 0, sizeof style);
        style.struct_size = sizeof style;
        style.width = 1;
        changed = svc->draw_ellipse(svc, t, x, y, r, r, &style, paint, NULL);
    } else {
        changed = svc->fill_disc(svc, t, x, y, r, paint);
    }
    bristle_dirty_add(t, dirty, changed);
}

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *dirty) {
    laser *l = L(b);
    bristle_paint_t glow, core;
    double r = l->width * l->scale / 2;
    int i;
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (t->layer == BRISTLE_LAYER_COMMITTED) return BRISTLE_OK; /* a laser leaves no ink */
    glow.struct_size = core.struct_size = sizeof glow;
    glow.blend = core.blend = BRISTLE_BLEND_SRC_OVER;
    glow.color = l->stroke_color;
    glow.opacity = (float)(l->glow * (0.6 + 0.4 * (rand() / (double)RAND_MAX)));
    core.color = l->core;
    core.opacity = 1;
    for (i = 0; i < l->count; i++) {
        int k = (l->next - l->count + i + TRAIL) % TRAIL;
        disc(l, t, dirty, l->xy[k][0], l->xy[k][1], r * (0.3 + 0.7 * i / TRAIL), &glow);
    }
    if (l->count > 0) {
        int k = (l->next - 1 + TRAIL) % TRAIL;
        disc(l, t, dirty, l->xy[k][0], l->xy[k][1], r / 2 + 1, &core);
    }
    if (l->has_guess) disc(l, t, dirty, l->guess[0], l->guess[1], r / 2, &glow);
    return BRISTLE_OK;
}

/* ---- library ---- */
static const char *const tags[] = {"pointer", "preview", NULL};
static const bristle_descriptor_t descriptor = {
    sizeof descriptor, BRISTLE_BRUSH_WANTS_PREDICTED | BRISTLE_BRUSH_WANTS_TICKS, BRISTLE_VERSION_INIT,
    "org.stranger.laser", "Laser pointer", "A stranger", "0.1.0",
    "Shows a glowing trail while the pen is down and leaves nothing on the drawing.", tags};

static uint32_t count(const bristle_brush_factory_t *f) { (void)f; return 1; }
static const bristle_descriptor_t *get_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i == 0 ? &descriptor : NULL;
}
static const bristle_brush_t *create(const bristle_brush_factory_t *f, const bristle_host_t *h, const char *id) {
    laser *l;
    (void)f;
    if (!id || strcmp(id, descriptor.id) != 0) return NULL;
    l = (laser *)calloc(1, sizeof *l);
    if (!l) {
        h->log(h, BRISTLE_LOG_ERROR, "laser: out of memory");
        return NULL;
    }
    h->log(h, BRISTLE_LOG_DEBUG, "laser: created");
    l->host = h;
    l->ring = 4, l->glow = 0.5, l->tint = 3, l->hollow = 0;
    l->core = infos[4].default_color;
    l->width = 6, l->scale = 1;
    l->brush.struct_size = sizeof l->brush;
    l->brush.descriptor = &descriptor;
    l->brush.brush_data = l;
    l->brush.destroy = destroy;
    l->brush.get_extension = get_extension;
    l->brush.begin = begin;
    l->brush.moved = moved;
    l->brush.predicted = predicted;
    l->brush.ended = ended;
    l->brush.cancelled = cancelled;
    l->brush.tick = tick;
    l->brush.draw = draw;
    return &l->brush;
}
static const bristle_brush_factory_t factory = {sizeof factory, 0, count, get_descriptor, create};
static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof entry, BRISTLE_VERSION_INIT, init, deinit, get_factory, {1, 1, 0}};

BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
