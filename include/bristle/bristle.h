/*
 * bristle.h — the Bristle brush plugin ABI, version 1.
 *
 * This header is the specification. Everything a brush may rely on, and everything it must
 * honour, is written here; docs/ABI.md is a narrative over it and never contradicts it.
 * It is plain C99, compiles warning-free as C99 and as C++17, and depends only on the C
 * standard headers.
 *
 * ============================================================================================
 * WHAT A BRUSH IS
 * ============================================================================================
 * A brush turns pen input into pixels. A brush plugin is a shared library (.so) that exports
 * exactly one symbol, the function `bristle_entry_v1`. The host (the `bristle` CLI, or any
 * program embedding the BristleHost library) loads the library, asks the entry for a factory,
 * lists the brushes the factory describes, creates instances of them and drives each instance
 * through strokes:
 *
 *     dlopen  ->  bristle_entry_v1()  ->  entry->init(path)
 *             ->  factory = entry->get_factory(BRISTLE_BRUSH_FACTORY_ID)
 *             ->  factory->count / factory->descriptor(i)          (what is in the file)
 *             ->  brush = factory->create(factory, host, id)       (one instance)
 *                   params->set_value ...                           (between strokes only)
 *                   begin -> draw, moved -> draw, ..., predicted -> draw(preview),
 *                   ended -> draw   |   cancelled                   (one stroke)
 *                   tick -> draw ...                                (after lift, if wanted)
 *             ->  brush->destroy(brush)
 *             ->  entry->deinit()                                   (the library stays mapped)
 *
 * ============================================================================================
 * THE DRAWING LOOP (what the host does, so a brush knows what to expect)
 * ============================================================================================
 * The host owns three layers: the BACKGROUND (a colour or an image; brushes never see it),
 * the COMMITTED layer (the drawing; transparent at start) and the PREVIEW layer (what is
 * shown: committed plus whatever is still provisional). For every input event of a stroke the
 * host calls one hook (begin, moved or ended), then asks the brush to draw:
 *
 *  - a CONTINUOUS brush (pencil, eraser) draws the new final part of the stroke into the
 *    committed layer after every event; the host then copies the dirty rectangle to the
 *    preview;
 *  - a non-continuous brush (line, rectangle) draws its whole current shape into the preview
 *    after every event (the host first restores the preview from the committed layer inside
 *    the previous preview draw's dirty rectangles), so the shape rubber-bands; after `ended` the brush draws
 *    the final shape once into the committed layer;
 *  - PREDICTED samples (if the brush sets BRISTLE_BRUSH_WANTS_PREDICTED) reach the brush through
 *    `predicted`, are drawn into the preview only, and are discarded by the next event. A
 *    predicted sample must never influence committed pixels;
 *  - `cancelled` rolls the whole stroke back: the host restores the committed layer to exactly
 *    the bytes it held before `begin`;
 *  - TICKS (if the brush sets BRISTLE_BRUSH_WANTS_TICKS) come from a deterministic frame clock
 *    (60 Hz unless the host says otherwise) between strokes, for effects that evolve after
 *    lift (a fade, drying paint). A tick is followed by a committed draw.
 *
 * The host does work proportional to the dirty rectangles only, never to the canvas size, so a
 * brush that reports small, honest dirty rectangles is cheap to drive on any canvas. Since 1.2 a
 * draw may report several rectangles (bristle_target_t.dirty_list), so that a rubber-band
 * outline costs what its outline covers, not its whole bounding box.
 *
 * ============================================================================================
 * VERSION POLICY
 * ============================================================================================
 *  - The ABI version is (major, minor, patch). This header is 1.2.0. The published minors are
 *    1.0, 1.1 and 1.2; "CHANGES SINCE 1.1" below lists what 1.2 added, and every later addition
 *    says "Since 1.1" or "Since 1.2" where it is declared. `bristle abi --json` prints every
 *    struct's size in each published minor and every field's offset, size, C type and minor.
 *  - Same major means compatible, in both directions: a 1.x host loads a 1.y plugin whether y
 *    is older or newer than x, provided the plugin follows the rules below and its
 *    `host_abi_min` (FORWARD COMPATIBILITY) is not newer than the host.
 *  - A minor version only appends fields at the end of structs that carry `struct_size`, adds
 *    flag bits, enum values, constants, inline helpers or extensions. It never changes the
 *    meaning or position of an existing field, and never changes an unversioned type (one
 *    without `struct_size`: bristle_version_t, bristle_rect_t, bristle_color_t, bristle_mask_t).
 *  - A major version bump is a new entry symbol (`bristle_entry_v2`). A library may export
 *    several majors side by side during a migration.
 *  - Readers ignore flag bits they do not know. Where a value is needed and unknown (say, a
 *    pixel format), the reader refuses with a clear message rather than guess.
 *  - Every struct that may grow starts with `uint32_t struct_size`, set by its writer to
 *    `sizeof` the struct it was compiled with (for the samples the host passes, to the size of
 *    the minor the host chose: see ARRAYS). A reader never assumes that `struct_size` equals
 *    its own sizeof: it is smaller when the writer is older and larger when it is newer. Read a
 *    field only if BRISTLE_HAS_FIELD says it is present; a missing field has its documented
 *    default. Call a function pointer added by a later minor only if BRISTLE_HAS_FIELD says it
 *    is present.
 *  - An array of versioned structs steps by `struct_size`, never by sizeof (ARRAYS).
 *  - Extension ids (`bristle.params/1`) carry a revision and are never renamed.
 *
 * ============================================================================================
 * ARRAYS: THE STRIDE RULE (stated in 1.2; every 1.0 and 1.1 host already honours it)
 * ============================================================================================
 * An array of a VERSIONED struct (one that starts with `struct_size`) that crosses the
 * boundary, in either direction, has a stride equal to the `struct_size` of its elements.
 * Every element of one array has the same `struct_size`, and element i starts at
 *
 *     (const char *)array + i * array->struct_size
 *
 * Read such arrays with BRISTLE_ARRAY_AT(type, array, i), or bristle_sample_at(samples, i) for
 * the samples of `moved` and `predicted`, never with `array[i]`, which steps by the reader's
 * own sizeof. Today the samples are the only such array; the rule covers any later one.
 * Arrays of UNVERSIONED types (bristle_rect_t, the `double` dash lengths and xy points,
 * pixels, pointer lists such as `tags`) are plain C arrays: they step by sizeof and never grow.
 *
 * What a brush may expect: `struct_size` is at least the sample's size in 1.0 (88 bytes).
 * A host passes samples whose `struct_size`, and so stride, is sizeof(bristle_sample_t) in
 * minor min(the brush's declared minor, descriptor->abi.minor; the host's own minor), taken
 * from a table of every published minor's sizes. So a brush built against 1.0 or 1.1 that indexes
 * `samples[i]` receives samples of exactly its own size and keeps working when a later minor
 * grows the sample. A brush that declares 1.2 or later must step by `struct_size` whatever it
 * receives: on an older host its samples are smaller than its sizeof, and a host may pass them
 * larger (the conformance harness does, with garbage in the trailing bytes, and checks that
 * the brush draws the same pixels).
 *
 * Why this rule:
 *  - sizeof differs between writer and reader as soon as they were built against different
 *    minors; `struct_size` is the one size both sides see at run time.
 *  - The alternatives break something else: an array of pointers costs an indirection per
 *    sample and one more lifetime to explain; a stride argument changes every hook's
 *    signature (a new major); freezing the sample would shut out new pen channels for good.
 *    The stride rule keeps the signatures, costs one multiply per element, and is what
 *    BristleKit did from 1.0.
 *  - Trimming samples to the brush's declared minor keeps every brush written before the rule
 *    was stated working, without asking it to change a line.
 *
 * ============================================================================================
 * FORWARD COMPATIBILITY (a plugin newer than its host)
 * ============================================================================================
 * A plugin built against a later minor than its host's runs on that host when it
 *  1. reads every field, and calls every function, added after 1.0 only when BRISTLE_HAS_FIELD
 *     says the host wrote it (the target, the services, the host struct, the samples, the
 *     stroke context);
 *  2. steps through arrays by `struct_size` (ARRAYS);
 *  3. sets bristle_entry_t.host_abi_min (since 1.2) to the oldest host ABI it can work with:
 *     {1, 0, 0} (or zero, or a 1.0/1.1 entry without the field) means any 1.x host.
 * A 1.2 or later host whose minor is below host_abi_min refuses the plugin at load, before
 * creating any brush, naming both versions ("plugin needs ABI 1.9, this host provides 1.2";
 * `bristle render` exits with status 69). Hosts of 1.0 and 1.1 do not read host_abi_min: on them
 * only rules 1 and 2 protect the plugin.
 *
 * ============================================================================================
 * CHANGES SINCE 1.1 (ABI 1.2.0)
 * ============================================================================================
 *  - The stride rule for arrays of versioned structs (ARRAYS), with the accessors
 *    BRISTLE_ARRAY_AT and bristle_sample_at. No layout changed for it: 1.0 and 1.1 hosts pass
 *    samples with stride == struct_size == sizeof.
 *  - bristle_entry_t.host_abi_min, the oldest host ABI the plugin accepts (FORWARD
 *    COMPATIBILITY); sizeof(bristle_entry_t) grows from 40 to 56 bytes.
 *  - Several dirty rectangles per draw: bristle_target_t.dirty_list (sizeof(bristle_target_t)
 *    grows from 56 to 64), bristle_dirty_list_t, BRISTLE_MAX_DIRTY_RECTS and the inline helper
 *    bristle_dirty_add. A brush that ignores them reports `*dirty` alone, as before.
 *  - The inline helper bristle_rect_union.
 *  - Every other struct keeps its 1.1 size. A 1.1 plugin needs no change; a 1.2 plugin runs on
 *    a 1.1 or 1.0 host when it follows FORWARD COMPATIBILITY (bristle_dirty_add already does).
 * For reference, 1.1.0 appended the shape, stroke, dab and pattern services to
 * bristle_services_t (64 -> 136 bytes), the BUTT and SQUARE caps, joins, stroke flags,
 * bristle_stroke_style_t and bristle_pattern_t.
 *
 * ============================================================================================
 * WHERE THE HOST LOOKS FOR PLUGINS
 * ============================================================================================
 * In this order; the first brush with a given id wins and every clash is reported:
 *   1. each directory in the BRISTLE_PATH environment variable (colon-separated);
 *   2. the directory of the running `bristle` executable, then ../lib/bristle/plugins beside it;
 *   3. ~/.local/lib/bristle/plugins, /usr/local/lib/bristle/plugins, /usr/lib/bristle/plugins.
 * A plugin is any file ending in `.so` that exports `bristle_entry_v1`.
 *
 * ============================================================================================
 * THREADING GLOSSARY (every function below carries one of these tags)
 * ============================================================================================
 *  [load]        Called while the host loads or unloads the library: never concurrently with
 *                any other call into the library.
 *  [any-thread]  May be called from any thread, concurrently with anything. Must be
 *                thread-safe and must not block for long.
 *  [instance]    Called on one instance by one thread at a time (the host serialises calls on
 *                an instance; successive calls may come from different OS threads). Two
 *                instances may run on two threads at once, so a brush keeps no unsynchronised
 *                global mutable state.
 *  [idle]        Only between strokes: not between `begin` and `ended`/`cancelled`.
 *  [stroke]      Only during a stroke: after `begin`, before `ended`/`cancelled`.
 *
 * ============================================================================================
 * OWNERSHIP AND LIFETIME (nothing is ever freed across the boundary)
 * ============================================================================================
 *   what                                  owner   valid until
 *   ------------------------------------  ------  -----------------------------------------
 *   entry struct (bristle_entry_t)        plugin  the process ends (the library stays mapped)
 *   factory, descriptors and their        plugin  entry->deinit()
 *     strings
 *   brush struct (bristle_brush_t)        plugin  brush->destroy()
 *   extension structs of a brush,         plugin  brush->destroy()
 *     parameter infos and their strings
 *   host struct (bristle_host_t) and its  host    the brush is destroyed (a brush may keep the
 *     services table                              pointers)
 *   everything else the host passes:      host    the call returns: copy what you need
 *     samples, stroke context, target,
 *     dirty list, pixels, strings,
 *     plugin_path
 *   memory a brush allocates              plugin  the plugin frees it (in destroy at latest)
 *
 * ============================================================================================
 * PIXELS (frozen for format BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED)
 * ============================================================================================
 *  - 4 bytes per pixel: R, G, B, A in that order in memory, whatever the CPU's endianness.
 *  - Colour components are sRGB-encoded and PREMULTIPLIED by alpha: R, G, B <= A always.
 *  - Row 0 is the top row. Row y starts at `pixels + y * stride_bytes`.
 *  - `stride_bytes` >= width * 4 and may be larger; the bytes between width * 4 and
 *    stride_bytes belong to the host: never read or write them.
 *  - A brush writes only pixels with 0 <= x < width and 0 <= y < height.
 *  - Pixels are valid only during the `draw` call that passed them.
 *
 * ============================================================================================
 * RATIONALE FOR THE NON-OBVIOUS CHOICES
 * ============================================================================================
 *  - The entry is a FUNCTION, not an exported struct (as CLAP's is), because Swift can export
 *    C-named functions (`@c`, `@_cdecl`) but not C-named data. The major version is in the
 *    symbol's name so that a host refuses a foreign major before running any plugin code.
 *  - init/deinit are reference-counted and cheap: wrappers and scanners call them more than
 *    once, and nothing can guarantee "exactly once" in a process with several hosts.
 *  - A host never unloads a plugin (it loads with RTLD_NODELETE and never calls dlclose):
 *    unloading a library that contains Swift code and then loading another crashes the
 *    process, because the Swift runtime caches type metadata by name across images.
 *  - Premultiplied alpha: compositing, erasing and filtering are exact and cheap on
 *    premultiplied pixels; the host converts at the PNG boundary.
 *  - `moved` takes all the coalesced samples of one input event at once, so a brush sees the
 *    full-rate pen data the OS collected and the host makes one call per event.
 *  - Pressure presence is a flag, never a value: a mouse under Pointer Events reports a fake
 *    pressure of 0.5.
 *  - The target carries `base`, the committed pixels as they were before the stroke began, so
 *    a brush can recompose "before + this stroke" and give a translucent stroke one opacity
 *    however often its segments overlap.
 *  - Status codes are few on purpose. A brush clamps bad input and carries on; it never aborts,
 *    exits or traps, because it runs inside somebody else's process.
 */
#ifndef BRISTLE_BRISTLE_H
#define BRISTLE_BRISTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Versions, export and struct-size helpers                                                    */
/* ------------------------------------------------------------------------------------------ */

/** The ABI version this header describes. */
#define BRISTLE_VERSION_MAJOR ((uint32_t)1)
#define BRISTLE_VERSION_MINOR ((uint32_t)2)
#define BRISTLE_VERSION_PATCH ((uint32_t)0)

/** The name of the one symbol a plugin exports, for dlsym. */
#define BRISTLE_ENTRY_SYMBOL "bristle_entry_v1"

/** Marks the entry function as exported. Build plugins with -fvisibility=hidden so that the
 *  entry is the only exported symbol (Plugins/exports.map is a linker version script). */
#if defined(_WIN32)
#define BRISTLE_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define BRISTLE_EXPORT __attribute__((visibility("default")))
#else
#define BRISTLE_EXPORT
#endif

/** True when `field` of the struct `type` pointed to by `ptr` is present, i.e. the writer's
 *  `struct_size` covers it. Use it before reading any field that a later minor version added.
 *  Example: `if (BRISTLE_HAS_FIELD(sample, bristle_sample_t, twist)) ...` */
#define BRISTLE_HAS_FIELD(ptr, type, field)                                                       \
    ((ptr)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

/** Since 1.2. Element `i` of an array of a versioned struct, stepping by the array's
 *  `struct_size` (the stride rule, see ARRAYS in the preamble): a pointer to `type` at
 *  `(const char *)array + i * array->struct_size`. `type` carries the array's qualifiers, e.g.
 *  `BRISTLE_ARRAY_AT(const bristle_sample_t, samples, i)`; `array` is evaluated twice. */
#define BRISTLE_ARRAY_AT(type, array, i)                                                          \
    ((type *)(const void *)((const unsigned char *)(array) +                                      \
                            (size_t)(i) * (size_t)(array)->struct_size))

/** An ABI version. */
typedef struct bristle_version {
    uint32_t major; /**< Incompatible changes. Must equal the reader's BRISTLE_VERSION_MAJOR. */
    uint32_t minor; /**< Appended fields, flags, extensions. */
    uint32_t patch; /**< Clarifications only. */
} bristle_version_t;

/** Initialiser for a `bristle_version_t` holding this header's version. */
#define BRISTLE_VERSION_INIT                                                                      \
    { BRISTLE_VERSION_MAJOR, BRISTLE_VERSION_MINOR, BRISTLE_VERSION_PATCH }

/** True when a plugin or host built against `v` can work with this header's version. */
#define BRISTLE_VERSION_IS_COMPATIBLE(v) ((v).major == BRISTLE_VERSION_MAJOR)

/* ------------------------------------------------------------------------------------------ */
/* Status codes and logging                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** The result of a hook. Zero is success; everything else is a failure the host reports. */
typedef int32_t bristle_status_t;
#define BRISTLE_OK ((bristle_status_t)0)          /**< Done. */
#define BRISTLE_FAILED ((bristle_status_t)1)      /**< Could not do it (e.g. out of memory). */
#define BRISTLE_UNSUPPORTED ((bristle_status_t)2) /**< The request is valid but not implemented. */
#define BRISTLE_BAD_ARG ((bristle_status_t)3)     /**< An argument is invalid (unknown id...). */
#define BRISTLE_BAD_STATE ((bristle_status_t)4)   /**< Called at the wrong time (draw before begin). */

/** Severity of a host log message. */
typedef int32_t bristle_log_severity_t;
#define BRISTLE_LOG_DEBUG ((bristle_log_severity_t)0)
#define BRISTLE_LOG_INFO ((bristle_log_severity_t)1)
#define BRISTLE_LOG_WARNING ((bristle_log_severity_t)2)
#define BRISTLE_LOG_ERROR ((bristle_log_severity_t)3)

/* ------------------------------------------------------------------------------------------ */
/* Small value types                                                                            */
/* ------------------------------------------------------------------------------------------ */

/** A rectangle of whole pixels: columns [x, x + width), rows [y, y + height). A rectangle with
 *  width <= 0 or height <= 0 is empty. Not versioned: it will never grow. */
typedef struct bristle_rect {
    int32_t x;      /**< Leftmost column. */
    int32_t y;      /**< Top row. */
    int32_t width;  /**< Number of columns; <= 0 means empty. */
    int32_t height; /**< Number of rows; <= 0 means empty. */
} bristle_rect_t;

/** Since 1.2. The smallest rectangle containing `a` and `b`. An empty operand is ignored; two
 *  empty operands give {0, 0, 0, 0}. Edges are computed in 64 bits and sizes saturate at
 *  INT32_MAX, so huge over-estimates never wrap around. */
static inline bristle_rect_t bristle_rect_union(bristle_rect_t a, bristle_rect_t b) {
    int64_t x0, y0, x1, y1;
    const int64_t most = 2147483647;
    int a_empty = a.width <= 0 || a.height <= 0, b_empty = b.width <= 0 || b.height <= 0;
    if (a_empty || b_empty) {
        if (!b_empty) return b;
        if (a_empty) a.x = a.y = a.width = a.height = 0;
        return a;
    }
    x0 = a.x < b.x ? a.x : b.x;
    y0 = a.y < b.y ? a.y : b.y;
    x1 = (int64_t)a.x + a.width > (int64_t)b.x + b.width ? (int64_t)a.x + a.width : (int64_t)b.x + b.width;
    y1 = (int64_t)a.y + a.height > (int64_t)b.y + b.height ? (int64_t)a.y + a.height
                                                           : (int64_t)b.y + b.height;
    a.x = (int32_t)x0;
    a.y = (int32_t)y0;
    a.width = (int32_t)(x1 - x0 < most ? x1 - x0 : most);
    a.height = (int32_t)(y1 - y0 < most ? y1 - y0 : most);
    return a;
}

/** A colour: sRGB-encoded components in [0, 1] with STRAIGHT (not premultiplied) alpha.
 *  Not versioned: it will never grow. */
typedef struct bristle_color {
    float r; /**< Red, [0, 1]. */
    float g; /**< Green, [0, 1]. */
    float b; /**< Blue, [0, 1]. */
    float a; /**< Alpha (opacity), [0, 1]; 1 is opaque. */
} bristle_color_t;

/* ------------------------------------------------------------------------------------------ */
/* Samples: the one input record                                                                */
/* ------------------------------------------------------------------------------------------ */

/* Pointer types (bristle_sample_t.pointer_type). */
#define BRISTLE_POINTER_UNKNOWN ((uint32_t)0)
#define BRISTLE_POINTER_MOUSE ((uint32_t)1)
#define BRISTLE_POINTER_PEN ((uint32_t)2)
#define BRISTLE_POINTER_ERASER ((uint32_t)3) /**< The eraser end of a pen. */
#define BRISTLE_POINTER_TOUCH ((uint32_t)4)

/* Sample flags (bristle_sample_t.flags). The HAS_* bits say which optional fields carry real
 * data; a field whose bit is clear holds its documented default and must not be trusted. */
#define BRISTLE_SAMPLE_HAS_PRESSURE ((uint32_t)0x00000001u)   /**< `pressure` is measured. */
#define BRISTLE_SAMPLE_HAS_FORCE ((uint32_t)0x00000002u)      /**< `force` and `max_force` are set. */
#define BRISTLE_SAMPLE_HAS_TILT ((uint32_t)0x00000004u)       /**< altitude/azimuth/tilt_x/tilt_y. */
#define BRISTLE_SAMPLE_HAS_TWIST ((uint32_t)0x00000008u)      /**< `twist` is measured. */
#define BRISTLE_SAMPLE_HAS_TANGENTIAL ((uint32_t)0x00000010u) /**< `tangential_pressure`. */
#define BRISTLE_SAMPLE_HAS_CONTACT ((uint32_t)0x00000020u)    /**< `width` and `height`. */
#define BRISTLE_SAMPLE_COALESCED ((uint32_t)0x00000100u) /**< An intermediate sample of one event. */
#define BRISTLE_SAMPLE_PREDICTED ((uint32_t)0x00000200u) /**< A guess of the future; see `predicted`. */
#define BRISTLE_SAMPLE_SYNTHETIC ((uint32_t)0x00000400u) /**< Made up by the host, not measured. */
#define BRISTLE_SAMPLE_ESTIMATED ((uint32_t)0x00000800u) /**< Measured, but may be revised later. */

/**
 * One pen, mouse or touch sample, in canvas pixels. Names and units follow W3C Pointer Events
 * where they can; angles are radians.
 *
 * The host fills every field (defaults where the device measures nothing) and sets
 * `struct_size`. A brush reads a field added by a later minor only if BRISTLE_HAS_FIELD says it
 * is present. Samples are passed by pointer and valid only during the call.
 */
typedef struct bristle_sample {
    uint32_t struct_size; /**< sizeof(bristle_sample_t) as the host compiled it. */
    uint32_t flags;       /**< BRISTLE_SAMPLE_* bits. Ignore unknown bits. */
    double t;             /**< Seconds since the stroke began; never decreases within a stroke. */
    double x;             /**< Canvas pixels from the left edge; may lie outside the canvas. */
    double y;             /**< Canvas pixels from the top edge (y grows downwards). */
    float pressure;       /**< [0, 1], 0 = no pressure. Meaningful only with HAS_PRESSURE;
                               otherwise 0.5. Already passed through the host's pressure curve. */
    float force;          /**< Raw force in device units (UIKit: 1 = an average touch); 0 when
                               unknown. With HAS_FORCE. */
    float max_force;      /**< The device's maximum `force`; 0 when unknown. With HAS_FORCE. */
    float altitude;       /**< [0, pi/2] rad between the pen and the surface; pi/2 (default) is
                               perpendicular. With HAS_TILT. */
    float azimuth;        /**< [0, 2 pi) rad, clockwise from +x in canvas space, towards where
                               the pen's cap points; 0 by default. With HAS_TILT. */
    float tilt_x;         /**< [-90, 90] degrees, Pointer Events tiltX; 0 by default. */
    float tilt_y;         /**< [-90, 90] degrees, Pointer Events tiltY; 0 by default. */
    float twist;          /**< [0, 2 pi) rad clockwise barrel rotation; 0 by default. */
    float tangential_pressure; /**< [-1, 1] (airbrush wheel); 0 by default. */
    float width;          /**< Contact width in canvas pixels (a diameter); 0 when unknown. */
    float height;         /**< Contact height in canvas pixels; 0 when unknown. UIKit's
                               majorRadius is max(width, height) / 2. */
    uint32_t pointer_type; /**< BRISTLE_POINTER_*. */
    uint32_t buttons;      /**< Pointer Events `buttons` bitmask (1 primary, 2 secondary,
                               32 pen eraser). */
    uint32_t pointer_id;   /**< Identifies the pointer within a session; 0 when unknown. */
} bristle_sample_t;

/** Since 1.2. Sample `i` of the array a `moved` or `predicted` hook received, stepping by the
 *  samples' `struct_size` as the stride rule requires (ARRAYS in the preamble). Use it instead
 *  of `&samples[i]`. A field a later minor added is still read only after BRISTLE_HAS_FIELD. */
static inline const bristle_sample_t *bristle_sample_at(const bristle_sample_t *samples,
                                                        uint32_t i) {
    return BRISTLE_ARRAY_AT(const bristle_sample_t, samples, i);
}

/* ------------------------------------------------------------------------------------------ */
/* The stroke context                                                                           */
/* ------------------------------------------------------------------------------------------ */

/**
 * What the host tells a brush about the stroke it is drawing: the user's colour and width, the
 * canvas geometry, the device, and the seed for any randomness. Passed to `begin` and, for the
 * same stroke, in every `bristle_target_t`. Valid only during the call; copy what you need.
 */
typedef struct bristle_stroke_context {
    uint32_t struct_size;  /**< sizeof(bristle_stroke_context_t) as the host compiled it. */
    uint32_t device_flags; /**< BRISTLE_SAMPLE_HAS_* bits this input device can ever report. */
    bristle_color_t color; /**< The colour chosen by the user (straight alpha). */
    float width;           /**< The width chosen by the user, in points (> 0). */
    float scale;           /**< Canvas pixels per point (> 0, default 1): widths in points are
                                multiplied by it; sample coordinates are already in pixels. */
    uint64_t seed;         /**< Seed for all randomness of this stroke. Output must be a pure
                                function of (initial pixels, parameters, samples, seed, ticks). */
    uint32_t pointer_type; /**< BRISTLE_POINTER_* of the device drawing this stroke. */
    float max_force;       /**< The device's maximum force, 0 when unknown. */
    int32_t canvas_width;  /**< Canvas size in pixels; every target of this stroke has it. */
    int32_t canvas_height;
} bristle_stroke_context_t;

/* ------------------------------------------------------------------------------------------ */
/* Host drawing services                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* Layers (bristle_target_t.layer). */
#define BRISTLE_LAYER_COMMITTED ((uint32_t)0) /**< The drawing itself. */
#define BRISTLE_LAYER_PREVIEW ((uint32_t)1)   /**< What is shown: committed + provisional. */

/* Pixel formats (bristle_target_t.format). v1 has exactly one. */
#define BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED ((uint32_t)1)

/* Blend modes (bristle_paint_t.blend). */
#define BRISTLE_BLEND_SRC_OVER ((uint32_t)0) /**< Premultiplied source-over. */
#define BRISTLE_BLEND_ERASE ((uint32_t)1)    /**< Destination-out: dst *= 1 - coverage * alpha.
                                                  A true erase: it reveals the background. */

/* Caps (bristle_segment_t.cap, bristle_stroke_style_t.cap). A 1.0 host knows only ROUND and
 * draws nothing for the others: check the host's `abi.minor` >= 1 before using them. */
#define BRISTLE_CAP_ROUND ((uint32_t)0)  /**< Half-discs at both ends: a (tapered) capsule. */
#define BRISTLE_CAP_BUTT ((uint32_t)1)   /**< Since 1.1. Flat ends through the end points: the
                                              segment is a trapezoid (a rectangle when the
                                              widths are equal). */
#define BRISTLE_CAP_SQUARE ((uint32_t)2) /**< Since 1.1. Flat ends, each pushed out by half its
                                              own width along the segment. */

/* Joins (bristle_stroke_style_t.join), since 1.1. */
#define BRISTLE_JOIN_ROUND ((uint32_t)0) /**< A disc of the stroke's width at every vertex. */
#define BRISTLE_JOIN_MITER ((uint32_t)1) /**< Outer edges extended to their intersection, unless
                                              the miter length / width would exceed
                                              miter_limit (1/sin(theta/2) for an angle theta
                                              between the segments): then BEVEL. */
#define BRISTLE_JOIN_BEVEL ((uint32_t)2) /**< The outer corners joined by a straight edge. */

/* Stroke flags (bristle_stroke_style_t.flags), since 1.1. */
#define BRISTLE_STROKE_CLOSED ((uint32_t)0x00000001u) /**< The last point joins the first (with a
                                                      join there, no caps). */


/* Flags of composite_mask. */
#define BRISTLE_COMPOSITE_OVER_BASE ((uint32_t)0x00000001u) /**< Read the destination from
                                                          target->base instead of target->pixels. */

/** How to paint: a colour, an opacity and a blend mode. */
typedef struct bristle_paint {
    uint32_t struct_size;  /**< sizeof(bristle_paint_t). */
    uint32_t blend;        /**< BRISTLE_BLEND_*. Unknown values paint nothing. */
    bristle_color_t color; /**< Straight-alpha colour. For ERASE only `a` matters. */
    float opacity;         /**< Multiplies coverage, [0, 1]. */
} bristle_paint_t;

/** A segment from (x0, y0) to (x1, y1) whose width goes linearly from width0 to width1.
 *  With round caps it is the convex hull of two discs: a tapered capsule. A zero-length
 *  segment is a disc of the larger width. Widths are diameters in pixels. */
typedef struct bristle_segment {
    uint32_t struct_size; /**< sizeof(bristle_segment_t). */
    uint32_t cap;         /**< BRISTLE_CAP_*. Unknown values draw nothing. */
    double x0, y0;        /**< Start, canvas pixels. */
    double x1, y1;        /**< End, canvas pixels. */
    double width0;        /**< Diameter at the start, >= 0. */
    double width1;        /**< Diameter at the end, >= 0. */
} bristle_segment_t;

/**
 * Since 1.1. How a polyline, a rectangle or an ellipse is stroked. The stroke covers every point
 * within width / 2 of the path, plus caps and joins; with dashes, only the "on" parts of the
 * path are stroked, each one with `cap` at both of its ends (a zero-length dash with ROUND or
 * SQUARE caps is a dot; with BUTT it is nothing).
 *
 * Invalid values never fail a call; they are handled as documented per field. Limits that keep
 * hostile input cheap: a non-finite or negative width, more than BRISTLE_MAX_DASHES dash
 * entries, a negative or non-finite dash entry, or a non-finite phase draws nothing; a pattern
 * that would produce more than BRISTLE_MAX_DASH_PIECES dashes in the visible part of the
 * target draws nothing.
 */
typedef struct bristle_stroke_style {
    uint32_t struct_size; /**< sizeof(bristle_stroke_style_t) as the brush compiled it. */
    uint32_t cap;         /**< BRISTLE_CAP_* for open paths and every dash. Unknown: ROUND.
                               Rectangles and ellipses ignore it (they are closed). */
    uint32_t join;        /**< BRISTLE_JOIN_*. Unknown: ROUND. Ellipses ignore it. */
    uint32_t flags;       /**< BRISTLE_STROKE_* bits; unknown bits are ignored. Rectangles and
                               ellipses are always closed. */
    double width;         /**< Stroke width in pixels, >= 0; 0 draws nothing. */
    double miter_limit;   /**< For MITER joins: the largest miter length / width before a
                               corner is bevelled (SVG's stroke-miterlimit; 4 is common, 10 is
                               cairo's default). Values below 1, and NaN, count as 1. */
    const double *dashes; /**< `dash_count` lengths in pixels, alternately on and off, starting
                               with on; an odd count is repeated to make it even (as in SVG).
                               NULL or a count of 0: a solid stroke. All zero: solid too. */
    uint32_t dash_count;  /**< Entries in `dashes`, at most BRISTLE_MAX_DASHES. */
    uint32_t reserved;    /**< 0. */
    double dash_phase;    /**< Distance into the dash pattern at the start of the path (pixels;
                               negative values count backwards, as in SVG's dashoffset). */
} bristle_stroke_style_t;

/** Since 1.1. The most entries a dash array may have. */
#define BRISTLE_MAX_DASHES ((uint32_t)0x00000400u)
/** Since 1.1. The most dashes one call draws in the visible part of the target. */
#define BRISTLE_MAX_DASH_PIECES ((uint32_t)0x00020000u)
/** Since 1.1. The most points a polyline may have. */
#define BRISTLE_MAX_POLYLINE_POINTS ((uint32_t)0x00100000u)

/**
 * Since 1.1. A texture source: a tile of pixels owned by the brush, repeated over the whole
 * plane. Canvas pixel (x, y) takes the tile pixel
 * ((x - offset_x) mod width, (y - offset_y) mod height) (mathematical modulo, nearest pixel, no
 * filtering). Passed instead of the paint's colour: with BLEND_SRC_OVER the source is the tile
 * pixel; with BLEND_ERASE the tile's alpha says how much to erase. The paint's opacity still
 * multiplies the coverage; its colour is ignored. Valid only during the call.
 */
typedef struct bristle_pattern {
    uint32_t struct_size;  /**< sizeof(bristle_pattern_t) as the brush compiled it. */
    uint32_t format;       /**< BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED (colour <= alpha), or
                                the call draws nothing. */
    const uint8_t *pixels; /**< The tile's top-left pixel; row y at pixels + y * stride_bytes. */
    int32_t width;         /**< Tile columns, 1 ... 65536, or the call draws nothing. */
    int32_t height;        /**< Tile rows, 1 ... 65536, or the call draws nothing. */
    int32_t stride_bytes;  /**< Bytes from one tile row to the next, >= width * 4. */
    int32_t offset_x;      /**< Canvas column where a tile's left edge lies. */
    int32_t offset_y;      /**< Canvas row where a tile's top edge lies. */
    uint32_t reserved;     /**< 0. */
} bristle_pattern_t;

/** An 8-bit coverage plane owned by the brush: 0 uncovered, 255 fully covered. Use one the
 *  size of the canvas to accumulate a stroke's coverage with max, then composite it once. */
typedef struct bristle_mask {
    uint8_t *data;        /**< Row 0 first; row y starts at data + y * stride_bytes. */
    int32_t width;        /**< Columns. */
    int32_t height;       /**< Rows. */
    int32_t stride_bytes; /**< Bytes from one row to the next, >= width. */
} bristle_mask_t;

typedef struct bristle_target bristle_target_t;
typedef struct bristle_services bristle_services_t;

/**
 * Anti-aliased drawing the host offers to brushes. Coverage is exact-area (the fraction of each
 * pixel the shape covers), everything is clipped to the target or mask, and every call returns
 * the rectangle it changed (empty when it changed nothing). Non-finite or absurd geometry
 * draws nothing. A brush may use the services, write pixels itself, or both.
 *
 * [instance] The services may be called from any hook of an instance created with the host
 * that owns this table, on the thread running that hook. The table lives as long as the host.
 * Every function takes the table itself first.
 */
struct bristle_services {
    uint32_t struct_size; /**< sizeof(bristle_services_t) as the host compiled it. */
    uint32_t reserved;    /**< 0. */
    void *host_data;      /**< The host's. Do not touch. */

    /** Paints a segment onto the target with `paint`. Returns the changed rectangle. */
    bristle_rect_t (*fill_segment)(const bristle_services_t *services,
                                   const bristle_target_t *target,
                                   const bristle_segment_t *segment, const bristle_paint_t *paint);

    /** Paints a disc of `radius` pixels centred at (cx, cy). Returns the changed rectangle. */
    bristle_rect_t (*fill_disc)(const bristle_services_t *services, const bristle_target_t *target,
                                double cx, double cy, double radius, const bristle_paint_t *paint);

    /** Accumulates a segment's coverage into `mask` with max: mask = max(mask, coverage).
     *  Returns the rectangle of mask cells it may have raised. */
    bristle_rect_t (*mask_segment)(const bristle_services_t *services, const bristle_mask_t *mask,
                                   const bristle_segment_t *segment);

    /** Accumulates a disc's coverage into `mask` with max. */
    bristle_rect_t (*mask_disc)(const bristle_services_t *services, const bristle_mask_t *mask,
                                double cx, double cy, double radius);

    /** Sets the mask cells inside `rect` (clipped) to zero. */
    void (*clear_mask)(const bristle_services_t *services, const bristle_mask_t *mask,
                       bristle_rect_t rect);

    /** Composites `paint` through `mask` (same size as the target) inside `rect`:
     *  dst = blend(paint, coverage = mask * opacity). With BRISTLE_COMPOSITE_OVER_BASE the
     *  destination is read from target->base (the pixels before the stroke) and the result
     *  written to target->pixels, so re-compositing a growing mask never double-blends; if
     *  target->base is NULL the flag is ignored. Returns the changed rectangle. */
    bristle_rect_t (*composite_mask)(const bristle_services_t *services,
                                     const bristle_target_t *target, const bristle_mask_t *mask,
                                     bristle_rect_t rect, const bristle_paint_t *paint,
                                     uint32_t flags);

    /* ---- Since 1.1: check BRISTLE_HAS_FIELD(services, bristle_services_t, NAME) first. ----
     * Every `draw_*` paints onto the target with `paint`, or with `pattern` when it is not NULL
     * (see bristle_pattern_t); every `mask_*` max-combines the same coverage into a mask
     * (mask = max(mask, coverage)) so the pieces of one stroke never double up. A NULL or
     * invalid target, mask, paint or style, a non-finite or absurd (> 1e8) coordinate or size,
     * or an unknown blend draws nothing and returns an empty rectangle. A `style` of NULL
     * fills the shape; otherwise the shape's outline is stroked with it. */

    /** The rectangle with corners (x, y) and (x + width, y + height): negative sizes are
     *  allowed (any drag direction). Filled: the exact area of the rectangle. Stroked: the
     *  outline with `style->width` centred on the edges and `style->join` at the corners
     *  (MITER gives sharp corners; dashes apply, starting at the top-left corner, clockwise).
     *  Returns the changed rectangle. */
    bristle_rect_t (*draw_rect)(const bristle_services_t *services,
                                const bristle_target_t *target, double x, double y,
                                double width, double height,
                                const bristle_stroke_style_t *style,
                                const bristle_paint_t *paint, const bristle_pattern_t *pattern);

    /** The axis-aligned ellipse centred at (cx, cy) with radii rx, ry >= 0 (an ellipse with a
     *  zero radius fills nothing; stroked, it is the segment it degenerates to). Stroked: every
     *  point within style->width / 2 of the ellipse; dashes apply, starting at (cx + rx, cy),
     *  clockwise on screen. Returns the changed rectangle. */
    bristle_rect_t (*draw_ellipse)(const bristle_services_t *services,
                                   const bristle_target_t *target, double cx, double cy,
                                   double rx, double ry, const bristle_stroke_style_t *style,
                                   const bristle_paint_t *paint, const bristle_pattern_t *pattern);

    /** The polyline through `count` points `xy` (x0, y0, x1, y1, ...; 1 ... 
     *  BRISTLE_MAX_POLYLINE_POINTS points), stroked with `style`. With a NULL style the closed
     *  polygon is filled (nonzero winding; needs 3 points). Consecutive equal points are
     *  merged; a single point (or all points equal) is a dot with ROUND or SQUARE caps.
     *  Returns the changed rectangle. */
    bristle_rect_t (*draw_polyline)(const bristle_services_t *services,
                                    const bristle_target_t *target, const double *xy,
                                    uint32_t count, const bristle_stroke_style_t *style,
                                    const bristle_paint_t *paint,
                                    const bristle_pattern_t *pattern);

    /** A dab: the disc of `radius` centred at (cx, cy) with a radial falloff. `hardness` is
     *  clamped to [0, 1] (NaN counts as 1). Hardness 1 is the exact-area hard disc (as
     *  fill_disc). Below 1 the coverage at a pixel whose centre lies at distance d is
     *  f(d / radius): 1 up to t0 = max(0, min(hardness, 1 - 1 / radius)), then the smoothstep
     *  s(u) = u * u * (3 - 2 u) of u = (1 - t) / (1 - t0) down to 0 at the rim (the ramp is
     *  at least one pixel wide so a nearly hard dab stays anti-aliased). Returns the changed
     *  rectangle. */
    bristle_rect_t (*draw_dab)(const bristle_services_t *services,
                               const bristle_target_t *target, double cx, double cy,
                               double radius, double hardness, const bristle_paint_t *paint,
                               const bristle_pattern_t *pattern);

    /** draw_rect's coverage, max-combined into `mask`. Returns the rectangle of raised cells:
     *  every cell whose value rose lies in it, so compositing that rectangle after the call
     *  redraws all that changed. It may be larger than those cells (a host may return the box
     *  of the cells the shape covers) and may be empty when none rose; assume nothing more.
     *  The same holds for mask_ellipse, mask_polyline and mask_dab. */
    bristle_rect_t (*mask_rect)(const bristle_services_t *services, const bristle_mask_t *mask,
                                double x, double y, double width, double height,
                                const bristle_stroke_style_t *style);

    /** draw_ellipse's coverage, max-combined into `mask`. Returns the rectangle of raised
     *  cells (see mask_rect). */
    bristle_rect_t (*mask_ellipse)(const bristle_services_t *services,
                                   const bristle_mask_t *mask, double cx, double cy, double rx,
                                   double ry, const bristle_stroke_style_t *style);

    /** draw_polyline's coverage, max-combined into `mask`. Returns the rectangle of raised
     *  cells (see mask_rect). */
    bristle_rect_t (*mask_polyline)(const bristle_services_t *services,
                                    const bristle_mask_t *mask, const double *xy, uint32_t count,
                                    const bristle_stroke_style_t *style);

    /** draw_dab's coverage, max-combined into `mask`. Returns the rectangle of raised
     *  cells (see mask_rect). */
    bristle_rect_t (*mask_dab)(const bristle_services_t *services, const bristle_mask_t *mask,
                               double cx, double cy, double radius, double hardness);

    /** composite_mask with a pattern as the source (see bristle_pattern_t); a NULL pattern
     *  behaves exactly as composite_mask. */
    bristle_rect_t (*composite_mask_pattern)(const bristle_services_t *services,
                                             const bristle_target_t *target,
                                             const bristle_mask_t *mask, bristle_rect_t rect,
                                             const bristle_paint_t *paint,
                                             const bristle_pattern_t *pattern, uint32_t flags);
};

/* ------------------------------------------------------------------------------------------ */
/* The draw target                                                                              */
/* ------------------------------------------------------------------------------------------ */

/** Since 1.2. The most rectangles a 1.2 host's dirty list holds (its `capacity`). */
#define BRISTLE_MAX_DIRTY_RECTS ((uint32_t)16)

/**
 * Since 1.2. The dirty rectangles of one draw (bristle_target_t.dirty_list): host-owned, valid
 * only during that draw, `count` 0 on entry. A brush only appends, with bristle_dirty_add (or
 * `rects[count++] = r` while count < capacity); it never lowers `count` or passes `capacity`.
 */
typedef struct bristle_dirty_list {
    uint32_t struct_size;  /**< sizeof(bristle_dirty_list_t) as the host compiled it. */
    uint32_t count;        /**< Rectangles in `rects` so far; 0 when the draw begins. */
    uint32_t capacity;     /**< Room in `rects` (BRISTLE_MAX_DIRTY_RECTS from a 1.2 host). */
    uint32_t reserved;     /**< 0. */
    bristle_rect_t *rects; /**< `capacity` rectangles, a plain array (bristle_rect_t never
                                grows). They may overlap, be empty (ignored) or reach outside
                                the target (the host clips them). */
} bristle_dirty_list_t;

/**
 * The pixels a brush draws into, with everything it needs to draw them. Valid only during the
 * `draw` call that passes it. See PIXELS in the preamble for the buffer rules.
 */
struct bristle_target {
    uint32_t struct_size; /**< sizeof(bristle_target_t) as the host compiled it. */
    uint32_t format;      /**< BRISTLE_PIXEL_FORMAT_*. v1 hosts always pass RGBA8_PREMULTIPLIED;
                               a brush that meets a format it does not know draws nothing and
                               returns BRISTLE_UNSUPPORTED. */
    uint8_t *pixels;      /**< Top-left pixel. Read-write, [0,width) x [0,height) only. */
    const uint8_t *base;  /**< The committed layer as it was before the current stroke began,
                               same size and stride as `pixels`; read-only. NULL between
                               strokes (ticks). */
    int32_t width;        /**< Columns (> 0). */
    int32_t height;       /**< Rows (> 0). */
    int32_t stride_bytes; /**< Bytes from one row to the next, >= width * 4. */
    uint32_t layer;       /**< BRISTLE_LAYER_COMMITTED or BRISTLE_LAYER_PREVIEW. */
    const bristle_stroke_context_t *stroke; /**< The current (or, for ticks, the last) stroke's
                                                 context. Never NULL. */
    const bristle_services_t *services;     /**< Host drawing services. Never NULL. */

    /** Since 1.2: check BRISTLE_HAS_FIELD(target, bristle_target_t, dirty_list). Where the draw
     *  may report SEVERAL dirty rectangles instead of one, so the host restores and copies only
     *  what changed (a rubber-band outline: its strips, not its bounding box). NULL when the host
     *  wants `*dirty` alone. Contract: when `draw` returns with `count` > 0, every pixel it
     *  changed lies in one of `rects[0 .. count)` and `*dirty` contains all of them; with
     *  `count` == 0 the host uses `*dirty` alone, as before 1.2. The host merges overlapping
     *  and nearby rectangles itself; it falls back to `*dirty` when the list is broken (count
     *  above capacity). Use bristle_dirty_add, which keeps both rules. */
    bristle_dirty_list_t *dirty_list;
};

/** Since 1.2. Reports `rect` as changed by the current draw: grows `*dirty` to contain it and,
 *  when the target carries a dirty list, appends it there. When the list is full, `rect` is
 *  merged into the listed rectangle whose union with it adds the fewest pixels, so the list
 *  never overflows and still covers every rectangle added. Empty rectangles are ignored. Once a
 *  draw reports one rectangle this way it must report every change this way (the host trusts a
 *  non-empty list over `*dirty`). On a 1.0 or 1.1 host it only grows `*dirty`. */
static inline void bristle_dirty_add(const bristle_target_t *target, bristle_rect_t *dirty,
                                     bristle_rect_t rect) {
    bristle_dirty_list_t *list;
    uint32_t i, best = 0;
    int64_t best_growth = -1;
    if (rect.width <= 0 || rect.height <= 0) return;
    if (dirty) *dirty = bristle_rect_union(*dirty, rect);
    if (!target || !BRISTLE_HAS_FIELD(target, bristle_target_t, dirty_list)) return;
    list = target->dirty_list;
    if (!list || !BRISTLE_HAS_FIELD(list, bristle_dirty_list_t, rects) || !list->rects ||
        list->capacity == 0 || list->count > list->capacity)
        return;
    if (list->count < list->capacity) {
        list->rects[list->count++] = rect;
        return;
    }
    for (i = 0; i < list->count; i++) {
        bristle_rect_t r = list->rects[i], u = bristle_rect_union(r, rect);
        int64_t before = r.width > 0 && r.height > 0 ? (int64_t)r.width * r.height : 0;
        int64_t growth = (int64_t)u.width * u.height - before;
        if (best_growth < 0 || growth < best_growth) best_growth = growth, best = i;
    }
    list->rects[best] = bristle_rect_union(list->rects[best], rect);
}

/* ------------------------------------------------------------------------------------------ */
/* The host                                                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef struct bristle_host bristle_host_t;

/** What the host gives a brush at `create`. Lives until the brush is destroyed. */
struct bristle_host {
    uint32_t struct_size;    /**< sizeof(bristle_host_t) as the host compiled it. */
    bristle_version_t abi;   /**< The ABI version the host was built with. */
    void *host_data;         /**< The host's. Do not touch. */
    const char *name;        /**< e.g. "bristle". UTF-8, never NULL. */
    const char *vendor;      /**< UTF-8, never NULL. */
    const char *version;     /**< The host's version string, never NULL. */

    /** Logs a message (UTF-8, one line, no trailing newline) for a person to read.
     *  [any-thread] Never fails; may drop DEBUG messages. */
    void (*log)(const bristle_host_t *host, bristle_log_severity_t severity, const char *message);

    /** Returns a host extension by id (e.g. "vendor.thing/1") or NULL when the host does not
     *  implement it. The pointer stays valid as long as the host struct. [any-thread] */
    const void *(*get_extension)(const bristle_host_t *host, const char *id);

    /** The drawing services, the same table every target carries. Never NULL. */
    const bristle_services_t *services;
};

/* ------------------------------------------------------------------------------------------ */
/* Descriptors                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* Capability flags (bristle_descriptor_t.flags). Hosts ignore bits they do not know. */
/** Commit after every event (pencil, eraser) instead of only at `ended` (line, rectangle).
 *  DrawingBoard calls this `supportedContinuousDrawing`. */
#define BRISTLE_BRUSH_CONTINUOUS ((uint32_t)0x00000001u)
/** Wants predicted samples through `predicted` (drawn into the preview only). */
#define BRISTLE_BRUSH_WANTS_PREDICTED ((uint32_t)0x00000002u)
/** Wants `tick` calls between strokes (time-driven effects after lift). */
#define BRISTLE_BRUSH_WANTS_TICKS ((uint32_t)0x00000004u)
/** Promises that output is a pure function of (initial pixels, parameters, samples, seed,
 *  ticks): no clocks, no unseeded randomness, no uninitialised memory. */
#define BRISTLE_BRUSH_DETERMINISTIC ((uint32_t)0x00000008u)

/**
 * Describes one brush in a library. Owned by the plugin; valid until entry->deinit(). All
 * strings are UTF-8 and never NULL (use "" for none), except `tags`, which may be NULL.
 */
typedef struct bristle_descriptor {
    uint32_t struct_size;  /**< sizeof(bristle_descriptor_t) as the plugin compiled it. */
    uint32_t flags;        /**< BRISTLE_BRUSH_* capability bits. */
    bristle_version_t abi; /**< The ABI version the brush was built with (BRISTLE_VERSION_INIT). */
    const char *id;        /**< Stable reverse-DNS id, e.g. "org.example.charcoal": printable
                                ASCII, no spaces, at most 255 bytes, unique in the library.
                                Never change it; change it when behaviour changes
                                incompatibly. The host keys brushes by id, never by index. */
    const char *name;      /**< Human-readable name, e.g. "Charcoal". Not empty. */
    const char *vendor;    /**< Who made it. */
    const char *version;   /**< The brush's own version, e.g. "1.2.0". */
    const char *description; /**< One or two sentences. */
    const char *const *tags; /**< NULL-terminated list of keywords ("pencil", "shape"), or NULL. */
} bristle_descriptor_t;

/* ------------------------------------------------------------------------------------------ */
/* The brush instance and its hooks                                                             */
/* ------------------------------------------------------------------------------------------ */

typedef struct bristle_brush bristle_brush_t;

/**
 * One brush instance: created by the factory, destroyed by `destroy`. Owned by the plugin.
 * Every hook takes the instance first; `brush_data` is the plugin's slot for its state.
 * Every function pointer is required (non-NULL) except `predicted`, which may be NULL unless
 * the descriptor sets BRISTLE_BRUSH_WANTS_PREDICTED, and `tick`, which may be NULL unless it
 * sets BRISTLE_BRUSH_WANTS_TICKS. The host refuses an instance that breaks this rule.
 *
 * Stroke hooks return BRISTLE_OK, or a status the host reports. A failing stroke hook makes
 * the host abandon the stroke: it restores the committed layer inside every rectangle the
 * stroke's draws reported (including the failing draw's `*dirty`, so a failing draw must still
 * report what it changed) and calls `cancelled`, except when the failure is `ended` itself or
 * the draw after it, since the brush is already idle then. A brush clamps bad input (NaN, huge
 * coordinates, pressure out of range) and draws something sensible instead of failing.
 */
struct bristle_brush {
    uint32_t struct_size;                   /**< sizeof(bristle_brush_t) as compiled. */
    uint32_t reserved;                      /**< 0. */
    const bristle_descriptor_t *descriptor; /**< This brush's descriptor. Never NULL. */
    void *brush_data;                       /**< The plugin's. The host never touches it. */

    /** Frees the instance and everything it owns. After it returns the host no longer uses
     *  the pointer. [instance][idle] */
    void (*destroy)(const bristle_brush_t *brush);

    /** Returns the brush's extension with this id (e.g. BRISTLE_EXT_PARAMS), or NULL if the
     *  brush does not implement it. Compare ids exactly. Valid until destroy. [instance] */
    const void *(*get_extension)(const bristle_brush_t *brush, const char *id);

    /** A stroke begins with its first sample. `context` describes the stroke (copy what you
     *  need). Forget everything about earlier strokes that should not carry over.
     *  [instance][idle] -> the brush is now in a stroke. */
    bristle_status_t (*begin)(const bristle_brush_t *brush,
                              const bristle_stroke_context_t *context,
                              const bristle_sample_t *sample);

    /** One input event's samples, oldest first: all of its coalesced samples (count >= 1; the
     *  last is the event's own position). Any predicted samples received earlier are now
     *  stale. [instance][stroke] */
    bristle_status_t (*moved)(const bristle_brush_t *brush, const bristle_sample_t *samples,
                              uint32_t count);

    /** Where the stroke is expected to go next (count >= 1, flags include PREDICTED). They
     *  replace any earlier predicted samples and are drawn into the preview only; the next
     *  `moved`, `ended` or `cancelled` discards them. Called only for brushes with
     *  BRISTLE_BRUSH_WANTS_PREDICTED, and always followed by a preview `draw`.
     *  [instance][stroke] */
    bristle_status_t (*predicted)(const bristle_brush_t *brush, const bristle_sample_t *samples,
                                  uint32_t count);

    /** The pen lifted at `sample` (usually the last moved position). The host calls a
     *  committed `draw` next; after that the stroke is over. [instance][stroke] -> idle. */
    bristle_status_t (*ended)(const bristle_brush_t *brush, const bristle_sample_t *sample);

    /** The stroke is abandoned (the OS cancelled the touch, or a hook failed). The host
     *  restores the committed layer itself; the brush only drops its stroke state. No draw
     *  follows. [instance][stroke] -> idle. */
    void (*cancelled)(const bristle_brush_t *brush);

    /** Advances time-driven effects: `t` seconds since the last stroke ended, `dt` seconds
     *  since the previous tick (1/60 by default). Followed by a committed `draw`. Called only
     *  for brushes with BRISTLE_BRUSH_WANTS_TICKS. May be NULL otherwise. [instance][idle] */
    bristle_status_t (*tick)(const bristle_brush_t *brush, double t, double dt);

    /** Draws into `target` and reports, in `*dirty`, a rectangle containing every pixel it
     *  changed (the host sets it empty before the call; an over-estimate is allowed, an
     *  under-estimate is a bug the conformance harness catches). Since 1.2 it may also list
     *  several tighter rectangles in `target->dirty_list` (bristle_dirty_add reports a
     *  rectangle both ways); then every changed pixel must lie in a listed rectangle.
     *
     *  - layer COMMITTED: draw the final part of the stroke not yet drawn (continuous brushes:
     *    after begin/moved/ended; others: after ended, the whole shape; after a tick: the
     *    effect). Never use predicted samples here.
     *  - layer PREVIEW: the target holds the committed pixels (the host restored whatever the
     *    previous preview draw changed). Draw what is provisional: the whole shape so far for
     *    a non-continuous brush, the predicted part of the stroke for a continuous one.
     *
     *  [instance] after begin, moved, predicted, ended or tick. */
    bristle_status_t (*draw)(const bristle_brush_t *brush, const bristle_target_t *target,
                             bristle_rect_t *dirty);
};

/* ------------------------------------------------------------------------------------------ */
/* The factory                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/** The id to pass to entry->get_factory for the brush factory. */
#define BRISTLE_BRUSH_FACTORY_ID "bristle.brush-factory/1"

typedef struct bristle_brush_factory bristle_brush_factory_t;

/** Lists and creates the brushes of one library. Owned by the plugin; valid until deinit. */
struct bristle_brush_factory {
    uint32_t struct_size; /**< sizeof(bristle_brush_factory_t) as the plugin compiled it. */
    uint32_t reserved;    /**< 0. */

    /** Number of brushes in the library (>= 1). [any-thread] */
    uint32_t (*count)(const bristle_brush_factory_t *factory);

    /** The descriptor at `index` (0 <= index < count), or NULL when out of range. The same
     *  index returns the same descriptor until deinit. [any-thread] */
    const bristle_descriptor_t *(*descriptor)(const bristle_brush_factory_t *factory,
                                              uint32_t index);

    /** Creates an instance of the brush whose id equals `id` exactly (no prefix match, no
     *  trailing characters), or returns NULL when there is none or creation failed (log why
     *  through host->log). `host` outlives the instance. [any-thread] */
    const bristle_brush_t *(*create)(const bristle_brush_factory_t *factory,
                                     const bristle_host_t *host, const char *id);
};

/* ------------------------------------------------------------------------------------------ */
/* The entry                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/** What `bristle_entry_v1` returns: a static struct owned by the plugin, valid for the life of
 *  the process. */
typedef struct bristle_entry {
    uint32_t struct_size;  /**< sizeof(bristle_entry_t) as the plugin compiled it (40 in 1.0 and
                                1.1, 56 since 1.2). */
    bristle_version_t abi; /**< BRISTLE_VERSION_INIT: the ABI the plugin was built with. The
                                host refuses the plugin unless BRISTLE_VERSION_IS_COMPATIBLE. */

    /** Prepares the library. `plugin_path` is the absolute path of the .so (valid during the
     *  call). Reference-counted: may be called several times, each matched by one deinit;
     *  only the first call needs to do anything. Must be cheap: no heavy I/O, no threads.
     *  Returns false on failure (log nothing; the host reports it). [load] */
    bool (*init)(const char *plugin_path);

    /** Balances one successful init. After the last one, the factory and descriptors may be
     *  released; the library itself stays mapped. A host calls it when it gives up on a
     *  library after init (e.g. a malformed descriptor); a host that keeps using a library
     *  may leave it initialised until the process ends and never call deinit. [load] */
    void (*deinit)(void);

    /** Returns the factory with this id (BRISTLE_BRUSH_FACTORY_ID), or NULL for ids the
     *  library does not know. Only valid between init and deinit. [any-thread] */
    const void *(*get_factory)(const char *factory_id);

    /** Since 1.2. The oldest host ABI this plugin accepts (FORWARD COMPATIBILITY in the
     *  preamble): {1, 0, 0}, or all zero, means any 1.x host; only major and minor count. A
     *  1.2 or later host whose minor is lower refuses the plugin at load, before `init`,
     *  naming both versions. An entry whose struct_size stops before this field (1.0, 1.1)
     *  accepts any 1.x host. */
    bristle_version_t host_abi_min;
} bristle_entry_t;

/** The type of the entry function, for hosts that dlsym it. */
typedef const bristle_entry_t *(*bristle_entry_fn)(void);

#if !defined(__swift__)
/** The one exported symbol. Returns a pointer to a static bristle_entry_t; never NULL for a
 *  working plugin. Must not do work: the host calls it before init. [load]
 *  (Swift plugins define it with `@c(bristle_entry_v1) public func ...`; Swift does not see
 *  this declaration.) */
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void);
#endif

/* ------------------------------------------------------------------------------------------ */
/* Extension: parameters ("bristle.params/1")                                                   */
/* ------------------------------------------------------------------------------------------ */

/** The id of the parameters extension, from brush->get_extension. */
#define BRISTLE_EXT_PARAMS "bristle.params/1"

/* Parameter types (bristle_param_info_t.type). Every value travels as a double except
 * colours; INT, BOOL and ENUM values are whole numbers. */
#define BRISTLE_PARAM_FLOAT ((uint32_t)0) /**< Any finite value in [min, max]. */
#define BRISTLE_PARAM_INT ((uint32_t)1)   /**< A whole number in [min, max]. */
#define BRISTLE_PARAM_BOOL ((uint32_t)2)  /**< 0 (false) or 1 (true); min 0, max 1. */
#define BRISTLE_PARAM_ENUM ((uint32_t)3)  /**< An index in [min, max] naming enum_names[i - min]. */
#define BRISTLE_PARAM_COLOR ((uint32_t)4) /**< A bristle_color_t; set with set_color. */

/** Describes one parameter. Owned by the plugin; valid until destroy. */
typedef struct bristle_param_info {
    uint32_t struct_size;    /**< sizeof(bristle_param_info_t) as the plugin compiled it. */
    uint32_t type;           /**< BRISTLE_PARAM_*. */
    const char *id;          /**< Stable id, lower-case ASCII letters, digits and '-', unique
                                  within the brush: what `--param ID=VALUE` names. */
    const char *name;        /**< Human-readable name. */
    const char *description; /**< One sentence; "" for none. */
    const char *unit;        /**< e.g. "px", "%", or "" for none. */
    double min_value;        /**< Finite; min <= default <= max. Unused for COLOR. */
    double max_value;        /**< Finite. Unused for COLOR. */
    double default_value;    /**< Finite, in range. Unused for COLOR. */
    const char *const *enum_names; /**< For ENUM: (max - min + 1) names, NULL-terminated;
                                        otherwise NULL. */
    bristle_color_t default_color; /**< For COLOR: the default; otherwise zeros. */
} bristle_param_info_t;

/** The parameters extension. Every function is [instance]; setters are [idle] only
 *  (parameters change only between strokes). */
typedef struct bristle_params {
    uint32_t struct_size; /**< sizeof(bristle_params_t) as the plugin compiled it. */
    uint32_t reserved;    /**< 0. */

    /** Number of parameters. */
    uint32_t (*count)(const bristle_brush_t *brush);

    /** The parameter at `index`, or NULL when out of range. */
    const bristle_param_info_t *(*info)(const bristle_brush_t *brush, uint32_t index);

    /** Sets a numeric parameter (FLOAT, INT, BOOL, ENUM). Out-of-range values are clamped and
     *  whole-number types rounded. Returns BRISTLE_BAD_ARG for an unknown id, a COLOR id or a
     *  non-finite value (nothing changes), BRISTLE_BAD_STATE during a stroke. */
    bristle_status_t (*set_value)(const bristle_brush_t *brush, const char *id, double value);

    /** Reads a numeric parameter into *value. BRISTLE_BAD_ARG for an unknown or COLOR id. */
    bristle_status_t (*get_value)(const bristle_brush_t *brush, const char *id, double *value);

    /** Sets a COLOR parameter (components clamped to [0, 1]). BRISTLE_BAD_ARG for an unknown
     *  or non-COLOR id, BRISTLE_BAD_STATE during a stroke. */
    bristle_status_t (*set_color)(const bristle_brush_t *brush, const char *id,
                                  const bristle_color_t *color);

    /** Reads a COLOR parameter into *color. BRISTLE_BAD_ARG for an unknown or non-COLOR id. */
    bristle_status_t (*get_color)(const bristle_brush_t *brush, const char *id,
                                  bristle_color_t *color);
} bristle_params_t;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BRISTLE_BRISTLE_H */
