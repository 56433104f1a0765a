/// The C brush project `bristle new NAME --lang c` writes: the smallest complete brush (the
/// brush of Examples/c-minimal/dot.c and docs/ABI.md section 2, with the id and name
/// substituted, its plumbing written by the optional helper `bristle_plugin.h`), a Makefile
/// using `cc` and the installed headers, and a README.
enum CBrushTemplate {
    /// `NAME.c`. Placeholders: {{NAME}}, {{ID}}, {{TITLE}}.
    static let source = #"""
/* {{NAME}}.c: {{ID}}, a round-capped line through the samples. Plain C99.
 * bristle_plugin.h, installed beside bristle.h, writes the factory, the descriptor and the
 * parameter plumbing from the tables at the end; this file is only the brush. */
#include <bristle/bristle_plugin.h>

typedef struct dot {
    bristle_stroke_context_t ctx; /* copied in begin: the host's pointer dies with the call */
    double opacity;               /* the one parameter, [0, 1] */
    int in_stroke, has_last;
    double last[3];               /* x, y, width of the last point drawn */
    double *pts;                  /* x, y, width of each point received but not drawn yet */
    size_t n, cap;
} dot;

static dot *self(const bristle_brush_t *b) { return (dot *)b->brush_data; }
static double clamp01(double v) { return v > 0 ? (v < 1 ? v : 1) : 0; } /* NaN -> 0 */

static bristle_status_t add(dot *d, const bristle_sample_t *s) {
    double w = (double)d->ctx.width * d->ctx.scale; /* points -> pixels (HiDPI) */
    if (!isfinite(s->x) || !isfinite(s->y)) return BRISTLE_OK; /* bad input: skip it */
    if (s->flags & BRISTLE_SAMPLE_HAS_PRESSURE) w *= 0.25 + 0.75 * clamp01(s->pressure);
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        double *p = realloc(d->pts, cap * 3 * sizeof *p);
        if (!p) return BRISTLE_FAILED;
        d->pts = p, d->cap = cap;
    }
    d->pts[3 * d->n] = s->x, d->pts[3 * d->n + 1] = s->y, d->pts[3 * d->n + 2] = w;
    d->n++;
    return BRISTLE_OK;
}

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    dot *d = self(b);
    memset(&d->ctx, 0, sizeof d->ctx); /* copy no more than the host wrote */
    memcpy(&d->ctx, c, c->struct_size < sizeof d->ctx ? c->struct_size : sizeof d->ctx);
    d->in_stroke = 1, d->has_last = 0, d->n = 0;
    return add(d, s); /* a tap is a dot: a zero-length segment */
}
static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    uint32_t i;
    if (!self(b)->in_stroke) return BRISTLE_BAD_STATE;
    for (i = 0; i < n; i++) /* step by struct_size, never by sizeof: bristle_sample_at */
        if (add(self(b), bristle_sample_at(s, i)) != BRISTLE_OK) return BRISTLE_FAILED;
    return BRISTLE_OK;
}
static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    if (!self(b)->in_stroke) return BRISTLE_BAD_STATE;
    self(b)->in_stroke = 0; /* the committed draw that follows still sees the points */
    return add(self(b), s);
}
static void cancelled(const bristle_brush_t *b) { self(b)->in_stroke = 0, self(b)->n = 0; }
static void teardown(void *state) { free(((dot *)state)->pts); } /* the helper frees the state */

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t,
                             bristle_rect_t *dirty) {
    dot *d = self(b);
    const bristle_services_t *sv = t->services;
    bristle_paint_t paint = {sizeof(bristle_paint_t), BRISTLE_BLEND_SRC_OVER, {0, 0, 0, 0}, 0};
    size_t i;
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    if (t->layer != BRISTLE_LAYER_COMMITTED) return BRISTLE_OK; /* nothing provisional */
    paint.color = d->ctx.color, paint.opacity = (float)d->opacity;
    for (i = 0; i < d->n; i++) {
        const double *p = &d->pts[3 * i];
        bristle_segment_t seg = {sizeof(bristle_segment_t), BRISTLE_CAP_ROUND, 0, 0, 0, 0, 0, 0};
        if (!d->has_last) memcpy(d->last, p, sizeof d->last), d->has_last = 1;
        else if (p[0] == d->last[0] && p[1] == d->last[1]) continue; /* no double dot */
        seg.x0 = d->last[0], seg.y0 = d->last[1], seg.width0 = d->last[2];
        seg.x1 = p[0], seg.y1 = p[1], seg.width1 = p[2];
        *dirty = bristle_rect_union(*dirty, sv->fill_segment(sv, t, &seg, &paint));
        memcpy(d->last, p, sizeof d->last);
    }
    d->n = 0;
    return BRISTLE_OK;
}

/* bristle.params/1: one parameter, "opacity" (Examples/strokes/hello.json sets it). */
static const bristle_plugin_param_t params[] = {
    BRISTLE_PLUGIN_FLOAT(dot, opacity, "opacity", "Opacity", "Opacity of each segment.", "", 0, 1, 1),
};

/* The brush: descriptor, state, hooks (predicted and tick NULL), parameters. */
static const bristle_plugin_brush_t brushes[] = {{
    BRISTLE_PLUGIN_DESCRIPTOR("{{ID}}", "{{TITLE}}", "Example", "1.0.0",
                              "A round-capped line through the samples.",
                              BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_DETERMINISTIC, NULL),
    .state_size = sizeof(dot), .teardown = teardown, .begin = begin, .moved = moved,
    .ended = ended, .cancelled = cancelled, .draw = draw,
    .params = params, .param_count = sizeof params / sizeof params[0]}};

BRISTLE_PLUGIN_ENTRY(brushes, 0) /* exports bristle_entry_v1; runs on any 1.x host */
"""#

    /// `Makefile`: one command, `make`, builds `libNAME.so`.
    static let makefile = #"""
# Builds lib{{NAME}}.so, a Bristle brush plugin, with plain cc.
# The header comes from pkg-config (an installed Bristle: `make install` in the Bristle
# checkout), or from BRISTLE_INCLUDE, the folder holding bristle/bristle.h:
#     make BRISTLE_INCLUDE=/path/to/bristle/include
CC ?= cc
CFLAGS ?= -O2

"""# + headerLookup + #"""

lib{{NAME}}.so: {{NAME}}.c
	$(CC) -std=c99 -Wall -Wextra -pedantic $(CFLAGS) -fPIC -shared -fvisibility=hidden $(BRISTLE_CFLAGS) $< -o $@ -lm

clean:
	rm -f lib{{NAME}}.so

.PHONY: clean
"""#

    /// The Makefile lines that set BRISTLE_CFLAGS: `-I$(BRISTLE_INCLUDE)` when given, else
    /// `pkg-config --cflags bristle`, else a clear error (shared by the C and C++ Makefiles).
    static let headerLookup = #"""
ifdef BRISTLE_INCLUDE
BRISTLE_CFLAGS := -I$(BRISTLE_INCLUDE)
else
BRISTLE_CFLAGS := $(shell pkg-config --cflags bristle 2>/dev/null)
ifeq ($(shell pkg-config --exists bristle 2>/dev/null && echo yes),)
$(error bristle.pc not found: install Bristle (make install in its checkout; add PREFIX/lib/pkgconfig to PKG_CONFIG_PATH), or run make BRISTLE_INCLUDE=/path/to/bristle/include)
endif
endif

"""#

    /// `README.md`.
    static let readme = #"""
# {{TITLE}}

A Bristle brush plugin in C: `{{ID}}`, a round-capped line through the samples whose width
follows the pen's pressure. Made with `bristle new {{NAME}} --lang c`.

Build it (needs `cc` and an installed Bristle, found through `pkg-config bristle`; without one,
add `BRISTLE_INCLUDE=/path/to/bristle/include`):

```sh
make
```

Render a stroke script through it, and check it against the ABI:

```sh
bristle render stroke.json -o out.png --brush ./lib{{NAME}}.so
bristle conform ./lib{{NAME}}.so --tier standard
```

`stroke.json` is any Bristle stroke script (see `docs/stroke-format.md` in Bristle).
The brush is `{{NAME}}.c`; `bristle.h` and `docs/ABI.md` explain every hook.


"""# + drawLive

    /// The README's last section, for projects built with `make` into `libNAME.so` in the
    /// project folder (C and C++).
    static let drawLive = #"""
Draw with it live, with your pen, in a browser: run this in this folder, open the URL it
prints, and pick `{{ID}}`. Each `make` replaces `lib{{NAME}}.so`, and the next stroke uses the
new build (see "Draw with your brush live" in Bristle's `docs/guides/`):

```sh
bristle play --brushes .
```
"""#
}
