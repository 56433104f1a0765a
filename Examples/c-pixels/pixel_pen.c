/* pixel_pen.c: org.example.pixel-pen, a brush that writes pixels itself. Plain C99.
 *
 * A hard, aliased pixel-art pen: every sample stamps an opaque square of side
 * max(1, round(width * scale)) pixels in the stroke colour, and between samples stamps are
 * placed one pixel apart along the line (x and y rounded to the nearest pixel). No host
 * drawing service is used: the brush writes premultiplied RGBA bytes into target->pixels,
 * addressing rows with stride_bytes, clipping to the target, and reporting the rectangle of
 * every pixel it wrote. Build: cc -std=c99 -O2 -fPIC -shared -fvisibility=hidden
 *   -I <bristle include> pixel_pen.c -o libpixel_pen.so -lm
 */
#include <bristle/bristle.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pen {
    bristle_brush_t brush;
    int in_stroke, has_last, side;
    double last_x, last_y; /* the last stamped point */
    uint8_t rgba[4];       /* the stroke colour, premultiplied bytes */
    double *pts;           /* points received but not drawn yet: x, y pairs */
    size_t n, cap;
} pen;

static pen *self(const bristle_brush_t *b) { return (pen *)b->brush_data; }

static uint8_t byte01(double v) { return (uint8_t)(v > 0 ? (v < 1 ? v * 255 + 0.5 : 255) : 0); }

static bristle_status_t add(pen *p, const bristle_sample_t *s) {
    if (!isfinite(s->x) || !isfinite(s->y) || fabs(s->x) > 1e6 || fabs(s->y) > 1e6) return BRISTLE_OK;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        double *q = realloc(p->pts, cap * 2 * sizeof *q);
        if (!q) return BRISTLE_FAILED;
        p->pts = q, p->cap = cap;
    }
    p->pts[2 * p->n] = s->x, p->pts[2 * p->n + 1] = s->y;
    p->n++;
    return BRISTLE_OK;
}

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    pen *p = self(b);
    double a = c->color.a, w = (double)c->width * c->scale;
    p->side = isfinite(w) && w > 1 ? (int)(w < 512 ? w + 0.5 : 512) : 1;
    p->rgba[0] = byte01(c->color.r * a), p->rgba[1] = byte01(c->color.g * a);
    p->rgba[2] = byte01(c->color.b * a), p->rgba[3] = byte01(a);
    p->in_stroke = 1, p->has_last = 0, p->n = 0;
    return add(p, s);
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    if (!self(b)->in_stroke) return BRISTLE_BAD_STATE;
    for (i = 0; i < n; i++)
        if (add(self(b), bristle_sample_at(s, i)) != BRISTLE_OK) return BRISTLE_FAILED;
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    if (!self(b)->in_stroke) return BRISTLE_BAD_STATE;
    self(b)->in_stroke = 0;
    return add(self(b), s);
}
static void cancelled(const bristle_brush_t *b) { self(b)->in_stroke = 0, self(b)->n = 0; }
static void destroy(const bristle_brush_t *b) { free(self(b)->pts), free(self(b)); }
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b, (void)id;
    return NULL; /* no parameters */
}

/* Writes one square centred on (x, y), clipped; grows *dirty to cover it. */
static void stamp(const pen *p, const bristle_target_t *t, double x, double y, bristle_rect_t *dirty) {
    int32_t x0 = (int32_t)floor(x + 0.5) - p->side / 2, y0 = (int32_t)floor(y + 0.5) - p->side / 2;
    int32_t x1 = x0 + p->side, y1 = y0 + p->side, i, j;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > t->width) x1 = t->width;
    if (y1 > t->height) y1 = t->height;
    if (x0 >= x1 || y0 >= y1) return;
    for (j = y0; j < y1; j++)
        for (i = x0; i < x1; i++) memcpy(t->pixels + (size_t)j * (size_t)t->stride_bytes + (size_t)i * 4, p->rgba, 4);
    if (dirty->width <= 0 || dirty->height <= 0) {
        dirty->x = x0, dirty->y = y0, dirty->width = x1 - x0, dirty->height = y1 - y0;
    } else {
        int32_t dx1 = dirty->x + dirty->width > x1 ? dirty->x + dirty->width : x1;
        int32_t dy1 = dirty->y + dirty->height > y1 ? dirty->y + dirty->height : y1;
        dirty->x = dirty->x < x0 ? dirty->x : x0, dirty->y = dirty->y < y0 ? dirty->y : y0;
        dirty->width = dx1 - dirty->x, dirty->height = dy1 - dirty->y;
    }
}

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *dirty) {
    pen *p = self(b);
    size_t i;
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (t->layer != BRISTLE_LAYER_COMMITTED) return BRISTLE_OK;
    for (i = 0; i < p->n; i++) {
        double x = p->pts[2 * i], y = p->pts[2 * i + 1];
        if (p->has_last) {
            double dx = x - p->last_x, dy = y - p->last_y;
            int k, steps = (int)ceil(fmax(fabs(dx), fabs(dy)));
            for (k = 1; k < steps; k++) stamp(p, t, p->last_x + dx * k / steps, p->last_y + dy * k / steps, dirty);
        }
        stamp(p, t, x, y, dirty);
        p->last_x = x, p->last_y = y, p->has_last = 1;
    }
    p->n = 0;
    return BRISTLE_OK;
}

static const char *const tags[] = {"pixel-art", NULL};
static const bristle_descriptor_t descriptor = {
    .struct_size = sizeof(bristle_descriptor_t),
    .flags = BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_DETERMINISTIC, .abi = BRISTLE_VERSION_INIT,
    .id = "org.example.pixel-pen", .name = "Pixel Pen", .vendor = "Example", .version = "1.0.0",
    .description = "Hard square stamps written straight into the pixels.", .tags = tags};

static uint32_t f_count(const bristle_brush_factory_t *f) { (void)f; return 1; }
static const bristle_descriptor_t *f_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i == 0 ? &descriptor : NULL;
}
static const bristle_brush_t *f_create(const bristle_brush_factory_t *f, const bristle_host_t *h,
                                       const char *id) {
    pen *p;
    (void)f, (void)h;
    if (!id || strcmp(id, descriptor.id) != 0 || !(p = calloc(1, sizeof *p))) return NULL;
    p->brush = (bristle_brush_t){
        .struct_size = sizeof(bristle_brush_t), .descriptor = &descriptor, .brush_data = p,
        .destroy = destroy, .get_extension = get_extension, .begin = begin, .moved = moved,
        .ended = ended, .cancelled = cancelled, .draw = draw};
    return &p->brush;
}
static const bristle_brush_factory_t factory = {
    .struct_size = sizeof(bristle_brush_factory_t), .count = f_count,
    .descriptor = f_descriptor, .create = f_create};

static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {.struct_size = sizeof(bristle_entry_t),
                                      .abi = BRISTLE_VERSION_INIT, .init = init,
                                      .deinit = deinit, .get_factory = get_factory,
                                      .host_abi_min = {1, 0, 0}}; /* runs on any 1.x host */

BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
