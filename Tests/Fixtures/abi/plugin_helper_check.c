/*
 * Runs the optional plugin helper, bristle_plugin.h: a library of two brushes sharing hooks,
 * with a parameter of every type, through its exported entry, factory and parameters
 * extension, as a host would. Built by the tests as C99 and as C++17 with every warning an
 * error, then run: exit status 0 and no output when every check holds, otherwise the first
 * failing check on stderr and status 1.
 */
#include <bristle/bristle_plugin.h>
#include <stdio.h>

#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "plugin_helper_check.c:%d: %s\n", __LINE__, #cond);                   \
            return 1;                                                                             \
        }                                                                                         \
    } while (0)

typedef struct probe {
    double size, count, on, mode;
    bristle_color_t tint;
    int variant, changes, begun;
} probe;

static int teardowns = 0;

static probe *self(const bristle_brush_t *b) { return (probe *)b->brush_data; }

static bool setup(void *state, const bristle_host_t *host, int variant) {
    (void)host;
    ((probe *)state)->variant = variant;
    return true;
}
static void teardown(void *state) { (void)state, teardowns++; }
static void changed(void *state, const bristle_param_info_t *info) { (void)info, ((probe *)state)->changes++; }

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c, const bristle_sample_t *s) {
    (void)c, (void)s;
    self(b)->begun++;
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

static const char *const modes[] = {"a", "b", "c", NULL};
static const bristle_plugin_param_t params[] = {
    BRISTLE_PLUGIN_FLOAT(probe, size, "size", "Size", "", "px", 1, 9, 3),
    BRISTLE_PLUGIN_INT(probe, count, "count", "Count", "", "", -5, 5, 2),
    BRISTLE_PLUGIN_BOOL(probe, on, "on", "On", "", 1),
    BRISTLE_PLUGIN_ENUM(probe, mode, "mode", "Mode", "", modes, 3, 1),
    BRISTLE_PLUGIN_COLOR(probe, tint, "tint", "Tint", "", 0.5f, 0.25f, 1, 1),
};
static const bristle_plugin_brush_t brushes[] = {
    {BRISTLE_PLUGIN_DESCRIPTOR("test.helper.one", "One", "Tests", "1.0.0", "", BRISTLE_BRUSH_DETERMINISTIC, NULL),
     sizeof(probe), 7, setup, teardown, begin, moved, NULL, ended, cancelled, NULL, draw,
     BRISTLE_PLUGIN_PARAMS(params), changed},
    {BRISTLE_PLUGIN_DESCRIPTOR("test.helper.two", "Two", "Tests", "1.0.0", "", 0, NULL),
     sizeof(probe), 8, setup, NULL, begin, moved, NULL, ended, cancelled, NULL, draw, NULL, 0, NULL},
};
BRISTLE_PLUGIN_ENTRY(brushes, 1)

int main(void) {
    const bristle_entry_t *entry = bristle_entry_v1();
    const bristle_brush_factory_t *factory;
    const bristle_brush_t *one, *two;
    const bristle_params_t *p;
    bristle_host_t host;
    bristle_stroke_context_t context;
    bristle_sample_t sample;
    bristle_color_t c = {2, -1, 0.5f, 0.75f};
    double v = 0;
    memset(&host, 0, sizeof host);
    memset(&context, 0, sizeof context);
    memset(&sample, 0, sizeof sample);

    CHECK(entry->struct_size == sizeof(bristle_entry_t) && entry->host_abi_min.major == 1 &&
          entry->host_abi_min.minor == 1 && entry->host_abi_min.patch == 0);
    CHECK(entry->get_factory(BRISTLE_BRUSH_FACTORY_ID) == NULL); /* not initialised yet */
    CHECK(entry->init("/x.so") && entry->init("/x.so"));
    factory = (const bristle_brush_factory_t *)entry->get_factory(BRISTLE_BRUSH_FACTORY_ID);
    CHECK(factory && entry->get_factory("other") == NULL);
    CHECK(factory->count(factory) == 2 && factory->descriptor(factory, 2) == NULL);
    CHECK(strcmp(factory->descriptor(factory, 1)->id, "test.helper.two") == 0);
    CHECK(factory->descriptor(factory, 0)->abi.minor == BRISTLE_VERSION_MINOR);
    CHECK(factory->create(factory, &host, "test.helper.three") == NULL);
    CHECK(factory->create(factory, NULL, "test.helper.one") == NULL);
    one = factory->create(factory, &host, "test.helper.one");
    two = factory->create(factory, &host, "test.helper.two");
    CHECK(one && two && one->descriptor == factory->descriptor(factory, 0));
    CHECK(self(one)->variant == 7 && self(two)->variant == 8);
    CHECK(one->predicted == NULL && one->tick == NULL && one->moved == moved && one->draw == draw);
    CHECK(two->get_extension(two, BRISTLE_EXT_PARAMS) == NULL); /* no parameters, no extension */
    p = (const bristle_params_t *)one->get_extension(one, BRISTLE_EXT_PARAMS);
    CHECK(p && one->get_extension(one, "other/1") == NULL && p->count(one) == 5 && p->info(one, 5) == NULL);
    CHECK(strcmp(p->info(one, 3)->enum_names[2], "c") == 0 && p->info(one, 3)->max_value == 2);

    /* Defaults, then clamping and rounding. */
    CHECK(self(one)->size == 3 && self(one)->count == 2 && self(one)->on == 1 && self(one)->mode == 1);
    CHECK(self(one)->tint.r == 0.5f && self(one)->tint.b == 1);
    CHECK(p->set_value(one, "size", 100) == BRISTLE_OK && p->get_value(one, "size", &v) == BRISTLE_OK && v == 9);
    CHECK(p->set_value(one, "count", -2.6) == BRISTLE_OK && self(one)->count == -3);
    CHECK(p->set_value(one, "on", 0.4) == BRISTLE_OK && self(one)->on == 0);
    CHECK(p->set_value(one, "mode", 1.6) == BRISTLE_OK && self(one)->mode == 2);
    CHECK(self(one)->changes == 4);
    /* Refusals change nothing. */
    CHECK(p->set_value(one, "size", 0.0 / 0.0) == BRISTLE_BAD_ARG && self(one)->size == 9);
    CHECK(p->set_value(one, "nope", 1) == BRISTLE_BAD_ARG && p->get_value(one, "nope", &v) == BRISTLE_BAD_ARG);
    CHECK(p->set_value(one, "tint", 1) == BRISTLE_BAD_ARG && p->get_value(one, "tint", &v) == BRISTLE_BAD_ARG);
    CHECK(p->set_color(one, "size", &c) == BRISTLE_BAD_ARG && p->get_value(one, NULL, &v) == BRISTLE_BAD_ARG);
    CHECK(p->set_color(one, "tint", &c) == BRISTLE_OK && self(one)->tint.r == 1 && self(one)->tint.g == 0);
    CHECK(p->get_color(one, "tint", &c) == BRISTLE_OK && c.b == 0.5f && c.a == 0.75f);
    /* Setters refuse during a stroke, and only then. */
    CHECK(one->begin(one, &context, &sample) == BRISTLE_OK && self(one)->begun == 1);
    CHECK(p->set_value(one, "size", 2) == BRISTLE_BAD_STATE && p->set_color(one, "tint", &c) == BRISTLE_BAD_STATE);
    CHECK(p->get_value(one, "size", &v) == BRISTLE_OK && v == 9);
    CHECK(one->ended(one, &sample) == BRISTLE_OK && p->set_value(one, "size", 2) == BRISTLE_OK);
    CHECK(one->begin(one, &context, &sample) == BRISTLE_OK);
    one->cancelled(one);
    CHECK(p->set_value(one, "size", 4) == BRISTLE_OK && self(one)->size == 4);

    one->destroy(one);
    two->destroy(two);
    CHECK(teardowns == 1);
    entry->deinit();
    CHECK(entry->get_factory(BRISTLE_BRUSH_FACTORY_ID) != NULL); /* still initialised once */
    entry->deinit();
    CHECK(entry->get_factory(BRISTLE_BRUSH_FACTORY_ID) == NULL);
    return 0;
}
