/// The C++ brush project `bristle new NAME --lang cpp` writes: a C++17 brush (the same source
/// as Examples/cpp-brush/cpp-brush.cpp, with the id and name substituted) whose instance is a
/// class owning its state (RAII) behind hooks that are all `noexcept` and catch, a Makefile
/// building it with `g++ -std=c++17 -Wall -Wextra -Werror` and the installed header, and a
/// README.
enum CppBrushTemplate {
    /// `NAME.cpp`. Placeholders: {{NAME}}, {{ID}}, {{TITLE}}.
    static let source = #"""
// {{NAME}}.cpp: {{ID}}, a round-capped line through the samples whose width
// follows the pen's pressure. C++17.
//
// The brush is the class Line: plain C++ whose members clean up after themselves (RAII).
// Below it is the C plumbing the host calls: every hook is noexcept and catches, so no
// exception ever crosses the ABI (the host is not C++, and unwinding into it is undefined).
#include <bristle/bristle.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <optional>
#include <vector>

namespace {

double clamp01(double v) { return v > 0 ? (v < 1 ? v : 1) : 0; } // NaN -> 0

// The brush. Its methods may throw (std::bad_alloc from the vector); the hooks catch.
class Line {
public:
    double opacity = 1; // the one parameter, [0, 1]
    bool in_stroke = false;

    void begin(const bristle_stroke_context_t &context, const bristle_sample_t &sample) {
        context_ = bristle_stroke_context_t{}; // copy no more than the host wrote
        std::memcpy(&context_, &context, std::min<size_t>(context.struct_size, sizeof context_));
        pending_.clear();
        last_.reset();
        in_stroke = true;
        add(sample); // a tap is a dot: a zero-length segment
    }

    // Keeps a sample for the next draw; bad input is skipped, never fatal.
    void add(const bristle_sample_t &s) {
        if (!std::isfinite(s.x) || !std::isfinite(s.y)) return;
        double width = double(context_.width) * context_.scale;
        if (s.flags & BRISTLE_SAMPLE_HAS_PRESSURE) width *= 0.25 + 0.75 * clamp01(s.pressure);
        pending_.push_back(Point{s.x, s.y, width});
    }

    void cancel() {
        in_stroke = false;
        pending_.clear();
    }

    // Paints what arrived since the last draw. `dirty` grows with every segment, so it covers
    // every changed pixel even if drawing stops half-way.
    void draw(const bristle_target_t &target, bristle_rect_t &dirty) {
        if (target.layer != BRISTLE_LAYER_COMMITTED) return; // nothing provisional
        const bristle_services_t *sv = target.services;
        bristle_paint_t paint{};
        paint.struct_size = sizeof paint;
        paint.blend = BRISTLE_BLEND_SRC_OVER;
        paint.color = context_.color;
        paint.opacity = float(opacity);
        for (const Point &p : pending_) {
            if (last_ && p.x == last_->x && p.y == last_->y) continue; // no double dot
            const Point from = last_.value_or(p);
            bristle_segment_t seg{};
            seg.struct_size = sizeof seg;
            seg.cap = BRISTLE_CAP_ROUND;
            seg.x0 = from.x, seg.y0 = from.y, seg.width0 = from.width;
            seg.x1 = p.x, seg.y1 = p.y, seg.width1 = p.width;
            dirty = bristle_rect_union(dirty, sv->fill_segment(sv, &target, &seg, &paint));
            last_ = p;
        }
        pending_.clear();
    }

private:
    struct Point {
        double x, y, width;
    };
    bristle_stroke_context_t context_{}; // copied in begin: the host's pointer dies with the call
    std::vector<Point> pending_;         // received, not drawn yet
    std::optional<Point> last_;          // the last point drawn
};

// One instance as the host sees it: the C table, whose brush_data points back here.
struct Instance {
    bristle_brush_t table{};
    Line line;
};

Line &line(const bristle_brush_t *b) { return static_cast<Instance *>(b->brush_data)->line; }

// Runs a hook's body; any exception becomes BRISTLE_FAILED instead of crossing the ABI.
template <typename Body> bristle_status_t guarded(Body body) noexcept {
    try {
        body();
        return BRISTLE_OK;
    } catch (...) {
        return BRISTLE_FAILED;
    }
}

// The hooks: NULL arguments and calls at the wrong time are refused before the brush runs.
bristle_status_t begin(const bristle_brush_t *b, const bristle_stroke_context_t *c,
                       const bristle_sample_t *s) noexcept {
    if (!b || !c || !s) return BRISTLE_BAD_ARG;
    if (line(b).in_stroke) return BRISTLE_BAD_STATE;
    return guarded([&] { line(b).begin(*c, *s); });
}
bristle_status_t moved(const bristle_brush_t *b, const bristle_sample_t *s, uint32_t n) noexcept {
    if (!b || !s || n == 0) return BRISTLE_BAD_ARG;
    if (!line(b).in_stroke) return BRISTLE_BAD_STATE;
    return guarded([&] { // step by struct_size, never by sizeof: bristle_sample_at
        for (uint32_t i = 0; i < n; i++) line(b).add(*bristle_sample_at(s, i));
    });
}
bristle_status_t ended(const bristle_brush_t *b, const bristle_sample_t *s) noexcept {
    if (!b || !s) return BRISTLE_BAD_ARG;
    if (!line(b).in_stroke) return BRISTLE_BAD_STATE;
    line(b).in_stroke = false; // the committed draw that follows still sees the points
    return guarded([&] { line(b).add(*s); });
}
void cancelled(const bristle_brush_t *b) noexcept {
    if (b) line(b).cancel();
}
bristle_status_t draw(const bristle_brush_t *b, const bristle_target_t *t,
                      bristle_rect_t *dirty) noexcept {
    if (!b || !t || !dirty || !t->services) return BRISTLE_BAD_ARG;
    if (t->format != BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED) return BRISTLE_UNSUPPORTED;
    return guarded([&] { line(b).draw(*t, *dirty); });
}
void destroy(const bristle_brush_t *b) noexcept {
    if (b) delete static_cast<Instance *>(b->brush_data); // frees everything the line owns
}

// Every table is filled field by field from zero, so fields a later minor appends stay zero.

// bristle.params/1: one parameter, "opacity".
constexpr bristle_param_info_t opacity_info = [] {
    bristle_param_info_t p{};
    p.struct_size = sizeof p;
    p.type = BRISTLE_PARAM_FLOAT;
    p.id = "opacity", p.name = "Opacity", p.description = "Opacity of each segment.", p.unit = "";
    p.min_value = 0, p.max_value = 1, p.default_value = 1;
    return p;
}();
bool is_opacity(const char *id) { return id && std::strcmp(id, opacity_info.id) == 0; }

uint32_t p_count(const bristle_brush_t *) noexcept { return 1; }
const bristle_param_info_t *p_info(const bristle_brush_t *, uint32_t i) noexcept {
    return i == 0 ? &opacity_info : nullptr;
}
bristle_status_t p_set(const bristle_brush_t *b, const char *id, double v) noexcept {
    if (!b || !is_opacity(id) || !std::isfinite(v)) return BRISTLE_BAD_ARG;
    if (line(b).in_stroke) return BRISTLE_BAD_STATE;
    line(b).opacity = clamp01(v); // out of range: clamp, do not refuse
    return BRISTLE_OK;
}
bristle_status_t p_get(const bristle_brush_t *b, const char *id, double *v) noexcept {
    if (!b || !is_opacity(id) || !v) return BRISTLE_BAD_ARG;
    *v = line(b).opacity;
    return BRISTLE_OK;
}
bristle_status_t p_set_color(const bristle_brush_t *, const char *, const bristle_color_t *) noexcept {
    return BRISTLE_BAD_ARG; // no colour parameters
}
bristle_status_t p_get_color(const bristle_brush_t *, const char *, bristle_color_t *) noexcept {
    return BRISTLE_BAD_ARG;
}
constexpr bristle_params_t params = [] {
    bristle_params_t p{};
    p.struct_size = sizeof p;
    p.count = p_count, p.info = p_info, p.set_value = p_set, p.get_value = p_get;
    p.set_color = p_set_color, p.get_color = p_get_color;
    return p;
}();
const void *get_extension(const bristle_brush_t *, const char *id) noexcept {
    return id && std::strcmp(id, BRISTLE_EXT_PARAMS) == 0 ? &params : nullptr;
}

// Descriptor, factory, entry.
constexpr bristle_descriptor_t descriptor = [] {
    bristle_descriptor_t d{};
    d.struct_size = sizeof d;
    d.flags = BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_DETERMINISTIC;
    d.abi = BRISTLE_VERSION_INIT;
    d.id = "{{ID}}", d.name = "{{TITLE}}", d.vendor = "Example", d.version = "1.0.0";
    d.description = "A round-capped line through the samples.";
    return d;
}();

uint32_t f_count(const bristle_brush_factory_t *) noexcept { return 1; }
const bristle_descriptor_t *f_descriptor(const bristle_brush_factory_t *, uint32_t i) noexcept {
    return i == 0 ? &descriptor : nullptr;
}
const bristle_brush_t *f_create(const bristle_brush_factory_t *, const bristle_host_t *host,
                                const char *id) noexcept {
    if (!id || std::strcmp(id, descriptor.id) != 0) return nullptr;
    Instance *instance = new (std::nothrow) Instance;
    if (!instance) {
        if (host && host->log) host->log(host, BRISTLE_LOG_ERROR, "{{ID}}: out of memory");
        return nullptr;
    }
    bristle_brush_t &t = instance->table; // predicted and tick stay NULL: not wanted
    t.struct_size = sizeof t;
    t.descriptor = &descriptor;
    t.brush_data = instance;
    t.destroy = destroy, t.get_extension = get_extension;
    t.begin = begin, t.moved = moved, t.ended = ended, t.cancelled = cancelled, t.draw = draw;
    return &t;
}
constexpr bristle_brush_factory_t factory = [] {
    bristle_brush_factory_t f{};
    f.struct_size = sizeof f;
    f.count = f_count, f.descriptor = f_descriptor, f.create = f_create;
    return f;
}();

bool init(const char *) noexcept { return true; } // nothing to prepare
void deinit() noexcept {}
const void *get_factory(const char *id) noexcept {
    return id && std::strcmp(id, BRISTLE_BRUSH_FACTORY_ID) == 0 ? &factory : nullptr;
}
constexpr bristle_entry_t entry = [] {
    bristle_entry_t e{};
    e.struct_size = sizeof e;
    e.abi = BRISTLE_VERSION_INIT;
    e.init = init, e.deinit = deinit, e.get_factory = get_factory;
    e.host_abi_min = bristle_version_t{1, 0, 0}; // runs on any 1.x host
    return e;
}();

} // namespace

extern "C" BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void) { return &entry; }
"""#

    /// `Makefile`: one command, `make`, builds `libNAME.so`.
    static let makefile = #"""
# Builds lib{{NAME}}.so, a Bristle brush plugin in C++17, with $(CXX) (make's default is g++).
# The header comes from pkg-config (an installed Bristle: `make install` in the Bristle
# checkout), or from BRISTLE_INCLUDE, the folder holding bristle/bristle.h:
#     make BRISTLE_INCLUDE=/path/to/bristle/include
CXXFLAGS ?= -O2

"""# + CBrushTemplate.headerLookup + #"""

lib{{NAME}}.so: {{NAME}}.cpp
	$(CXX) -std=c++17 -Wall -Wextra -Werror $(CXXFLAGS) -fPIC -shared -fvisibility=hidden $(BRISTLE_CFLAGS) $< -o $@

clean:
	rm -f lib{{NAME}}.so

.PHONY: clean
"""#

    /// `README.md`.
    static let readme = #"""
# {{TITLE}}

A Bristle brush plugin in C++17: `{{ID}}`, a round-capped line through the samples whose
width follows the pen's pressure. Made with `bristle new {{NAME}} --lang cpp`.

Build it (needs `g++` or another C++17 compiler as `CXX`, and an installed Bristle, found
through `pkg-config bristle`; without one, add `BRISTLE_INCLUDE=/path/to/bristle/include`):

```sh
make
```

Render a stroke script through it, and check it against the ABI:

```sh
bristle render stroke.json -o out.png --brush ./lib{{NAME}}.so
bristle conform ./lib{{NAME}}.so --tier strict
```

`stroke.json` is any Bristle stroke script (see `docs/stroke-format.md` in Bristle).
The brush is the class `Line` in `{{NAME}}.cpp`; below it, every hook the host calls is
`noexcept` and turns an exception into `BRISTLE_FAILED`, so none crosses the C ABI. Keep it
that way when you change it. `bristle.h` and `docs/ABI.md` explain every hook.


"""# + CBrushTemplate.drawLive
}
