//! The C plumbing behind [`export_brushes!`](crate::export_brushes): the entry, the factory,
//! one instance table per brush, and the parameters extension. Not for direct use.
//!
//! Every function the host calls is an `extern "C"` function that checks its arguments, then
//! runs the brush inside `catch_unwind`: a panic becomes `BRISTLE_FAILED` and a line in the
//! host's log, and never unwinds into the host.

use crate::brush::Brush;
use crate::brush_info::BrushInfo;
use crate::color::Color;
use crate::host::{Host, LogLevel};
use crate::param::{Param, ParamKind, ParamValue};
use crate::sample::Sample;
use crate::samples::Samples;
use crate::status::{Result, Status};
use crate::stroke_context::StrokeContext;
use crate::sys;
use crate::target::Target;
use std::any::Any;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::Mutex;

/// A library's brushes, listed by `export_brushes!`.
///
/// # Safety
/// `factory()` and `state()` return statics of this library.
pub unsafe trait Library: 'static {
    /// The brush types, in the order the factory lists them.
    fn classes() -> &'static [Class];
    /// The C tables, built at the first `init`.
    fn state() -> &'static LibraryState;
    /// The factory table.
    fn factory() -> &'static sys::bristle_brush_factory_t;
}

/// One brush type, type-erased for the factory.
pub struct Class {
    info: fn() -> &'static BrushInfo,
    create: unsafe fn(&'static Described, *const sys::bristle_host_t) -> *const sys::bristle_brush_t,
}

impl Class {
    /// The class of brush type `B`.
    pub const fn of<B: Brush>() -> Class {
        Class { info: info_of::<B>, create: create::<B> }
    }
}

fn info_of<B: Brush>() -> &'static BrushInfo {
    &B::INFO
}

/// The descriptors and parameter infos of a library in C form, built from the
/// [`BrushInfo`]s at the first `init` and kept until the process ends (the library is never
/// unloaded), so every pointer handed to the host stays valid.
pub struct LibraryState {
    tables: Mutex<Option<&'static [Described]>>,
}

impl LibraryState {
    /// Nothing built yet.
    pub const fn new() -> LibraryState {
        LibraryState { tables: Mutex::new(None) }
    }

    fn tables(&self) -> Option<&'static [Described]> {
        *self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Default for LibraryState {
    fn default() -> LibraryState {
        LibraryState::new()
    }
}

/// One brush's descriptor and parameter infos, and the C strings they point into.
pub struct Described {
    descriptor: sys::bristle_descriptor_t,
    params: Vec<sys::bristle_param_info_t>,
    _strings: Vec<CString>,
    _lists: Vec<Vec<*const c_char>>,
}

// SAFETY: built once, then only read; the pointers point into the owned strings and lists.
unsafe impl Send for Described {}
unsafe impl Sync for Described {}

impl Described {
    /// The C form of `info`, or `None` when a string holds a NUL byte.
    fn build(info: &BrushInfo) -> Option<Described> {
        let mut strings = Vec::new();
        let mut text = |s: &str| -> Option<*const c_char> {
            let c = CString::new(s).ok()?;
            let p = c.as_ptr();
            strings.push(c);
            Some(p)
        };
        let mut lists: Vec<Vec<*const c_char>> = Vec::new();
        let mut tags = info.tags.iter().map(|t| text(t)).collect::<Option<Vec<_>>>()?;
        tags.push(ptr::null());
        let mut params = Vec::new();
        for p in info.params {
            let (min, max, default) = p.range();
            let mut enum_names = ptr::null();
            if let ParamKind::Enum { names, .. } = p.kind {
                let mut list = names.iter().map(|n| text(n)).collect::<Option<Vec<_>>>()?;
                list.push(ptr::null());
                enum_names = list.as_ptr();
                lists.push(list);
            }
            params.push(sys::bristle_param_info_t {
                struct_size: std::mem::size_of::<sys::bristle_param_info_t>() as u32,
                type_: match p.kind {
                    ParamKind::Float { .. } => sys::BRISTLE_PARAM_FLOAT,
                    ParamKind::Int { .. } => sys::BRISTLE_PARAM_INT,
                    ParamKind::Bool { .. } => sys::BRISTLE_PARAM_BOOL,
                    ParamKind::Enum { .. } => sys::BRISTLE_PARAM_ENUM,
                    ParamKind::Color { .. } => sys::BRISTLE_PARAM_COLOR,
                },
                id: text(p.id)?,
                name: text(p.name)?,
                description: text(p.description)?,
                unit: text(p.unit)?,
                min_value: min,
                max_value: max,
                default_value: default,
                enum_names,
                default_color: p.default_value().color().into(),
            });
        }
        let descriptor = sys::bristle_descriptor_t {
            struct_size: std::mem::size_of::<sys::bristle_descriptor_t>() as u32,
            flags: info.flags(),
            abi: sys::BRISTLE_VERSION_INIT,
            id: text(info.id)?,
            name: text(info.name)?,
            vendor: text(info.vendor)?,
            version: text(info.version)?,
            description: text(info.description)?,
            tags: if info.tags.is_empty() { ptr::null() } else { tags.as_ptr() },
        };
        lists.push(tags);
        Some(Described { descriptor, params, _strings: strings, _lists: lists })
    }
}

/// The entry table of library `L`: ABI 1.2, runs on any 1.x host.
pub const fn entry<L: Library>() -> sys::bristle_entry_t {
    sys::bristle_entry_t {
        struct_size: std::mem::size_of::<sys::bristle_entry_t>() as u32,
        abi: sys::BRISTLE_VERSION_INIT,
        init: Some(init::<L>),
        deinit: Some(deinit),
        get_factory: Some(get_factory::<L>),
        host_abi_min: sys::bristle_version_t { major: 1, minor: 0, patch: 0 },
    }
}

/// The factory table of library `L`.
pub const fn factory<L: Library>() -> sys::bristle_brush_factory_t {
    sys::bristle_brush_factory_t {
        struct_size: std::mem::size_of::<sys::bristle_brush_factory_t>() as u32,
        reserved: 0,
        count: Some(factory_count::<L>),
        descriptor: Some(factory_descriptor::<L>),
        create: Some(factory_create::<L>),
    }
}

unsafe extern "C" fn init<L: Library>(_plugin_path: *const c_char) -> bool {
    catch_unwind(|| {
        let mut tables = L::state().tables.lock().unwrap_or_else(|e| e.into_inner());
        if tables.is_none() {
            let built = L::classes().iter().map(|c| Described::build((c.info)())).collect::<Option<Vec<_>>>();
            match built {
                Some(list) => *tables = Some(Box::leak(list.into_boxed_slice())),
                None => return false,
            }
        }
        true
    })
    .unwrap_or(false)
}

/// The tables stay until the process ends: nothing to release.
unsafe extern "C" fn deinit() {}

unsafe extern "C" fn get_factory<L: Library>(id: *const c_char) -> *const c_void {
    if !id.is_null() && CStr::from_ptr(id) == sys::BRISTLE_BRUSH_FACTORY_ID {
        L::factory() as *const sys::bristle_brush_factory_t as *const c_void
    } else {
        ptr::null()
    }
}

unsafe extern "C" fn factory_count<L: Library>(_factory: *const sys::bristle_brush_factory_t) -> u32 {
    L::classes().len() as u32
}

unsafe extern "C" fn factory_descriptor<L: Library>(_factory: *const sys::bristle_brush_factory_t, index: u32) -> *const sys::bristle_descriptor_t {
    match L::state().tables().and_then(|t| t.get(index as usize)) {
        Some(d) => &d.descriptor,
        None => ptr::null(),
    }
}

unsafe extern "C" fn factory_create<L: Library>(
    _factory: *const sys::bristle_brush_factory_t,
    host: *const sys::bristle_host_t,
    id: *const c_char,
) -> *const sys::bristle_brush_t {
    let tables = match L::state().tables() {
        Some(t) if !id.is_null() => t,
        _ => return ptr::null(),
    };
    let wanted = CStr::from_ptr(id).to_bytes();
    let index = match L::classes().iter().position(|c| (c.info)().id.as_bytes() == wanted) {
        Some(i) => i,
        None => return ptr::null(),
    };
    let class = &L::classes()[index];
    match catch_unwind(|| (class.create)(&tables[index], host)) {
        Ok(brush) => brush,
        Err(payload) => {
            report_panic(Host::from_raw(host), (class.info)().id, "create", payload.as_ref());
            ptr::null()
        }
    }
}

/// One instance as the host sees it: the C tables, whose `brush_data` points back here, the
/// parameter values, and the brush.
struct Instance<B: Brush> {
    table: sys::bristle_brush_t,
    params_table: sys::bristle_params_t,
    described: &'static Described,
    host: Host,
    values: Vec<ParamValue>,
    in_stroke: bool,
    brush: B,
}

/// Makes an instance of `B` and sets every parameter to its default.
unsafe fn create<B: Brush>(described: &'static Described, host: *const sys::bristle_host_t) -> *const sys::bristle_brush_t {
    let host = Host::from_raw(host);
    let mut brush = B::new(&host);
    let values: Vec<ParamValue> = B::INFO.params.iter().map(|p| p.default_value()).collect();
    for (param, value) in B::INFO.params.iter().zip(&values) {
        brush.set_param(param, *value);
    }
    let instance = Box::into_raw(Box::new(Instance {
        table: sys::bristle_brush_t {
            struct_size: std::mem::size_of::<sys::bristle_brush_t>() as u32,
            reserved: 0,
            descriptor: &described.descriptor,
            brush_data: ptr::null_mut(),
            destroy: Some(destroy::<B>),
            get_extension: Some(get_extension::<B>),
            begin: Some(begin::<B>),
            moved: Some(moved::<B>),
            predicted: if B::INFO.wants_predicted { Some(predicted::<B>) } else { None },
            ended: Some(ended::<B>),
            cancelled: Some(cancelled::<B>),
            tick: if B::INFO.wants_ticks { Some(tick::<B>) } else { None },
            draw: Some(draw::<B>),
        },
        params_table: sys::bristle_params_t {
            struct_size: std::mem::size_of::<sys::bristle_params_t>() as u32,
            reserved: 0,
            count: Some(param_count::<B>),
            info: Some(param_info::<B>),
            set_value: Some(set_value::<B>),
            get_value: Some(get_value::<B>),
            set_color: Some(set_color::<B>),
            get_color: Some(get_color::<B>),
        },
        described,
        host,
        values,
        in_stroke: false,
        brush,
    }));
    (*instance).table.brush_data = instance as *mut c_void;
    &(*instance).table
}

/// The instance behind a brush pointer, or `None` for NULL.
unsafe fn instance<'a, B: Brush>(brush: *const sys::bristle_brush_t) -> Option<&'a mut Instance<B>> {
    let data = brush.as_ref()?.brush_data as *mut Instance<B>;
    data.as_mut()
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "(no message)"
    }
}

fn report_panic(host: Host, id: &str, hook: &str, payload: &(dyn Any + Send)) {
    let line = format!("{}: the brush panicked in {}: {}", id, hook, panic_message(payload));
    let _ = catch_unwind(AssertUnwindSafe(|| host.log(LogLevel::Error, &line)));
}

/// Runs `body` on the instance behind `brush`: NULL is BAD_ARG, `Err` its status, a panic
/// FAILED (logged).
unsafe fn guarded<B: Brush>(brush: *const sys::bristle_brush_t, hook: &str, body: impl FnOnce(&mut Instance<B>) -> Result) -> sys::bristle_status_t {
    let instance = match instance::<B>(brush) {
        Some(i) => i,
        None => return sys::BRISTLE_BAD_ARG,
    };
    let host = instance.host;
    match catch_unwind(AssertUnwindSafe(|| body(instance))) {
        Ok(Ok(())) => sys::BRISTLE_OK,
        Ok(Err(status)) => status.code(),
        Err(payload) => {
            report_panic(host, B::INFO.id, hook, payload.as_ref());
            sys::BRISTLE_FAILED
        }
    }
}

unsafe extern "C" fn destroy<B: Brush>(brush: *const sys::bristle_brush_t) {
    if let Some(instance) = instance::<B>(brush) {
        let host = instance.host;
        let owned = Box::from_raw(instance as *mut Instance<B>);
        if let Err(payload) = catch_unwind(AssertUnwindSafe(move || drop(owned))) {
            report_panic(host, B::INFO.id, "destroy", payload.as_ref());
        }
    }
}

unsafe extern "C" fn get_extension<B: Brush>(brush: *const sys::bristle_brush_t, id: *const c_char) -> *const c_void {
    match instance::<B>(brush) {
        Some(i) if !id.is_null() && !B::INFO.params.is_empty() && CStr::from_ptr(id) == sys::BRISTLE_EXT_PARAMS => {
            &i.params_table as *const sys::bristle_params_t as *const c_void
        }
        _ => ptr::null(),
    }
}

unsafe extern "C" fn begin<B: Brush>(
    brush: *const sys::bristle_brush_t,
    context: *const sys::bristle_stroke_context_t,
    sample: *const sys::bristle_sample_t,
) -> sys::bristle_status_t {
    guarded::<B>(brush, "begin", |i| {
        if context.is_null() || sample.is_null() {
            return Err(Status::BadArg);
        }
        if i.in_stroke {
            return Err(Status::BadState);
        }
        i.in_stroke = true;
        i.brush.begin(&StrokeContext::read(context), &Sample::read(sample))
    })
}

unsafe extern "C" fn moved<B: Brush>(brush: *const sys::bristle_brush_t, samples: *const sys::bristle_sample_t, count: u32) -> sys::bristle_status_t {
    guarded::<B>(brush, "moved", |i| {
        let samples = Samples::new(samples, count).ok_or(Status::BadArg)?;
        if !i.in_stroke {
            return Err(Status::BadState);
        }
        i.brush.moved(&samples)
    })
}

unsafe extern "C" fn predicted<B: Brush>(brush: *const sys::bristle_brush_t, samples: *const sys::bristle_sample_t, count: u32) -> sys::bristle_status_t {
    guarded::<B>(brush, "predicted", |i| {
        let samples = Samples::new(samples, count).ok_or(Status::BadArg)?;
        if !i.in_stroke {
            return Err(Status::BadState);
        }
        i.brush.predicted(&samples)
    })
}

unsafe extern "C" fn ended<B: Brush>(brush: *const sys::bristle_brush_t, sample: *const sys::bristle_sample_t) -> sys::bristle_status_t {
    guarded::<B>(brush, "ended", |i| {
        if sample.is_null() {
            return Err(Status::BadArg);
        }
        if !i.in_stroke {
            return Err(Status::BadState);
        }
        i.in_stroke = false; // the committed draw that follows still sees the stroke
        i.brush.ended(&Sample::read(sample))
    })
}

unsafe extern "C" fn cancelled<B: Brush>(brush: *const sys::bristle_brush_t) {
    guarded::<B>(brush, "cancelled", |i| {
        i.in_stroke = false;
        i.brush.cancelled();
        Ok(())
    });
}

unsafe extern "C" fn tick<B: Brush>(brush: *const sys::bristle_brush_t, t: f64, dt: f64) -> sys::bristle_status_t {
    guarded::<B>(brush, "tick", |i| if i.in_stroke { Err(Status::BadState) } else { i.brush.tick(t, dt) })
}

unsafe extern "C" fn draw<B: Brush>(brush: *const sys::bristle_brush_t, target: *const sys::bristle_target_t, dirty: *mut sys::bristle_rect_t) -> sys::bristle_status_t {
    guarded::<B>(brush, "draw", |i| {
        let mut target = Target::new(target, dirty)?;
        i.brush.draw(&mut target)
    })
}

/// The index of the parameter whose id is `id`, exactly.
unsafe fn param_index<B: Brush>(id: *const c_char) -> Option<usize> {
    if id.is_null() {
        return None;
    }
    let id = CStr::from_ptr(id).to_bytes();
    B::INFO.params.iter().position(|p| p.id.as_bytes() == id)
}

unsafe extern "C" fn param_count<B: Brush>(_brush: *const sys::bristle_brush_t) -> u32 {
    B::INFO.params.len() as u32
}

unsafe extern "C" fn param_info<B: Brush>(brush: *const sys::bristle_brush_t, index: u32) -> *const sys::bristle_param_info_t {
    match instance::<B>(brush).and_then(|i| i.described.params.get(index as usize)) {
        Some(info) => info,
        None => ptr::null(),
    }
}

/// Stores `value` for parameter `index` (idle only) and tells the brush.
fn store<B: Brush>(i: &mut Instance<B>, index: usize, value: ParamValue) -> Result {
    if i.in_stroke {
        return Err(Status::BadState);
    }
    i.values[index] = value;
    let param: &'static Param = &B::INFO.params[index];
    i.brush.set_param(param, value);
    Ok(())
}

unsafe extern "C" fn set_value<B: Brush>(brush: *const sys::bristle_brush_t, id: *const c_char, value: f64) -> sys::bristle_status_t {
    guarded::<B>(brush, "set_value", |i| {
        let index = param_index::<B>(id).ok_or(Status::BadArg)?;
        let value = B::INFO.params[index].accept(value).ok_or(Status::BadArg)?;
        store(i, index, ParamValue::Number(value))
    })
}

unsafe extern "C" fn get_value<B: Brush>(brush: *const sys::bristle_brush_t, id: *const c_char, value: *mut f64) -> sys::bristle_status_t {
    guarded::<B>(brush, "get_value", |i| match (param_index::<B>(id).map(|k| i.values[k]), value.is_null()) {
        (Some(ParamValue::Number(v)), false) => {
            *value = v;
            Ok(())
        }
        _ => Err(Status::BadArg),
    })
}

unsafe extern "C" fn set_color<B: Brush>(brush: *const sys::bristle_brush_t, id: *const c_char, color: *const sys::bristle_color_t) -> sys::bristle_status_t {
    guarded::<B>(brush, "set_color", |i| {
        let index = param_index::<B>(id).ok_or(Status::BadArg)?;
        if color.is_null() || !matches!(B::INFO.params[index].kind, ParamKind::Color { .. }) {
            return Err(Status::BadArg);
        }
        store(i, index, ParamValue::Color(Color::from(*color).clamped()))
    })
}

unsafe extern "C" fn get_color<B: Brush>(brush: *const sys::bristle_brush_t, id: *const c_char, color: *mut sys::bristle_color_t) -> sys::bristle_status_t {
    guarded::<B>(brush, "get_color", |i| match (param_index::<B>(id).map(|k| i.values[k]), color.is_null()) {
        (Some(ParamValue::Color(c)), false) => {
            *color = c.into();
            Ok(())
        }
        _ => Err(Status::BadArg),
    })
}

/// Exports brush types as this library's `bristle_entry_v1`: the one symbol a Bristle plugin
/// exports. Use it once per library (a `cdylib`), listing every [`Brush`] type it holds:
///
/// ```text
/// bristle::export_brushes!(InkPen);            // one brush
/// bristle::export_brushes!(Pencil, Eraser);    // two brushes in one library
/// ```
///
/// It generates the entry (ABI 1.2, accepting any 1.x host), the factory listing the brushes
/// in the order given, and creates instances by id; see the crate documentation for what the
/// generated hooks check and catch.
#[macro_export]
macro_rules! export_brushes {
    ($($brush:ty),+ $(,)?) => {
        #[doc(hidden)]
        struct __BristleLibrary;

        unsafe impl $crate::export::Library for __BristleLibrary {
            fn classes() -> &'static [$crate::export::Class] {
                static CLASSES: &[$crate::export::Class] = &[$($crate::export::Class::of::<$brush>()),+];
                CLASSES
            }
            fn state() -> &'static $crate::export::LibraryState {
                static STATE: $crate::export::LibraryState = $crate::export::LibraryState::new();
                &STATE
            }
            fn factory() -> &'static $crate::sys::bristle_brush_factory_t {
                static FACTORY: $crate::sys::bristle_brush_factory_t = $crate::export::factory::<__BristleLibrary>();
                &FACTORY
            }
        }

        /// The plugin's entry: the one symbol the host looks up.
        #[no_mangle]
        pub extern "C" fn bristle_entry_v1() -> *const $crate::sys::bristle_entry_t {
            static ENTRY: $crate::sys::bristle_entry_t = $crate::export::entry::<__BristleLibrary>();
            &ENTRY
        }
    };
}
