/*
 * Probe brushes for the drawing-session tests. They write pixels themselves (3x3 blocks, or a
 * filled rectangle) so every pixel they change is predictable, check the host's side of the
 * contract on every draw (failing with BRISTLE_BAD_STATE if it is broken), and expose what
 * they saw through bristle.params/1 so a test can read it.
 *
 *   test.probe.continuous  CONTINUOUS | WANTS_PREDICTED | WANTS_TICKS: a block per real sample
 *                          into committed; a BLUE block per predicted sample into the preview.
 *   test.probe.shape       WANTS_PREDICTED: a filled rectangle from the first sample to the
 *                          latest (BLUE to a predicted one) into the preview; into committed
 *                          only after `ended`.
 *
 * Parameter "fail-on" (enum none|begin|moved|draw|predicted|ended) makes that hook fail; a
 * failing draw first scribbles over its block, so the test can check that the host restores
 * it. Parameter "huge-dirty" (bool) reports every dirty rectangle as reaching INT32_MAX, an
 * over-estimate the ABI allows.
 */
#include <bristle/bristle.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { FAIL_NONE, FAIL_BEGIN, FAIL_MOVED, FAIL_DRAW, FAIL_PREDICTED, FAIL_ENDED };

typedef struct probe {
    bristle_brush_t brush;
    int shape;
    bristle_stroke_context_t context;
    int in_stroke, ended;
    double start_x, start_y, last_x, last_y;
    int has_predicted;
    double pred_x, pred_y;
    double pending[512][2];
    int pending_count;
    double predicted[64][2];
    int predicted_count;
    double fail_on, ticks, last_t, last_dt, draws_committed, draws_preview, seed_low, huge_dirty;
} probe;

static probe *P(const bristle_brush_t *b) { return (probe *)b->brush_data; }

static int clampi(double v, int lo, int hi) {
    if (!(v == v)) return lo;
    if (v < lo) return lo;
    if (v > hi) return hi;
    return (int)v;
}

/* Fills [x0,x1) x [y0,y1) (clipped) with an opaque colour; grows *dirty. */
static void fill(const bristle_target_t *t, int x0, int y0, int x1, int y1, uint8_t r, uint8_t g,
                 uint8_t b, bristle_rect_t *dirty) {
    int x, y;
    x0 = clampi(x0, 0, t->width);
    x1 = clampi(x1, 0, t->width);
    y0 = clampi(y0, 0, t->height);
    y1 = clampi(y1, 0, t->height);
    if (x0 >= x1 || y0 >= y1) return;
    for (y = y0; y < y1; y++) {
        uint8_t *row = t->pixels + (size_t)y * (size_t)t->stride_bytes;
        for (x = x0; x < x1; x++) {
            row[x * 4 + 0] = r;
            row[x * 4 + 1] = g;
            row[x * 4 + 2] = b;
            row[x * 4 + 3] = 255;
        }
    }
    if (dirty->width <= 0 || dirty->height <= 0) {
        dirty->x = x0, dirty->y = y0, dirty->width = x1 - x0, dirty->height = y1 - y0;
    } else {
        int dx1 = dirty->x + dirty->width, dy1 = dirty->y + dirty->height;
        if (x0 < dirty->x) dirty->x = x0;
        if (y0 < dirty->y) dirty->y = y0;
        dirty->width = (x1 > dx1 ? x1 : dx1) - dirty->x;
        dirty->height = (y1 > dy1 ? y1 : dy1) - dirty->y;
    }
}

static void block(const bristle_target_t *t, double x, double y, uint8_t r, uint8_t g, uint8_t b,
                  bristle_rect_t *dirty) {
    int cx = (int)floor(x), cy = (int)floor(y);
    fill(t, cx - 1, cy - 1, cx + 2, cy + 2, r, g, b, dirty);
}

static uint8_t c8(float v) { return (uint8_t)(v <= 0 ? 0 : v >= 1 ? 255 : v * 255 + 0.5f); }

static void destroy(const bristle_brush_t *b) { free(P(b)); }

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    probe *p = P(b);
    if (p->fail_on == FAIL_BEGIN) return BRISTLE_FAILED;
    if (p->in_stroke) return BRISTLE_BAD_STATE;
    if (c->struct_size < sizeof(bristle_stroke_context_t) || s->struct_size < sizeof(bristle_sample_t))
        return BRISTLE_BAD_STATE;
    p->context = *c;
    p->seed_low = (double)(c->seed & 0xffffffffu);
    p->in_stroke = 1;
    p->ended = 0;
    p->has_predicted = 0;
    p->start_x = p->last_x = s->x;
    p->start_y = p->last_y = s->y;
    p->pending_count = 0;
    p->predicted_count = 0;
    p->pending[p->pending_count][0] = s->x;
    p->pending[p->pending_count++][1] = s->y;
    return BRISTLE_OK;
}

static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    probe *p = P(b);
    uint32_t i;
    if (p->fail_on == FAIL_MOVED) return BRISTLE_FAILED;
    if (!p->in_stroke || n == 0) return BRISTLE_BAD_STATE;
    p->has_predicted = 0;
    p->predicted_count = 0;
    for (i = 0; i < n; i++) {
        if (bristle_sample_at(s, i)->flags & BRISTLE_SAMPLE_PREDICTED) return BRISTLE_BAD_STATE;
        if (p->pending_count < 512) {
            p->pending[p->pending_count][0] = bristle_sample_at(s, i)->x;
            p->pending[p->pending_count++][1] = bristle_sample_at(s, i)->y;
        }
        p->last_x = bristle_sample_at(s, i)->x;
        p->last_y = bristle_sample_at(s, i)->y;
    }
    return BRISTLE_OK;
}

static bristle_status_t predicted(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    probe *p = P(b);
    uint32_t i;
    if (p->fail_on == FAIL_PREDICTED) return BRISTLE_FAILED;
    if (!p->in_stroke || n == 0) return BRISTLE_BAD_STATE;
    p->predicted_count = 0;
    for (i = 0; i < n && i < 64; i++) {
        if (!(bristle_sample_at(s, i)->flags & BRISTLE_SAMPLE_PREDICTED)) return BRISTLE_BAD_STATE;
        p->predicted[i][0] = bristle_sample_at(s, i)->x;
        p->predicted[i][1] = bristle_sample_at(s, i)->y;
        p->predicted_count++;
    }
    p->has_predicted = 1;
    p->pred_x = bristle_sample_at(s, n - 1)->x;
    p->pred_y = bristle_sample_at(s, n - 1)->y;
    return BRISTLE_OK;
}

static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    probe *p = P(b);
    if (!p->in_stroke) return BRISTLE_BAD_STATE;
    p->in_stroke = 0;
    if (p->fail_on == FAIL_ENDED) return BRISTLE_FAILED;
    p->ended = 1;
    p->has_predicted = 0;
    p->predicted_count = 0;
    if (p->pending_count < 512) {
        p->pending[p->pending_count][0] = s->x;
        p->pending[p->pending_count++][1] = s->y;
    }
    p->last_x = s->x;
    p->last_y = s->y;
    return BRISTLE_OK;
}

static void cancelled(const bristle_brush_t *b) {
    probe *p = P(b);
    p->in_stroke = 0;
    p->pending_count = 0;
    p->predicted_count = 0;
    p->has_predicted = 0;
}

static bristle_status_t tick(const bristle_brush_t *b, double t, double dt) {
    probe *p = P(b);
    if (p->in_stroke) return BRISTLE_BAD_STATE;
    p->ticks += 1;
    p->last_t = t;
    p->last_dt = dt;
    return BRISTLE_OK;
}

static bristle_status_t draw_honest(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *d) {
    probe *p = P(b);
    uint8_t r = c8(p->context.color.r), g = c8(p->context.color.g), bl = c8(p->context.color.b);
    int i;
    /* The host's side of the contract. */
    if (t->struct_size < sizeof(bristle_target_t) || !t->pixels || !t->stroke || !t->services ||
        t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED || t->stride_bytes < t->width * 4 ||
        t->width != t->stroke->canvas_width || t->height != t->stroke->canvas_height ||
        (d->width > 0 && d->height > 0))
        return BRISTLE_BAD_STATE;
    if ((p->in_stroke || p->ended) && !t->base) return BRISTLE_BAD_STATE;
    if (p->fail_on == FAIL_DRAW) {
        fill(t, 0, 0, 4, 4, 9, 9, 9, d);
        return BRISTLE_FAILED;
    }
    if (t->layer == BRISTLE_LAYER_COMMITTED) {
        p->draws_committed += 1;
        if (!p->shape) {
            for (i = 0; i < p->pending_count; i++)
                block(t, p->pending[i][0], p->pending[i][1], r, g, bl, d);
            p->pending_count = 0;
        } else if (p->ended) {
            fill(t, (int)floor(fmin(p->start_x, p->last_x)), (int)floor(fmin(p->start_y, p->last_y)),
                 (int)floor(fmax(p->start_x, p->last_x)) + 1, (int)floor(fmax(p->start_y, p->last_y)) + 1,
                 r, g, bl, d);
        }
        p->ended = 0;
        return BRISTLE_OK;
    }
    if (t->layer != BRISTLE_LAYER_PREVIEW) return BRISTLE_BAD_STATE;
    p->draws_preview += 1;
    if (!p->shape) {
        for (i = 0; i < p->predicted_count; i++)
            block(t, p->predicted[i][0], p->predicted[i][1], 0, 0, 255, d);
    } else {
        double ex = p->has_predicted ? p->pred_x : p->last_x, ey = p->has_predicted ? p->pred_y : p->last_y;
        fill(t, (int)floor(fmin(p->start_x, ex)), (int)floor(fmin(p->start_y, ey)),
             (int)floor(fmax(p->start_x, ex)) + 1, (int)floor(fmax(p->start_y, ey)) + 1,
             p->has_predicted ? 0 : r, p->has_predicted ? 0 : g, p->has_predicted ? 255 : bl, d);
    }
    return BRISTLE_OK;
}

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *d) {
    bristle_status_t status = draw_honest(b, t, d);
    if (P(b)->huge_dirty != 0 && d->width > 0 && d->height > 0) {
        d->x = 1;
        d->y = 1;
        d->width = INT32_MAX;
        d->height = INT32_MAX;
    }
    return status;
}

/* Parameters: fail-on, huge-dirty, and read-back counters. */
static const char *const fail_names[] = {"none", "begin", "moved", "draw", "predicted", "ended", NULL};
#define NUM(id, name) \
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_FLOAT, id, name, "", "", 0, 1e9, 0, NULL, {0, 0, 0, 0}}
static const bristle_param_info_t infos[] = {
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_ENUM, "fail-on", "Fail on", "Make a hook fail.", "",
     0, 5, 0, fail_names, {0, 0, 0, 0}},
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_BOOL, "huge-dirty", "Huge dirty", "Over-estimate dirty rects.", "",
     0, 1, 0, NULL, {0, 0, 0, 0}},
    NUM("ticks", "Ticks seen"),
    NUM("last-t", "Last tick t"),
    NUM("last-dt", "Last tick dt"),
    NUM("draws-committed", "Committed draws"),
    NUM("draws-preview", "Preview draws"),
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_FLOAT, "seed-low", "Seed", "Low 32 bits of the last stroke seed.", "",
     0, 4294967295.0, 0, NULL, {0, 0, 0, 0}},
};
#define INFO_COUNT (sizeof infos / sizeof infos[0])

static double *slot(probe *p, const char *id) {
    if (!id) return NULL;
    if (!strcmp(id, "fail-on")) return &p->fail_on;
    if (!strcmp(id, "ticks")) return &p->ticks;
    if (!strcmp(id, "last-t")) return &p->last_t;
    if (!strcmp(id, "last-dt")) return &p->last_dt;
    if (!strcmp(id, "draws-committed")) return &p->draws_committed;
    if (!strcmp(id, "draws-preview")) return &p->draws_preview;
    if (!strcmp(id, "seed-low")) return &p->seed_low;
    if (!strcmp(id, "huge-dirty")) return &p->huge_dirty;
    return NULL;
}
static uint32_t pcount(const bristle_brush_t *b) { (void)b; return (uint32_t)INFO_COUNT; }
static const bristle_param_info_t *pinfo(const bristle_brush_t *b, uint32_t i) {
    (void)b;
    return i < INFO_COUNT ? &infos[i] : NULL;
}
static bristle_status_t pset(const bristle_brush_t *b, const char *id, double v) {
    double *s = slot(P(b), id);
    if (!s || v != v) return BRISTLE_BAD_ARG;
    if (P(b)->in_stroke) return BRISTLE_BAD_STATE;
    *s = v;
    return BRISTLE_OK;
}
static bristle_status_t pget(const bristle_brush_t *b, const char *id, double *v) {
    double *s = slot(P(b), id);
    if (!s || !v) return BRISTLE_BAD_ARG;
    *v = *s;
    return BRISTLE_OK;
}
static bristle_status_t pset_color(const bristle_brush_t *b, const char *id, const bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static bristle_status_t pget_color(const bristle_brush_t *b, const char *id, bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static const bristle_params_t params = {sizeof params, 0, pcount, pinfo, pset, pget, pset_color, pget_color};
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b;
    return id && !strcmp(id, BRISTLE_EXT_PARAMS) ? &params : NULL;
}

static const bristle_descriptor_t descriptors[2] = {
    {sizeof(bristle_descriptor_t),
     BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_WANTS_PREDICTED | BRISTLE_BRUSH_WANTS_TICKS |
         BRISTLE_BRUSH_DETERMINISTIC,
     BRISTLE_VERSION_INIT, "test.probe.continuous", "Continuous probe", "Tests", "1.0.0", "", NULL},
    {sizeof(bristle_descriptor_t), BRISTLE_BRUSH_WANTS_PREDICTED | BRISTLE_BRUSH_DETERMINISTIC,
     BRISTLE_VERSION_INIT, "test.probe.shape", "Shape probe", "Tests", "1.0.0", "", NULL},
};

static uint32_t count(const bristle_brush_factory_t *f) { (void)f; return 2; }
static const bristle_descriptor_t *descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i < 2 ? &descriptors[i] : NULL;
}
static const bristle_brush_t *create(const bristle_brush_factory_t *f, const bristle_host_t *h,
                                     const char *id) {
    probe *p;
    int shape;
    (void)f, (void)h;
    if (!id) return NULL;
    if (!strcmp(id, "test.probe.continuous")) shape = 0;
    else if (!strcmp(id, "test.probe.shape")) shape = 1;
    else return NULL;
    p = (probe *)calloc(1, sizeof *p);
    if (!p) return NULL;
    p->shape = shape;
    p->brush.struct_size = sizeof p->brush;
    p->brush.descriptor = &descriptors[shape];
    p->brush.brush_data = p;
    p->brush.destroy = destroy;
    p->brush.get_extension = get_extension;
    p->brush.begin = begin;
    p->brush.moved = moved;
    p->brush.predicted = predicted;
    p->brush.ended = ended;
    p->brush.cancelled = cancelled;
    p->brush.tick = tick;
    p->brush.draw = draw;
    return &p->brush;
}
static const bristle_brush_factory_t factory = {sizeof factory, 0, count, descriptor, create};
static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && !strcmp(id, BRISTLE_BRUSH_FACTORY_ID) ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof entry, BRISTLE_VERSION_INIT, init, deinit, get_factory, {1, 0, 0}};
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
