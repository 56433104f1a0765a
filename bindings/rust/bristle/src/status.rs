use crate::sys;

/// Why a hook failed: the non-zero `bristle_status_t` codes. The host reports the failure and
/// abandons the stroke (see the header's "Status codes").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Could not do it (e.g. out of memory). A panic in a hook is reported as this.
    Failed,
    /// The request is valid but not implemented (e.g. a 1.1 service on a 1.0 host).
    Unsupported,
    /// An argument is invalid.
    BadArg,
    /// Called at the wrong time.
    BadState,
}

impl Status {
    /// The C status code.
    pub fn code(self) -> sys::bristle_status_t {
        match self {
            Status::Failed => sys::BRISTLE_FAILED,
            Status::Unsupported => sys::BRISTLE_UNSUPPORTED,
            Status::BadArg => sys::BRISTLE_BAD_ARG,
            Status::BadState => sys::BRISTLE_BAD_STATE,
        }
    }
}

/// The result of a hook or a drawing call: `Ok` is `BRISTLE_OK`.
pub type Result<T = ()> = std::result::Result<T, Status>;
