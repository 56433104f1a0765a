/*
 * org.bristle.force-hue — the ForceSketch brush: pressure sets the width and the hue, and after
 * lift the drawing brightens and blurs away, frame by frame.
 *
 * What the seed (ForceSketch) does, and this brush reproduces:
 *  - Every coalesced sample of every `moved` draws one segment, previous sample -> this sample,
 *    round caps, with the sample's own width and colour. With BRISTLE_SAMPLE_HAS_PRESSURE (the
 *    host derives `pressure` from force / max force) p = pressure: width p * max-width points
 *    (20 by default) times the canvas scale, colour HSB(hue p, saturation 1, brightness 1):
 *    red at 0, green at 1/3, blue at 2/3, red again at 1. Without the flag (decided by the
 *    flag, never by the value: a mouse reports a fake 0.5) the segment is max-width / 2 points
 *    wide (10 by default) and 50 % grey (0.5, 0.5, 0.5). Each segment is composited
 *    source-over on its own (fill_segment), so where segments overlap their anti-aliased
 *    edges blend, as they do in the seed.
 *  - `begin` only records the position, so a tap leaves no mark; `ended` draws nothing.
 *  - After lift every tick (one per frame, 60 Hz by default) fades the whole committed layer:
 *    brightness-step (0.05) is added to every colour channel in unpremultiplied sRGB, clamped
 *    to [0, 1], alpha unchanged; then a Gaussian blur of radius 1 runs over the whole layer
 *    (premultiplied RGBA, all four channels, transparent outside the canvas).
 *
 * Choices and differences from the seed, on purpose:
 *  1. The blur is separable with the 5-tap binomial kernel [1 4 6 4 1] / 16 per axis: its
 *     variance is exactly 1, so it is a Gaussian of sigma 1 ("radius 1" read as sigma 1), and
 *     its weights are integers, so the blur is exact integer arithmetic (sums of at most
 *     255 * 256, divided by 256 once).
 *  2. Rounding, stated so results are reproducible bit for bit:
 *     - brightening works on premultiplied values without unpremultiplying: c' = min(1, c + s)
 *       is p' = min(a, p + s * a); s is taken in 16.16 fixed point and s * a is rounded UP, so
 *       every visible pixel keeps brightening (to nearest, a pixel with alpha < 10 would get a
 *       step of 0 and never fade);
 *     - the blur filters alpha and the "darkness" a - r, a - g, a - b (linear, so the same
 *       blur as filtering premultiplied r, g, b) and rounds alpha to nearest (half up) and
 *       darkness down; then r = a - darkness. Results stay premultiplied (r <= a), and the
 *       mean brightness of the picture flattened over white (255 - darkness) never
 *       decreases by a tick (single pixels at the ink's edge may, as the blur spreads).
 *  3. Widths below one pixel are drawn one pixel wide (the seed's width is exactly p * 20,
 *     0 at p = 0), so the lightest touch still leaves a red hairline.
 *  4. One step per tick, whatever `dt` is (the seed stepped once per display frame): at a
 *     host frame rate other than 60 Hz the fade runs faster or slower in seconds.
 *  5. The user's colour and width are ignored: pressure is the whole palette, max-width the
 *     width knob.
 *  6. Ticks change nothing until a stroke of this instance has ended (nothing of ours to
 *     fade). A tick computes only the box of non-transparent pixels grown by the kernel's
 *     reach of two pixels: the transparent rest would stay transparent, so the bytes equal a
 *     whole-layer pass. The box comes from one scan of the layer at the first tick after each
 *     stroke (other brushes may have drawn too), then from the blur's own output. A tick
 *     reports the box of the pixels it changed (the whole drawing rather than the whole
 *     canvas); once a tick changes nothing, later ticks do nothing until the next stroke.
 *  7. The blur keeps a ring of five filtered rows (lazily allocated, reused, freed in destroy)
 *     instead of a canvas-sized copy: output row y needs input rows y - 2 .. y + 2 only, and
 *     rows are brightened and filtered just ahead of being overwritten.
 *
 * Plain C99 against include/bristle/bristle.h; the factory, descriptor and parameters are the
 * optional helper include/bristle/bristle_plugin.h. Exports only bristle_entry_v1.
 */
#include <bristle/bristle_plugin.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FORCE_HUE_ID "org.bristle.force-hue"
#define MAX_WIDTH_LIMIT 1000.0 /* points */
#define BLUR_TAPS 5

typedef struct force_hue_segment {
    bristle_segment_t segment;
    bristle_color_t color;
} force_hue_segment;

/* A set of pixels as inclusive bounds; empty while x1 < x0. */
typedef struct pixel_box {
    int32_t x0, y0, x1, y1;
} pixel_box;

typedef struct force_hue_state {
    const bristle_host_t *host;

    /* Parameters. */
    double fade;            /* bool: ticks fade the drawing */
    double brightness_step; /* [0, 1] added per tick in unpremultiplied sRGB */
    double max_width;       /* [0, MAX_WIDTH_LIMIT] points: the width at p = 1 */

    /* The stroke. */
    bristle_stroke_context_t context;
    int in_stroke;
    int has_last; /* last_x, last_y hold a usable position */
    double last_x, last_y;

    /* Segments received but not yet drawn into committed. */
    force_hue_segment *pending;
    size_t pending_count, pending_capacity;

    /* The fade. */
    int has_stroke;   /* a stroke of this instance has ended: ticks have something to fade */
    int settled;      /* the last fade changed nothing, so the next would not either */
    int tick_pending; /* a tick came: the next committed draw fades */
    int ink_known;    /* `ink` holds every non-transparent pixel (forgotten at begin) */
    pixel_box ink;    /* the box of non-transparent pixels, for the layer size below */
    int32_t ink_width, ink_height;
    uint16_t *rows;   /* BLUR_TAPS horizontally filtered rows, 4 values per pixel */
    size_t rows_capacity;
} force_hue_state;

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

static double clamp(double v, double lo, double hi) {
    return v != v ? lo : v < lo ? lo : v > hi ? hi : v;
}

static force_hue_state *state_of(const bristle_brush_t *brush) {
    return (force_hue_state *)brush->brush_data;
}

static int usable(const bristle_sample_t *s) { return isfinite(s->x) && isfinite(s->y); }

/* HSB (hue in turns, saturation 1, brightness 1) to RGB: red at 0 and 1, green at 1/3, blue
 * at 2/3. */
static bristle_color_t hue_color(double hue) {
    bristle_color_t c;
    double h6 = clamp(hue, 0, 1) * 6, f;
    int sector;
    if (h6 >= 6) h6 = 0; /* hue 1 is red again */
    sector = (int)floor(h6);
    f = h6 - sector;
    c.a = 1;
    switch (sector) {
    case 0: c.r = 1, c.g = (float)f, c.b = 0; break;
    case 1: c.r = (float)(1 - f), c.g = 1, c.b = 0; break;
    case 2: c.r = 0, c.g = 1, c.b = (float)f; break;
    case 3: c.r = 0, c.g = (float)(1 - f), c.b = 1; break;
    case 4: c.r = (float)f, c.g = 0, c.b = 1; break;
    default: c.r = 1, c.g = 0, c.b = (float)(1 - f); break;
    }
    return c;
}

/* The width in pixels and the colour of the segment ending at `s`. */
static void style_for(const force_hue_state *p, const bristle_sample_t *s, double *width,
                      bristle_color_t *color) {
    double limit = 2 * hypot((double)p->context.canvas_width, (double)p->context.canvas_height) + 2;
    double scale = p->context.scale > 0 ? (double)p->context.scale : 1;
    double w;
    if (s->flags & BRISTLE_SAMPLE_HAS_PRESSURE) {
        double pressure = clamp(s->pressure, 0, 1);
        w = pressure * p->max_width * scale;
        *color = hue_color(pressure);
    } else {
        w = 0.5 * p->max_width * scale;
        color->r = color->g = color->b = 0.5f;
        color->a = 1;
    }
    if (!(w >= 1)) w = 1; /* a hairline at least (also catches NaN) */
    *width = w < limit ? w : limit;
}

static int push(force_hue_state *p, double x0, double y0, double x1, double y1, double width,
                bristle_color_t color) {
    if (p->pending_count == p->pending_capacity) {
        size_t next = p->pending_capacity ? p->pending_capacity * 2 : 64;
        force_hue_segment *grown =
            (force_hue_segment *)realloc(p->pending, next * sizeof *p->pending);
        if (!grown) return 0;
        p->pending = grown;
        p->pending_capacity = next;
    }
    {
        force_hue_segment *seg = &p->pending[p->pending_count++];
        seg->segment.struct_size = (uint32_t)sizeof(bristle_segment_t);
        seg->segment.cap = BRISTLE_CAP_ROUND;
        seg->segment.x0 = x0;
        seg->segment.y0 = y0;
        seg->segment.x1 = x1;
        seg->segment.y1 = y1;
        seg->segment.width0 = width;
        seg->segment.width1 = width;
        seg->color = color;
    }
    return 1;
}

static void forget_stroke(force_hue_state *p) {
    p->pending_count = 0;
    p->has_last = 0;
    p->in_stroke = 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Hooks                                                                                     */
/* ---------------------------------------------------------------------------------------- */

static void force_hue_teardown(void *state) {
    force_hue_state *p = (force_hue_state *)state;
    free(p->pending);
    free(p->rows);
}

static bristle_status_t force_hue_begin(const bristle_brush_t *brush,
                                        const bristle_stroke_context_t *context,
                                        const bristle_sample_t *sample) {
    force_hue_state *p = state_of(brush);
    forget_stroke(p);
    memset(&p->context, 0, sizeof p->context);
    memcpy(&p->context, context,
           context->struct_size < sizeof p->context ? context->struct_size : sizeof p->context);
    p->in_stroke = 1;
    p->settled = 0;   /* new ink: the next ticks have work again */
    p->ink_known = 0; /* and it may lie anywhere (other brushes drew too): scan again */
    p->tick_pending = 0;
    /* Like the seed's touchesBegan: remember where the pen is, draw nothing. */
    if (usable(sample)) {
        p->last_x = sample->x;
        p->last_y = sample->y;
        p->has_last = 1;
    }
    return BRISTLE_OK;
}

static bristle_status_t force_hue_moved(const bristle_brush_t *brush,
                                        const bristle_sample_t *samples, uint32_t count) {
    force_hue_state *p = state_of(brush);
    uint32_t i;
    if (!p->in_stroke) return BRISTLE_BAD_STATE;
    for (i = 0; i < count; i++) {
        const bristle_sample_t *s = bristle_sample_at(samples, i);
        double width;
        bristle_color_t color;
        if (!usable(s)) continue; /* clamp bad input: skip it */
        if (p->has_last) {
            style_for(p, s, &width, &color);
            if (!push(p, p->last_x, p->last_y, s->x, s->y, width, color)) return BRISTLE_FAILED;
        }
        p->last_x = s->x;
        p->last_y = s->y;
        p->has_last = 1;
    }
    return BRISTLE_OK;
}

static bristle_status_t force_hue_ended(const bristle_brush_t *brush,
                                        const bristle_sample_t *sample) {
    force_hue_state *p = state_of(brush);
    (void)sample; /* like the seed's touchesEnded: no final segment */
    if (!p->in_stroke) return BRISTLE_BAD_STATE;
    p->in_stroke = 0;
    p->has_stroke = 1;
    return BRISTLE_OK;
}

static void force_hue_cancelled(const bristle_brush_t *brush) { forget_stroke(state_of(brush)); }

static bristle_status_t force_hue_tick(const bristle_brush_t *brush, double t, double dt) {
    force_hue_state *p = state_of(brush);
    (void)t, (void)dt; /* one step per frame, as the seed's display link did */
    if (p->in_stroke) return BRISTLE_BAD_STATE;
    p->tick_pending = 1;
    return BRISTLE_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* The fade: brighten, then blur with [1 4 6 4 1] / 16 per axis (sigma 1)                    */
/* ---------------------------------------------------------------------------------------- */

static const uint32_t blur_kernel[BLUR_TAPS] = {1, 4, 6, 4, 1};

static const pixel_box empty_box = {0, 0, -1, -1};

static void box_add(pixel_box *box, int32_t x, int32_t y) {
    if (box->x1 < box->x0) {
        box->x0 = box->x1 = x;
        box->y0 = box->y1 = y;
        return;
    }
    if (x < box->x0) box->x0 = x;
    if (x > box->x1) box->x1 = x;
    if (y < box->y0) box->y0 = y;
    if (y > box->y1) box->y1 = y;
}

/* The box of every pixel with a non-zero byte: everything outside it is transparent. */
static pixel_box scan_ink(const bristle_target_t *target) {
    pixel_box box = empty_box;
    int32_t x, y;
    for (y = 0; y < target->height; y++) {
        const uint8_t *row = target->pixels + (size_t)y * (size_t)target->stride_bytes;
        for (x = 0; x < target->width; x++) {
            const uint8_t *px = row + (size_t)x * 4;
            if (px[0] | px[1] | px[2] | px[3]) box_add(&box, x, y);
        }
    }
    return box;
}

/* Adds add[a] to r, g and b of pixels x0 .. x1 of row y, clamped to a (premultiplied). */
static void brighten_row(uint8_t *row, int32_t x0, int32_t x1, int32_t y, const uint8_t add[256],
                         pixel_box *changed) {
    int32_t x;
    for (x = x0; x <= x1; x++) {
        uint8_t *px = row + (size_t)x * 4;
        unsigned a = px[3], step = add[a], c;
        int differs = 0;
        if (step == 0) continue;
        for (c = 0; c < 3; c++) {
            unsigned v = px[c] + step;
            if (v > a) v = a;
            if (v != px[c]) {
                px[c] = (uint8_t)v;
                differs = 1;
            }
        }
        if (differs) box_add(changed, x, y);
    }
}

/* Filters pixels x0 .. x1 of one row horizontally into `out` (4 values per pixel, out[0] is
 * x0): darkness a - r, a - g, a - b and alpha a, each a weighted sum of at most 255 * 16.
 * Pixels outside x0 .. x1 are transparent (outside the canvas, or outside the ink). */
static void filter_row(const uint8_t *row, int32_t x0, int32_t x1, uint16_t *out) {
    int32_t x;
    for (x = x0; x <= x1; x++) {
        uint32_t sum[4] = {0, 0, 0, 0};
        uint16_t *o = out + (size_t)(x - x0) * 4;
        int32_t k;
        for (k = 0; k < BLUR_TAPS; k++) {
            int32_t sx = x + k - BLUR_TAPS / 2;
            const uint8_t *px;
            uint32_t w = blur_kernel[k], a;
            if (sx < x0 || sx > x1) continue;
            px = row + (size_t)sx * 4;
            a = px[3];
            /* A colour above its alpha breaks premultiplication: read it as a (no darkness). */
            sum[0] += w * (px[0] < a ? a - px[0] : 0);
            sum[1] += w * (px[1] < a ? a - px[1] : 0);
            sum[2] += w * (px[2] < a ? a - px[2] : 0);
            sum[3] += w * a;
        }
        o[0] = (uint16_t)sum[0];
        o[1] = (uint16_t)sum[1];
        o[2] = (uint16_t)sum[2];
        o[3] = (uint16_t)sum[3];
    }
}

/* Filters ring rows y - 2 .. y + 2 (those within `area`) vertically and writes pixels
 * area.x0 .. area.x1 of output row y. */
static void blur_out_row(const force_hue_state *p, uint8_t *row, pixel_box area, int32_t y,
                         pixel_box *changed, pixel_box *ink) {
    size_t row_values = (size_t)(area.x1 - area.x0 + 1) * 4;
    int32_t x;
    for (x = area.x0; x <= area.x1; x++) {
        uint32_t sum[4] = {0, 0, 0, 0};
        uint8_t *px = row + (size_t)x * 4;
        uint32_t a, c;
        int32_t k;
        int differs = 0;
        for (k = 0; k < BLUR_TAPS; k++) {
            int32_t sy = y + k - BLUR_TAPS / 2;
            const uint16_t *h;
            uint32_t w = blur_kernel[k];
            if (sy < area.y0 || sy > area.y1) continue;
            h = p->rows + (size_t)(sy % BLUR_TAPS) * row_values + (size_t)(x - area.x0) * 4;
            sum[0] += w * h[0];
            sum[1] += w * h[1];
            sum[2] += w * h[2];
            sum[3] += w * h[3];
        }
        a = (sum[3] + 128) >> 8; /* alpha to nearest, halves up */
        for (c = 0; c < 3; c++) {
            uint32_t v = a - (sum[c] >> 8); /* darkness down: sum[c] <= sum[3], so v >= 0 */
            if (px[c] != v) {
                px[c] = (uint8_t)v;
                differs = 1;
            }
        }
        if (px[3] != a) {
            px[3] = (uint8_t)a;
            differs = 1;
        }
        if (differs) box_add(changed, x, y);
        if (a != 0) box_add(ink, x, y); /* a = 0 implies r = g = b = 0 */
    }
}

/* One frame of the fade over the whole layer. Only the ink's box grown by the kernel's reach
 * can change (the rest is transparent and stays so), so only that area is computed: the
 * bytes are the same as filtering the whole canvas. */
static bristle_status_t draw_fade(force_hue_state *p, const bristle_target_t *target,
                                  bristle_rect_t *dirty) {
    const int32_t reach = BLUR_TAPS / 2;
    pixel_box area, changed = empty_box, ink = empty_box;
    size_t need;
    uint8_t add[256];
    uint32_t step_q, a;
    int32_t r;
    if (target->width <= 0 || target->height <= 0) return BRISTLE_OK;
    if (!p->ink_known || p->ink_width != target->width || p->ink_height != target->height) {
        p->ink = scan_ink(target);
        p->ink_known = 1;
        p->ink_width = target->width;
        p->ink_height = target->height;
    }
    if (p->ink.x1 < p->ink.x0) {
        p->settled = 1; /* a transparent layer stays transparent */
        return BRISTLE_OK;
    }
    area.x0 = p->ink.x0 - reach > 0 ? p->ink.x0 - reach : 0;
    area.y0 = p->ink.y0 - reach > 0 ? p->ink.y0 - reach : 0;
    area.x1 = p->ink.x1 + reach < target->width - 1 ? p->ink.x1 + reach : target->width - 1;
    area.y1 = p->ink.y1 + reach < target->height - 1 ? p->ink.y1 + reach : target->height - 1;

    need = (size_t)BLUR_TAPS * (size_t)(area.x1 - area.x0 + 1) * 4;
    if (p->rows_capacity < need) {
        uint16_t *grown = (uint16_t *)realloc(p->rows, need * sizeof *p->rows);
        if (!grown) return BRISTLE_FAILED;
        p->rows = grown;
        p->rows_capacity = need;
    }
    /* add[a] = ceil(s * a) with s in 16.16 fixed point (at most 65536, so add[a] <= a). */
    step_q = (uint32_t)floor(clamp(p->brightness_step, 0, 1) * 65536 + 0.5);
    for (a = 0; a < 256; a++) add[a] = (uint8_t)((a * step_q + 65535) >> 16);

    /* One sweep: brighten and filter row r, then write row r - 2, whose inputs (rows r - 4 ..
     * r) are all in the ring. Row r is never overwritten before it has been filtered. */
    for (r = area.y0; r <= area.y1 + reach; r++) {
        if (r <= area.y1) {
            uint8_t *row = target->pixels + (size_t)r * (size_t)target->stride_bytes;
            size_t slot = (size_t)(r % BLUR_TAPS) * (size_t)(area.x1 - area.x0 + 1) * 4;
            brighten_row(row, area.x0, area.x1, r, add, &changed);
            filter_row(row, area.x0, area.x1, p->rows + slot);
        }
        if (r - reach >= area.y0) {
            int32_t y = r - reach;
            blur_out_row(p, target->pixels + (size_t)y * (size_t)target->stride_bytes, area, y,
                         &changed, &ink);
        }
    }
    p->ink = ink;
    if (changed.x1 < changed.x0) {
        p->settled = 1;
        return BRISTLE_OK;
    }
    dirty->x = changed.x0;
    dirty->y = changed.y0;
    dirty->width = changed.x1 - changed.x0 + 1;
    dirty->height = changed.y1 - changed.y0 + 1;
    return BRISTLE_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* Drawing                                                                                   */
/* ---------------------------------------------------------------------------------------- */

static bristle_status_t draw_segments(force_hue_state *p, const bristle_target_t *target,
                                      bristle_rect_t *dirty) {
    const bristle_services_t *svc = target->services;
    bristle_rect_t touched = empty_rect;
    size_t i;
    for (i = 0; i < p->pending_count; i++) {
        bristle_paint_t paint;
        paint.struct_size = (uint32_t)sizeof paint;
        paint.blend = BRISTLE_BLEND_SRC_OVER;
        paint.color = p->pending[i].color;
        paint.opacity = 1;
        touched = rect_union(touched, svc->fill_segment(svc, target, &p->pending[i].segment, &paint));
    }
    p->pending_count = 0;
    *dirty = touched;
    return BRISTLE_OK;
}

static bristle_status_t force_hue_draw(const bristle_brush_t *brush, const bristle_target_t *target,
                                       bristle_rect_t *dirty) {
    force_hue_state *p = state_of(brush);
    bristle_status_t status = BRISTLE_OK;
    if (target->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    /* Continuous and without predictions: everything goes to committed; nothing is provisional. */
    if (target->layer != BRISTLE_LAYER_COMMITTED) return BRISTLE_OK;
    if (p->pending_count > 0) status = draw_segments(p, target, dirty);
    if (p->tick_pending) {
        bristle_rect_t faded = empty_rect;
        p->tick_pending = 0;
        if (status == BRISTLE_OK && p->fade != 0 && p->has_stroke && !p->settled) {
            status = draw_fade(p, target, &faded);
            *dirty = rect_union(*dirty, faded);
        }
    }
    return status;
}

/* ---------------------------------------------------------------------------------------- */
/* Parameters (bristle.params/1), descriptor, factory, entry: bristle_plugin.h                 */
/* ---------------------------------------------------------------------------------------- */

static const bristle_plugin_param_t force_hue_params[] = {
    BRISTLE_PLUGIN_BOOL(force_hue_state, fade, "fade", "Fade",
                        "After lift, every frame brightens the drawing and blurs it (Gaussian, sigma 1: the 5-tap "
                        "binomial kernel [1 4 6 4 1] / 16 per axis).",
                        1),
    BRISTLE_PLUGIN_FLOAT(force_hue_state, brightness_step, "brightness-step", "Brightness step",
                         "Added to every colour channel (unpremultiplied sRGB, 0 to 1) per frame of the fade.", "",
                         0, 1, 0.05),
    BRISTLE_PLUGIN_FLOAT(force_hue_state, max_width, "max-width", "Maximum width",
                         "The width at full pressure; without pressure the width is half of it.", "pt", 0,
                         MAX_WIDTH_LIMIT, 20),
};

static bool force_hue_setup(void *state, const bristle_host_t *host, int variant) {
    (void)variant;
    ((force_hue_state *)state)->host = host;
    return true;
}

/* A fade that did nothing may do something with a new fade or brightness step. */
static void force_hue_param_changed(void *state, const bristle_param_info_t *info) {
    if (strcmp(info->id, "max-width") != 0) ((force_hue_state *)state)->settled = 0;
}

static const char *const force_hue_tags[] = {"pressure", "hue", "fade", NULL};

static const bristle_plugin_brush_t force_hue_brushes[] = {{
    BRISTLE_PLUGIN_DESCRIPTOR(FORCE_HUE_ID, "Force Hue", "Bristle", "1.0.0",
                              "ForceSketch: pressure sets the width and the hue (red, green, blue, red); after lift "
                              "each frame brightens the drawing and blurs it (Gaussian, sigma 1).",
                              BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_WANTS_TICKS | BRISTLE_BRUSH_DETERMINISTIC,
                              force_hue_tags),
    sizeof(force_hue_state), 0, force_hue_setup, force_hue_teardown, force_hue_begin, force_hue_moved, NULL,
    force_hue_ended, force_hue_cancelled, force_hue_tick, force_hue_draw, BRISTLE_PLUGIN_PARAMS(force_hue_params),
    force_hue_param_changed,
}};

BRISTLE_PLUGIN_ENTRY(force_hue_brushes, 0) /* host_abi_min 1.0: the 1.0 services are all it needs */
