/*
 * bristle_plugin.h: an optional, header-only helper for brush plugins written in C (C99) or
 * C++. It writes the plumbing every plugin repeats, so that a plugin file shows only its brush:
 *
 *   - the factory (count, descriptor, create) and the entry (init/deinit counted, get_factory,
 *     the exported bristle_entry_v1), from one table of brushes;
 *   - the parameters extension (bristle.params/1): info, set and get with the header's rules
 *     (unknown id or non-finite value: BRISTLE_BAD_ARG; during a stroke: BRISTLE_BAD_STATE;
 *     clamped to [min, max], BOOL to 0 or 1, INT and ENUM rounded, colours clamped to [0, 1]),
 *     reading and writing fields of the brush's state named by offsetof;
 *   - the instance: the state allocated zeroed, parameters at their defaults, freed on destroy.
 *
 * Nothing here is part of the ABI: a plugin that uses it is an ordinary plugin, and one that
 * does not loses nothing. Use:
 *
 *     #include <bristle/bristle_plugin.h>
 *
 *     typedef struct ink { double opacity; ... } ink;       // the brush's state, any struct
 *     static bristle_status_t ink_begin(const bristle_brush_t *b, ...) {
 *         ink *s = (ink *)b->brush_data;                     // brush_data is the state
 *         ...
 *     }
 *     ...
 *     static const bristle_plugin_param_t ink_params[] = {
 *         BRISTLE_PLUGIN_FLOAT(ink, opacity, "opacity", "Opacity", "Opacity of the stroke.", "", 0, 1, 1),
 *     };
 *     static const bristle_plugin_brush_t ink_brushes[] = {{
 *         BRISTLE_PLUGIN_DESCRIPTOR("org.example.ink", "Ink", "Example", "1.0.0",
 *                                   "A line.", BRISTLE_BRUSH_CONTINUOUS, NULL),
 *         sizeof(ink), 0, NULL, NULL,                         // state size, variant, setup, teardown
 *         ink_begin, ink_moved, NULL, ink_ended, ink_cancelled, NULL, ink_draw,
 *         BRISTLE_PLUGIN_PARAMS(ink_params), NULL,
 *     }};
 *     BRISTLE_PLUGIN_ENTRY(ink_brushes, 0)                   // host_abi_min 1.0
 *
 * The hooks have the signatures of bristle_brush_t and receive the host's brush pointer;
 * `brush->brush_data` is the state. `begin`, `moved`, `ended`, `cancelled` and `draw` are
 * required, `predicted` and `tick` may be NULL, exactly as in bristle_brush_t. Every rule of
 * bristle.h still applies to them (the stride rule, dirty rectangles, threading tags).
 */
#ifndef BRISTLE_PLUGIN_H
#define BRISTLE_PLUGIN_H

#include <bristle/bristle.h>

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/** A parameter: what the host sees (`info`) and where its value lives in the state: a
 *  `double` at `offset` for FLOAT, INT, BOOL and ENUM, a `bristle_color_t` for COLOR. */
typedef struct bristle_plugin_param {
    bristle_param_info_t info;
    size_t offset;
} bristle_plugin_param_t;

/** A numeric parameter of `type` stored in the `double` field `field` of the state `state`. */
#define BRISTLE_PLUGIN_NUMBER(type, state, field, id, name, description, unit, min, max, def, enum_names) \
    {{sizeof(bristle_param_info_t), type, id, name, description, unit, min, max, def, enum_names,           \
      {0, 0, 0, 0}},                                                                                       \
     offsetof(state, field)}
/** A FLOAT parameter in [min, max]. */
#define BRISTLE_PLUGIN_FLOAT(state, field, id, name, description, unit, min, max, def) \
    BRISTLE_PLUGIN_NUMBER(BRISTLE_PARAM_FLOAT, state, field, id, name, description, unit, min, max, def, NULL)
/** An INT parameter in [min, max]. */
#define BRISTLE_PLUGIN_INT(state, field, id, name, description, unit, min, max, def) \
    BRISTLE_PLUGIN_NUMBER(BRISTLE_PARAM_INT, state, field, id, name, description, unit, min, max, def, NULL)
/** A BOOL parameter, 0 or 1. */
#define BRISTLE_PLUGIN_BOOL(state, field, id, name, description, def) \
    BRISTLE_PLUGIN_NUMBER(BRISTLE_PARAM_BOOL, state, field, id, name, description, "", 0, 1, def, NULL)
/** An ENUM parameter: an index in [0, count - 1] naming `names[i]` (NULL-terminated). */
#define BRISTLE_PLUGIN_ENUM(state, field, id, name, description, names, count, def) \
    BRISTLE_PLUGIN_NUMBER(BRISTLE_PARAM_ENUM, state, field, id, name, description, "", 0, (count) - 1, def, names)
/** A COLOR parameter stored in the `bristle_color_t` field `field`, default (r, g, b, a). */
#define BRISTLE_PLUGIN_COLOR(state, field, id, name, description, r, g, b, a)                               \
    {{sizeof(bristle_param_info_t), BRISTLE_PARAM_COLOR, id, name, description, "", 0, 0, 0, NULL,          \
      {r, g, b, a}},                                                                                       \
     offsetof(state, field)}
/** The `params, param_count` pair of a bristle_plugin_brush_t from a static array. */
#define BRISTLE_PLUGIN_PARAMS(array) (array), (uint32_t)(sizeof(array) / sizeof((array)[0]))
/** A descriptor (this header's ABI version); `tags` is a NULL-terminated array or NULL. */
#define BRISTLE_PLUGIN_DESCRIPTOR(id, name, vendor, version, description, flags, tags) \
    {sizeof(bristle_descriptor_t), flags, BRISTLE_VERSION_INIT, id, name, vendor, version, description, tags}

/** One brush of the library. */
typedef struct bristle_plugin_brush {
    bristle_descriptor_t descriptor;
    size_t state_size; /**< sizeof the state; `create` allocates it zeroed. */
    int variant;       /**< Passed to `setup`: tells apart brushes that share hooks. */
    /** After the state is zeroed and the parameters set to their defaults: set the rest.
     *  False fails `create` (it returns NULL). NULL: nothing to do. */
    bool (*setup)(void *state, const bristle_host_t *host, int variant);
    /** Before the state is freed: free what the brush allocated. NULL: nothing to free. */
    void (*teardown)(void *state);
    bristle_status_t (*begin)(const bristle_brush_t *, const bristle_stroke_context_t *,
                              const bristle_sample_t *);
    bristle_status_t (*moved)(const bristle_brush_t *, const bristle_sample_t *, uint32_t);
    bristle_status_t (*predicted)(const bristle_brush_t *, const bristle_sample_t *, uint32_t);
    bristle_status_t (*ended)(const bristle_brush_t *, const bristle_sample_t *);
    void (*cancelled)(const bristle_brush_t *);
    bristle_status_t (*tick)(const bristle_brush_t *, double, double);
    bristle_status_t (*draw)(const bristle_brush_t *, const bristle_target_t *, bristle_rect_t *);
    const bristle_plugin_param_t *params; /**< NULL when the brush has none. */
    uint32_t param_count;
    /** After a parameter changed (its info), e.g. to drop a cache. NULL: nothing to do. */
    void (*param_changed)(void *state, const bristle_param_info_t *info);
} bristle_plugin_brush_t;

/** The brushes of a library; its first member is the factory the host gets. */
typedef struct bristle_plugin_library {
    bristle_brush_factory_t factory;
    const bristle_plugin_brush_t *brushes;
    uint32_t count;
} bristle_plugin_library_t;

/** What the helper keeps per instance; its first member is what the host sees. */
typedef struct bristle_plugin_instance {
    bristle_brush_t brush;
    const bristle_plugin_brush_t *spec;
    int in_stroke; /**< Between a successful `begin` and `ended` or `cancelled`. */
} bristle_plugin_instance_t;

static inline bristle_plugin_instance_t *bristle_plugin_instance_(const bristle_brush_t *brush) {
    return (bristle_plugin_instance_t *)(void *)brush;
}

static inline double *bristle_plugin_number_(const bristle_brush_t *brush, const bristle_plugin_param_t *p) {
    return (double *)(void *)((char *)brush->brush_data + p->offset);
}

static inline bristle_color_t *bristle_plugin_color_(const bristle_brush_t *brush, const bristle_plugin_param_t *p) {
    return (bristle_color_t *)(void *)((char *)brush->brush_data + p->offset);
}

/** The parameter `id` of the brush when its type is (`color`) or is not (`!color`) COLOR. */
static inline const bristle_plugin_param_t *bristle_plugin_param_(const bristle_brush_t *brush, const char *id,
                                                                 int color) {
    const bristle_plugin_brush_t *spec = bristle_plugin_instance_(brush)->spec;
    uint32_t i;
    if (!id) return NULL;
    for (i = 0; i < spec->param_count; i++) {
        const bristle_plugin_param_t *p = &spec->params[i];
        if (strcmp(p->info.id, id) == 0) return (p->info.type == BRISTLE_PARAM_COLOR) == (color != 0) ? p : NULL;
    }
    return NULL;
}

static inline double bristle_plugin_unit_(double v) { return v > 0 ? (v < 1 ? v : 1) : 0; } /* NaN -> 0 */

static inline uint32_t bristle_plugin_params_count_(const bristle_brush_t *brush) {
    return bristle_plugin_instance_(brush)->spec->param_count;
}

static inline const bristle_param_info_t *bristle_plugin_params_info_(const bristle_brush_t *brush, uint32_t i) {
    const bristle_plugin_brush_t *spec = bristle_plugin_instance_(brush)->spec;
    return i < spec->param_count ? &spec->params[i].info : NULL;
}

static inline bristle_status_t bristle_plugin_params_set_(const bristle_brush_t *brush, const char *id,
                                                          double value) {
    const bristle_plugin_param_t *p = bristle_plugin_param_(brush, id, 0);
    const bristle_plugin_brush_t *spec = bristle_plugin_instance_(brush)->spec;
    if (!p || !isfinite(value)) return BRISTLE_BAD_ARG;
    if (bristle_plugin_instance_(brush)->in_stroke) return BRISTLE_BAD_STATE;
    value = value < p->info.min_value ? p->info.min_value : value > p->info.max_value ? p->info.max_value : value;
    if (p->info.type == BRISTLE_PARAM_BOOL) value = value >= 0.5 ? 1 : 0;
    else if (p->info.type != BRISTLE_PARAM_FLOAT) value = floor(value + 0.5);
    *bristle_plugin_number_(brush, p) = value;
    if (spec->param_changed) spec->param_changed(brush->brush_data, &p->info);
    return BRISTLE_OK;
}

static inline bristle_status_t bristle_plugin_params_get_(const bristle_brush_t *brush, const char *id,
                                                          double *value) {
    const bristle_plugin_param_t *p = bristle_plugin_param_(brush, id, 0);
    if (!p || !value) return BRISTLE_BAD_ARG;
    *value = *bristle_plugin_number_(brush, p);
    return BRISTLE_OK;
}

static inline bristle_status_t bristle_plugin_params_set_color_(const bristle_brush_t *brush, const char *id,
                                                                const bristle_color_t *color) {
    const bristle_plugin_param_t *p = bristle_plugin_param_(brush, id, 1);
    const bristle_plugin_brush_t *spec = bristle_plugin_instance_(brush)->spec;
    bristle_color_t *slot;
    if (!p || !color) return BRISTLE_BAD_ARG;
    if (bristle_plugin_instance_(brush)->in_stroke) return BRISTLE_BAD_STATE;
    slot = bristle_plugin_color_(brush, p);
    slot->r = (float)bristle_plugin_unit_(color->r);
    slot->g = (float)bristle_plugin_unit_(color->g);
    slot->b = (float)bristle_plugin_unit_(color->b);
    slot->a = (float)bristle_plugin_unit_(color->a);
    if (spec->param_changed) spec->param_changed(brush->brush_data, &p->info);
    return BRISTLE_OK;
}

static inline bristle_status_t bristle_plugin_params_get_color_(const bristle_brush_t *brush, const char *id,
                                                                bristle_color_t *color) {
    const bristle_plugin_param_t *p = bristle_plugin_param_(brush, id, 1);
    if (!p || !color) return BRISTLE_BAD_ARG;
    *color = *bristle_plugin_color_(brush, p);
    return BRISTLE_OK;
}

/* get_extension: the parameters extension when the brush has parameters. */
static inline const void *bristle_plugin_get_extension_(const bristle_brush_t *brush, const char *id) {
    static const bristle_params_t params = {
        sizeof(bristle_params_t),         0, bristle_plugin_params_count_,    bristle_plugin_params_info_,
        bristle_plugin_params_set_,       bristle_plugin_params_get_,      bristle_plugin_params_set_color_,
        bristle_plugin_params_get_color_,
    };
    if (!id || bristle_plugin_instance_(brush)->spec->param_count == 0) return NULL;
    return strcmp(id, BRISTLE_EXT_PARAMS) == 0 ? &params : NULL;
}

/* The hooks that mark the stroke, so that setters know when they must refuse. */
static inline bristle_status_t bristle_plugin_begin_(const bristle_brush_t *brush,
                                                     const bristle_stroke_context_t *context,
                                                     const bristle_sample_t *sample) {
    bristle_plugin_instance_t *instance = bristle_plugin_instance_(brush);
    bristle_status_t status = instance->spec->begin(brush, context, sample);
    instance->in_stroke = status == BRISTLE_OK;
    return status;
}

static inline bristle_status_t bristle_plugin_ended_(const bristle_brush_t *brush, const bristle_sample_t *sample) {
    bristle_plugin_instance_t *instance = bristle_plugin_instance_(brush);
    instance->in_stroke = 0;
    return instance->spec->ended(brush, sample);
}

static inline void bristle_plugin_cancelled_(const bristle_brush_t *brush) {
    bristle_plugin_instance_t *instance = bristle_plugin_instance_(brush);
    instance->in_stroke = 0;
    instance->spec->cancelled(brush);
}

static inline void bristle_plugin_destroy_(const bristle_brush_t *brush) {
    bristle_plugin_instance_t *instance = bristle_plugin_instance_(brush);
    if (instance->spec->teardown) instance->spec->teardown(brush->brush_data);
    free(brush->brush_data);
    free(instance);
}

/* The factory. */
static inline uint32_t bristle_plugin_factory_count_(const bristle_brush_factory_t *factory) {
    return ((const bristle_plugin_library_t *)(const void *)factory)->count;
}

static inline const bristle_descriptor_t *bristle_plugin_factory_descriptor_(const bristle_brush_factory_t *factory,
                                                                             uint32_t index) {
    const bristle_plugin_library_t *library = (const bristle_plugin_library_t *)(const void *)factory;
    return index < library->count ? &library->brushes[index].descriptor : NULL;
}

static inline const bristle_brush_t *bristle_plugin_factory_create_(const bristle_brush_factory_t *factory,
                                                                    const bristle_host_t *host, const char *id) {
    const bristle_plugin_library_t *library = (const bristle_plugin_library_t *)(const void *)factory;
    const bristle_plugin_brush_t *spec = NULL;
    bristle_plugin_instance_t *instance;
    void *state;
    uint32_t i;
    if (!id || !host) return NULL;
    for (i = 0; i < library->count && !spec; i++)
        if (strcmp(library->brushes[i].descriptor.id, id) == 0) spec = &library->brushes[i];
    if (!spec) return NULL;
    instance = (bristle_plugin_instance_t *)calloc(1, sizeof *instance);
    state = calloc(1, spec->state_size ? spec->state_size : 1);
    if (!instance || !state) {
        free(instance);
        free(state);
        return NULL;
    }
    instance->spec = spec;
    instance->brush.struct_size = (uint32_t)sizeof(bristle_brush_t);
    instance->brush.descriptor = &spec->descriptor;
    instance->brush.brush_data = state;
    for (i = 0; i < spec->param_count; i++) {
        const bristle_plugin_param_t *p = &spec->params[i];
        if (p->info.type == BRISTLE_PARAM_COLOR) *bristle_plugin_color_(&instance->brush, p) = p->info.default_color;
        else *bristle_plugin_number_(&instance->brush, p) = p->info.default_value;
    }
    if (spec->setup && !spec->setup(state, host, spec->variant)) {
        free(state);
        free(instance);
        return NULL;
    }
    instance->brush.destroy = bristle_plugin_destroy_;
    instance->brush.get_extension = bristle_plugin_get_extension_;
    instance->brush.begin = bristle_plugin_begin_;
    instance->brush.moved = spec->moved;
    instance->brush.predicted = spec->predicted;
    instance->brush.ended = bristle_plugin_ended_;
    instance->brush.cancelled = bristle_plugin_cancelled_;
    instance->brush.tick = spec->tick;
    instance->brush.draw = spec->draw;
    return &instance->brush;
}

/* The entry: init and deinit are counted ([load] calls never run concurrently); the factory
 * is offered only while initialised. */
static inline int *bristle_plugin_init_count_(void) {
    static int count = 0;
    return &count;
}

static inline bool bristle_plugin_init_(const char *plugin_path) {
    (void)plugin_path;
    ++*bristle_plugin_init_count_();
    return true;
}

static inline void bristle_plugin_deinit_(void) {
    if (*bristle_plugin_init_count_() > 0) --*bristle_plugin_init_count_();
}

static inline const void *bristle_plugin_factory_for_(const bristle_plugin_library_t *library, const char *id) {
    if (*bristle_plugin_init_count_() > 0 && id && strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0) return &library->factory;
    return NULL;
}

/** Defines the library of the static array `brushes` (bristle_plugin_brush_t) and exports
 *  bristle_entry_v1; `host_minor_min` is the oldest 1.x host minor it works with
 *  (bristle_entry_t.host_abi_min). Use once, at file scope, after the array. */
#define BRISTLE_PLUGIN_ENTRY(brushes, host_minor_min)                                                 \
    static const bristle_plugin_library_t bristle_plugin_library_ = {                                 \
        {sizeof(bristle_brush_factory_t), 0, bristle_plugin_factory_count_,                           \
         bristle_plugin_factory_descriptor_, bristle_plugin_factory_create_},                         \
        (brushes), (uint32_t)(sizeof(brushes) / sizeof((brushes)[0]))};                               \
    static const void *bristle_plugin_get_factory_(const char *id) {                                  \
        return bristle_plugin_factory_for_(&bristle_plugin_library_, id);                             \
    }                                                                                                 \
    static const bristle_entry_t bristle_plugin_entry_ = {                                            \
        sizeof(bristle_entry_t), BRISTLE_VERSION_INIT, bristle_plugin_init_, bristle_plugin_deinit_, \
        bristle_plugin_get_factory_, {1, host_minor_min, 0}};                                         \
    BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &bristle_plugin_entry_; }

#endif /* BRISTLE_PLUGIN_H */
