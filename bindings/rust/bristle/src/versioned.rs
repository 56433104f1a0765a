use crate::sys::Versioned;

/// Copies a host struct the way the header asks a reader to: at most the writer's
/// `struct_size` bytes over `defaults`, so a field an older (smaller) writer did not write
/// keeps its documented default and bytes a newer (larger) writer appended are not read.
///
/// # Safety
/// `ptr` points to a readable struct whose first field, `struct_size`, tells how many bytes
/// the writer wrote.
pub(crate) unsafe fn read_versioned<T: Versioned + Copy>(ptr: *const T, defaults: T) -> T {
    let mut copy = defaults;
    let written = (ptr as *const u32).read_unaligned() as usize;
    let n = written.min(std::mem::size_of::<T>());
    std::ptr::copy_nonoverlapping(ptr as *const u8, &mut copy as *mut T as *mut u8, n);
    copy
}
