#define _GNU_SOURCE
#include "bristle_harness.h"

#include <signal.h>
#include <string.h>
#include <ucontext.h>

typedef struct region {
    int state; /* 0 free, 1 reserved (being filled), 2 live */
    int retired;
    uintptr_t start, end, data, data_end;
    size_t stride, row_bytes, rows;
    char label[BRISTLE_GUARD_LABEL_BYTES];
} region;

static region regions[BRISTLE_GUARD_MAX_REGIONS];
static char *note_buffer;
static size_t note_size;

static void copy_label(char *dst, const char *src) {
    size_t n = src ? strlen(src) : 0;
    if (n > BRISTLE_GUARD_LABEL_BYTES - 1) n = BRISTLE_GUARD_LABEL_BYTES - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = 0;
}

int bristle_guard_register(const void *start, const void *end, const void *data, const void *data_end,
                           size_t stride, size_t row_bytes, size_t rows, const char *label) {
    int i;
    for (i = 0; i < BRISTLE_GUARD_MAX_REGIONS; i++) {
        int expected = 0;
        if (!__atomic_compare_exchange_n(&regions[i].state, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            continue;
        region *r = &regions[i];
        r->retired = 0;
        r->start = (uintptr_t)start, r->end = (uintptr_t)end;
        r->data = (uintptr_t)data, r->data_end = (uintptr_t)data_end;
        r->stride = stride, r->row_bytes = row_bytes, r->rows = rows;
        copy_label(r->label, label);
        __atomic_store_n(&r->state, 2, __ATOMIC_RELEASE);
        return i;
    }
    return -1;
}

void bristle_guard_relabel(int id, const char *label, int retired) {
    if (id < 0 || id >= BRISTLE_GUARD_MAX_REGIONS) return;
    __atomic_store_n(&regions[id].state, 1, __ATOMIC_RELEASE);
    copy_label(regions[id].label, label);
    regions[id].retired = retired;
    __atomic_store_n(&regions[id].state, 2, __ATOMIC_RELEASE);
}

void bristle_guard_unregister(int id) {
    if (id < 0 || id >= BRISTLE_GUARD_MAX_REGIONS) return;
    __atomic_store_n(&regions[id].state, 0, __ATOMIC_RELEASE);
}

/* ---- the note, built without allocation ---- */

typedef struct text {
    char *at;
    size_t left;
} text;

static void put(text *t, const char *s) {
    while (*s && t->left > 1) *t->at++ = *s++, t->left--;
    *t->at = 0;
}

static void put_number(text *t, uintptr_t v) {
    char digits[24];
    int n = 0;
    do digits[n++] = (char)('0' + v % 10), v /= 10; while (v && n < 23);
    while (n && t->left > 1) *t->at++ = digits[--n], t->left--;
    *t->at = 0;
}

void bristle_guard_note(const char *note) {
    text t;
    if (!note_buffer || !note_size) return;
    t.at = note_buffer, t.left = note_size;
    put(&t, note);
}

/* Where `a` lies in `r`: "pixel (3, 5)", "byte 2 of the padding after row 7", "byte 0 past
 * the last pixel", "byte 12 before the first byte", ... */
static void put_position(text *t, const region *r, uintptr_t a) {
    if (a < r->data) {
        put(t, "byte "), put_number(t, r->data - a - 1), put(t, " before the first byte");
        return;
    }
    if (r->rows) {
        uintptr_t off = a - r->data, row = off / r->stride, col = off % r->stride;
        uintptr_t last = r->data + (r->rows - 1) * r->stride + r->row_bytes;
        if (a >= last) {
            put(t, "byte "), put_number(t, a - last), put(t, " past the last pixel");
        } else if (col >= r->row_bytes) {
            put(t, "byte "), put_number(t, col - r->row_bytes), put(t, " of the padding after row "), put_number(t, row);
        } else {
            put(t, "pixel ("), put_number(t, col / 4), put(t, ", "), put_number(t, row), put(t, ")");
        }
        return;
    }
    if (a >= r->data_end) {
        put(t, "byte "), put_number(t, a - r->data_end), put(t, " past the end");
    } else {
        put(t, "byte "), put_number(t, a - r->data);
    }
}

static void on_fault(int signal, siginfo_t *info, void *context) {
    uintptr_t a = (uintptr_t)info->si_addr;
    int i;
    (void)signal;
    for (i = 0; i < BRISTLE_GUARD_MAX_REGIONS && note_buffer; i++) {
        const region *r = &regions[i];
        text t;
        if (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) != 2 || a < r->start || a >= r->end) continue;
        t.at = note_buffer, t.left = note_size;
        if (r->retired) put(&t, "used memory after the hook returned: ");
#if defined(__x86_64__)
        put(&t, (((ucontext_t *)context)->uc_mcontext.gregs[REG_ERR] & 2) ? "wrote " : "read ");
#else
        (void)context;
        put(&t, "touched ");
#endif
        put_position(&t, r, a);
        put(&t, " of ");
        put(&t, r->label);
        break;
    }
    /* SA_RESETHAND restored the default action: returning re-runs the faulting access, which
     * now kills the process with the same signal, as if no handler had been installed. */
}

void bristle_guard_install(char *note, size_t size) {
    struct sigaction action;
    note_buffer = note;
    note_size = size;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, NULL);
    sigaction(SIGBUS, &action, NULL);
}
