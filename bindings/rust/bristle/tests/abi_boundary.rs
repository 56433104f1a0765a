//! The safe layer seen from the host's side: a test brush exported with `export_brushes!` and
//! driven through the C tables as a host would (entry, factory, instance, parameters), with
//! hostile calls, samples larger than this crate's `bristle_sample_t`, a 1.0-sized services
//! table and a panicking hook.

use bristle::sys::*;
use bristle::*;
use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::sync::Mutex;

/// The test brush: records what it receives; panics in `moved` on a sample at x = 666.
struct Probe {
    xs: Vec<f64>,
    width: f64,
    mode: f64,
}

const PARAMS: [Param; 3] = [
    Param::float("width", "Width", 1.0, 10.0, 2.0).unit("px"),
    Param::new("mode", "Mode", ParamKind::Enum { names: &["thin", "thick", "huge"], default: 1 }),
    Param::new("tint", "Tint", ParamKind::Color { default: Color::rgba(1.0, 0.0, 0.0, 1.0) }),
];

impl Brush for Probe {
    const INFO: BrushInfo = BrushInfo { params: &PARAMS, tags: &["test"], ..BrushInfo::new("org.test.probe", "Probe") };

    fn new(_host: &Host) -> Probe {
        Probe { xs: Vec::new(), width: 0.0, mode: 0.0 }
    }

    fn set_param(&mut self, param: &'static Param, value: ParamValue) {
        match param.id {
            "width" => self.width = value.number(),
            "mode" => self.mode = value.number(),
            _ => {}
        }
    }

    fn begin(&mut self, _stroke: &StrokeContext, sample: &Sample) -> Result {
        self.xs = vec![sample.x()];
        Ok(())
    }

    fn moved(&mut self, samples: &Samples) -> Result {
        for s in samples.iter() {
            assert!(s.x() != 666.0, "the probe was told to panic");
            self.xs.push(s.x());
        }
        Ok(())
    }

    fn ended(&mut self, _sample: &Sample) -> Result {
        Ok(())
    }

    fn cancelled(&mut self) {}

    fn draw(&mut self, target: &mut Target) -> Result {
        let x = *self.xs.last().unwrap_or(&0.0);
        target.fill_disc(x, 5.0, 2.0, &Paint::color(Color::BLACK))?;
        target.draw_rect(0.0, 0.0, 2.0, 2.0, None, &Paint::color(Color::BLACK), None)?;
        Ok(())
    }
}

bristle::export_brushes!(Probe);

/// Log lines the fake host received.
static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

unsafe extern "C" fn log(_host: *const bristle_host_t, _severity: bristle_log_severity_t, message: *const c_char) {
    LOG.lock().unwrap().push(CStr::from_ptr(message).to_string_lossy().into_owned());
}

unsafe extern "C" fn fill_disc(_s: *const bristle_services_t, _t: *const bristle_target_t, cx: f64, cy: f64, r: f64, _p: *const bristle_paint_t) -> bristle_rect_t {
    bristle_rect_t { x: (cx - r) as i32, y: (cy - r) as i32, width: (2.0 * r) as i32, height: (2.0 * r) as i32 }
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn draw_rect(
    _s: *const bristle_services_t,
    _t: *const bristle_target_t,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    _style: *const bristle_stroke_style_t,
    _p: *const bristle_paint_t,
    _pattern: *const bristle_pattern_t,
) -> bristle_rect_t {
    bristle_rect_t { x: x as i32, y: y as i32, width: w as i32, height: h as i32 }
}

/// A services table with only the two functions the probe calls, `struct_size` as given.
fn services(struct_size: usize) -> bristle_services_t {
    bristle_services_t { struct_size: struct_size as u32, fill_disc: Some(fill_disc), draw_rect: Some(draw_rect), ..Default::default() }
}

/// The host struct the tests pass to `create` (its services are the full table).
struct FakeHost {
    host: bristle_host_t,
    _services: Box<bristle_services_t>,
    _name: CString,
}

fn fake_host() -> FakeHost {
    let services = Box::new(services(std::mem::size_of::<bristle_services_t>()));
    let name = CString::new("test-host").unwrap();
    let host = bristle_host_t {
        struct_size: std::mem::size_of::<bristle_host_t>() as u32,
        abi: BRISTLE_VERSION_INIT,
        host_data: std::ptr::null_mut(),
        name: name.as_ptr(),
        vendor: name.as_ptr(),
        version: name.as_ptr(),
        log: Some(log),
        get_extension: None,
        services: &*services,
    };
    FakeHost { host, _services: services, _name: name }
}

/// The probe's library, initialised, and one instance created through its factory.
unsafe fn create(host: &FakeHost) -> (&'static bristle_brush_factory_t, *const bristle_brush_t) {
    let entry = &*bristle_entry_v1();
    assert_eq!(entry.struct_size as usize, std::mem::size_of::<bristle_entry_t>());
    assert_eq!(entry.host_abi_min, bristle_version_t { major: 1, minor: 0, patch: 0 });
    assert!((entry.init.unwrap())(b"/probe.so\0".as_ptr() as *const c_char));
    assert!((entry.get_factory.unwrap())(b"bristle.brush-factory/2\0".as_ptr() as *const c_char).is_null());
    let factory = &*((entry.get_factory.unwrap())(BRISTLE_BRUSH_FACTORY_ID.as_ptr()) as *const bristle_brush_factory_t);
    assert_eq!((factory.count.unwrap())(factory), 1);
    assert!((factory.descriptor.unwrap())(factory, 1).is_null());
    let descriptor = &*(factory.descriptor.unwrap())(factory, 0);
    assert_eq!(CStr::from_ptr(descriptor.id).to_str().unwrap(), "org.test.probe");
    assert_eq!(CStr::from_ptr(*descriptor.tags).to_str().unwrap(), "test");
    assert!((*descriptor.tags.add(1)).is_null());
    assert_eq!(descriptor.flags, BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_DETERMINISTIC);
    let prefix = b"org.test.prob\0".as_ptr() as *const c_char;
    assert!((factory.create.unwrap())(factory, &host.host, prefix).is_null(), "ids match exactly");
    let brush = (factory.create.unwrap())(factory, &host.host, descriptor.id);
    assert!(!brush.is_null());
    (factory, brush)
}

/// Samples with these `x`, in a buffer whose stride is `stride` bytes (with room for a whole
/// `bristle_sample_t` after the last, whatever the stride).
fn samples(xs: &[f64], stride: usize) -> Vec<u64> {
    let bytes = xs.len() * stride + std::mem::size_of::<bristle_sample_t>();
    let mut buffer = vec![0xa5a5_a5a5_a5a5_a5a5u64; (bytes + 7) / 8];
    for (i, x) in xs.iter().enumerate() {
        let s = bristle_sample_t { struct_size: stride as u32, x: *x, y: 5.0, pressure: 0.5, ..Default::default() };
        unsafe { ((buffer.as_mut_ptr() as *mut u8).add(i * stride) as *mut bristle_sample_t).write_unaligned(s) };
    }
    buffer
}

/// Runs a committed draw on a 64x16 target whose services table has `services_size` bytes,
/// in pixel format `format`; returns the status, `*dirty` and the dirty list.
unsafe fn draw(brush: *const bristle_brush_t, services_size: usize, format: u32) -> (bristle_status_t, bristle_rect_t, Vec<bristle_rect_t>) {
    draw_layer(brush, services_size, format, BRISTLE_LAYER_COMMITTED)
}

unsafe fn draw_layer(brush: *const bristle_brush_t, services_size: usize, format: u32, layer: u32) -> (bristle_status_t, bristle_rect_t, Vec<bristle_rect_t>) {
    let table = services(services_size);
    let context = bristle_stroke_context_t { struct_size: std::mem::size_of::<bristle_stroke_context_t>() as u32, width: 4.0, scale: 2.0, ..Default::default() };
    let mut pixels = vec![0u8; 64 * 16 * 4];
    let mut rects = [bristle_rect_t::default(); 16];
    let mut list = bristle_dirty_list_t { struct_size: std::mem::size_of::<bristle_dirty_list_t>() as u32, count: 0, capacity: 16, reserved: 0, rects: rects.as_mut_ptr() };
    let target = bristle_target_t {
        struct_size: std::mem::size_of::<bristle_target_t>() as u32,
        format,
        pixels: pixels.as_mut_ptr(),
        base: std::ptr::null(),
        width: 64,
        height: 16,
        stride_bytes: 256,
        layer,
        stroke: &context,
        services: &table,
        dirty_list: &mut list,
    };
    let mut dirty = bristle_rect_t::default();
    let status = ((*brush).draw.unwrap())(brush, &target, &mut dirty);
    (status, dirty, rects[..list.count as usize].to_vec())
}

#[test]
fn hooks_follow_the_stride_rule_and_report_dirty_rectangles() {
    let host = fake_host();
    unsafe {
        let (_, brush) = create(&host);
        let b = &*brush;
        assert!(b.predicted.is_none() && b.tick.is_none(), "not wanted, so NULL");
        let context = bristle_stroke_context_t { struct_size: 40, width: 4.0, ..Default::default() };
        let first = samples(&[1.0], std::mem::size_of::<bristle_sample_t>());
        let first = first.as_ptr() as *const bristle_sample_t;
        assert_eq!((b.begin.unwrap())(brush, &context, first), BRISTLE_OK);
        assert_eq!((b.begin.unwrap())(brush, &context, first), BRISTLE_BAD_STATE, "begin twice");
        // Samples 24 bytes larger than ours, garbage in between: the last x must be 40.
        let big = samples(&[10.0, 20.0, 40.0], std::mem::size_of::<bristle_sample_t>() + 24);
        assert_eq!((b.moved.unwrap())(brush, big.as_ptr() as *const bristle_sample_t, 3), BRISTLE_OK);
        let (status, dirty, list) = draw(brush, std::mem::size_of::<bristle_services_t>(), BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED);
        assert_eq!(status, BRISTLE_OK);
        assert_eq!(list, vec![bristle_rect_t { x: 38, y: 3, width: 4, height: 4 }, bristle_rect_t { x: 0, y: 0, width: 2, height: 2 }]);
        assert_eq!(dirty, bristle_rect_t { x: 0, y: 0, width: 42, height: 7 });
        // A 1.0 services table (64 bytes) has no draw_rect: Unsupported, but the disc drawn
        // before it is still reported.
        let (status, dirty, _) = draw(brush, 64, BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED);
        assert_eq!(status, BRISTLE_UNSUPPORTED);
        assert_eq!(dirty, bristle_rect_t { x: 38, y: 3, width: 4, height: 4 });
        assert_eq!(draw(brush, 136, 7).0, BRISTLE_UNSUPPORTED, "unknown pixel format");
        assert_eq!(draw_layer(brush, 136, BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED, 9).0, BRISTLE_UNSUPPORTED, "unknown layer");
        // Hostile calls.
        assert_eq!((b.moved.unwrap())(brush, std::ptr::null(), 1), BRISTLE_BAD_ARG);
        assert_eq!((b.moved.unwrap())(brush, big.as_ptr() as *const bristle_sample_t, 0), BRISTLE_BAD_ARG);
        let tiny = samples(&[1.0], 40);
        assert_eq!((b.moved.unwrap())(brush, tiny.as_ptr() as *const bristle_sample_t, 1), BRISTLE_BAD_ARG, "stride below 1.0's 88");
        assert_eq!((b.moved.unwrap())(std::ptr::null(), first, 1), BRISTLE_BAD_ARG);
        assert_eq!((b.draw.unwrap())(brush, std::ptr::null(), std::ptr::null_mut()), BRISTLE_BAD_ARG);
        assert_eq!((b.ended.unwrap())(brush, first), BRISTLE_OK);
        assert_eq!((b.moved.unwrap())(brush, first, 1), BRISTLE_BAD_STATE, "moved after ended");
        (b.destroy.unwrap())(brush);
    }
}

#[test]
fn a_panic_becomes_failed_and_a_log_line() {
    let host = fake_host();
    unsafe {
        let (_, brush) = create(&host);
        let b = &*brush;
        let context = bristle_stroke_context_t { struct_size: 40, ..Default::default() };
        let one = samples(&[1.0], std::mem::size_of::<bristle_sample_t>());
        assert_eq!((b.begin.unwrap())(brush, &context, one.as_ptr() as *const bristle_sample_t), BRISTLE_OK);
        let bad = samples(&[666.0], std::mem::size_of::<bristle_sample_t>());
        assert_eq!((b.moved.unwrap())(brush, bad.as_ptr() as *const bristle_sample_t, 1), BRISTLE_FAILED);
        let log = LOG.lock().unwrap().clone();
        assert!(log.iter().any(|l| l.contains("org.test.probe: the brush panicked in moved: the probe was told to panic")), "{:?}", log);
        (b.cancelled.unwrap())(brush);
        (b.destroy.unwrap())(brush);
    }
}

#[test]
fn parameters_are_checked_clamped_and_refused_during_a_stroke() {
    let host = fake_host();
    unsafe {
        let (_, brush) = create(&host);
        let b = &*brush;
        let params = &*((b.get_extension.unwrap())(brush, BRISTLE_EXT_PARAMS.as_ptr()) as *const bristle_params_t);
        assert!((b.get_extension.unwrap())(brush, b"bristle.params/2\0".as_ptr() as *const c_char).is_null());
        assert_eq!((params.count.unwrap())(brush), 3);
        let info = &*(params.info.unwrap())(brush, 1);
        assert_eq!((info.type_, info.min_value, info.max_value, info.default_value), (BRISTLE_PARAM_ENUM, 0.0, 2.0, 1.0));
        assert_eq!(CStr::from_ptr(*info.enum_names.add(2)).to_str().unwrap(), "huge");
        assert!((*info.enum_names.add(3)).is_null());
        assert!((params.info.unwrap())(brush, 3).is_null());
        let id = |s: &str| CString::new(s).unwrap();
        let (width, mode, tint) = (id("width"), id("mode"), id("tint"));
        let mut value = 0.0;
        assert_eq!((params.get_value.unwrap())(brush, width.as_ptr(), &mut value), BRISTLE_OK);
        assert_eq!(value, 2.0, "the default");
        assert_eq!((params.set_value.unwrap())(brush, width.as_ptr(), 99.0), BRISTLE_OK);
        (params.get_value.unwrap())(brush, width.as_ptr(), &mut value);
        assert_eq!(value, 10.0, "clamped");
        assert_eq!((params.set_value.unwrap())(brush, mode.as_ptr(), 1.6), BRISTLE_OK);
        (params.get_value.unwrap())(brush, mode.as_ptr(), &mut value);
        assert_eq!(value, 2.0, "rounded");
        assert_eq!((params.set_value.unwrap())(brush, width.as_ptr(), f64::NAN), BRISTLE_BAD_ARG);
        assert_eq!((params.set_value.unwrap())(brush, tint.as_ptr(), 1.0), BRISTLE_BAD_ARG, "a colour");
        assert_eq!((params.set_value.unwrap())(brush, id("widt").as_ptr(), 1.0), BRISTLE_BAD_ARG);
        let mut color = bristle_color_t::default();
        assert_eq!((params.get_color.unwrap())(brush, tint.as_ptr(), &mut color), BRISTLE_OK);
        assert_eq!(color, bristle_color_t { r: 1.0, g: 0.0, b: 0.0, a: 1.0 });
        let wild = bristle_color_t { r: 2.0, g: f32::NAN, b: -1.0, a: 0.5 };
        assert_eq!((params.set_color.unwrap())(brush, tint.as_ptr(), &wild), BRISTLE_OK);
        (params.get_color.unwrap())(brush, tint.as_ptr(), &mut color);
        assert_eq!(color, bristle_color_t { r: 1.0, g: 0.0, b: 0.0, a: 0.5 });
        assert_eq!((params.get_color.unwrap())(brush, width.as_ptr(), &mut color), BRISTLE_BAD_ARG);
        let context = bristle_stroke_context_t { struct_size: 40, ..Default::default() };
        let one = samples(&[1.0], std::mem::size_of::<bristle_sample_t>());
        (b.begin.unwrap())(brush, &context, one.as_ptr() as *const bristle_sample_t);
        assert_eq!((params.set_value.unwrap())(brush, width.as_ptr(), 3.0), BRISTLE_BAD_STATE);
        assert_eq!((params.set_color.unwrap())(brush, tint.as_ptr(), &wild), BRISTLE_BAD_STATE);
        (b.cancelled.unwrap())(brush);
        assert_eq!((params.set_value.unwrap())(brush, width.as_ptr(), 3.0), BRISTLE_OK);
        (b.destroy.unwrap())(brush);
    }
}
