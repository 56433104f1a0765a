/*
 * Pins the v1 ABI layout (x86-64 / aarch64 LP64): compiled by the tests as C99 and as C++17
 * with every warning an error. 1.1 appended nine functions to the services table; 1.2 appended
 * host_abi_min to the entry and dirty_list to the target. A change to anything that existed
 * before is an ABI break: it needs a new major version. (The full layout, every field, is
 * compared with `bristle abi --json` by Tests/BristleCLITests/ABICommandTests.swift.)
 */
#include <bristle/bristle.h>

#ifdef __cplusplus
#define BRISTLE_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define BRISTLE_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif

BRISTLE_STATIC_ASSERT(sizeof(bristle_version_t) == 12, "version");
BRISTLE_STATIC_ASSERT(sizeof(bristle_rect_t) == 16, "rect");
BRISTLE_STATIC_ASSERT(sizeof(bristle_color_t) == 16, "color");
BRISTLE_STATIC_ASSERT(sizeof(bristle_sample_t) == 88, "sample");
BRISTLE_STATIC_ASSERT(offsetof(bristle_sample_t, t) == 8, "sample.t");
BRISTLE_STATIC_ASSERT(offsetof(bristle_sample_t, pressure) == 32, "sample.pressure");
BRISTLE_STATIC_ASSERT(offsetof(bristle_sample_t, pointer_id) == 84, "sample.pointer_id");
BRISTLE_STATIC_ASSERT(sizeof(bristle_stroke_context_t) == 56, "stroke context");
BRISTLE_STATIC_ASSERT(offsetof(bristle_stroke_context_t, seed) == 32, "context.seed");
/* 1.0 and 1.1 ended the target at 56 bytes; 1.2 appended dirty_list. */
BRISTLE_STATIC_ASSERT(offsetof(bristle_target_t, dirty_list) == 56, "target 1.1 end");
BRISTLE_STATIC_ASSERT(sizeof(bristle_target_t) == 64, "target");
BRISTLE_STATIC_ASSERT(sizeof(bristle_dirty_list_t) == 24, "dirty list");
BRISTLE_STATIC_ASSERT(offsetof(bristle_dirty_list_t, rects) == 16, "dirty_list.rects");
BRISTLE_STATIC_ASSERT(BRISTLE_MAX_DIRTY_RECTS == 16, "max dirty rects");
BRISTLE_STATIC_ASSERT(offsetof(bristle_target_t, base) == 16, "target.base");
BRISTLE_STATIC_ASSERT(offsetof(bristle_target_t, services) == 48, "target.services");
BRISTLE_STATIC_ASSERT(sizeof(bristle_paint_t) == 28, "paint");
BRISTLE_STATIC_ASSERT(sizeof(bristle_segment_t) == 56, "segment");
BRISTLE_STATIC_ASSERT(sizeof(bristle_mask_t) == 24, "mask");
/* 1.0 ended the services table at 64 bytes; 1.1 appended nine functions after it. */
BRISTLE_STATIC_ASSERT(offsetof(bristle_services_t, draw_rect) == 64, "services 1.0 end");
BRISTLE_STATIC_ASSERT(offsetof(bristle_services_t, composite_mask_pattern) == 128, "services.1.1");
BRISTLE_STATIC_ASSERT(sizeof(bristle_services_t) == 136, "services");
BRISTLE_STATIC_ASSERT(sizeof(bristle_stroke_style_t) == 56, "stroke style");
BRISTLE_STATIC_ASSERT(offsetof(bristle_stroke_style_t, dashes) == 32, "style.dashes");
BRISTLE_STATIC_ASSERT(offsetof(bristle_stroke_style_t, dash_phase) == 48, "style.dash_phase");
BRISTLE_STATIC_ASSERT(sizeof(bristle_pattern_t) == 40, "pattern");
BRISTLE_STATIC_ASSERT(offsetof(bristle_pattern_t, offset_x) == 28, "pattern.offset_x");
BRISTLE_STATIC_ASSERT(sizeof(bristle_host_t) == 72, "host");
BRISTLE_STATIC_ASSERT(sizeof(bristle_descriptor_t) == 72, "descriptor");
BRISTLE_STATIC_ASSERT(offsetof(bristle_descriptor_t, id) == 24, "descriptor.id");
BRISTLE_STATIC_ASSERT(sizeof(bristle_brush_t) == 96, "brush");
BRISTLE_STATIC_ASSERT(offsetof(bristle_brush_t, draw) == 88, "brush.draw");
BRISTLE_STATIC_ASSERT(sizeof(bristle_brush_factory_t) == 32, "factory");
/* 1.0 and 1.1 ended the entry at 40 bytes; 1.2 appended host_abi_min (4 bytes of tail padding). */
BRISTLE_STATIC_ASSERT(offsetof(bristle_entry_t, host_abi_min) == 40, "entry 1.1 end");
BRISTLE_STATIC_ASSERT(sizeof(bristle_entry_t) == 56, "entry");
BRISTLE_STATIC_ASSERT(sizeof(bristle_param_info_t) == 88, "param info");
BRISTLE_STATIC_ASSERT(sizeof(bristle_params_t) == 56, "params");

/* The struct-size macro: a writer that stops before `twist` does not have it. */
int bristle_layout_check_has_field(void);
int bristle_layout_check_has_field(void) {
    bristle_sample_t s;
    s.struct_size = (uint32_t)offsetof(bristle_sample_t, twist);
    if (BRISTLE_HAS_FIELD(&s, bristle_sample_t, twist)) return 1;
    s.struct_size = (uint32_t)sizeof s;
    if (!BRISTLE_HAS_FIELD(&s, bristle_sample_t, pointer_id)) return 2;
    {
        bristle_version_t v = BRISTLE_VERSION_INIT;
        if (!BRISTLE_VERSION_IS_COMPATIBLE(v)) return 3;
    }
    return 0;
}
