/*
 * org.bristle.pencil-shading — the Apple Pencil tutorial's brush (Caroline Begbie's "Scribble"
 * CanvasView), as a Bristle plugin.
 *
 * Continuous: every sample draws one round-capped segment from the previous sample to itself,
 * of constant width, chosen per sample from the tutorial's constants (points, times the
 * context's scale):
 *
 *  - INK (PEN, MOUSE, UNKNOWN pointers). A pen held flatter than pi/6 (altitude < pi/6, with
 *    BRISTLE_SAMPLE_HAS_TILT) SHADES. The angle between the azimuth's unit vector
 *    (cos az, sin az) and the stroke's direction is folded into [0, pi/2]; then
 *    w = 60 * angle / (pi/2), normAlt = 1 - (max(alt, 0.25) - 0.25) / (pi/6 - 0.25),
 *    width = w * normAlt + 5 (5 ... 65) and alpha = force / 5. Otherwise it DRAWS: width
 *    force * 4, or 6 when the force is 0 or unknown, alpha 1. A pen without tilt data is
 *    upright (pi/2); a mouse always draws (tilt ignored).
 *  - FINGER (TOUCH, and the ERASER end of a pen: pointer ERASER, or a pen with the eraser
 *    button, buttons & 32). Width majorRadius / 2, majorRadius = max(width, height) / 2 of the
 *    contact (canvas pixels). Without a contact size (no BRISTLE_SAMPLE_HAS_CONTACT, or the
 *    1 x 1 that browsers report for "unknown") majorRadius is 20 points, a typical finger, so
 *    the width is 10 points. The `finger` parameter chooses what it does: `erase` (default) is
 *    a true erase (BRISTLE_BLEND_ERASE, destination-out: the background shows through, image
 *    or colour); `paint-background` is the tutorial's own behaviour, painting the `background`
 *    colour (default white) opaquely.
 *  The stroke's kind (INK or FINGER) is fixed at `begin` by the first sample's pointer (the
 *  context's when the sample says UNKNOWN): one stroke is one pointer.
 *
 * Force. UIKit's raw force is what the formulas expect (1 = an average touch). With
 * BRISTLE_SAMPLE_HAS_FORCE the sample's `force` is taken as the same fraction of the Pencil's
 * range as it is of its own device's: force / max_force * 4.17 (the raw value itself for an
 * Apple Pencil, whose max_force is about 4.17; an InkML pen reporting F in 0..32767 maps onto
 * the same 0..4.17). Otherwise, with
 * BRISTLE_SAMPLE_HAS_PRESSURE, force = pressure * 4.17 (about the Apple Pencil's maximum
 * force, so full pressure gives the Pencil's full range). With neither the force is unknown:
 * drawing uses the tutorial's default width 6 and shading uses force 1 (alpha 0.2), where the
 * tutorial (force 0 on a device without force) would shade invisibly. When the device reports
 * force, pressure or tilt (context device_flags) but one sample lacks it, the sample reuses
 * the stroke's last measured value, as the reference pencil does for pressure; predicted
 * samples never change that memory.
 *
 * Opacity is per stroke, as in the reference pencil: each segment's coverage times its alpha
 * (1 when drawing, force / 5 when shading) accumulates with MAX into a canvas-sized stroke
 * mask, and the mask is composited once over the pre-stroke pixels (target->base) inside the
 * dirty rectangle. So within one stroke a pixel gets the strongest mark any segment left on it
 * (max over segments of coverage * alpha): going over the same place again in one stroke never
 * darkens it, and a drawn segment covers a shaded one. Separate strokes build up with
 * source-over, like layers of graphite. (The tutorial stroked every segment separately, so its
 * joints darkened, and its alpha leaked into later segments of the same event; neither quirk
 * is reproduced.)
 *
 * Texture. The tutorial's colour is a pattern image ("PencilTexture"); here it is procedural
 * and deterministic: the user's colour, its density modulated per canvas pixel by a paper
 * grain, density = 1 - grain * n(x, y), n in [0, 1] a mix of 3/5 value noise (cells of 3
 * points) and 2/5 per-pixel noise from an integer hash of the pixel's canvas position only
 * (no seed, no stroke state), so overlapping strokes line up like a pattern image. The
 * texture is integer arithmetic: the same bytes on every machine. Its mean density is
 * 1 - grain / 2; the `grain` parameter (default 0.5) sets the strength, and 0 gives flat
 * colour. The density scales the stroke mask just before compositing (never the accumulated
 * coverage). FINGER strokes are untextured.
 *
 * Taps. The tutorial draws only in touchesMoved, so a tap leaves no mark; here too: `begin`
 * only records the position, and a sample at the previous position draws nothing (its
 * direction, which shading needs, is undefined). Predicted samples extend a second mask that
 * is composited into the preview only, never into committed.
 *
 * Plain C99 against include/bristle/bristle.h; the factory, descriptor and parameters are the
 * optional helper include/bristle/bristle_plugin.h. Exports only bristle_entry_v1.
 */
#include <bristle/bristle_plugin.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SHADING_ID "org.bristle.pencil-shading"

#define PI 3.14159265358979323846

/* The tutorial's constants (widths in points). */
#define DEFAULT_LINE_WIDTH 6.0  /* drawing width when the force is 0 or unknown */
#define FORCE_SENSITIVITY 4.0   /* drawing width = force * 4 */
#define TILT_THRESHOLD (PI / 6) /* flatter than this shades */
#define MIN_LINE_WIDTH 5.0      /* shading width at angle 0 */
#define MAX_SHADING_WIDTH 60.0  /* added at angle pi/2 and the lowest altitude */
#define MIN_ALTITUDE 0.25       /* radians: altitudes below count as 0.25 */
#define SHADING_MAX_FORCE 5.0   /* shading alpha = force / 5 */
/* Ours. */
#define PENCIL_MAX_FORCE 4.17     /* Apple Pencil's maximum force: force = pressure * 4.17 */
#define UNKNOWN_FORCE_SHADING 1.0 /* UIKit's average touch, when the force is unknown */
#define DEFAULT_MAJOR_RADIUS 20.0 /* points: a finger without a measured contact */
#define GRAIN_CELL 3.0            /* points: the value-noise cell of the texture */

#define KIND_INK 0
#define KIND_FINGER 1

#define FINGER_ERASE 0
#define FINGER_PAINT_BACKGROUND 1

/* One segment and the alpha its coverage is scaled by, (0, 1]. */
typedef struct shade_segment {
    bristle_segment_t seg;
    double alpha;
} shade_segment;

typedef struct shade_list {
    shade_segment *items;
    size_t count, capacity;
} shade_list;

typedef struct shading_state {
    const bristle_host_t *host;

    /* Parameters. */
    double grain;  /* [0, 1] strength of the paper grain */
    double finger; /* enum: FINGER_ERASE or FINGER_PAINT_BACKGROUND */
    bristle_color_t background;

    /* The stroke. */
    bristle_stroke_context_t context;
    int in_stroke;
    int kind;            /* KIND_INK or KIND_FINGER, fixed at begin */
    uint32_t grain_q;    /* grain in 1/256, 0...256, fixed at begin */
    uint32_t grain_cell; /* texture cell in pixels, 1...64, fixed at begin */
    int has_last;
    double last_x, last_y;

    /* The stroke's last measured values, for samples that lack them. */
    int force_known, tilt_known;
    double last_force, last_altitude, last_azimuth;

    /* Segments received but not yet drawn into committed, and the predicted ones. */
    shade_list pending, predicted;

    /* Coverage * alpha of the stroke so far, and of the stroke plus its prediction. The
     * scratch plane is all zeros between calls (a segment's coverage before its alpha, and the
     * textured mask while compositing, are made in it and zeroed again). */
    bristle_mask_t mask, predicted_mask, scratch;
    bristle_rect_t mask_rect, predicted_rect;
} shading_state;

/* ---------------------------------------------------------------------------------------- */
/* Small helpers                                                                             */
/* ---------------------------------------------------------------------------------------- */

static const bristle_rect_t empty_rect = {0, 0, 0, 0};

static int rect_empty(bristle_rect_t r) { return r.width <= 0 || r.height <= 0; }

static bristle_rect_t rect_union(bristle_rect_t a, bristle_rect_t b) {
    if (rect_empty(a)) return rect_empty(b) ? empty_rect : b;
    if (rect_empty(b)) return a;
    {
        int32_t x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
        int32_t ax1 = a.x + a.width, bx1 = b.x + b.width, ay1 = a.y + a.height, by1 = b.y + b.height;
        bristle_rect_t r;
        r.x = x0;
        r.y = y0;
        r.width = (ax1 > bx1 ? ax1 : bx1) - x0;
        r.height = (ay1 > by1 ? ay1 : by1) - y0;
        return r;
    }
}

/* `r` clipped to [0, width) x [0, height). */
static bristle_rect_t rect_clip(bristle_rect_t r, int32_t width, int32_t height) {
    int64_t x0 = r.x, y0 = r.y, x1 = (int64_t)r.x + r.width, y1 = (int64_t)r.y + r.height;
    bristle_rect_t c;
    if (rect_empty(r)) return empty_rect;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > width) x1 = width;
    if (y1 > height) y1 = height;
    if (x1 <= x0 || y1 <= y0) return empty_rect;
    c.x = (int32_t)x0;
    c.y = (int32_t)y0;
    c.width = (int32_t)(x1 - x0);
    c.height = (int32_t)(y1 - y0);
    return c;
}

static double clamp01(double v) { return v != v ? 0 : v < 0 ? 0 : v > 1 ? 1 : v; }

static shading_state *state_of(const bristle_brush_t *brush) {
    return (shading_state *)brush->brush_data;
}

static int usable(const bristle_sample_t *s) { return isfinite(s->x) && isfinite(s->y); }

static int push(shade_list *list, double x0, double y0, double x1, double y1, double width,
                double alpha) {
    if (list->count == list->capacity) {
        size_t next = list->capacity ? list->capacity * 2 : 64;
        shade_segment *grown = (shade_segment *)realloc(list->items, next * sizeof *grown);
        if (!grown) return 0;
        list->items = grown;
        list->capacity = next;
    }
    {
        shade_segment *s = &list->items[list->count++];
        s->seg.struct_size = (uint32_t)sizeof(bristle_segment_t);
        s->seg.cap = BRISTLE_CAP_ROUND;
        s->seg.x0 = x0;
        s->seg.y0 = y0;
        s->seg.x1 = x1;
        s->seg.y1 = y1;
        s->seg.width0 = width;
        s->seg.width1 = width;
        s->alpha = alpha;
    }
    return 1;
}

static void free_plane(bristle_mask_t *m) {
    free(m->data);
    memset(m, 0, sizeof *m);
}

static int alloc_plane(bristle_mask_t *m, int32_t width, int32_t height) {
    m->data = (uint8_t *)calloc((size_t)width * (size_t)height, 1);
    if (!m->data) return 0;
    m->width = width;
    m->height = height;
    m->stride_bytes = width;
    return 1;
}

/* Makes sure the three planes match the canvas; a new size reallocates (zeroed). */
static int ensure_masks(shading_state *p, int32_t width, int32_t height) {
    if (p->mask.data && p->mask.width == width && p->mask.height == height) return 1;
    free_plane(&p->mask);
    free_plane(&p->predicted_mask);
    free_plane(&p->scratch);
    p->mask_rect = p->predicted_rect = empty_rect;
    if (width <= 0 || height <= 0) return 0;
    if (!alloc_plane(&p->mask, width, height) || !alloc_plane(&p->predicted_mask, width, height) ||
        !alloc_plane(&p->scratch, width, height)) {
        free_plane(&p->mask);
        free_plane(&p->predicted_mask);
        free_plane(&p->scratch);
        return 0;
    }
    return 1;
}

static void forget_stroke(shading_state *p) {
    const bristle_services_t *svc = p->host->services;
    if (p->mask.data) {
        svc->clear_mask(svc, &p->mask, p->mask_rect);
        svc->clear_mask(svc, &p->predicted_mask, p->predicted_rect);
    }
    p->mask_rect = p->predicted_rect = empty_rect;
    p->pending.count = p->predicted.count = 0;
    p->in_stroke = 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The tutorial's widths                                                                     */
/* ---------------------------------------------------------------------------------------- */

/* The force of a sample in UIKit units, or -1 when unknown (see the top of the file). */
static double force_of(shading_state *p, const bristle_sample_t *s) {
    double force = -1;
    if (s->flags & BRISTLE_SAMPLE_HAS_FORCE) {
        /* Device units -> UIKit units: the same fraction of the device's range as of the
         * Pencil's (identical for an Apple Pencil, whose max_force is about 4.17). */
        double raw = isfinite(s->force) && s->force > 0 ? (double)s->force : 0;
        double range = isfinite(s->max_force) && s->max_force > 0 ? (double)s->max_force : PENCIL_MAX_FORCE;
        force = raw / range * PENCIL_MAX_FORCE;
    } else if (s->flags & BRISTLE_SAMPLE_HAS_PRESSURE) {
        force = clamp01(s->pressure) * PENCIL_MAX_FORCE;
    } else if (p->force_known && (p->context.device_flags & (BRISTLE_SAMPLE_HAS_FORCE |
                                                              BRISTLE_SAMPLE_HAS_PRESSURE))) {
        return p->last_force;
    }
    if (force >= 0 && !(s->flags & BRISTLE_SAMPLE_PREDICTED)) {
        p->force_known = 1;
        p->last_force = force;
    }
    return force;
}

/* Altitude and azimuth of a sample; a pen without tilt data is upright. */
static void tilt_of(shading_state *p, const bristle_sample_t *s, double *altitude,
                    double *azimuth) {
    *altitude = PI / 2;
    *azimuth = 0;
    if (s->flags & BRISTLE_SAMPLE_HAS_TILT) {
        double alt = s->altitude, az = s->azimuth;
        *altitude = alt != alt ? PI / 2 : alt < 0 ? 0 : alt > PI / 2 ? PI / 2 : alt;
        *azimuth = isfinite(az) ? az : 0;
        if (!(s->flags & BRISTLE_SAMPLE_PREDICTED)) {
            p->tilt_known = 1;
            p->last_altitude = *altitude;
            p->last_azimuth = *azimuth;
        }
    } else if (p->tilt_known && (p->context.device_flags & BRISTLE_SAMPLE_HAS_TILT)) {
        *altitude = p->last_altitude;
        *azimuth = p->last_azimuth;
    }
}

/* The tutorial's shading width in points for a stroke going (dx, dy). */
static double shading_width(double dx, double dy, double altitude, double azimuth) {
    double angle = fabs(atan2(dy, dx) - atan2(sin(azimuth), cos(azimuth)));
    double alt = altitude > MIN_ALTITUDE ? altitude : MIN_ALTITUDE;
    double norm_alt = 1 - (alt - MIN_ALTITUDE) / (TILT_THRESHOLD - MIN_ALTITUDE);
    if (angle > PI) angle = 2 * PI - angle;
    if (angle > PI / 2) angle = PI - angle;
    return MAX_SHADING_WIDTH * (angle / (PI / 2)) * norm_alt + MIN_LINE_WIDTH;
}

/* Turns one sample into the segment from the previous position, with its width (pixels) and
 * alpha. Returns 0 when the sample draws nothing (bad or repeated position). */
static int segment_for(shading_state *p, const bristle_sample_t *s, double x0, double y0,
                       double *width, double *alpha) {
    double scale = (double)p->context.scale;
    double limit = 2 * hypot((double)p->context.canvas_width, (double)p->context.canvas_height) + 2;
    double w;
    if (!(scale > 0) || !isfinite(scale)) scale = 1;
    *alpha = 1;
    if (p->kind == KIND_FINGER) {
        double major = -1;
        if (s->flags & BRISTLE_SAMPLE_HAS_CONTACT) {
            double cw = isfinite(s->width) ? (double)s->width : 0;
            double ch = isfinite(s->height) ? (double)s->height : 0;
            double size = cw > ch ? cw : ch;
            if (size > 1) major = size / 2; /* 1 x 1 is the browsers' "unknown" */
        }
        w = (major > 0 ? major : DEFAULT_MAJOR_RADIUS * scale) / 2;
    } else {
        double force = force_of(p, s), altitude, azimuth;
        if (s->pointer_type == BRISTLE_POINTER_MOUSE) {
            altitude = PI / 2;
            azimuth = 0;
        } else {
            tilt_of(p, s, &altitude, &azimuth);
        }
        if (altitude < TILT_THRESHOLD) {
            w = shading_width(s->x - x0, s->y - y0, altitude, azimuth) * scale;
            *alpha = clamp01((force >= 0 ? force : UNKNOWN_FORCE_SHADING) / SHADING_MAX_FORCE);
        } else {
            w = (force > 0 ? force * FORCE_SENSITIVITY : DEFAULT_LINE_WIDTH) * scale;
        }
    }
    if (s->x == x0 && s->y == y0) return 0; /* measured, remembered, but no direction */
    if (!(w > 0) || !(*alpha > 0)) return 0;
    *width = w < limit ? w : limit;
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* Hooks                                                                                     */
/* ---------------------------------------------------------------------------------------- */

static void shading_teardown(void *state) {
    shading_state *p = (shading_state *)state;
    free(p->pending.items);
    free(p->predicted.items);
    free(p->mask.data);
    free(p->predicted_mask.data);
    free(p->scratch.data);
}

static int is_finger(const bristle_sample_t *s, uint32_t context_pointer) {
    uint32_t type = s->pointer_type != BRISTLE_POINTER_UNKNOWN ? s->pointer_type : context_pointer;
    if (type == BRISTLE_POINTER_TOUCH || type == BRISTLE_POINTER_ERASER) return 1;
    return type == BRISTLE_POINTER_PEN && (s->buttons & 32u) != 0; /* the pen's eraser button */
}

static bristle_status_t shading_begin(const bristle_brush_t *brush,
                                      const bristle_stroke_context_t *context,
                                      const bristle_sample_t *sample) {
    shading_state *p = state_of(brush);
    double cell, scale;
    forget_stroke(p);
    memset(&p->context, 0, sizeof p->context);
    memcpy(&p->context, context,
           context->struct_size < sizeof p->context ? context->struct_size : sizeof p->context);
    if (!ensure_masks(p, context->canvas_width, context->canvas_height)) return BRISTLE_FAILED;
    p->in_stroke = 1;
    p->kind = is_finger(sample, p->context.pointer_type) ? KIND_FINGER : KIND_INK;
    p->grain_q = (uint32_t)(clamp01(p->grain) * 256 + 0.5);
    scale = (double)p->context.scale;
    cell = GRAIN_CELL * (scale > 0 && isfinite(scale) ? scale : 1) + 0.5;
    p->grain_cell = cell < 1 ? 1 : cell > 64 ? 64 : (uint32_t)cell;
    p->force_known = p->tilt_known = 0;
    p->has_last = 0;
    if (!usable(sample)) return BRISTLE_OK; /* the first usable sample starts the line */
    p->last_x = sample->x;
    p->last_y = sample->y;
    p->has_last = 1;
    if (p->kind == KIND_INK) { /* remember what the first sample measured */
        double altitude, azimuth;
        (void)force_of(p, sample);
        tilt_of(p, sample, &altitude, &azimuth);
    }
    return BRISTLE_OK; /* a tap leaves no mark, as in the tutorial */
}

/* Adds the segment from (*x, *y) to `s` to `list`, then moves (*x, *y) to `s`. A bad
 * position is skipped; the first usable one only sets the position. */
static bristle_status_t add_sample(shading_state *p, shade_list *list, const bristle_sample_t *s,
                                   double *x, double *y) {
    double width, alpha;
    if (!usable(s)) return BRISTLE_OK; /* clamp bad input: skip it */
    if (!p->has_last) {
        *x = s->x;
        *y = s->y;
        p->has_last = 1;
    }
    if (segment_for(p, s, *x, *y, &width, &alpha) &&
        !push(list, *x, *y, s->x, s->y, width, alpha))
        return BRISTLE_FAILED;
    *x = s->x;
    *y = s->y;
    return BRISTLE_OK;
}

static bristle_status_t shading_moved(const bristle_brush_t *brush,
                                      const bristle_sample_t *samples, uint32_t count) {
    shading_state *p = state_of(brush);
    uint32_t i;
    if (!p->in_stroke) return BRISTLE_BAD_STATE;
    p->predicted.count = 0;
    for (i = 0; i < count; i++) {
        bristle_status_t status = add_sample(p, &p->pending, bristle_sample_at(samples, i), &p->last_x, &p->last_y);
        if (status != BRISTLE_OK) return status;
    }
    return BRISTLE_OK;
}

static bristle_status_t shading_predicted(const bristle_brush_t *brush,
                                          const bristle_sample_t *samples, uint32_t count) {
    shading_state *p = state_of(brush);
    double x, y;
    uint32_t i;
    if (!p->in_stroke) return BRISTLE_BAD_STATE;
    p->predicted.count = 0;
    if (!p->has_last) return BRISTLE_OK;
    x = p->last_x;
    y = p->last_y;
    for (i = 0; i < count; i++) {
        bristle_sample_t s = *bristle_sample_at(samples, i);
        s.flags |= BRISTLE_SAMPLE_PREDICTED; /* never touch the measurement memory */
        if (add_sample(p, &p->predicted, &s, &x, &y) != BRISTLE_OK) return BRISTLE_FAILED;
    }
    return BRISTLE_OK;
}

static bristle_status_t shading_ended(const bristle_brush_t *brush,
                                      const bristle_sample_t *sample) {
    shading_state *p = state_of(brush);
    bristle_status_t status;
    if (!p->in_stroke) return BRISTLE_BAD_STATE;
    p->predicted.count = 0;
    status = add_sample(p, &p->pending, sample, &p->last_x, &p->last_y);
    p->in_stroke = 0;
    return status;
}

static void shading_cancelled(const bristle_brush_t *brush) { forget_stroke(state_of(brush)); }

/* ---------------------------------------------------------------------------------------- */
/* Coverage, texture, composite                                                              */
/* ---------------------------------------------------------------------------------------- */

/* Accumulates a segment's coverage times its alpha into `mask` with max. A segment of alpha 1
 * goes straight in; otherwise its coverage is made in the scratch plane, scaled, folded in
 * and the scratch zeroed again. Returns the rectangle of cells that may have risen. */
static bristle_rect_t add_coverage(shading_state *p, const bristle_services_t *svc,
                                   const bristle_mask_t *mask, const shade_segment *s) {
    bristle_rect_t r;
    uint32_t a;
    int32_t x, y;
    if (s->alpha >= 1) return svc->mask_segment(svc, mask, &s->seg);
    r = rect_clip(svc->mask_segment(svc, &p->scratch, &s->seg), mask->width, mask->height);
    a = (uint32_t)(clamp01(s->alpha) * 65536 + 0.5);
    for (y = r.y; y < r.y + r.height; y++) {
        uint8_t *c = p->scratch.data + (size_t)y * (size_t)p->scratch.stride_bytes;
        uint8_t *m = mask->data + (size_t)y * (size_t)mask->stride_bytes;
        for (x = r.x; x < r.x + r.width; x++) {
            if (c[x]) {
                uint32_t v = ((uint32_t)c[x] * a + 32768u) >> 16;
                if (v > m[x]) m[x] = (uint8_t)v;
                c[x] = 0;
            }
        }
    }
    return r;
}

/* A 32-bit integer hash of a cell and a salt (lowbias32 finaliser). */
static uint32_t hash3(uint32_t x, uint32_t y, uint32_t salt) {
    uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u ^ salt * 0xcb1ab31fu;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

/* Paper density at canvas pixel (x, y) in 0...255: 255 - grain * n, n = 3/5 bilinear value
 * noise over cells of `cell` pixels + 2/5 per-pixel noise. Integer maths: the same bytes on
 * every machine. */
static uint32_t density_at(uint32_t x, uint32_t y, uint32_t cell, uint32_t grain_q) {
    uint32_t cx = x / cell, cy = y / cell, fx = x % cell, fy = y % cell;
    uint32_t v00 = hash3(cx, cy, 1) & 255u, v10 = hash3(cx + 1, cy, 1) & 255u;
    uint32_t v01 = hash3(cx, cy + 1, 1) & 255u, v11 = hash3(cx + 1, cy + 1, 1) & 255u;
    uint32_t top = v00 * (cell - fx) + v10 * fx, bottom = v01 * (cell - fx) + v11 * fx;
    uint32_t value = (top * (cell - fy) + bottom * fy) / (cell * cell);
    uint32_t white = hash3(x, y, 2) & 255u;
    uint32_t n = (3 * value + 2 * white + 2) / 5;
    return 255u - ((n * grain_q + 128u) >> 8);
}

static bristle_paint_t stroke_paint(const shading_state *p) {
    bristle_paint_t paint;
    paint.struct_size = (uint32_t)sizeof paint;
    paint.blend = BRISTLE_BLEND_SRC_OVER;
    paint.color = p->context.color;
    paint.opacity = 1;
    if (p->kind == KIND_FINGER) {
        if (p->finger == FINGER_PAINT_BACKGROUND) {
            paint.color = p->background;
        } else {
            paint.blend = BRISTLE_BLEND_ERASE;
            paint.color.r = paint.color.g = paint.color.b = 0;
            paint.color.a = 1;
        }
    }
    return paint;
}

/* Composites `mask` inside `r` over target->base with the stroke's paint; ink strokes go
 * through the paper texture first (made in the scratch plane, which is zeroed again). */
static bristle_rect_t composite(shading_state *p, const bristle_target_t *target,
                                const bristle_mask_t *mask, bristle_rect_t r) {
    const bristle_services_t *svc = target->services;
    bristle_paint_t paint = stroke_paint(p);
    bristle_rect_t changed;
    int32_t x, y;
    r = rect_clip(r, mask->width, mask->height);
    if (rect_empty(r)) return empty_rect;
    if (p->kind == KIND_FINGER || p->grain_q == 0)
        return svc->composite_mask(svc, target, mask, r, &paint, BRISTLE_COMPOSITE_OVER_BASE);
    for (y = r.y; y < r.y + r.height; y++) {
        const uint8_t *m = mask->data + (size_t)y * (size_t)mask->stride_bytes;
        uint8_t *t = p->scratch.data + (size_t)y * (size_t)p->scratch.stride_bytes;
        for (x = r.x; x < r.x + r.width; x++) {
            uint32_t d;
            if (!m[x]) continue; /* the scratch is already 0 there */
            d = density_at((uint32_t)x, (uint32_t)y, p->grain_cell, p->grain_q);
            t[x] = (uint8_t)(((uint32_t)m[x] * d + 127u) / 255u);
        }
    }
    changed = svc->composite_mask(svc, target, &p->scratch, r, &paint, BRISTLE_COMPOSITE_OVER_BASE);
    svc->clear_mask(svc, &p->scratch, r);
    return changed;
}

static bristle_status_t draw_committed(shading_state *p, const bristle_target_t *target,
                                       bristle_rect_t *dirty) {
    const bristle_services_t *svc = target->services;
    bristle_rect_t touched = empty_rect;
    size_t i;
    for (i = 0; i < p->pending.count; i++)
        touched = rect_union(touched, add_coverage(p, svc, &p->mask, &p->pending.items[i]));
    p->pending.count = 0;
    p->mask_rect = rect_union(p->mask_rect, touched);
    if (!rect_empty(touched)) *dirty = composite(p, target, &p->mask, touched);
    return BRISTLE_OK;
}

static bristle_status_t draw_preview(shading_state *p, const bristle_target_t *target,
                                     bristle_rect_t *dirty) {
    const bristle_services_t *svc = target->services;
    bristle_rect_t r = empty_rect;
    size_t i;
    int32_t x, y;
    svc->clear_mask(svc, &p->predicted_mask, p->predicted_rect);
    for (i = 0; i < p->predicted.count; i++)
        r = rect_union(r, add_coverage(p, svc, &p->predicted_mask, &p->predicted.items[i]));
    r = rect_clip(r, p->predicted_mask.width, p->predicted_mask.height);
    p->predicted_rect = r;
    if (rect_empty(r)) return BRISTLE_OK;
    /* The preview shows the stroke so far plus its prediction, composited once. */
    for (y = r.y; y < r.y + r.height; y++) {
        const uint8_t *m = p->mask.data + (size_t)y * (size_t)p->mask.stride_bytes;
        uint8_t *q = p->predicted_mask.data + (size_t)y * (size_t)p->predicted_mask.stride_bytes;
        for (x = r.x; x < r.x + r.width; x++)
            if (m[x] > q[x]) q[x] = m[x];
    }
    *dirty = composite(p, target, &p->predicted_mask, r);
    return BRISTLE_OK;
}

static bristle_status_t shading_draw(const bristle_brush_t *brush, const bristle_target_t *target,
                                     bristle_rect_t *dirty) {
    shading_state *p = state_of(brush);
    if (target->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (!p->mask.data || target->width != p->mask.width || target->height != p->mask.height)
        return BRISTLE_BAD_STATE;
    if (target->layer == BRISTLE_LAYER_COMMITTED) return draw_committed(p, target, dirty);
    if (target->layer == BRISTLE_LAYER_PREVIEW) return draw_preview(p, target, dirty);
    return BRISTLE_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* Parameters (bristle.params/1), descriptor, factory, entry: bristle_plugin.h                 */
/* ---------------------------------------------------------------------------------------- */

static const char *const finger_names[] = {"erase", "paint-background", NULL};

static const bristle_plugin_param_t shading_params[] = {
    BRISTLE_PLUGIN_FLOAT(shading_state, grain, "grain", "Grain",
                         "Strength of the paper grain in the pencil texture; 0 draws flat colour.", "", 0, 1, 0.5),
    BRISTLE_PLUGIN_ENUM(shading_state, finger, "finger", "Finger",
                        "What a finger or the pen's eraser end does: erase for real, or paint the background "
                        "colour as the tutorial did.",
                        finger_names, 2, FINGER_ERASE),
    BRISTLE_PLUGIN_COLOR(shading_state, background, "background", "Background",
                         "The colour a finger paints when finger is paint-background.", 1, 1, 1, 1),
};

static bool shading_setup(void *state, const bristle_host_t *host, int variant) {
    (void)variant;
    ((shading_state *)state)->host = host;
    return true;
}

static const char *const shading_tags[] = {"pencil", "tilt", "shading", "force", "eraser", NULL};

static const bristle_plugin_brush_t shading_brushes[] = {{
    BRISTLE_PLUGIN_DESCRIPTOR(SHADING_ID, "Pencil Shading", "Bristle", "1.0.0",
                              "The Apple Pencil tutorial's pencil: force sets the width, a tilted pen shades wide "
                              "and light, a finger erases; textured graphite, one opacity per stroke.",
                              BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_WANTS_PREDICTED | BRISTLE_BRUSH_DETERMINISTIC,
                              shading_tags),
    sizeof(shading_state), 0, shading_setup, shading_teardown, shading_begin, shading_moved, shading_predicted,
    shading_ended, shading_cancelled, NULL, shading_draw, BRISTLE_PLUGIN_PARAMS(shading_params), NULL,
}};

BRISTLE_PLUGIN_ENTRY(shading_brushes, 0) /* host_abi_min 1.0: the 1.0 services are all it needs */
