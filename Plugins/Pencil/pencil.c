/*
 * org.bristle.pencil and org.bristle.eraser — the reference pencil (DrawingBoard's
 * PencilBrush, improved) and, in the same library, its eraser (DrawingBoard's EraserBrush:
 * the pencil's path with a true erase). One factory, two brushes.
 *
 * Continuous: after every event it draws the new segments (previous sample -> new sample,
 * round caps) into the committed layer. The width is the user's width times the canvas scale,
 * modulated by pressure when the device has pressure: factor min-width + (1 - min-width) * p. Opacity is per stroke: segment coverage
 * accumulates with max into a canvas-sized mask, and the mask is composited once over the
 * pre-stroke pixels (target->base) inside the dirty rectangle, so a 50 % stroke stays 50 %
 * where its segments overlap. Predicted samples extend a second mask drawn into the preview.
 *
 * The eraser composites the same mask with BRISTLE_BLEND_ERASE (destination-out) instead of
 * source-over: pixels lose alpha in proportion to coverage * opacity, so an exported PNG shows
 * the background (colour or image) through, never a painted background colour. It ignores the
 * user's colour; `opacity` is how much it removes.
 *
 * Plain C99 against include/bristle/bristle.h; the factory, descriptors and parameters are
 * the optional helper include/bristle/bristle_plugin.h. Exports only bristle_entry_v1.
 */
#include <bristle/bristle_plugin.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PENCIL_ID "org.bristle.pencil"
#define ERASER_ID "org.bristle.eraser"

typedef struct pencil_state {
    const bristle_host_t *host;
    int erase; /* 1 for org.bristle.eraser: destination-out instead of source-over */

    /* Parameters. */
    double opacity;        /* [0, 1] */
    double pressure_width; /* bool: pressure modulates the width */
    double min_width;      /* [0, 1] width at zero pressure, as a fraction */

    /* The stroke. */
    bristle_stroke_context_t context;
    double width_limit; /* twice the canvas diagonal plus 2: set at begin, from the context */
    int in_stroke;
    double last_x, last_y, last_w;
    double last_pressure; /* the last measured pressure of this stroke */

    /* Segments received but not yet drawn into committed. */
    bristle_segment_t *pending;
    size_t pending_count, pending_capacity;

    /* Predicted samples (already turned into widths) for the next preview draw. */
    bristle_segment_t *predicted;
    size_t predicted_count, predicted_capacity;

    /* Coverage of the stroke so far, and of the stroke plus its prediction. */
    bristle_mask_t mask, predicted_mask;
    bristle_rect_t mask_rect, predicted_rect;
} pencil_state;

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

static double clamp01(double v) { return v != v ? 0 : v < 0 ? 0 : v > 1 ? 1 : v; }

static pencil_state *state_of(const bristle_brush_t *brush) {
    return (pencil_state *)brush->brush_data;
}

/* The diameter in pixels for a sample. When the device has pressure, a sample without it
 * (rare, but legal) reuses the last measured pressure of the stroke; predicted samples never
 * change that memory. The width is clamped to twice the canvas diagonal: wider covers the same
 * pixels and keeps the geometry finite. */
static double width_for(pencil_state *p, const bristle_sample_t *s) {
    double w = (double)p->context.width * (double)p->context.scale;
    double limit = p->width_limit;
    if (p->pressure_width != 0 && (p->context.device_flags & BRISTLE_SAMPLE_HAS_PRESSURE)) {
        double pressure = p->last_pressure;
        if (s->flags & BRISTLE_SAMPLE_HAS_PRESSURE) {
            pressure = clamp01(s->pressure);
            if (!(s->flags & BRISTLE_SAMPLE_PREDICTED)) p->last_pressure = pressure;
        }
        w *= p->min_width + (1 - p->min_width) * pressure;
    }
    if (!(w > 0)) return 0;
    return w < limit ? w : limit;
}

static int usable(const bristle_sample_t *s) {
    return isfinite(s->x) && isfinite(s->y);
}

static int push(bristle_segment_t **list, size_t *count, size_t *capacity, double x0, double y0,
                double w0, double x1, double y1, double w1) {
    if (*count == *capacity) {
        size_t next = *capacity ? *capacity * 2 : 64;
        bristle_segment_t *grown = (bristle_segment_t *)realloc(*list, next * sizeof **list);
        if (!grown) return 0;
        *list = grown;
        *capacity = next;
    }
    {
        bristle_segment_t *seg = &(*list)[(*count)++];
        seg->struct_size = (uint32_t)sizeof(bristle_segment_t);
        seg->cap = BRISTLE_CAP_ROUND;
        seg->x0 = x0;
        seg->y0 = y0;
        seg->x1 = x1;
        seg->y1 = y1;
        seg->width0 = w0;
        seg->width1 = w1;
    }
    return 1;
}

/* The masks' row stride: the width rounded up to an odd multiple of 64 bytes. A stride that
 * is an even multiple of 64 (2,048 on a 2048-pixel canvas) maps the same column of
 * successive rows to a few sets of the CPU's level 1 data cache, where a segment's rows evict
 * one another. */
static int32_t mask_stride(int32_t width) {
    int32_t lines = (int32_t)(((int64_t)width + 63) / 64);
    return (lines | 1) * 64;
}

/* Makes sure both masks match the canvas; a new size reallocates (zeroed). */
static int ensure_masks(pencil_state *p, int32_t width, int32_t height) {
    int32_t stride;
    if (p->mask.data && p->mask.width == width && p->mask.height == height) return 1;
    free(p->mask.data);
    free(p->predicted_mask.data);
    memset(&p->mask, 0, sizeof p->mask);
    memset(&p->predicted_mask, 0, sizeof p->predicted_mask);
    if (width <= 0 || height <= 0 || width > INT32_MAX - 127) return 0;
    stride = mask_stride(width);
    p->mask.data = (uint8_t *)calloc((size_t)stride * (size_t)height, 1);
    p->predicted_mask.data = (uint8_t *)calloc((size_t)stride * (size_t)height, 1);
    if (!p->mask.data || !p->predicted_mask.data) {
        free(p->mask.data);
        free(p->predicted_mask.data);
        memset(&p->mask, 0, sizeof p->mask);
        memset(&p->predicted_mask, 0, sizeof p->predicted_mask);
        return 0;
    }
    p->mask.width = p->predicted_mask.width = width;
    p->mask.height = p->predicted_mask.height = height;
    p->mask.stride_bytes = p->predicted_mask.stride_bytes = stride;
    p->mask_rect = p->predicted_rect = empty_rect;
    return 1;
}

static void forget_stroke(pencil_state *p) {
    const bristle_services_t *svc = p->host->services;
    if (p->mask.data) {
        svc->clear_mask(svc, &p->mask, p->mask_rect);
        svc->clear_mask(svc, &p->predicted_mask, p->predicted_rect);
    }
    p->mask_rect = p->predicted_rect = empty_rect;
    p->pending_count = p->predicted_count = 0;
    p->in_stroke = 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Hooks                                                                                     */
/* ---------------------------------------------------------------------------------------- */

static void pencil_teardown(void *state) {
    pencil_state *p = (pencil_state *)state;
    free(p->pending);
    free(p->predicted);
    free(p->mask.data);
    free(p->predicted_mask.data);
}

static bristle_status_t pencil_begin(const bristle_brush_t *brush,
                                     const bristle_stroke_context_t *context,
                                     const bristle_sample_t *sample) {
    pencil_state *p = state_of(brush);
    forget_stroke(p);
    memset(&p->context, 0, sizeof p->context);
    memcpy(&p->context, context,
           context->struct_size < sizeof p->context ? context->struct_size : sizeof p->context);
    if (!ensure_masks(p, context->canvas_width, context->canvas_height)) return BRISTLE_FAILED;
    p->width_limit = 2 * hypot((double)p->context.canvas_width, (double)p->context.canvas_height) + 2;
    p->in_stroke = 1;
    p->last_pressure = 0.5; /* Pointer Events' pressure of a pressed button without a sensor */
    if (!usable(sample)) {
        p->last_w = -1; /* no position yet: the first usable sample starts the line */
        return BRISTLE_OK;
    }
    p->last_x = sample->x;
    p->last_y = sample->y;
    p->last_w = width_for(p, sample);
    /* A tap is a dot: a zero-length segment. */
    return push(&p->pending, &p->pending_count, &p->pending_capacity, p->last_x, p->last_y,
                p->last_w, p->last_x, p->last_y, p->last_w)
               ? BRISTLE_OK
               : BRISTLE_FAILED;
}

static bristle_status_t add_sample(pencil_state *p, const bristle_sample_t *s) {
    double w;
    if (!usable(s)) return BRISTLE_OK; /* clamp bad input: skip it */
    w = width_for(p, s);
    if (p->last_w < 0) {
        p->last_x = s->x;
        p->last_y = s->y;
        p->last_w = w;
    }
    if (!push(&p->pending, &p->pending_count, &p->pending_capacity, p->last_x, p->last_y,
              p->last_w, s->x, s->y, w))
        return BRISTLE_FAILED;
    p->last_x = s->x;
    p->last_y = s->y;
    p->last_w = w;
    return BRISTLE_OK;
}

static bristle_status_t pencil_moved(const bristle_brush_t *brush, const bristle_sample_t *samples,
                                     uint32_t count) {
    pencil_state *p = state_of(brush);
    uint32_t i;
    if (!p->in_stroke) return BRISTLE_BAD_STATE;
    p->predicted_count = 0;
    for (i = 0; i < count; i++) {
        bristle_status_t status = add_sample(p, bristle_sample_at(samples, i));
        if (status != BRISTLE_OK) return status;
    }
    return BRISTLE_OK;
}

static bristle_status_t pencil_predicted(const bristle_brush_t *brush,
                                         const bristle_sample_t *samples, uint32_t count) {
    pencil_state *p = state_of(brush);
    double x, y, w;
    uint32_t i;
    if (!p->in_stroke) return BRISTLE_BAD_STATE;
    p->predicted_count = 0;
    if (p->last_w < 0) return BRISTLE_OK;
    x = p->last_x;
    y = p->last_y;
    w = p->last_w;
    for (i = 0; i < count; i++) {
        const bristle_sample_t *s = bristle_sample_at(samples, i);
        double sw;
        if (!usable(s)) continue;
        sw = width_for(p, s);
        if (!push(&p->predicted, &p->predicted_count, &p->predicted_capacity, x, y, w, s->x, s->y,
                  sw))
            return BRISTLE_FAILED;
        x = s->x;
        y = s->y;
        w = sw;
    }
    return BRISTLE_OK;
}

static bristle_status_t pencil_ended(const bristle_brush_t *brush, const bristle_sample_t *sample) {
    pencil_state *p = state_of(brush);
    bristle_status_t status;
    if (!p->in_stroke) return BRISTLE_BAD_STATE;
    p->predicted_count = 0;
    status = add_sample(p, sample);
    p->in_stroke = 0;
    return status;
}

static void pencil_cancelled(const bristle_brush_t *brush) { forget_stroke(state_of(brush)); }

static bristle_paint_t stroke_paint(const pencil_state *p) {
    bristle_paint_t paint;
    paint.struct_size = (uint32_t)sizeof paint;
    paint.blend = p->erase ? BRISTLE_BLEND_ERASE : BRISTLE_BLEND_SRC_OVER;
    paint.color = p->context.color;
    if (p->erase) paint.color.a = 1; /* the eraser removes by coverage * opacity alone */
    paint.opacity = (float)p->opacity;
    return paint;
}

static bristle_status_t draw_committed(pencil_state *p, const bristle_target_t *target,
                                       bristle_rect_t *dirty) {
    const bristle_services_t *svc = target->services;
    bristle_rect_t touched = empty_rect;
    bristle_paint_t paint = stroke_paint(p);
    size_t i;
    for (i = 0; i < p->pending_count; i++)
        touched = rect_union(touched, svc->mask_segment(svc, &p->mask, &p->pending[i]));
    p->pending_count = 0;
    p->mask_rect = rect_union(p->mask_rect, touched);
    if (!rect_empty(touched))
        *dirty = svc->composite_mask(svc, target, &p->mask, touched, &paint,
                                     BRISTLE_COMPOSITE_OVER_BASE);
    return BRISTLE_OK;
}

static bristle_status_t draw_preview(pencil_state *p, const bristle_target_t *target,
                                     bristle_rect_t *dirty) {
    const bristle_services_t *svc = target->services;
    bristle_rect_t r = empty_rect;
    bristle_paint_t paint = stroke_paint(p);
    size_t i;
    int32_t x, y;
    svc->clear_mask(svc, &p->predicted_mask, p->predicted_rect);
    for (i = 0; i < p->predicted_count; i++)
        r = rect_union(r, svc->mask_segment(svc, &p->predicted_mask, &p->predicted[i]));
    p->predicted_rect = r;
    if (rect_empty(r)) return BRISTLE_OK;
    /* The preview shows the stroke so far plus its prediction, composited once. */
    for (y = r.y; y < r.y + r.height; y++) {
        const uint8_t *m = p->mask.data + (size_t)y * (size_t)p->mask.stride_bytes;
        uint8_t *q = p->predicted_mask.data + (size_t)y * (size_t)p->predicted_mask.stride_bytes;
        for (x = r.x; x < r.x + r.width; x++)
            if (m[x] > q[x]) q[x] = m[x];
    }
    *dirty = svc->composite_mask(svc, target, &p->predicted_mask, r, &paint,
                                 BRISTLE_COMPOSITE_OVER_BASE);
    return BRISTLE_OK;
}

static bristle_status_t pencil_draw(const bristle_brush_t *brush, const bristle_target_t *target,
                                    bristle_rect_t *dirty) {
    pencil_state *p = state_of(brush);
    if (target->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (!p->mask.data || target->width != p->mask.width || target->height != p->mask.height)
        return BRISTLE_BAD_STATE;
    if (target->layer == BRISTLE_LAYER_COMMITTED) return draw_committed(p, target, dirty);
    if (target->layer == BRISTLE_LAYER_PREVIEW) return draw_preview(p, target, dirty);
    return BRISTLE_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* Parameters (bristle.params/1), descriptors, factory, entry: bristle_plugin.h                */
/* ---------------------------------------------------------------------------------------- */

static const bristle_plugin_param_t pencil_params[] = {
    BRISTLE_PLUGIN_FLOAT(pencil_state, opacity, "opacity", "Opacity",
                         "Opacity of the whole stroke; overlapping segments do not darken it.", "", 0, 1, 1),
    BRISTLE_PLUGIN_BOOL(pencil_state, pressure_width, "pressure-width", "Pressure width",
                        "Pressure changes the width when the device reports pressure.", 1),
    BRISTLE_PLUGIN_FLOAT(pencil_state, min_width, "min-width", "Width at zero pressure",
                         "The width at zero pressure, as a fraction of the full width.", "", 0, 1, 0.25),
};

static bool pencil_setup(void *state, const bristle_host_t *host, int erase) {
    pencil_state *p = (pencil_state *)state;
    p->host = host;
    p->erase = erase;
    p->last_w = -1;
    return true;
}

static const char *const pencil_tags[] = {"pencil", "pressure", NULL};
static const char *const eraser_tags[] = {"eraser", "pressure", NULL};
#define PENCIL_FLAGS (BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_WANTS_PREDICTED | BRISTLE_BRUSH_DETERMINISTIC)
#define PENCIL_BRUSH(id, name, description, tags, erase)                                            \
    {BRISTLE_PLUGIN_DESCRIPTOR(id, name, "Bristle", "1.0.0", description, PENCIL_FLAGS, tags),        \
     sizeof(pencil_state), erase, pencil_setup, pencil_teardown, pencil_begin, pencil_moved,         \
     pencil_predicted, pencil_ended, pencil_cancelled, NULL, pencil_draw,                            \
     BRISTLE_PLUGIN_PARAMS(pencil_params), NULL}

static const bristle_plugin_brush_t pencil_brushes[] = {
    PENCIL_BRUSH(PENCIL_ID, "Pencil",
                 "Round-capped segments between samples; pressure modulates the width; one opacity per stroke.",
                 pencil_tags, 0),
    PENCIL_BRUSH(ERASER_ID, "Eraser",
                 "The pencil's path as a true erase (destination-out): the background shows through.",
                 eraser_tags, 1),
};

BRISTLE_PLUGIN_ENTRY(pencil_brushes, 0) /* host_abi_min 1.0: the 1.0 services are all it needs */
