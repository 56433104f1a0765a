/*
 * A brush library that is broken on purpose, one way per -D switch, for the loader tests.
 * Without any switch it is a valid library with one brush, "test.broken".
 *
 *   -DNO_ENTRY        exports no bristle_entry_v1
 *   -DNULL_ENTRY      bristle_entry_v1 returns NULL
 *   -DABI_MAJOR=2     claims ABI 2.0.0
 *   -DINIT_FAILS      init returns false
 *   -DNO_FACTORY      get_factory returns NULL
 *   -DNULL_NAME       the descriptor's name is NULL
 *   -DSPACE_IN_ID     the descriptor's id contains a space
 *   -DDUPLICATE_ID    two descriptors share one id
 *   -DNULL_DRAW       the instance has no draw hook
 *   -DBAD_PARAM_RANGE an int parameter whose range is beyond any integer type
 */
#include <bristle/bristle.h>
#include <stdlib.h>
#include <string.h>

#ifndef ABI_MAJOR
#define ABI_MAJOR 1
#endif

#ifdef SPACE_IN_ID
#define BROKEN_ID "test.broken brush"
#else
#define BROKEN_ID "test.broken"
#endif

#ifdef NULL_NAME
#define BROKEN_NAME NULL
#else
#define BROKEN_NAME "Broken"
#endif

static const bristle_descriptor_t descriptors[2] = {
    {sizeof(bristle_descriptor_t), BRISTLE_BRUSH_CONTINUOUS, {ABI_MAJOR, 0, 0}, BROKEN_ID,
     BROKEN_NAME, "Tests", "1.0.0", "A brush broken on purpose.", NULL},
    {sizeof(bristle_descriptor_t), 0, {ABI_MAJOR, 0, 0}, BROKEN_ID, "Twin", "Tests", "1.0.0", "",
     NULL},
};

static void destroy(const bristle_brush_t *b) { free((void *)b); }
#ifdef BAD_PARAM_RANGE
static const bristle_param_info_t huge = {sizeof huge, BRISTLE_PARAM_INT, "n", "N", "", "", -1e300, 1e300,
                                          1e300, NULL, {0, 0, 0, 0}};
static uint32_t pcount(const bristle_brush_t *b) { (void)b; return 1; }
static const bristle_param_info_t *pinfo(const bristle_brush_t *b, uint32_t i) {
    (void)b;
    return i == 0 ? &huge : NULL;
}
static bristle_status_t pset(const bristle_brush_t *b, const char *id, double v) {
    (void)b, (void)id, (void)v;
    return BRISTLE_OK;
}
static bristle_status_t pget(const bristle_brush_t *b, const char *id, double *v) {
    (void)b, (void)id;
    *v = 0;
    return BRISTLE_OK;
}
static bristle_status_t pcolor(const bristle_brush_t *b, const char *id, const bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static bristle_status_t pgetcolor(const bristle_brush_t *b, const char *id, bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static const bristle_params_t params = {sizeof params, 0, pcount, pinfo, pset, pget, pcolor, pgetcolor};
#endif

static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b;
#ifdef BAD_PARAM_RANGE
    if (id && strcmp(id, BRISTLE_EXT_PARAMS) == 0) return &params;
#endif
    (void)id;
    return NULL;
}
static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    (void)b, (void)c, (void)s;
    return BRISTLE_OK;
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    (void)b, (void)s, (void)n;
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    (void)b, (void)s;
    return BRISTLE_OK;
}
static void cancelled(const bristle_brush_t *b) { (void)b; }
static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *d) {
    (void)b, (void)t, (void)d;
    return BRISTLE_OK;
}

static uint32_t count(const bristle_brush_factory_t *f) {
    (void)f;
#ifdef DUPLICATE_ID
    return 2;
#else
    return 1;
#endif
}
static const bristle_descriptor_t *descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i < count(f) ? &descriptors[i] : NULL;
}
static const bristle_brush_t *create(const bristle_brush_factory_t *f, const bristle_host_t *h,
                                     const char *id) {
    bristle_brush_t *b;
    (void)f, (void)h;
    if (!id || strcmp(id, BROKEN_ID) != 0) return NULL;
    b = (bristle_brush_t *)calloc(1, sizeof *b);
    if (!b) return NULL;
    b->struct_size = sizeof *b;
    b->descriptor = &descriptors[0];
    b->destroy = destroy;
    b->get_extension = get_extension;
    b->begin = begin;
    b->moved = moved;
    b->ended = ended;
    b->cancelled = cancelled;
#ifdef NULL_DRAW
    (void)draw;
#else
    b->draw = draw;
#endif
    return b;
}
static const bristle_brush_factory_t factory = {sizeof factory, 0, count, descriptor, create};

static bool init(const char *path) {
    (void)path;
#ifdef INIT_FAILS
    return false;
#else
    return true;
#endif
}
static void deinit(void) {}
static const void *get_factory(const char *id) {
#ifdef NO_FACTORY
    (void)id;
    return NULL;
#else
    return id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : NULL;
#endif
}
static const bristle_entry_t entry = {sizeof entry, {ABI_MAJOR, 0, 0}, init, deinit, get_factory, {1, 0, 0}};

#ifdef NO_ENTRY
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v0_typo(void) { return &entry; }
#elif defined(NULL_ENTRY)
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return NULL; }
#else
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
#endif
