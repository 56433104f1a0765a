use crate::sys;
use std::ffi::{CStr, CString};

/// The severity of a log line (`BRISTLE_LOG_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogLevel {
    /// May be dropped.
    Debug,
    /// Information.
    Info,
    /// Something odd; the brush carries on.
    Warning,
    /// Something failed.
    Error,
}

/// The host that created the brush: its name and ABI version, and its log. It outlives the
/// brush instance, so a brush may keep it.
#[derive(Clone, Copy, Debug)]
pub struct Host {
    raw: *const sys::bristle_host_t,
}

// SAFETY: the host struct lives as long as the brush and its `log` is [any-thread].
unsafe impl Send for Host {}
unsafe impl Sync for Host {}

impl Host {
    /// Wraps the host pointer `create` received (NULL is allowed: then the log is silent).
    ///
    /// # Safety
    /// `raw` is NULL or a host struct that outlives every use of the wrapper.
    pub unsafe fn from_raw(raw: *const sys::bristle_host_t) -> Host {
        Host { raw }
    }

    /// The host's ABI version as (major, minor, patch), or (1, 0, 0) when unknown.
    pub fn abi(&self) -> (u32, u32, u32) {
        match unsafe { self.raw.as_ref() } {
            Some(h) => (h.abi.major, h.abi.minor, h.abi.patch),
            None => (1, 0, 0),
        }
    }

    /// The host's name, e.g. "bristle".
    pub fn name(&self) -> String {
        match unsafe { self.raw.as_ref() } {
            Some(h) if !h.name.is_null() => unsafe { CStr::from_ptr(h.name) }.to_string_lossy().into_owned(),
            _ => String::new(),
        }
    }

    /// Logs one line for a person to read. Interior NULs and line breaks become spaces.
    pub fn log(&self, level: LogLevel, message: &str) {
        let host = match unsafe { self.raw.as_ref() } {
            Some(h) => h,
            None => return,
        };
        let log = match host.log {
            Some(log) => log,
            None => return,
        };
        let clean: String = message.chars().map(|c| if c == '\0' || c == '\n' || c == '\r' { ' ' } else { c }).collect();
        let text = CString::new(clean).unwrap_or_default();
        let severity = match level {
            LogLevel::Debug => sys::BRISTLE_LOG_DEBUG,
            LogLevel::Info => sys::BRISTLE_LOG_INFO,
            LogLevel::Warning => sys::BRISTLE_LOG_WARNING,
            LogLevel::Error => sys::BRISTLE_LOG_ERROR,
        };
        // SAFETY: the host struct is valid (from_raw's contract) and the text NUL-terminated.
        unsafe { log(self.raw, severity, text.as_ptr()) }
    }
}
