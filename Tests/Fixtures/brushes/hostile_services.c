/*
 * test.hostile-services: a brush that calls every drawing service of ABI 1.1 (and the 1.1 caps
 * of fill_segment / mask_segment) with garbage: NULL pointers, NaN, infinities, 1e300, negative
 * sizes, empty / absurd / all-zero / negative dash arrays, miter limits below 1, polylines with
 * impossible counts, invalid patterns and styles with struct_size 0.
 *
 * Calls that must draw nothing are checked to return an empty rectangle; a failure is logged
 * as an ERROR "VIOLATION ..." line (the host prints it on stderr). Calls whose input is odd but
 * valid (miter limit 0.2, all-zero dashes, ...) go into the brush's own mask, so the canvas
 * stays untouched. After the committed draw it logs "hostile: done N calls".
 */
#include <bristle/bristle.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hostile {
    bristle_brush_t brush;
    const bristle_host_t *host;
    int ended;
    int calls;
    uint8_t mask_bytes[64 * 64];
} hostile;

static hostile *H(const bristle_brush_t *b) { return (hostile *)b->brush_data; }

static void expect_empty(hostile *h, bristle_rect_t r, const char *what) {
    char line[200];
    h->calls++;
    if (r.width > 0 && r.height > 0) {
        snprintf(line, sizeof line, "VIOLATION %s returned %dx%d+%d+%d", what, r.width, r.height, r.x, r.y);
        h->host->log(h->host, BRISTLE_LOG_ERROR, line);
    }
}

static void survive(hostile *h, bristle_rect_t r) {
    (void)r;
    h->calls++;
}

static void hammer(hostile *h, const bristle_target_t *t) {
    const bristle_services_t *s = t->services;
    const double nan = NAN, inf = INFINITY, huge = 1e300;
    bristle_paint_t paint = {sizeof(bristle_paint_t), BRISTLE_BLEND_SRC_OVER, {1, 0, 0, 1}, 1};
    bristle_paint_t bad_blend = paint;
    bristle_stroke_style_t style, bad;
    bristle_mask_t mask = {h->mask_bytes, 64, 64, 64};
    bristle_pattern_t pattern, bad_pattern;
    bristle_segment_t seg = {sizeof(bristle_segment_t), BRISTLE_CAP_BUTT, 10, 10, 50, 50, 4, 4};
    double xy[8] = {5, 5, 40, 40, 60, 5, 10, 60};
    double bad_xy[4] = {5, NAN, 40, 40};
    double dashes_zero[2] = {0, 0}, dashes_neg[2] = {5, -1}, dashes_nan[2] = {5, NAN};
    double dashes_tiny[2] = {1e-7, 1e-7}, dashes_ok[3] = {4, 2, 1};
    uint8_t tile[4 * 4] = {0};
    bristle_rect_t all = {0, 0, 64, 64};
    int cap, join;

    if (!BRISTLE_HAS_FIELD(s, bristle_services_t, composite_mask_pattern)) {
        h->host->log(h->host, BRISTLE_LOG_ERROR, "VIOLATION the host has no 1.1 services");
        return;
    }
    bad_blend.blend = 77;
    memset(&style, 0, sizeof style);
    style.struct_size = sizeof style;
    style.width = 6;
    style.miter_limit = 4;
    bad = style;
    memset(&pattern, 0, sizeof pattern);
    pattern.struct_size = sizeof pattern;
    pattern.format = BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED;
    pattern.pixels = tile;
    pattern.width = 2, pattern.height = 2, pattern.stride_bytes = 8;

    /* NULL everything. */
    expect_empty(h, s->draw_rect(s, NULL, 0, 0, 10, 10, NULL, &paint, NULL), "draw_rect NULL target");
    expect_empty(h, s->draw_rect(s, t, 0, 0, 10, 10, NULL, NULL, NULL), "draw_rect NULL paint");
    expect_empty(h, s->draw_ellipse(s, t, 10, 10, 5, 5, NULL, NULL, NULL), "draw_ellipse NULL paint");
    expect_empty(h, s->draw_polyline(s, t, NULL, 4, &style, &paint, NULL), "draw_polyline NULL points");
    expect_empty(h, s->draw_dab(s, NULL, 10, 10, 5, 0.5, &paint, NULL), "draw_dab NULL target");
    expect_empty(h, s->mask_rect(s, NULL, 0, 0, 10, 10, NULL), "mask_rect NULL mask");
    expect_empty(h, s->mask_ellipse(s, NULL, 0, 0, 10, 10, NULL), "mask_ellipse NULL mask");
    expect_empty(h, s->mask_polyline(s, &mask, NULL, 2, NULL), "mask_polyline NULL points");
    expect_empty(h, s->mask_dab(s, NULL, 0, 0, 10, 1), "mask_dab NULL mask");
    expect_empty(h, s->composite_mask_pattern(s, NULL, &mask, all, &paint, &pattern, 0), "composite NULL target");
    expect_empty(h, s->composite_mask_pattern(s, t, NULL, all, &paint, &pattern, 0), "composite NULL mask");
    expect_empty(h, s->composite_mask_pattern(s, t, &mask, all, NULL, &pattern, 0), "composite NULL paint");

    /* Non-finite and absurd geometry, unknown blend. */
    expect_empty(h, s->draw_rect(s, t, nan, 0, 10, 10, NULL, &paint, NULL), "draw_rect NaN");
    expect_empty(h, s->draw_rect(s, t, 0, 0, inf, 10, &style, &paint, NULL), "draw_rect inf");
    expect_empty(h, s->draw_rect(s, t, huge, huge, huge, huge, NULL, &paint, NULL), "draw_rect 1e300");
    expect_empty(h, s->draw_rect(s, t, 0, 0, 10, 10, NULL, &bad_blend, NULL), "draw_rect unknown blend");
    expect_empty(h, s->draw_ellipse(s, t, 10, 10, -5, 5, NULL, &paint, NULL), "draw_ellipse negative radius");
    expect_empty(h, s->draw_ellipse(s, t, 10, nan, 5, 5, &style, &paint, NULL), "draw_ellipse NaN");
    expect_empty(h, s->draw_ellipse(s, t, 10, 10, huge, 5, &style, &paint, NULL), "draw_ellipse 1e300");
    expect_empty(h, s->draw_ellipse(s, t, 10, 10, 1e9, 1e9, NULL, &paint, NULL), "draw_ellipse beyond the limit");
    expect_empty(h, s->draw_dab(s, t, 10, 10, -3, 0.5, &paint, NULL), "draw_dab negative radius");
    expect_empty(h, s->draw_dab(s, t, inf, 10, 3, 0.5, &paint, NULL), "draw_dab inf");
    expect_empty(h, s->draw_dab(s, t, 10, 10, huge, nan, &paint, NULL), "draw_dab 1e300");
    expect_empty(h, s->mask_dab(s, &mask, nan, nan, nan, nan), "mask_dab NaN");
    expect_empty(h, s->draw_polyline(s, t, bad_xy, 2, &style, &paint, NULL), "draw_polyline NaN point");
    expect_empty(h, s->draw_polyline(s, t, xy, 0, &style, &paint, NULL), "draw_polyline 0 points");
    expect_empty(h, s->draw_polyline(s, t, xy, 0xFFFFFFFFu, &style, &paint, NULL), "draw_polyline absurd count");
    expect_empty(h, s->draw_polyline(s, t, xy, 2, NULL, &paint, NULL), "fill polygon of 2 points");

    /* Bad styles. */
    bad.width = -4;
    expect_empty(h, s->draw_polyline(s, t, xy, 4, &bad, &paint, NULL), "negative width");
    bad.width = nan;
    expect_empty(h, s->mask_polyline(s, &mask, xy, 4, &bad), "NaN width");
    bad.width = inf;
    expect_empty(h, s->mask_rect(s, &mask, 5, 5, 20, 20, &bad), "inf width");
    bad = style;
    bad.struct_size = 0;
    expect_empty(h, s->draw_polyline(s, t, xy, 4, &bad, &paint, NULL), "style struct_size 0");
    bad = style;
    bad.dash_count = 0xFFFFFFFFu, bad.dashes = dashes_ok;
    expect_empty(h, s->mask_polyline(s, &mask, xy, 4, &bad), "absurd dash count");
    bad.dash_count = 2, bad.dashes = NULL;
    expect_empty(h, s->mask_polyline(s, &mask, xy, 4, &bad), "dashes NULL with a count");
    bad.dashes = dashes_neg;
    expect_empty(h, s->mask_polyline(s, &mask, xy, 4, &bad), "negative dash");
    bad.dashes = dashes_nan;
    expect_empty(h, s->mask_ellipse(s, &mask, 30, 30, 20, 10, &bad), "NaN dash");
    bad.dashes = dashes_ok, bad.dash_count = 3, bad.dash_phase = nan;
    expect_empty(h, s->mask_rect(s, &mask, 5, 5, 40, 40, &bad), "NaN phase");
    bad = style;
    bad.dashes = dashes_tiny, bad.dash_count = 2;
    expect_empty(h, s->mask_polyline(s, &mask, xy, 4, &bad), "more dashes than the cap");
    {   /* A 1e8-pixel line with tiny-ish dashes: only its visible part is dashed. */
        double far[4] = {-1e8, 20, 1e8, 20};
        double d[2] = {3, 3};
        bad.dashes = d;
        survive(h, s->mask_polyline(s, &mask, far, 2, &bad));
    }
    {   /* A huge width over many points: refused by the work budget, quickly. */
        double many[200];
        int i;
        for (i = 0; i < 100; i++) many[2 * i] = 30 + (i % 2) * 3, many[2 * i + 1] = 30 + i * 0.5;
        bad = style;
        bad.width = 1e7;
        survive(h, s->mask_polyline(s, &mask, many, 100, &bad));
    }

    /* Bad patterns. */
    bad_pattern = pattern;
    bad_pattern.pixels = NULL;
    expect_empty(h, s->draw_rect(s, t, 0, 0, 10, 10, NULL, &paint, &bad_pattern), "pattern NULL pixels");
    bad_pattern = pattern;
    bad_pattern.width = 0;
    expect_empty(h, s->draw_dab(s, t, 10, 10, 5, 1, &paint, &bad_pattern), "pattern width 0");
    bad_pattern = pattern;
    bad_pattern.stride_bytes = 4;
    expect_empty(h, s->draw_ellipse(s, t, 10, 10, 5, 5, NULL, &paint, &bad_pattern), "pattern short stride");
    bad_pattern = pattern;
    bad_pattern.format = 99;
    expect_empty(h, s->composite_mask_pattern(s, t, &mask, all, &paint, &bad_pattern, 0), "pattern unknown format");
    bad_pattern = pattern;
    bad_pattern.struct_size = 4;
    expect_empty(h, s->draw_polyline(s, t, xy, 4, &style, &paint, &bad_pattern), "pattern struct_size 4");

    /* Segments with 1.1 caps and garbage. */
    seg.width0 = -1;
    expect_empty(h, s->mask_segment(s, &mask, &seg), "butt segment negative width");
    seg.width0 = 4, seg.x0 = nan;
    expect_empty(h, s->mask_segment(s, &mask, &seg), "butt segment NaN");
    seg.x0 = 10, seg.cap = 99;
    expect_empty(h, s->mask_segment(s, &mask, &seg), "unknown cap");
    seg.cap = BRISTLE_CAP_BUTT, seg.x1 = 10, seg.y1 = 10;
    expect_empty(h, s->mask_segment(s, &mask, &seg), "zero-length butt segment");

    /* Odd but valid input: every cap and join, miter limits below 1 and NaN, all-zero dashes,
     * unknown cap / join values: it must draw without trouble (into the brush's own mask). */
    for (cap = 0; cap < 4; cap++) {
        for (join = 0; join < 4; join++) {
            style.cap = (uint32_t)cap * 7 % 5, style.join = (uint32_t)join * 3 % 5;
            style.miter_limit = join == 1 ? 0.2 : (join == 2 ? nan : 1e300);
            style.dashes = cap % 2 ? dashes_zero : dashes_ok, style.dash_count = cap % 2 ? 2 : 3;
            style.flags = (uint32_t)join;
            survive(h, s->mask_polyline(s, &mask, xy, 4, &style));
            survive(h, s->mask_rect(s, &mask, 40, 40, -30, -25, &style));
            survive(h, s->mask_ellipse(s, &mask, 30, 30, 0, 12, &style));
            survive(h, s->mask_polyline(s, &mask, xy, 1, &style));
        }
    }
    survive(h, s->mask_dab(s, &mask, 32, 32, 1e7, -5));
    survive(h, s->mask_dab(s, &mask, 32, 32, 0.01, 0.999));
    seg.x0 = 5, seg.y0 = 60, seg.x1 = 60, seg.y1 = 5, seg.width0 = 0, seg.width1 = 30, seg.cap = BRISTLE_CAP_SQUARE;
    survive(h, s->mask_segment(s, &mask, &seg));
}

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c, const bristle_sample_t *s) {
    (void)c, (void)s;
    H(b)->ended = 0;
    return BRISTLE_OK;
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    (void)b, (void)s, (void)n;
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    (void)s;
    H(b)->ended = 1;
    return BRISTLE_OK;
}
static void cancelled(const bristle_brush_t *b) { H(b)->ended = 0; }
static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *d) {
    hostile *h = H(b);
    char line[80];
    (void)d;
    if (t->layer != BRISTLE_LAYER_COMMITTED || !h->ended) return BRISTLE_OK;
    h->ended = 0;
    hammer(h, t);
    snprintf(line, sizeof line, "hostile: done %d calls", h->calls);
    h->host->log(h->host, BRISTLE_LOG_WARNING, line);
    return BRISTLE_OK;
}
static void destroy(const bristle_brush_t *b) { free(H(b)); }
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b, (void)id;
    return NULL;
}

static const bristle_descriptor_t descriptor = {
    sizeof(bristle_descriptor_t), 0, BRISTLE_VERSION_INIT, "test.hostile-services", "Hostile services",
    "Tests", "1.0.0", "Calls every 1.1 service with garbage.", NULL};
static uint32_t f_count(const bristle_brush_factory_t *f) { (void)f; return 1; }
static const bristle_descriptor_t *f_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i == 0 ? &descriptor : NULL;
}
static const bristle_brush_t *f_create(const bristle_brush_factory_t *f, const bristle_host_t *host, const char *id) {
    hostile *h;
    (void)f;
    if (!id || strcmp(id, descriptor.id) != 0 || !(h = calloc(1, sizeof *h))) return NULL;
    h->host = host;
    h->brush.struct_size = sizeof(bristle_brush_t);
    h->brush.descriptor = &descriptor;
    h->brush.brush_data = h;
    h->brush.destroy = destroy;
    h->brush.get_extension = get_extension;
    h->brush.begin = begin;
    h->brush.moved = moved;
    h->brush.ended = ended;
    h->brush.cancelled = cancelled;
    h->brush.draw = draw;
    return &h->brush;
}
static const bristle_brush_factory_t factory = {sizeof(bristle_brush_factory_t), 0, f_count, f_descriptor, f_create};
static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof(bristle_entry_t), BRISTLE_VERSION_INIT, init, deinit, get_factory,
                                      {1, 1, 0}};
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
