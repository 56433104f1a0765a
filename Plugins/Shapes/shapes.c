/*
 * org.bristle.line, org.bristle.dashed-line, org.bristle.rectangle and org.bristle.ellipse —
 * DrawingBoard's shape tools as one library (one factory, four brushes).
 *
 * Not continuous: while the pen is down the brush draws its whole current shape, from the
 * first sample to the latest, into the PREVIEW layer after every event (the host restores the
 * preview from the committed layer first, so the shape rubber-bands); after `ended` it draws
 * the final shape once into the COMMITTED layer. A cancelled stroke leaves nothing.
 *
 *   line         begin -> end, round caps.
 *   dashed-line  the same, dash pattern [3w, 3w], phase 0, round caps on every dash.
 *   rectangle    the rectangle spanned by begin and end (any drag direction), stroked,
 *                mitered corners.
 *   ellipse      the ellipse inscribed in that rectangle, stroked.
 *
 * w = the stroke's width times the canvas scale; colour from the stroke context, opacity from
 * the `opacity` parameter (one composite per shape, so a translucent shape has one opacity).
 * Drawing goes through the host's 1.1 shape services (draw_polyline, draw_rect,
 * draw_ellipse); a 1.0 host does not have them and the draw returns BRISTLE_UNSUPPORTED.
 *
 * Plain C99 against include/bristle/bristle.h only; exports only bristle_entry_v1.
 */
#include <bristle/bristle.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SHAPE_LINE, SHAPE_DASHED_LINE, SHAPE_RECTANGLE, SHAPE_ELLIPSE, SHAPE_COUNT };

typedef struct shape_state {
    bristle_brush_t brush;
    const bristle_host_t *host;
    int kind;
    double opacity; /* parameter, [0, 1] */
    bristle_stroke_context_t context;
    int in_stroke; /* between begin and ended */
    int ended;     /* ended, committed draw pending */
    double x0, y0; /* first sample */
    double x1, y1; /* latest sample */
} shape_state;

static shape_state *self(const bristle_brush_t *b) { return (shape_state *)b->brush_data; }
static double clamp01(double v) { return v > 0 ? (v < 1 ? v : 1) : 0; } /* NaN -> 0 */

static bristle_rect_t rect_union(bristle_rect_t a, bristle_rect_t r) {
    int64_t x1, y1;
    if (r.width <= 0 || r.height <= 0) return a;
    if (a.width <= 0 || a.height <= 0) return r;
    x1 = (int64_t)a.x + a.width > (int64_t)r.x + r.width ? (int64_t)a.x + a.width : (int64_t)r.x + r.width;
    y1 = (int64_t)a.y + a.height > (int64_t)r.y + r.height ? (int64_t)a.y + a.height : (int64_t)r.y + r.height;
    a.x = a.x < r.x ? a.x : r.x;
    a.y = a.y < r.y ? a.y : r.y;
    a.width = (int32_t)(x1 - a.x);
    a.height = (int32_t)(y1 - a.y);
    return a;
}

/* ---------------------------------------------------------------------------------------- */
/* Hooks                                                                                     */
/* ---------------------------------------------------------------------------------------- */

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    shape_state *st = self(b);
    if (!c || !s) return BRISTLE_BAD_ARG;
    memset(&st->context, 0, sizeof st->context);
    memcpy(&st->context, c, c->struct_size < sizeof st->context ? c->struct_size : sizeof st->context);
    st->in_stroke = 1;
    st->ended = 0;
    /* A non-finite first sample: the shape starts at the origin until a real sample comes. */
    st->x0 = isfinite(s->x) ? s->x : 0;
    st->y0 = isfinite(s->y) ? s->y : 0;
    st->x1 = st->x0;
    st->y1 = st->y0;
    return BRISTLE_OK;
}

static void track(shape_state *st, const bristle_sample_t *s) {
    if (isfinite(s->x) && isfinite(s->y)) st->x1 = s->x, st->y1 = s->y;
}

static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    shape_state *st = self(b);
    if (!st->in_stroke) return BRISTLE_BAD_STATE;
    if (s && n > 0) track(st, bristle_sample_at(s, n - 1)); /* only the latest position matters to a shape */
    return BRISTLE_OK;
}

static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    shape_state *st = self(b);
    if (!st->in_stroke) return BRISTLE_BAD_STATE;
    if (s) track(st, s);
    st->in_stroke = 0;
    st->ended = 1;
    return BRISTLE_OK;
}

static void cancelled(const bristle_brush_t *b) { self(b)->in_stroke = 0, self(b)->ended = 0; }

/* The whole shape, from (x0, y0) to (x1, y1), onto the target. */
static bristle_status_t draw_shape(shape_state *st, const bristle_target_t *t, bristle_rect_t *dirty) {
    const bristle_services_t *sv = t->services;
    double w = (double)st->context.width * (double)st->context.scale;
    double xy[4], dashes[2];
    bristle_paint_t paint;
    bristle_stroke_style_t style;
    if (!BRISTLE_HAS_FIELD(sv, bristle_services_t, draw_ellipse)) return BRISTLE_UNSUPPORTED;
    if (!(w > 0)) return BRISTLE_OK; /* nothing to draw */
    memset(&paint, 0, sizeof paint);
    paint.struct_size = sizeof paint;
    paint.blend = BRISTLE_BLEND_SRC_OVER;
    paint.color = st->context.color;
    paint.opacity = (float)st->opacity;
    memset(&style, 0, sizeof style);
    style.struct_size = sizeof style;
    style.width = w;
    style.cap = BRISTLE_CAP_ROUND;
    style.join = BRISTLE_JOIN_ROUND;
    style.miter_limit = 10;
    switch (st->kind) {
    case SHAPE_DASHED_LINE:
        dashes[0] = 3 * w, dashes[1] = 3 * w;
        style.dashes = dashes, style.dash_count = 2, style.dash_phase = 0;
        /* fall through */
    case SHAPE_LINE:
        xy[0] = st->x0, xy[1] = st->y0, xy[2] = st->x1, xy[3] = st->y1;
        *dirty = rect_union(*dirty, sv->draw_polyline(sv, t, xy, 2, &style, &paint, NULL));
        break;
    case SHAPE_RECTANGLE:
        style.join = BRISTLE_JOIN_MITER;
        /* From the top-left corner with positive sizes: the same rectangle in any direction. */
        *dirty = rect_union(*dirty, sv->draw_rect(sv, t, fmin(st->x0, st->x1), fmin(st->y0, st->y1),
                                                  fabs(st->x1 - st->x0), fabs(st->y1 - st->y0),
                                                  &style, &paint, NULL));
        break;
    default:
        *dirty = rect_union(*dirty, sv->draw_ellipse(sv, t, 0.5 * (st->x0 + st->x1),
                                                     0.5 * (st->y0 + st->y1), 0.5 * fabs(st->x1 - st->x0),
                                                     0.5 * fabs(st->y1 - st->y0), &style, &paint, NULL));
        break;
    }
    return BRISTLE_OK;
}

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *dirty) {
    shape_state *st = self(b);
    if (!t || !dirty || !t->services) return BRISTLE_BAD_ARG;
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (t->layer == BRISTLE_LAYER_PREVIEW) return st->in_stroke ? draw_shape(st, t, dirty) : BRISTLE_OK;
    if (!st->ended) return BRISTLE_OK; /* committed only once, after ended */
    st->ended = 0;
    return draw_shape(st, t, dirty);
}

static void destroy(const bristle_brush_t *b) { free(self(b)); }

/* ---------------------------------------------------------------------------------------- */
/* Parameters: opacity                                                                       */
/* ---------------------------------------------------------------------------------------- */

static const bristle_param_info_t opacity_info = {
    sizeof(bristle_param_info_t), BRISTLE_PARAM_FLOAT, "opacity", "Opacity",
    "Opacity of the whole shape.", "", 0, 1, 1, NULL, {0, 0, 0, 0}};

static uint32_t p_count(const bristle_brush_t *b) { (void)b; return 1; }
static const bristle_param_info_t *p_info(const bristle_brush_t *b, uint32_t i) {
    (void)b;
    return i == 0 ? &opacity_info : NULL;
}
static bristle_status_t p_set(const bristle_brush_t *b, const char *id, double v) {
    if (!id || strcmp(id, "opacity") != 0 || !isfinite(v)) return BRISTLE_BAD_ARG;
    if (self(b)->in_stroke) return BRISTLE_BAD_STATE;
    self(b)->opacity = clamp01(v);
    return BRISTLE_OK;
}
static bristle_status_t p_get(const bristle_brush_t *b, const char *id, double *v) {
    if (!id || strcmp(id, "opacity") != 0 || !v) return BRISTLE_BAD_ARG;
    *v = self(b)->opacity;
    return BRISTLE_OK;
}
static bristle_status_t p_set_color(const bristle_brush_t *b, const char *id, const bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static bristle_status_t p_get_color(const bristle_brush_t *b, const char *id, bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static const bristle_params_t params = {sizeof(bristle_params_t), 0, p_count, p_info, p_set, p_get,
                                        p_set_color, p_get_color};

static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b;
    return id && strcmp(id, BRISTLE_EXT_PARAMS) == 0 ? &params : NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* Descriptors, factory, entry                                                               */
/* ---------------------------------------------------------------------------------------- */

static const char *const shape_tags[] = {"shape", NULL};
#define SHAPE_DESCRIPTOR(id, name, description)                                                  \
    {sizeof(bristle_descriptor_t), BRISTLE_BRUSH_DETERMINISTIC, BRISTLE_VERSION_INIT, id, name,   \
     "Bristle", "1.0.0", description, shape_tags}
static const bristle_descriptor_t descriptors[SHAPE_COUNT] = {
    SHAPE_DESCRIPTOR("org.bristle.line", "Line",
                     "A straight line from where the pen went down to where it lifted, round caps."),
    SHAPE_DESCRIPTOR("org.bristle.dashed-line", "Dashed line",
                     "A dashed straight line: dashes and gaps three widths long, round caps."),
    SHAPE_DESCRIPTOR("org.bristle.rectangle", "Rectangle",
                     "The outline of the rectangle spanned by the pen's first and last points, mitered corners."),
    SHAPE_DESCRIPTOR("org.bristle.ellipse", "Ellipse",
                     "The outline of the ellipse inscribed in the rectangle spanned by the pen's first and last points."),
};

static uint32_t f_count(const bristle_brush_factory_t *f) { (void)f; return SHAPE_COUNT; }
static const bristle_descriptor_t *f_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i < SHAPE_COUNT ? &descriptors[i] : NULL;
}
static const bristle_brush_t *f_create(const bristle_brush_factory_t *f, const bristle_host_t *h,
                                       const char *id) {
    int kind;
    shape_state *st;
    (void)f;
    if (!id) return NULL;
    for (kind = 0; kind < SHAPE_COUNT; kind++)
        if (strcmp(id, descriptors[kind].id) == 0) break;
    if (kind == SHAPE_COUNT) return NULL;
    if (!(st = calloc(1, sizeof *st))) {
        if (h && h->log) h->log(h, BRISTLE_LOG_ERROR, "shapes: out of memory creating a brush");
        return NULL;
    }
    st->host = h;
    st->kind = kind;
    st->opacity = 1;
    st->brush.struct_size = sizeof(bristle_brush_t);
    st->brush.descriptor = &descriptors[kind];
    st->brush.brush_data = st;
    st->brush.destroy = destroy;
    st->brush.get_extension = get_extension;
    st->brush.begin = begin;
    st->brush.moved = moved;
    st->brush.ended = ended;
    st->brush.cancelled = cancelled;
    st->brush.draw = draw;
    return &st->brush;
}
static const bristle_brush_factory_t factory = {sizeof(bristle_brush_factory_t), 0, f_count,
                                                f_descriptor, f_create};

static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
/* host_abi_min 1.1: the shapes need the 1.1 services (a 1.0 host, which does not read
 * host_abi_min, gets BRISTLE_UNSUPPORTED from draw instead). */
static const bristle_entry_t entry = {sizeof(bristle_entry_t), BRISTLE_VERSION_INIT, init, deinit,
                                      get_factory, {1, 1, 0}};

BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
