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
 * Dirty rectangles (ABI 1.2): each draw reports a few tight rectangles around the outline in
 * the target's dirty list, not its bounding box: the four sides of a rectangle, 16 arcs of an
 * ellipse, up to 16 pieces of a line. So while the shape rubber-bands, the host restores only
 * the strips the old outline covered, whatever the size of the shape (docs/ABI.md, "Several
 * dirty rectangles"). On a 1.1 host the same calls report the bounding box in *dirty.
 *
 * Plain C99 against include/bristle/bristle.h; the factory, descriptors and parameter are the
 * optional helper include/bristle/bristle_plugin.h. Exports only bristle_entry_v1.
 */
#include <bristle/bristle_plugin.h>

#include <math.h>
#include <string.h>

enum { SHAPE_LINE, SHAPE_DASHED_LINE, SHAPE_RECTANGLE, SHAPE_ELLIPSE, SHAPE_COUNT };

typedef struct shape_state {
    int kind;
    double opacity; /* parameter, [0, 1] */
    bristle_stroke_context_t context;
    int in_stroke; /* between begin and ended */
    int ended;     /* ended, committed draw pending */
    double x0, y0; /* first sample */
    double x1, y1; /* latest sample */
} shape_state;

static shape_state *self(const bristle_brush_t *b) { return (shape_state *)b->brush_data; }

/* ---------------------------------------------------------------------------------------- */
/* Dirty rectangles around the outline                                                       */
/* ---------------------------------------------------------------------------------------- */

/* Every pixel a stroke of width w changes lies within w / 2 of its path, plus one pixel of
 * anti-aliasing: boxes around the path grown by this margin cover it. */
static double margin(double w) { return w / 2 + 1; }

/* Reports the real box [x0, x1] x [y0, y1], grown outward to whole pixels and clipped to
 * `drawn` (what the service says it changed, inside the target). Returns 1 if it reported. */
static int add_box(const bristle_target_t *t, bristle_rect_t *dirty, bristle_rect_t drawn,
                   double x0, double y0, double x1, double y1) {
    bristle_rect_t r;
    x0 = floor(fmax(x0, drawn.x)), y0 = floor(fmax(y0, drawn.y));
    x1 = ceil(fmin(x1, (double)drawn.x + drawn.width)), y1 = ceil(fmin(y1, (double)drawn.y + drawn.height));
    if (!(x1 > x0 && y1 > y0)) return 0; /* empty, or NaN */
    r.x = (int32_t)x0, r.y = (int32_t)y0, r.width = (int32_t)(x1 - x0), r.height = (int32_t)(y1 - y0);
    bristle_dirty_add(t, dirty, r);
    return 1;
}

/* The four strips a stroked rectangle's outline covers: each side, grown by the margin on
 * both sides (mitered corners stay inside the top and bottom strips). */
static int add_rect_outline(const bristle_target_t *t, bristle_rect_t *dirty, bristle_rect_t drawn,
                            double x0, double y0, double x1, double y1, double w) {
    double m = margin(w);
    return add_box(t, dirty, drawn, x0 - m, y0 - m, x1 + m, y0 + m)    /* top */
           | add_box(t, dirty, drawn, x0 - m, y1 - m, x1 + m, y1 + m)  /* bottom */
           | add_box(t, dirty, drawn, x0 - m, y0 + m, x0 + m, y1 - m)  /* left */
           | add_box(t, dirty, drawn, x1 - m, y0 + m, x1 + m, y1 - m); /* right */
}

/* 16 arcs of an ellipse outline, each boxed with the margin. Arc ends include the angles 0,
 * pi/2, pi and 3 pi/2, so within an arc x and y are monotonic: its ends bound it. */
#define ELLIPSE_ARCS 16
static int add_ellipse_outline(const bristle_target_t *t, bristle_rect_t *dirty, bristle_rect_t drawn,
                               double cx, double cy, double rx, double ry, double w) {
    const double step = 2 * 3.14159265358979323846 / ELLIPSE_ARCS;
    double m = margin(w);
    int k, any = 0;
    for (k = 0; k < ELLIPSE_ARCS; k++) {
        double xa = cx + rx * cos(k * step), ya = cy + ry * sin(k * step);
        double xb = cx + rx * cos((k + 1) * step), yb = cy + ry * sin((k + 1) * step);
        any |= add_box(t, dirty, drawn, fmin(xa, xb) - m, fmin(ya, yb) - m, fmax(xa, xb) + m, fmax(ya, yb) + m);
    }
    return any;
}

/* A line (dashed or not) cut into up to 16 pieces along its length, each boxed with the
 * margin (which also holds the round caps). A diagonal line costs its length, not its box. */
static int add_line(const bristle_target_t *t, bristle_rect_t *dirty, bristle_rect_t drawn,
                    double x0, double y0, double x1, double y1, double w) {
    double m = margin(w), length = fmax(fabs(x1 - x0), fabs(y1 - y0));
    int k, any = 0, pieces = length >= 15 * 64.0 ? 16 : (int)(length / 64) + 1;
    for (k = 0; k < pieces; k++) {
        double f0 = (double)k / pieces, f1 = (double)(k + 1) / pieces;
        double xa = x0 * (1 - f0) + x1 * f0, ya = y0 * (1 - f0) + y1 * f0; /* never overflows */
        double xb = x0 * (1 - f1) + x1 * f1, yb = y0 * (1 - f1) + y1 * f1;
        any |= add_box(t, dirty, drawn, fmin(xa, xb) - m, fmin(ya, yb) - m, fmax(xa, xb) + m, fmax(ya, yb) + m);
    }
    return any;
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
    double left = fmin(st->x0, st->x1), top = fmin(st->y0, st->y1);
    double right = fmax(st->x0, st->x1), bottom = fmax(st->y0, st->y1);
    bristle_paint_t paint;
    bristle_stroke_style_t style;
    bristle_rect_t drawn;
    int reported;
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
        drawn = sv->draw_polyline(sv, t, xy, 2, &style, &paint, NULL);
        reported = add_line(t, dirty, drawn, st->x0, st->y0, st->x1, st->y1, w);
        break;
    case SHAPE_RECTANGLE:
        style.join = BRISTLE_JOIN_MITER;
        /* From the top-left corner with positive sizes: the same rectangle in any direction. */
        drawn = sv->draw_rect(sv, t, left, top, right - left, bottom - top, &style, &paint, NULL);
        reported = add_rect_outline(t, dirty, drawn, left, top, right, bottom, w);
        break;
    default:
        drawn = sv->draw_ellipse(sv, t, 0.5 * (left + right), 0.5 * (top + bottom), 0.5 * (right - left),
                                 0.5 * (bottom - top), &style, &paint, NULL);
        reported = add_ellipse_outline(t, dirty, drawn, 0.5 * (left + right), 0.5 * (top + bottom),
                                       0.5 * (right - left), 0.5 * (bottom - top), w);
        break;
    }
    if (!reported) bristle_dirty_add(t, dirty, drawn); /* never under-report, whatever the geometry */
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


/* ---------------------------------------------------------------------------------------- */
/* Parameter (opacity), descriptors, factory, entry: bristle_plugin.h                        */
/* ---------------------------------------------------------------------------------------- */

static const bristle_plugin_param_t params[] = {
    BRISTLE_PLUGIN_FLOAT(shape_state, opacity, "opacity", "Opacity", "Opacity of the whole shape.", "", 0, 1, 1),
};

static bool setup(void *state, const bristle_host_t *host, int kind) {
    (void)host;
    ((shape_state *)state)->kind = kind;
    return true;
}

static const char *const shape_tags[] = {"shape", NULL};
#define SHAPE_BRUSH(id, name, description, kind)                                                        \
    {BRISTLE_PLUGIN_DESCRIPTOR(id, name, "Bristle", "1.0.0", description, BRISTLE_BRUSH_DETERMINISTIC,   \
                               shape_tags),                                                             \
     sizeof(shape_state), kind, setup, NULL, begin, moved, NULL, ended, cancelled, NULL, draw,           \
     BRISTLE_PLUGIN_PARAMS(params), NULL}
static const bristle_plugin_brush_t brushes[SHAPE_COUNT] = {
    SHAPE_BRUSH("org.bristle.line", "Line",
                "A straight line from where the pen went down to where it lifted, round caps.", SHAPE_LINE),
    SHAPE_BRUSH("org.bristle.dashed-line", "Dashed line",
                "A dashed straight line: dashes and gaps three widths long, round caps.", SHAPE_DASHED_LINE),
    SHAPE_BRUSH("org.bristle.rectangle", "Rectangle",
                "The outline of the rectangle spanned by the pen's first and last points, mitered corners.",
                SHAPE_RECTANGLE),
    SHAPE_BRUSH("org.bristle.ellipse", "Ellipse",
                "The outline of the ellipse inscribed in the rectangle spanned by the pen's first and last points.",
                SHAPE_ELLIPSE),
};

/* host_abi_min 1.1: the shapes need the 1.1 services (a 1.0 host, which does not read
 * host_abi_min, gets BRISTLE_UNSUPPORTED from draw instead). */
BRISTLE_PLUGIN_ENTRY(brushes, 1)
