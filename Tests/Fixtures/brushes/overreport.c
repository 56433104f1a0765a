/*
 * "test.overreport": a correct brush that over-reports its dirty area, for `--stats`: it
 * draws a small disc at each new sample with fill_disc, and reports the whole target as
 * dirty on every draw. The drawing is right; only the host's work (copying the reported area
 * to the preview, into base at the end) grows with the canvas. `bristle render --stats` must
 * show many more pixels reported than changed.
 *
 *   -DUNDERREPORT  reports nothing instead: what fill_disc returns lies outside every reported
 *                  rectangle, so the host copies none of it to the preview (the changed-pixel
 *                  audit must then count committed draws against a shadow of its own)
 */
#include <bristle/bristle.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 4096

typedef struct overreport {
    bristle_brush_t brush;
    bristle_color_t color;
    double radius;
    double xy[MAX_POINTS][2];
    int n;
} overreport;

static overreport *self(const bristle_brush_t *b) { return (overreport *)b->brush_data; }

static void add(overreport *o, const bristle_sample_t *s) {
    if (o->n < MAX_POINTS) o->xy[o->n][0] = s->x, o->xy[o->n][1] = s->y, o->n++;
}
static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    overreport *o = self(b);
    o->color = c->color, o->radius = c->width * c->scale / 2, o->n = 0;
    add(o, s);
    return BRISTLE_OK;
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i++) add(self(b), bristle_sample_at(s, i));
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    add(self(b), s);
    return BRISTLE_OK;
}
static void cancelled(const bristle_brush_t *b) { self(b)->n = 0; }
static void destroy(const bristle_brush_t *b) { free(self(b)); }
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b, (void)id;
    return NULL;
}

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *dirty) {
    overreport *o = self(b);
    bristle_paint_t paint = {sizeof paint, BRISTLE_BLEND_SRC_OVER, {0, 0, 0, 1}, 1.0f};
    int i;
    paint.color = o->color;
    for (i = 0; i < o->n; i++) t->services->fill_disc(t->services, t, o->xy[i][0], o->xy[i][1], o->radius, &paint);
    o->n = 0;
#ifdef UNDERREPORT
    (void)dirty;
#else
    dirty->x = 0, dirty->y = 0, dirty->width = t->width, dirty->height = t->height;
#endif
    return BRISTLE_OK;
}

static const bristle_descriptor_t descriptor = {
    sizeof(bristle_descriptor_t), BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_DETERMINISTIC, BRISTLE_VERSION_INIT,
    "test.overreport", "Over-reporter", "Bristle tests", "1.0.0", "Reports the whole canvas dirty on every draw.", NULL};

static uint32_t f_count(const bristle_brush_factory_t *f) { (void)f; return 1; }
static const bristle_descriptor_t *f_descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i == 0 ? &descriptor : NULL;
}
static const bristle_brush_t *f_create(const bristle_brush_factory_t *f, const bristle_host_t *h, const char *id) {
    overreport *o;
    (void)f, (void)h;
    if (!id || strcmp(id, descriptor.id) != 0 || !(o = calloc(1, sizeof *o))) return NULL;
    o->brush.struct_size = sizeof(bristle_brush_t);
    o->brush.descriptor = &descriptor;
    o->brush.brush_data = o;
    o->brush.destroy = destroy, o->brush.get_extension = get_extension, o->brush.begin = begin;
    o->brush.moved = moved, o->brush.ended = ended, o->brush.cancelled = cancelled, o->brush.draw = draw;
    return &o->brush;
}
static const bristle_brush_factory_t factory = {sizeof(bristle_brush_factory_t), 0, f_count, f_descriptor, f_create};

static bool init(const char *path) { (void)path; return true; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof entry, BRISTLE_VERSION_INIT, init, deinit, get_factory, {1, 0, 0}};
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
