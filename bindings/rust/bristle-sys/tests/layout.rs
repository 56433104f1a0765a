//! The layout of every struct, constant and typedef of this crate against `bristle abi --json`
//! (schema `bristle-abi/1`), the host's own description of the C header: every struct's size
//! and alignment, every field's name, order, offset and size, every constant's value. A
//! struct, field or constant the host lists and this crate lacks fails, and so does one this
//! crate has and the host does not list.
//!
//! Where the JSON comes from: the file named by `BRISTLE_ABI_JSON`, else the output of
//! `$BRISTLE abi --json` (`BRISTLE` defaults to `bristle` on PATH). The Swift test suite
//! (`RustBindingTests`) runs this with the JSON of the host it tests.
//!
//!     BRISTLE_ABI_JSON=abi.json cargo test

mod support;

use bristle_sys::*;
use std::mem::{align_of, size_of};
use support::json::Json;

/// One field as Rust lays it out.
struct Field {
    name: &'static str,
    offset: usize,
    size: usize,
}

/// One struct as Rust lays it out.
struct Layout {
    name: &'static str,
    size: usize,
    align: usize,
    fields: Vec<Field>,
}

/// `layout!(type { field, ... })`: the Rust layout of `type` with the fields in declaration
/// order. A field named `type_` stands for the C field `type` (a Rust keyword).
macro_rules! layout {
    ($t:ident { $($f:ident),* $(,)? }) => {
        Layout {
            name: stringify!($t),
            size: size_of::<$t>(),
            align: align_of::<$t>(),
            fields: vec![$(Field {
                name: stringify!($f).trim_end_matches('_'),
                offset: bristle_offset_of!($t, $f),
                size: bristle_field_size!($t, $f),
            }),*],
        }
    };
}

fn layouts() -> Vec<Layout> {
    vec![
        layout!(bristle_version_t { major, minor, patch }),
        layout!(bristle_rect_t { x, y, width, height }),
        layout!(bristle_color_t { r, g, b, a }),
        layout!(bristle_sample_t {
            struct_size, flags, t, x, y, pressure, force, max_force, altitude, azimuth, tilt_x,
            tilt_y, twist, tangential_pressure, width, height, pointer_type, buttons, pointer_id
        }),
        layout!(bristle_stroke_context_t {
            struct_size, device_flags, color, width, scale, seed, pointer_type, max_force,
            canvas_width, canvas_height
        }),
        layout!(bristle_paint_t { struct_size, blend, color, opacity }),
        layout!(bristle_segment_t { struct_size, cap, x0, y0, x1, y1, width0, width1 }),
        layout!(bristle_stroke_style_t {
            struct_size, cap, join, flags, width, miter_limit, dashes, dash_count, reserved, dash_phase
        }),
        layout!(bristle_pattern_t {
            struct_size, format, pixels, width, height, stride_bytes, offset_x, offset_y, reserved
        }),
        layout!(bristle_mask_t { data, width, height, stride_bytes }),
        layout!(bristle_services_t {
            struct_size, reserved, host_data, fill_segment, fill_disc, mask_segment, mask_disc,
            clear_mask, composite_mask, draw_rect, draw_ellipse, draw_polyline, draw_dab, mask_rect,
            mask_ellipse, mask_polyline, mask_dab, composite_mask_pattern
        }),
        layout!(bristle_dirty_list_t { struct_size, count, capacity, reserved, rects }),
        layout!(bristle_target_t {
            struct_size, format, pixels, base, width, height, stride_bytes, layer, stroke, services,
            dirty_list
        }),
        layout!(bristle_host_t {
            struct_size, abi, host_data, name, vendor, version, log, get_extension, services
        }),
        layout!(bristle_descriptor_t { struct_size, flags, abi, id, name, vendor, version, description, tags }),
        layout!(bristle_brush_t {
            struct_size, reserved, descriptor, brush_data, destroy, get_extension, begin, moved,
            predicted, ended, cancelled, tick, draw
        }),
        layout!(bristle_brush_factory_t { struct_size, reserved, count, descriptor, create }),
        layout!(bristle_entry_t { struct_size, abi, init, deinit, get_factory, host_abi_min }),
        layout!(bristle_param_info_t {
            struct_size, type_, id, name, description, unit, min_value, max_value, default_value,
            enum_names, default_color
        }),
        layout!(bristle_params_t { struct_size, reserved, count, info, set_value, get_value, set_color, get_color }),
    ]
}

/// A constant's value: a number, or the text of a string id (without its NUL).
#[derive(Debug, PartialEq)]
enum Value {
    Number(i64),
    Text(String),
}

trait ConstantValue {
    fn value(&self) -> Value;
}
impl ConstantValue for u32 {
    fn value(&self) -> Value {
        Value::Number(*self as i64)
    }
}
impl ConstantValue for i32 {
    fn value(&self) -> Value {
        Value::Number(*self as i64)
    }
}
impl ConstantValue for &[u8] {
    fn value(&self) -> Value {
        Value::Text(String::from_utf8(self.strip_suffix(b"\0").expect("NUL-terminated").to_vec()).unwrap())
    }
}
impl ConstantValue for &std::ffi::CStr {
    fn value(&self) -> Value {
        Value::Text(self.to_str().unwrap().to_string())
    }
}

macro_rules! constants {
    ($($name:ident),* $(,)?) => { vec![$((stringify!($name), $name.value())),*] };
}

fn constants() -> Vec<(&'static str, Value)> {
    constants![
        BRISTLE_VERSION_MAJOR, BRISTLE_VERSION_MINOR, BRISTLE_VERSION_PATCH, BRISTLE_ENTRY_SYMBOL,
        BRISTLE_OK, BRISTLE_FAILED, BRISTLE_UNSUPPORTED, BRISTLE_BAD_ARG, BRISTLE_BAD_STATE,
        BRISTLE_LOG_DEBUG, BRISTLE_LOG_INFO, BRISTLE_LOG_WARNING, BRISTLE_LOG_ERROR,
        BRISTLE_POINTER_UNKNOWN, BRISTLE_POINTER_MOUSE, BRISTLE_POINTER_PEN, BRISTLE_POINTER_ERASER,
        BRISTLE_POINTER_TOUCH, BRISTLE_SAMPLE_HAS_PRESSURE, BRISTLE_SAMPLE_HAS_FORCE,
        BRISTLE_SAMPLE_HAS_TILT, BRISTLE_SAMPLE_HAS_TWIST, BRISTLE_SAMPLE_HAS_TANGENTIAL,
        BRISTLE_SAMPLE_HAS_CONTACT, BRISTLE_SAMPLE_COALESCED, BRISTLE_SAMPLE_PREDICTED,
        BRISTLE_SAMPLE_SYNTHETIC, BRISTLE_SAMPLE_ESTIMATED, BRISTLE_LAYER_COMMITTED,
        BRISTLE_LAYER_PREVIEW, BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED, BRISTLE_BLEND_SRC_OVER,
        BRISTLE_BLEND_ERASE, BRISTLE_CAP_ROUND, BRISTLE_CAP_BUTT, BRISTLE_CAP_SQUARE,
        BRISTLE_JOIN_ROUND, BRISTLE_JOIN_MITER, BRISTLE_JOIN_BEVEL, BRISTLE_STROKE_CLOSED,
        BRISTLE_COMPOSITE_OVER_BASE, BRISTLE_MAX_DASHES, BRISTLE_MAX_DASH_PIECES,
        BRISTLE_MAX_POLYLINE_POINTS, BRISTLE_MAX_DIRTY_RECTS, BRISTLE_BRUSH_CONTINUOUS,
        BRISTLE_BRUSH_WANTS_PREDICTED, BRISTLE_BRUSH_WANTS_TICKS, BRISTLE_BRUSH_DETERMINISTIC,
        BRISTLE_BRUSH_FACTORY_ID, BRISTLE_EXT_PARAMS, BRISTLE_PARAM_FLOAT, BRISTLE_PARAM_INT,
        BRISTLE_PARAM_BOOL, BRISTLE_PARAM_ENUM, BRISTLE_PARAM_COLOR,
    ]
}

/// The typedefs and their Rust sizes.
fn typedefs() -> Vec<(&'static str, usize)> {
    vec![
        ("bristle_status_t", size_of::<bristle_status_t>()),
        ("bristle_log_severity_t", size_of::<bristle_log_severity_t>()),
        ("bristle_entry_fn", size_of::<bristle_entry_fn>()),
    ]
}

/// The size of a C scalar type named in a typedef (LP64).
fn c_size(c_type: &str) -> usize {
    match c_type {
        "int32_t" | "uint32_t" => 4,
        t if t.contains("(*)") || t.ends_with('*') => 8,
        other => panic!("typedef of unknown C type {}", other),
    }
}

/// `bristle abi --json`, from BRISTLE_ABI_JSON or by running the host.
fn host_abi() -> Json {
    let text = match std::env::var("BRISTLE_ABI_JSON") {
        Ok(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read BRISTLE_ABI_JSON={}: {}", path, e)),
        Err(_) => {
            let bristle = std::env::var("BRISTLE").unwrap_or_else(|_| "bristle".to_string());
            let out = std::process::Command::new(&bristle).args(["abi", "--json"]).output().unwrap_or_else(|e| {
                panic!("cannot run `{} abi --json` ({}): set BRISTLE_ABI_JSON to a file holding its output, or BRISTLE to the bristle executable", bristle, e)
            });
            assert!(out.status.success(), "`{} abi --json` failed: {}", bristle, String::from_utf8_lossy(&out.stderr));
            String::from_utf8(out.stdout).expect("UTF-8 JSON")
        }
    };
    let json = Json::parse(&text).unwrap_or_else(|e| panic!("bristle abi --json is not JSON: {}", e));
    assert_eq!(json.get("schema").text(), "bristle-abi/1", "unknown schema");
    json
}

#[test]
fn version_matches_the_host() {
    let abi = host_abi();
    let v = abi.get("abi");
    assert_eq!(
        (v.get("major").int(), v.get("minor").int(), v.get("patch").int()),
        (BRISTLE_VERSION_MAJOR as i64, BRISTLE_VERSION_MINOR as i64, BRISTLE_VERSION_PATCH as i64),
        "bristle-sys describes ABI {}.{}.{}, the host speaks another version",
        BRISTLE_VERSION_MAJOR,
        BRISTLE_VERSION_MINOR,
        BRISTLE_VERSION_PATCH
    );
}

#[test]
fn every_struct_has_the_hosts_layout() {
    let abi = host_abi();
    let ours = layouts();
    let theirs = abi.get("structs").items();
    let mut failures = Vec::new();
    for s in theirs {
        let name = s.get("name").text();
        let layout = match ours.iter().find(|l| l.name == name) {
            Some(l) => l,
            None => {
                failures.push(format!("{}: missing from bristle-sys", name));
                continue;
            }
        };
        if layout.size as i64 != s.get("size").int() {
            failures.push(format!("{}: size {} in Rust, {} in C", name, layout.size, s.get("size").int()));
        }
        if layout.align as i64 != s.get("align").int() {
            failures.push(format!("{}: align {} in Rust, {} in C", name, layout.align, s.get("align").int()));
        }
        let fields = s.get("fields").items();
        let c_names: Vec<&str> = fields.iter().map(|f| f.get("name").text()).collect();
        let rust_names: Vec<&str> = layout.fields.iter().map(|f| f.name).collect();
        if c_names != rust_names {
            failures.push(format!("{}: fields {:?} in Rust, {:?} in C", name, rust_names, c_names));
            continue;
        }
        for (f, ours) in fields.iter().zip(&layout.fields) {
            let (offset, size) = (f.get("offset").int(), f.get("size").int());
            if (ours.offset as i64, ours.size as i64) != (offset, size) {
                failures.push(format!(
                    "{}.{}: offset {} size {} in Rust, offset {} size {} in C",
                    name, ours.name, ours.offset, ours.size, offset, size
                ));
            }
        }
    }
    for l in &ours {
        if !theirs.iter().any(|s| s.get("name").text() == l.name) {
            failures.push(format!("{}: in bristle-sys but not in the host's ABI", l.name));
        }
    }
    assert!(failures.is_empty(), "layout drift between bristle-sys and bristle.h:\n  {}", failures.join("\n  "));
}

#[test]
fn every_constant_has_the_hosts_value() {
    let abi = host_abi();
    let ours = constants();
    let theirs = abi.get("constants").items();
    let mut failures = Vec::new();
    for c in theirs {
        let name = c.get("name").text();
        let expected = match c.get("value") {
            Json::String(s) => Value::Text(s.clone()),
            n => Value::Number(n.int()),
        };
        match ours.iter().find(|(n, _)| *n == name) {
            Some((_, value)) if *value == expected => {}
            Some((_, value)) => failures.push(format!("{}: {:?} in Rust, {:?} in C", name, value, expected)),
            None => failures.push(format!("{}: missing from bristle-sys", name)),
        }
    }
    for (name, _) in &ours {
        if !theirs.iter().any(|c| c.get("name").text() == *name) {
            failures.push(format!("{}: in bristle-sys but not in the host's ABI", name));
        }
    }
    assert!(failures.is_empty(), "constant drift between bristle-sys and bristle.h:\n  {}", failures.join("\n  "));
}

#[test]
fn every_typedef_has_the_hosts_size() {
    let abi = host_abi();
    let ours = typedefs();
    let theirs = abi.get("typedefs").items();
    for t in theirs {
        let name = t.get("name").text();
        let (_, size) = ours.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("typedef {} missing from bristle-sys", name));
        assert_eq!(*size, c_size(t.get("type").text()), "typedef {} has another size in Rust", name);
    }
    assert_eq!(ours.len(), theirs.len(), "bristle-sys has typedefs the host does not list");
}

/// The stride rule and the inline helpers behave as the header's C versions do.
#[test]
fn helpers_follow_the_header() {
    // Samples 24 bytes larger than ours: bristle_sample_at steps by struct_size.
    let stride = size_of::<bristle_sample_t>() + 24;
    let mut bytes = vec![0xa5u8; stride * 3 + 8];
    let base = ((bytes.as_mut_ptr() as usize + 7) & !7) as *mut u8;
    for i in 0..3 {
        let s = bristle_sample_t { struct_size: stride as u32, x: i as f64 * 10.0, ..Default::default() };
        unsafe { (base.add(i * stride) as *mut bristle_sample_t).write(s) };
    }
    let first = base as *const bristle_sample_t;
    for i in 0..3u32 {
        assert_eq!(unsafe { (*bristle_sample_at(first, i)).x }, i as f64 * 10.0);
    }
    // BRISTLE_HAS_FIELD: a 1.1 target (56 bytes) has no dirty_list.
    let old = bristle_target_t { struct_size: 56, ..Default::default() };
    assert!(!bristle_has_field!(&old, bristle_target_t, dirty_list));
    assert!(bristle_has_field!(&old, bristle_target_t, services));
    // bristle_rect_union saturates and ignores empty rectangles.
    let r = |x, y, w, h| bristle_rect_t { x, y, width: w, height: h };
    assert_eq!(bristle_rect_union(r(0, 0, 0, 5), r(1, 2, 3, 4)), r(1, 2, 3, 4));
    assert_eq!(bristle_rect_union(r(0, 0, 0, 5), r(1, 2, 0, 4)), r(0, 0, 0, 0));
    assert_eq!(bristle_rect_union(r(-2_000_000_000, 0, 1, 1), r(2_000_000_000, 0, 1, 1)).width, i32::MAX);
    // bristle_dirty_add: appends until full, then merges where the union grows least.
    let mut rects = [bristle_rect_t::default(); 2];
    let mut list = bristle_dirty_list_t {
        struct_size: size_of::<bristle_dirty_list_t>() as u32,
        count: 0,
        capacity: 2,
        reserved: 0,
        rects: rects.as_mut_ptr(),
    };
    let target = bristle_target_t { struct_size: size_of::<bristle_target_t>() as u32, dirty_list: &mut list, ..old };
    let mut dirty = bristle_rect_t::default();
    unsafe {
        bristle_dirty_add(&target, &mut dirty, r(0, 0, 2, 2));
        bristle_dirty_add(&target, &mut dirty, r(100, 100, 2, 2));
        bristle_dirty_add(&target, &mut dirty, r(101, 101, 2, 2));
        bristle_dirty_add(&target, &mut dirty, r(5, 5, 0, 9)); // empty: ignored
    }
    assert_eq!(list.count, 2);
    assert_eq!(rects, [r(0, 0, 2, 2), r(100, 100, 3, 3)]);
    assert_eq!(dirty, r(0, 0, 103, 103));
}
