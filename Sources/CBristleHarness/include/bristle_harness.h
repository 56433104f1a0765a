/*
 * C helpers of the conformance harness (Swift cannot write signal handlers or reach malloc.h).
 *
 * Fault attribution. A brush that touches host memory it must not
 * (a guard page next to a buffer, or a buffer the harness took back after the hook that
 * received it returned) dies of SIGSEGV; this handler first writes, into a buffer the parent
 * process can read, which buffer the faulting address belongs to and where in it, then lets
 * the signal kill the process as usual.
 *
 * Regions are registered by the harness (Swift) and looked up by the handler, which only reads
 * plain memory and writes bytes: it is async-signal-safe.
 */
#ifndef BRISTLE_HARNESS_H
#define BRISTLE_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The most regions registered at once. */
#define BRISTLE_GUARD_MAX_REGIONS 1024
/** The longest label kept (bytes, including the NUL). */
#define BRISTLE_GUARD_LABEL_BYTES 400

/** Installs the SIGSEGV and SIGBUS handler; it writes its note (NUL-terminated, at most
 *  `size` bytes) into `note`. Call once, in the child process that runs a test. */
void bristle_guard_install(char *note, size_t size);

/**
 * Registers the address range [start, end): a fault anywhere in it is attributed to it.
 * `data`..`data_end` is the part the brush was given; for pixel buffers `rows` > 0 and
 * `stride`, `row_bytes` describe them (row y at data + y * stride), so a fault in the padding
 * or past the end names the row. Returns the region's id, or -1 when the table is full.
 */
int bristle_guard_register(const void *start, const void *end, const void *data, const void *data_end,
                           size_t stride, size_t row_bytes, size_t rows, const char *label);

/** Sets a region's label and whether it is retired (handed to a call that has returned). */
void bristle_guard_relabel(int id, const char *label, int retired);

/** Forgets a region. */
void bristle_guard_unregister(int id);

/** Writes `note` into the note buffer (for the harness's own messages, e.g. when it cannot
 *  write its result). */
void bristle_guard_note(const char *note);

/** Bytes malloc has handed out and not had back, over all arenas (mallinfo2's uordblks +
 *  hblkhd). */
size_t bristle_heap_in_use(void);

#ifdef __cplusplus
}
#endif

#endif
