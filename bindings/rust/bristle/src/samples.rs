use crate::sample::Sample;
use crate::sys;
use std::marker::PhantomData;

/// The samples of one `moved` or `predicted` call, oldest first (at least one). Stepping
/// follows the header's stride rule: element `i` starts `i * struct_size` bytes after the
/// first, whatever size this crate's `bristle_sample_t` has. Valid only during the hook.
#[derive(Clone, Copy)]
pub struct Samples<'a> {
    first: *const sys::bristle_sample_t,
    count: usize,
    _call: PhantomData<&'a sys::bristle_sample_t>,
}

/// The `bristle_sample_t` size of ABI 1.0: the smallest stride a host may pass.
const SMALLEST_SAMPLE: u32 = 88;

impl<'a> Samples<'a> {
    /// Wraps a hook's `samples` and `count`; `None` when the pointer is NULL, the count is
    /// zero or the stride is below the 1.0 sample size.
    ///
    /// # Safety
    /// `first` points to `count` samples of the same `struct_size`, valid for `'a`.
    pub unsafe fn new(first: *const sys::bristle_sample_t, count: u32) -> Option<Samples<'a>> {
        if first.is_null() || count == 0 || (first as *const u32).read_unaligned() < SMALLEST_SAMPLE {
            return None;
        }
        Some(Samples { first, count: count as usize, _call: PhantomData })
    }

    /// How many samples there are (>= 1).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Always false: a hook receives at least one sample.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Sample `i`, or `None` past the end.
    pub fn get(&self, i: usize) -> Option<Sample> {
        if i >= self.count {
            return None;
        }
        // SAFETY: i < count; bristle_sample_at steps by struct_size (the stride rule).
        Some(unsafe { Sample::read(sys::bristle_array_at(self.first, i)) })
    }

    /// The last sample: the event's own position.
    pub fn last(&self) -> Sample {
        self.get(self.count - 1).expect("at least one sample")
    }

    /// Every sample, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = Sample> + 'a {
        let samples = *self;
        (0..self.count).filter_map(move |i| samples.get(i))
    }
}
