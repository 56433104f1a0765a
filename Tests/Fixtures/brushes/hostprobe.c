/*
 * A probe that checks the HOST's side of the ABI (the mirror image of `bristle conform`):
 * struct sizes, call order, pointer validity for the declared geometry, and threading. It
 * never fails a hook; it counts every broken rule, remembers the first, and exposes its
 * counters through bristle.params/1 so a test can read them after driving a DrawingSession.
 *
 *   test.hostprobe.continuous  CONTINUOUS | WANTS_PREDICTED | WANTS_TICKS
 *   test.hostprobe.shape       WANTS_PREDICTED (commits only after `ended`)
 *
 * Read-only parameters (set_value changes nothing):
 *   violations       how many rules the host broke
 *   first-violation  the code of the first (see the V_ names below; 0 = none)
 *   calls            how many hooks were called
 *   draws            how many draws were called
 *   thread-switches  how often a hook of this instance ran on a different thread than the
 *                    previous one (allowed by the ABI; DrawingSession on one thread gives 0)
 *   overlaps         how often a hook started while another hook of this instance was running
 *                    (forbidden: the host serialises calls on an instance)
 */
#include <bristle/bristle.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
    V_NONE,
    V_STRUCT_SIZE,       /* a host struct is smaller than this header's */
    V_ORDER,             /* a hook out of order (moved outside a stroke, begin in a stroke...) */
    V_DRAW_UNASKED,      /* a draw that no hook asked for, or a missing draw */
    V_TARGET,            /* a target field is invalid (format, size, stride, layer, NULL) */
    V_CONTEXT,           /* target->stroke differs from the context given to begin */
    V_DIRTY_NOT_EMPTY,   /* *dirty was not empty on entry to draw */
    V_BASE,              /* base NULL during a stroke, or non-NULL for a tick draw */
    V_SAMPLES,           /* count 0, missing/extra PREDICTED flag, or time going backwards */
    V_SERVICES,          /* target->services differs from host->services */
    V_LAYER,             /* committed draw where preview was due or the reverse */
    V_SET_DURING_STROKE, /* a parameter set during a stroke */
    V_TICK               /* a tick during a stroke or before any stroke ended */
};

enum { S_IDLE, S_STROKE };
enum { WANT_NONE, WANT_COMMITTED, WANT_PREVIEW, WANT_EITHER };

typedef struct hostprobe {
    bristle_brush_t brush;
    int shape;
    const bristle_host_t *host;
    int state, ended_once;
    int want_draw;         /* what draw the last hook asked for */
    int predicted_pending; /* a predicted hook wants a preview draw */
    int after_tick;        /* the draw due is a tick's: base must be NULL */
    bristle_stroke_context_t context;
    double last_t;
    pthread_t thread;
    int has_thread;
    volatile int busy;
    double violations, first_violation, calls, draws, thread_switches, overlaps;
} hostprobe;

static hostprobe *H(const bristle_brush_t *b) { return (hostprobe *)b->brush_data; }

static void violate(hostprobe *p, int code) {
    p->violations += 1;
    if (p->first_violation == 0) p->first_violation = code;
}

/* Every hook starts with enter() and ends with leave(). */
static void enter(hostprobe *p) {
    pthread_t self = pthread_self();
    if (p->busy) p->overlaps += 1;
    p->busy = 1;
    p->calls += 1;
    if (p->has_thread && !pthread_equal(self, p->thread)) p->thread_switches += 1;
    p->thread = self;
    p->has_thread = 1;
}
static void leave(hostprobe *p) { p->busy = 0; }

/* A draw the last hook asked for that never came. */
static void expect_no_pending_draw(hostprobe *p) {
    if (p->want_draw != WANT_NONE || p->predicted_pending) violate(p, V_DRAW_UNASKED);
}

static void check_samples(hostprobe *p, const bristle_sample_t *s, uint32_t n, int predicted) {
    uint32_t i;
    if (!s || n == 0) {
        violate(p, V_SAMPLES);
        return;
    }
    for (i = 0; i < n; i++) {
        int flagged = (bristle_sample_at(s, i)->flags & BRISTLE_SAMPLE_PREDICTED) != 0;
        if (bristle_sample_at(s, i)->struct_size < sizeof(bristle_sample_t)) violate(p, V_STRUCT_SIZE);
        if (flagged != predicted) violate(p, V_SAMPLES);
        if (!predicted) {
            if (bristle_sample_at(s, i)->t < p->last_t) violate(p, V_SAMPLES);
            p->last_t = bristle_sample_at(s, i)->t;
        }
    }
}

static void destroy(const bristle_brush_t *b) {
    hostprobe *p = H(b);
    if (p->state != S_IDLE) violate(p, V_ORDER);
    free(p);
}

static bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                              const bristle_sample_t *s) {
    hostprobe *p = H(b);
    enter(p);
    expect_no_pending_draw(p);
    if (p->state != S_IDLE) violate(p, V_ORDER);
    if (!c || c->struct_size < sizeof(bristle_stroke_context_t)) {
        violate(p, V_STRUCT_SIZE);
    } else {
        p->context = *c;
        if (c->width <= 0 || c->scale <= 0 || c->canvas_width <= 0 || c->canvas_height <= 0) violate(p, V_CONTEXT);
    }
    p->state = S_STROKE;
    p->last_t = -1e300;
    check_samples(p, s, 1, 0);
    p->want_draw = p->shape ? WANT_PREVIEW : WANT_COMMITTED;
    leave(p);
    return BRISTLE_OK;
}

static bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    hostprobe *p = H(b);
    enter(p);
    expect_no_pending_draw(p);
    if (p->state != S_STROKE) violate(p, V_ORDER);
    check_samples(p, s, n, 0);
    p->want_draw = p->shape ? WANT_PREVIEW : WANT_COMMITTED;
    leave(p);
    return BRISTLE_OK;
}

static bristle_status_t predicted(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) {
    hostprobe *p = H(b);
    enter(p);
    if (p->state != S_STROKE) violate(p, V_ORDER);
    /* Comes after the committed draw of the event (continuous) and before its preview draw. */
    if (p->want_draw == WANT_COMMITTED) violate(p, V_DRAW_UNASKED);
    check_samples(p, s, n, 1);
    p->predicted_pending = 1;
    p->want_draw = WANT_NONE;
    leave(p);
    return BRISTLE_OK;
}

static bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) {
    hostprobe *p = H(b);
    enter(p);
    expect_no_pending_draw(p);
    if (p->state != S_STROKE) violate(p, V_ORDER);
    check_samples(p, s, 1, 0);
    p->state = S_IDLE;
    p->ended_once = 1;
    p->want_draw = WANT_COMMITTED;
    leave(p);
    return BRISTLE_OK;
}

static void cancelled(const bristle_brush_t *b) {
    hostprobe *p = H(b);
    enter(p);
    if (p->state != S_STROKE) violate(p, V_ORDER);
    p->state = S_IDLE;
    p->want_draw = WANT_NONE;
    p->predicted_pending = 0;
    leave(p);
}

static bristle_status_t tick(const bristle_brush_t *b, double t, double dt) {
    hostprobe *p = H(b);
    enter(p);
    expect_no_pending_draw(p);
    if (p->state != S_IDLE || !p->ended_once || !(t > 0) || !(dt > 0)) violate(p, V_TICK);
    p->want_draw = WANT_COMMITTED;
    p->after_tick = 1;
    leave(p);
    return BRISTLE_OK;
}

/* Reads every byte of a w x h RGBA plane: a host passing a buffer smaller than it declares
 * makes this fault (or trips a sanitizer) inside the call. */
static unsigned read_all(const uint8_t *pixels, int32_t w, int32_t h, int32_t stride) {
    unsigned sum = 0;
    int32_t x, y;
    for (y = 0; y < h; y++)
        for (x = 0; x < w * 4; x++) sum += pixels[(size_t)y * (size_t)stride + (size_t)x];
    return sum;
}

static volatile unsigned sink;

static bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t, bristle_rect_t *d) {
    hostprobe *p = H(b);
    enter(p);
    p->draws += 1;
    if (p->want_draw == WANT_NONE && !p->predicted_pending) violate(p, V_DRAW_UNASKED);
    if (!d || d->width > 0 || d->height > 0) violate(p, V_DIRTY_NOT_EMPTY);
    if (!t || t->struct_size < sizeof(bristle_target_t)) {
        violate(p, V_STRUCT_SIZE);
        leave(p);
        return BRISTLE_OK;
    }
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED || !t->pixels || t->width <= 0 || t->height <= 0 ||
        t->stride_bytes < t->width * 4 || !t->stroke ||
        (t->layer != BRISTLE_LAYER_COMMITTED && t->layer != BRISTLE_LAYER_PREVIEW))
        violate(p, V_TARGET);
    if (!t->services || t->services != p->host->services || t->services->struct_size < sizeof(bristle_services_t))
        violate(p, V_SERVICES);
    if (t->stroke && (t->stroke->seed != p->context.seed || t->stroke->canvas_width != t->width ||
                      t->stroke->canvas_height != t->height || t->stroke->width != p->context.width ||
                      memcmp(&t->stroke->color, &p->context.color, sizeof p->context.color) != 0))
        violate(p, V_CONTEXT);
    if (p->after_tick ? t->base != NULL : (!t->base || t->base == t->pixels)) violate(p, V_BASE);
    p->after_tick = 0;
    if (p->predicted_pending) {
        if (t->layer != BRISTLE_LAYER_PREVIEW) violate(p, V_LAYER);
        p->predicted_pending = 0;
    } else if (p->want_draw == WANT_COMMITTED && t->layer != BRISTLE_LAYER_COMMITTED) {
        violate(p, V_LAYER);
    } else if (p->want_draw == WANT_PREVIEW && t->layer != BRISTLE_LAYER_PREVIEW) {
        violate(p, V_LAYER);
    }
    /* A continuous brush gets a committed draw, then (with predictions) a preview draw. */
    p->want_draw = WANT_NONE;
    if (t->pixels && t->width > 0 && t->height > 0 && t->stride_bytes >= t->width * 4) {
        sink = read_all(t->pixels, t->width, t->height, t->stride_bytes);
        if (t->base) sink += read_all(t->base, t->width, t->height, t->stride_bytes);
    }
    leave(p);
    return BRISTLE_OK;
}

/* ---- parameters: read-only counters ---- */
#define COUNTER(id, name) \
    {sizeof(bristle_param_info_t), BRISTLE_PARAM_FLOAT, id, name, "", "", 0, 1e12, 0, NULL, {0, 0, 0, 0}}
static const bristle_param_info_t infos[] = {
    COUNTER("violations", "Violations"), COUNTER("first-violation", "First violation"), COUNTER("calls", "Calls"),
    COUNTER("draws", "Draws"), COUNTER("thread-switches", "Thread switches"), COUNTER("overlaps", "Overlaps"),
};
#define INFO_COUNT (sizeof infos / sizeof infos[0])

static double *slot(hostprobe *p, const char *id) {
    if (!id) return NULL;
    if (!strcmp(id, "violations")) return &p->violations;
    if (!strcmp(id, "first-violation")) return &p->first_violation;
    if (!strcmp(id, "calls")) return &p->calls;
    if (!strcmp(id, "draws")) return &p->draws;
    if (!strcmp(id, "thread-switches")) return &p->thread_switches;
    if (!strcmp(id, "overlaps")) return &p->overlaps;
    return NULL;
}
static uint32_t pcount(const bristle_brush_t *b) { (void)b; return (uint32_t)INFO_COUNT; }
static const bristle_param_info_t *pinfo(const bristle_brush_t *b, uint32_t i) {
    (void)b;
    return i < INFO_COUNT ? &infos[i] : NULL;
}
static bristle_status_t pset(const bristle_brush_t *b, const char *id, double v) {
    hostprobe *p = H(b);
    if (!slot(p, id) || !(v == v)) return BRISTLE_BAD_ARG;
    if (p->state != S_IDLE) {
        violate(p, V_SET_DURING_STROKE);
        return BRISTLE_BAD_STATE;
    }
    return BRISTLE_OK;
}
static bristle_status_t pget(const bristle_brush_t *b, const char *id, double *v) {
    double *s = slot(H(b), id);
    if (!s || !v) return BRISTLE_BAD_ARG;
    *v = *s;
    return BRISTLE_OK;
}
static bristle_status_t psetc(const bristle_brush_t *b, const char *id, const bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static bristle_status_t pgetc(const bristle_brush_t *b, const char *id, bristle_color_t *c) {
    (void)b, (void)id, (void)c;
    return BRISTLE_BAD_ARG;
}
static const bristle_params_t params = {sizeof params, 0, pcount, pinfo, pset, pget, psetc, pgetc};
static const void *get_extension(const bristle_brush_t *b, const char *id) {
    (void)b;
    return id && !strcmp(id, BRISTLE_EXT_PARAMS) ? &params : NULL;
}

/* ---- library ---- */
static const bristle_descriptor_t descriptors[2] = {
    {sizeof(bristle_descriptor_t),
     BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_WANTS_PREDICTED | BRISTLE_BRUSH_WANTS_TICKS, BRISTLE_VERSION_INIT,
     "test.hostprobe.continuous", "Host probe (continuous)", "Tests", "1.0.0", "Checks the host.", NULL},
    {sizeof(bristle_descriptor_t), BRISTLE_BRUSH_WANTS_PREDICTED, BRISTLE_VERSION_INIT, "test.hostprobe.shape",
     "Host probe (shape)", "Tests", "1.0.0", "Checks the host.", NULL},
};
static uint32_t count(const bristle_brush_factory_t *f) { (void)f; return 2; }
static const bristle_descriptor_t *descriptor(const bristle_brush_factory_t *f, uint32_t i) {
    (void)f;
    return i < 2 ? &descriptors[i] : NULL;
}
static const bristle_brush_t *create(const bristle_brush_factory_t *f, const bristle_host_t *h, const char *id) {
    hostprobe *p;
    int shape;
    (void)f;
    if (!id) return NULL;
    if (!strcmp(id, descriptors[0].id)) shape = 0;
    else if (!strcmp(id, descriptors[1].id)) shape = 1;
    else return NULL;
    p = (hostprobe *)calloc(1, sizeof *p);
    if (!p) return NULL;
    p->shape = shape;
    p->host = h;
    if (!h || h->struct_size < sizeof(bristle_host_t) || h->abi.major != BRISTLE_VERSION_MAJOR || !h->name ||
        !h->vendor || !h->version || !h->log || !h->get_extension || !h->services ||
        h->services->struct_size < sizeof(bristle_services_t) || !h->services->fill_segment ||
        !h->services->fill_disc || !h->services->mask_segment || !h->services->mask_disc ||
        !h->services->clear_mask || !h->services->composite_mask)
        violate(p, V_STRUCT_SIZE);
    p->brush.struct_size = sizeof p->brush;
    p->brush.descriptor = &descriptors[shape];
    p->brush.brush_data = p;
    p->brush.destroy = destroy;
    p->brush.get_extension = get_extension;
    p->brush.begin = begin;
    p->brush.moved = moved;
    p->brush.predicted = predicted;
    p->brush.ended = ended;
    p->brush.cancelled = cancelled;
    p->brush.tick = tick;
    p->brush.draw = draw;
    return &p->brush;
}
static const bristle_brush_factory_t factory = {sizeof factory, 0, count, descriptor, create};
static bool init(const char *path) { return path != NULL; }
static void deinit(void) {}
static const void *get_factory(const char *id) {
    return id && !strcmp(id, BRISTLE_BRUSH_FACTORY_ID) ? &factory : NULL;
}
static const bristle_entry_t entry = {sizeof entry, BRISTLE_VERSION_INIT, init, deinit, get_factory, {1, 0, 0}};
BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
