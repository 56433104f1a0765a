/*
 * CBristlePNG: libpng shim. See include/CBristlePNG.h for the contract.
 *
 * Every libpng error goes through on_error(), which records a message and longjmp()s back
 * to the setjmp() of the public function that is running. State that must survive the
 * longjmp lives in heap structs (never in locals modified after setjmp), so no volatile
 * locals are needed.
 */
#include "CBristlePNG.h"

/* <libpng16/png.h> rather than <png.h>: it needs no -I flag (png.h includes "pngconf.h"
 * next to itself) and so works with plain SwiftPM C targets. */
#include <libpng16/png.h>
#include <zlib.h>

#include <pthread.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- messages and errors */

typedef struct {
    int status;      /* status to report if libpng raises an error */
    int message_set; /* a callback already wrote a better message */
    char *message;
    size_t capacity;
} shim_error;

static void shim_error_init(shim_error *e, int status, char *message, size_t capacity) {
    e->status = status;
    e->message_set = 0;
    e->message = message;
    e->capacity = capacity;
    if (message != NULL && capacity > 0) message[0] = '\0';
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(shim_error *e, int status, const char *format, ...) {
    e->status = status;
    e->message_set = 1;
    if (e->message != NULL && e->capacity > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(e->message, e->capacity, format, args);
        va_end(args);
    }
    return status;
}

static void PNGCBAPI on_error(png_structp png, png_const_charp text) {
    shim_error *e = (shim_error *)png_get_error_ptr(png);
    if (e != NULL && !e->message_set) {
        if (strstr(text, "memory") != NULL && (strncmp(text, "Out of", 6) == 0 ||
                                               strncmp(text, "Insufficient", 12) == 0)) {
            fail(e, CBristlePNG_NO_MEMORY, "out of memory (libpng: %s)", text);
        } else if (e->status == CBristlePNG_CORRUPT) {
            fail(e, e->status, "damaged PNG data (libpng: %s)", text);
        } else {
            fail(e, e->status, "libpng: %s", text);
        }
    }
    png_longjmp(png, 1);
}

static void PNGCBAPI on_warning(png_structp png, png_const_charp text) {
    /* Warnings (bad ancillary chunks, unknown sRGB profiles, ...) are not errors: the
     * image is still decoded. Stay quiet instead of printing to stderr. */
    (void)png;
    (void)text;
}

/* ---------------------------------------------------------------- writing */

/*
 * The image data is filtered and deflated here, not by png_write_row: the rows are cut
 * into strips that are compressed in parallel (raw deflate streams, each but the last
 * ended with Z_SYNC_FLUSH so they concatenate into one valid stream, as pigz does; Adler-32
 * values joined with adler32_combine). libpng writes the signature, IHDR, sRGB, the IDAT
 * chunks (png_write_chunk) and IEND, and computes the chunk CRCs.
 *
 * The strips are written in order as soon as each is compressed, and compression runs at
 * most a few strips ahead of the writer, so the compressed image is never held whole: memory
 * stays a few strips (at most MAX_STRIP_BYTES of rows each) whatever the image size.
 */

#define WRITE_BUFFER_SIZE (64 * 1024)
#define IDAT_PIECE (1024 * 1024)
#define MAX_THREADS 8
#define MIN_STRIP_BYTES (256 * 1024)
#define MAX_STRIP_BYTES (8 * 1024 * 1024)

typedef struct {
    shim_error error;
    int fd;
    size_t used;
    unsigned char buffer[WRITE_BUFFER_SIZE];
} write_state;

static int write_all(int fd, const unsigned char *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = write(fd, bytes, count);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EIO;
        bytes += n;
        count -= (size_t)n;
    }
    return 0;
}

static void flush_or_fail(png_structp png, write_state *s) {
    if (s->used == 0) return;
    int err = write_all(s->fd, s->buffer, s->used);
    s->used = 0;
    if (err != 0) {
        fail(&s->error, CBristlePNG_IO, "writing failed: %s", strerror(err));
        png_error(png, "write failed");
    }
}

static void PNGCBAPI on_write(png_structp png, png_bytep data, size_t length) {
    write_state *s = (write_state *)png_get_io_ptr(png);
    if (s->used + length > WRITE_BUFFER_SIZE) flush_or_fail(png, s);
    if (length >= WRITE_BUFFER_SIZE) {
        int err = write_all(s->fd, data, length);
        if (err != 0) {
            fail(&s->error, CBristlePNG_IO, "writing failed: %s", strerror(err));
            png_error(png, "write failed");
        }
        return;
    }
    memcpy(s->buffer + s->used, data, length);
    s->used += length;
}

static void PNGCBAPI on_flush(png_structp png) {
    flush_or_fail(png, (write_state *)png_get_io_ptr(png));
}

/* --- unpremultiply table: table[a << 8 | p] = min(255, round(p * 255 / a)), 0 for a = 0 */

static unsigned char unpremultiply_table[256 * 256];
static pthread_once_t unpremultiply_once = PTHREAD_ONCE_INIT;

static void build_unpremultiply_table(void) {
    for (unsigned a = 1; a < 256; a++) {
        for (unsigned p = 0; p < 256; p++) {
            unsigned v = (p * 255 + a / 2) / a;
            unpremultiply_table[a << 8 | p] = (unsigned char)(v > 255 ? 255 : v);
        }
    }
}

static void unpremultiply_row(const unsigned char *src, unsigned char *dst, size_t width) {
    for (size_t i = 0; i < width * 4; i += 4) {
        unsigned a = src[i + 3];
        if (a == 255) {
            memcpy(dst + i, src + i, 4);
        } else {
            const unsigned char *t = unpremultiply_table + (a << 8);
            dst[i] = t[src[i]];
            dst[i + 1] = t[src[i + 1]];
            dst[i + 2] = t[src[i + 2]];
            dst[i + 3] = (unsigned char)a;
        }
    }
}

/* --- PNG row filters, 4 bytes per pixel. `prior` is NULL for the top row. */

static void filter_row(int type, const unsigned char *row, const unsigned char *prior,
                       unsigned char *out, size_t n) {
    size_t i;
    switch (type) {
    case 1: /* Sub */
        for (i = 0; i < 4 && i < n; i++) out[i] = row[i];
        for (; i < n; i++) out[i] = (unsigned char)(row[i] - row[i - 4]);
        break;
    case 2: /* Up */
        if (prior == NULL) { memcpy(out, row, n); break; }
        for (i = 0; i < n; i++) out[i] = (unsigned char)(row[i] - prior[i]);
        break;
    case 3: /* Average */
        for (i = 0; i < n; i++) {
            unsigned left = i >= 4 ? row[i - 4] : 0, up = prior ? prior[i] : 0;
            out[i] = (unsigned char)(row[i] - ((left + up) >> 1));
        }
        break;
    case 4: /* Paeth */
        for (i = 0; i < n; i++) {
            int a = i >= 4 ? row[i - 4] : 0, b = prior ? prior[i] : 0;
            int c = (i >= 4 && prior) ? prior[i - 4] : 0;
            int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
            int pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
            out[i] = (unsigned char)(row[i] - pred);
        }
        break;
    default: /* None */
        memcpy(out, row, n);
        break;
    }
}

/* Sum of |signed byte|: libpng's heuristic for choosing a filter per row. */
static unsigned long row_cost(const unsigned char *b, size_t n) {
    unsigned long sum = 0;
    for (size_t i = 0; i < n; i++) sum += b[i] < 128 ? b[i] : 256u - b[i];
    return sum;
}

typedef struct {
    /* input, shared */
    const unsigned char *pixels; /* rows at pixels + y * stride, when source is NULL */
    size_t stride;
    CBristlePNG_row_source source; /* else: fills a row on request */
    void *context;
    size_t width;
    int premultiplied;
    int level;
    int strategy;
    int filters; /* CBristlePNG_FILTER_* mask */
    /* this strip */
    uint32_t y0, y1;
    int last;
    /* output */
    unsigned char *out;
    size_t out_length;
    unsigned long adler;
    size_t raw_length;
    int status;   /* CBristlePNG_OK or CBristlePNG_NO_MEMORY */
    int finished; /* guarded by the queue's lock */
} strip_job;

typedef struct {
    strip_job *jobs;
    int count;
    int next;    /* the next strip to compress */
    int written; /* strips written to the file */
    int window;  /* compression runs at most this many strips ahead of the writer */
    int stop;    /* the writer gave up: compress nothing more */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t workers[MAX_THREADS];
    int started;
} job_queue;

/* Runs deflate until it has taken all input (Z_NO_FLUSH), flushed (Z_SYNC_FLUSH) or
 * finished (Z_FINISH), growing j->out as needed. Returns 0, or -1 when out of memory. */
static int deflate_into(strip_job *j, z_stream *z, int flush) {
    for (;;) {
        if (z->avail_out == 0) {
            size_t used = (size_t)(z->next_out - j->out);
            size_t capacity = used * 2 + 65536;
            unsigned char *grown = (unsigned char *)realloc(j->out, capacity);
            if (grown == NULL) return -1;
            j->out = grown;
            z->next_out = grown + used;
            z->avail_out = capacity - used > UINT32_MAX ? UINT32_MAX : (uInt)(capacity - used);
        }
        int rc = deflate(z, flush);
        if (rc != Z_OK && rc != Z_BUF_ERROR && rc != Z_STREAM_END) return -1;
        if (flush == Z_FINISH) {
            if (rc == Z_STREAM_END) return 0;
        } else if (z->avail_in == 0 && z->avail_out != 0) {
            return 0;
        }
    }
}

/* Row y as straight RGBA, in slot (y - y0) & 1 of `fetched` / `straight` when it has to be
 * produced (by the source, or by unpremultiplying); the other slot keeps the prior row. */
static const unsigned char *strip_row(strip_job *j, uint32_t y, unsigned char *fetched[2],
                                      unsigned char *straight[2]) {
    int slot = (int)((y - j->y0) & 1);
    const unsigned char *row;
    if (j->source != NULL) {
        j->source(j->context, y, fetched[slot]);
        row = fetched[slot];
    } else {
        row = j->pixels + (size_t)y * j->stride;
    }
    if (j->premultiplied) {
        unpremultiply_row(row, straight[slot], j->width);
        row = straight[slot];
    }
    return row;
}

static void compress_strip(strip_job *j) {
    size_t n = j->width * 4;
    unsigned char *scratch = (unsigned char *)malloc(4 * n + 5 * (n + 1));
    z_stream z;
    memset(&z, 0, sizeof z);
    j->status = CBristlePNG_NO_MEMORY;
    if (scratch == NULL) return;
    if (deflateInit2(&z, j->level, Z_DEFLATED, -15, 8, j->strategy) != Z_OK) {
        free(scratch);
        return;
    }
    unsigned char *fetched[2] = {scratch, scratch + n};       /* rows from the source */
    unsigned char *straight[2] = {scratch + 2 * n, scratch + 3 * n}; /* unpremultiplied rows */
    unsigned char *candidates = scratch + 4 * n;              /* 5 x (1 + n) */
    size_t capacity = (size_t)(j->y1 - j->y0) * (n + 1) / 4 + 65536;
    j->out = (unsigned char *)malloc(capacity);
    if (j->out == NULL) goto done;
    z.next_out = j->out;
    z.avail_out = (uInt)capacity;
    j->adler = adler32(0L, Z_NULL, 0);
    j->raw_length = 0;

    /* The row above the strip (slot 1, as y0 - 1 is odd relative to y0) is the first prior. */
    const unsigned char *prior = j->y0 > 0 ? strip_row(j, j->y0 - 1, fetched, straight) : NULL;
    int single = -1;
    switch (j->filters) {
    case CBristlePNG_FILTER_NONE: single = 0; break;
    case CBristlePNG_FILTER_SUB: single = 1; break;
    case CBristlePNG_FILTER_UP: single = 2; break;
    case CBristlePNG_FILTER_AVG: single = 3; break;
    case CBristlePNG_FILTER_PAETH: single = 4; break;
    default: break;
    }
    for (uint32_t y = j->y0; y < j->y1; y++) {
        const unsigned char *row = strip_row(j, y, fetched, straight);
        unsigned char *best;
        if (single >= 0) {
            best = candidates;
            best[0] = (unsigned char)single;
            filter_row(single, row, prior, best + 1, n);
        } else {
            unsigned long best_cost = ~0UL;
            best = candidates;
            static const int masks[5] = {CBristlePNG_FILTER_NONE, CBristlePNG_FILTER_SUB,
                                         CBristlePNG_FILTER_UP, CBristlePNG_FILTER_AVG,
                                         CBristlePNG_FILTER_PAETH};
            for (int t = 0; t < 5; t++) {
                if ((j->filters & masks[t]) == 0) continue;
                unsigned char *c = candidates + (size_t)t * (n + 1);
                c[0] = (unsigned char)t;
                filter_row(t, row, prior, c + 1, n);
                unsigned long cost = row_cost(c + 1, n);
                if (cost < best_cost) {
                    best_cost = cost;
                    best = c;
                }
            }
        }
        j->adler = adler32(j->adler, best, (uInt)(n + 1));
        j->raw_length += n + 1;
        z.next_in = best;
        z.avail_in = (uInt)(n + 1);
        if (deflate_into(j, &z, Z_NO_FLUSH) != 0) goto done;
        prior = row;
    }
    if (deflate_into(j, &z, j->last ? Z_FINISH : Z_SYNC_FLUSH) != 0) goto done;
    j->out_length = (size_t)(z.next_out - j->out);
    j->status = CBristlePNG_OK;
done:
    deflateEnd(&z);
    free(scratch);
}

/* Takes the next strip if it is within the window; call with the lock held. Returns its
 * index, or -1. */
static int take_job(job_queue *q) {
    if (q->stop || q->next >= q->count || q->next >= q->written + q->window) return -1;
    return q->next++;
}

/* Compresses strip `index` without the lock, then marks it finished; call with the lock held. */
static void run_job(job_queue *q, int index) {
    pthread_mutex_unlock(&q->lock);
    compress_strip(&q->jobs[index]);
    pthread_mutex_lock(&q->lock);
    q->jobs[index].finished = 1;
    pthread_cond_broadcast(&q->changed);
}

static void *strip_worker(void *arg) {
    job_queue *q = (job_queue *)arg;
    pthread_mutex_lock(&q->lock);
    while (!q->stop && q->next < q->count) {
        int index = take_job(q);
        if (index < 0) {
            pthread_cond_wait(&q->changed, &q->lock);
            continue;
        }
        run_job(q, index);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

/* Waits until strip `index` is compressed, compressing strips itself meanwhile. */
static void wait_for_strip(job_queue *q, int index) {
    pthread_mutex_lock(&q->lock);
    while (!q->jobs[index].finished) {
        int mine = take_job(q);
        if (mine >= 0) run_job(q, mine);
        else pthread_cond_wait(&q->changed, &q->lock);
    }
    pthread_mutex_unlock(&q->lock);
}

/* Stops the workers, waits for them, and frees every strip's output and the queue. */
static void finish_queue(job_queue *q) {
    pthread_mutex_lock(&q->lock);
    q->stop = 1;
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
    for (int t = 0; t < q->started; t++) pthread_join(q->workers[t], NULL);
    pthread_cond_destroy(&q->changed);
    pthread_mutex_destroy(&q->lock);
    for (int i = 0; i < q->count; i++) free(q->jobs[i].out);
    free(q->jobs);
    free(q);
}

/* Writes `count` byte ranges as IDAT chunks of at most IDAT_PIECE bytes (ranges may span
 * chunks; a chunk may hold several ranges). */
static void write_idat(png_structp png, const unsigned char *const *data, const size_t *lengths,
                       int count) {
    size_t total = 0;
    for (int i = 0; i < count; i++) total += lengths[i];
    int part = 0;
    size_t offset = 0;
    while (total > 0) {
        size_t chunk = total > IDAT_PIECE ? IDAT_PIECE : total;
        total -= chunk;
        png_write_chunk_start(png, (png_const_bytep) "IDAT", (png_uint_32)chunk);
        while (chunk > 0) {
            size_t take = lengths[part] - offset;
            if (take > chunk) take = chunk;
            if (take > 0) png_write_chunk_data(png, data[part] + offset, take);
            offset += take;
            chunk -= take;
            if (offset == lengths[part]) { part++; offset = 0; }
        }
        png_write_chunk_end(png);
    }
}

static int online_cpus(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > MAX_THREADS ? MAX_THREADS : (int)n);
}

static int write_image(int fd, const uint8_t *pixels, size_t stride_bytes,
                       CBristlePNG_row_source source, void *context, uint32_t width,
                       uint32_t height, int flags, int compression_level, int strategy,
                       int filters, int threads, uint32_t max_side, uint64_t max_pixels,
                       char *message, size_t message_capacity) {
    shim_error local;
    shim_error_init(&local, CBristlePNG_INVALID_ARGUMENT, message, message_capacity);

    if (fd < 0) return fail(&local, CBristlePNG_INVALID_ARGUMENT, "invalid file descriptor");
    if (pixels == NULL && source == NULL)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "no pixel buffer");
    if (width == 0 || height == 0)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT,
                    "the image is %ux%u pixels; a PNG needs at least 1x1", width, height);
    if (width > max_side || height > max_side || (uint64_t)width * height > max_pixels ||
        width > PNG_UINT_31_MAX / 4 || height > PNG_UINT_31_MAX)
        return fail(&local, CBristlePNG_TOO_LARGE,
                    "the image is %ux%u pixels; the limit is %u pixels on each side and "
                    "%llu pixels in total",
                    width, height, max_side, (unsigned long long)max_pixels);
    if (source == NULL && stride_bytes / 4 < width)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT,
                    "row stride %zu bytes is less than width * 4 = %llu bytes", stride_bytes,
                    (unsigned long long)width * 4);
    if (strategy < CBristlePNG_STRATEGY_DEFAULT || strategy > CBristlePNG_STRATEGY_RLE)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "unknown zlib strategy %d", strategy);
    if ((filters & ~CBristlePNG_FILTER_ALL) != 0 || (filters & CBristlePNG_FILTER_ALL) == 0)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "invalid filter mask 0x%x", filters);
    if ((flags & ~CBristlePNG_PREMULTIPLIED) != 0)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "unknown flags 0x%x", flags);
    int level = compression_level < 0 ? 0 : compression_level > 9 ? 9 : compression_level;
    if (flags & CBristlePNG_PREMULTIPLIED) pthread_once(&unpremultiply_once, build_unpremultiply_table);

    /* ---- cut the rows into strips */
    size_t row_bytes = (size_t)width * 4 + 1;
    if (threads <= 0) threads = online_cpus();
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    uint64_t total = (uint64_t)row_bytes * height;
    uint64_t strips = 1;
    if (threads > 1 && total >= 2 * MIN_STRIP_BYTES) {
        /* A few strips per thread balances strokes that sit in one part of the image. */
        uint64_t by_size = total / MIN_STRIP_BYTES;
        strips = (uint64_t)threads * 4;
        if (strips > by_size) strips = by_size;
    }
    /* Large images: strips of at most MAX_STRIP_BYTES, so the window holds little. */
    if (strips < (total + MAX_STRIP_BYTES - 1) / MAX_STRIP_BYTES)
        strips = (total + MAX_STRIP_BYTES - 1) / MAX_STRIP_BYTES;
    if (strips > height) strips = height;
    if ((uint64_t)threads > strips) threads = (int)strips;

    job_queue *q = (job_queue *)calloc(1, sizeof(job_queue));
    strip_job *jobs = (strip_job *)calloc((size_t)strips, sizeof(strip_job));
    if (q == NULL || jobs == NULL) {
        free(q);
        free(jobs);
        return fail(&local, CBristlePNG_NO_MEMORY, "out of memory");
    }
    for (uint64_t i = 0; i < strips; i++) {
        strip_job *j = &jobs[i];
        j->pixels = pixels;
        j->stride = stride_bytes;
        j->source = source;
        j->context = context;
        j->width = width;
        j->premultiplied = (flags & CBristlePNG_PREMULTIPLIED) != 0;
        j->level = level;
        j->strategy = strategy;
        j->filters = filters;
        j->y0 = (uint32_t)((uint64_t)height * i / strips);
        j->y1 = (uint32_t)((uint64_t)height * (i + 1) / strips);
        j->last = i == strips - 1;
        j->status = CBristlePNG_NO_MEMORY;
    }
    q->jobs = jobs;
    q->count = (int)strips;
    q->window = 2 * threads;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->changed, NULL);

    /* ---- write the file through libpng, strip by strip */
    write_state *s = (write_state *)malloc(sizeof(write_state));
    png_structp png = NULL;
    png_infop info = NULL;
    if (s != NULL) png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &s->error, on_error, on_warning);
    if (png != NULL) info = png_create_info_struct(png);
    if (info == NULL) {
        if (png != NULL) png_destroy_write_struct(&png, NULL);
        free(s);
        finish_queue(q);
        return fail(&local, CBristlePNG_NO_MEMORY, "out of memory (libpng)");
    }
    shim_error_init(&s->error, CBristlePNG_IO, message, message_capacity);
    s->fd = fd;
    s->used = 0;
    /* Everything that the error path needs is in heap memory (s, q) or unmodified after
     * setjmp (png, info), so nothing here needs to be volatile. */
    if (setjmp(png_jmpbuf(png))) {
        int failed = s->error.status;
        png_destroy_write_struct(&png, &info);
        free(s);
        finish_queue(q);
        return failed;
    }

    png_set_write_fn(png, s, on_write, on_flush);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);

    for (int t = 1; t < threads; t++) {
        if (pthread_create(&q->workers[q->started], NULL, strip_worker, q) == 0) q->started++;
    }
    /* zlib header: deflate, 32 KiB window, FLEVEL from the level, FCHECK. */
    unsigned flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
    unsigned header = 0x78u << 8 | flevel << 6;
    header += 31 - header % 31;
    unsigned char head[2] = {(unsigned char)(header >> 8), (unsigned char)header};
    unsigned char tail[4];
    unsigned long adler = 1;
    /* The zlib stream is head + every strip + tail, written as each strip is ready. */
    for (int i = 0; i < q->count; i++) {
        wait_for_strip(q, i);
        strip_job *j = &jobs[i];
        if (j->status != CBristlePNG_OK) {
            fail(&s->error, j->status, "out of memory while compressing");
            png_error(png, "out of memory while compressing");
        }
        adler = i == 0 ? j->adler : adler32_combine(adler, j->adler, (z_off_t)j->raw_length);
        tail[0] = (unsigned char)(adler >> 24);
        tail[1] = (unsigned char)(adler >> 16);
        tail[2] = (unsigned char)(adler >> 8);
        tail[3] = (unsigned char)adler;
        const unsigned char *data[3] = {head, j->out, tail};
        size_t lengths[3] = {i == 0 ? 2 : 0, j->out_length, j->last ? 4 : 0};
        write_idat(png, data, lengths, 3);
        pthread_mutex_lock(&q->lock);
        free(j->out);
        j->out = NULL;
        q->written++;
        pthread_cond_broadcast(&q->changed);
        pthread_mutex_unlock(&q->lock);
    }
    png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
    flush_or_fail(png, s);

    png_destroy_write_struct(&png, &info);
    free(s);
    finish_queue(q);
    return CBristlePNG_OK;
}

int CBristlePNG_write_rgba8(int fd, const uint8_t *pixels, uint32_t width, uint32_t height,
                            size_t stride_bytes, int flags, int compression_level,
                            int strategy, int filters, int threads, uint32_t max_side,
                            uint64_t max_pixels, char *message, size_t message_capacity) {
    if (pixels == NULL) {
        shim_error local;
        shim_error_init(&local, CBristlePNG_INVALID_ARGUMENT, message, message_capacity);
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "no pixel buffer");
    }
    return write_image(fd, pixels, stride_bytes, NULL, NULL, width, height, flags,
                       compression_level, strategy, filters, threads, max_side, max_pixels,
                       message, message_capacity);
}

int CBristlePNG_write_rgba8_rows(int fd, CBristlePNG_row_source source, void *context,
                                 uint32_t width, uint32_t height, int flags,
                                 int compression_level, int strategy, int filters, int threads,
                                 uint32_t max_side, uint64_t max_pixels, char *message,
                                 size_t message_capacity) {
    if (source == NULL) {
        shim_error local;
        shim_error_init(&local, CBristlePNG_INVALID_ARGUMENT, message, message_capacity);
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "no row source");
    }
    return write_image(fd, NULL, 0, source, context, width, height, flags, compression_level,
                       strategy, filters, threads, max_side, max_pixels, message,
                       message_capacity);
}

/* ---------------------------------------------------------------- reading */

#define READ_BUFFER_SIZE (64 * 1024)

struct CBristlePNG_Reader {
    shim_error error;
    int fd;
    png_structp png;
    png_infop info;
    png_bytepp rows;
    uint32_t width;
    uint32_t height;
    int used; /* read_rgba8 was called */
    size_t position;
    size_t length;
    unsigned char buffer[READ_BUFFER_SIZE];
};

/* Reads exactly `count` bytes. Returns count on success, the number of bytes read before
 * end of file, or -1 with errno set on a read error. */
static ssize_t read_exact(CBristlePNG_Reader *r, unsigned char *out, size_t count) {
    size_t done = 0;
    while (done < count) {
        if (r->position == r->length) {
            ssize_t n = read(r->fd, r->buffer, READ_BUFFER_SIZE);
            if (n < 0) {
                if (errno == EINTR) continue;
                return -1;
            }
            if (n == 0) break;
            r->position = 0;
            r->length = (size_t)n;
        }
        size_t take = r->length - r->position;
        if (take > count - done) take = count - done;
        memcpy(out + done, r->buffer + r->position, take);
        r->position += take;
        done += take;
    }
    return (ssize_t)done;
}

static void PNGCBAPI on_read(png_structp png, png_bytep data, size_t length) {
    CBristlePNG_Reader *r = (CBristlePNG_Reader *)png_get_io_ptr(png);
    ssize_t n = read_exact(r, data, length);
    if (n < 0) {
        fail(&r->error, CBristlePNG_IO, "reading failed: %s", strerror(errno));
        png_error(png, "read failed");
    }
    if ((size_t)n < length) {
        fail(&r->error, CBristlePNG_CORRUPT,
             "the file ends too early (it is truncated or was not completely written)");
        png_error(png, "unexpected end of file");
    }
}

static const char *guess_format(const unsigned char *b, size_t n) {
    if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return "a JPEG image";
    if (n >= 6 && (memcmp(b, "GIF87a", 6) == 0 || memcmp(b, "GIF89a", 6) == 0))
        return "a GIF image";
    if (n >= 2 && b[0] == 'B' && b[1] == 'M') return "a BMP image";
    if (n >= 4 && (memcmp(b, "II*\0", 4) == 0 || memcmp(b, "MM\0*", 4) == 0))
        return "a TIFF image";
    if (n >= 4 && memcmp(b, "RIFF", 4) == 0) return "a RIFF file (WebP?)";
    if (n >= 4 && memcmp(b, "%PDF", 4) == 0) return "a PDF document";
    if (n >= 4 && memcmp(b, "\x8aMNG", 4) == 0) return "an MNG animation";
    if (n >= 1 && (b[0] == '<' || b[0] == '{')) return "a text file (XML/SVG/JSON?)";
    return NULL;
}

void CBristlePNG_reader_close(CBristlePNG_Reader *r) {
    if (r == NULL) return;
    if (r->png != NULL) png_destroy_read_struct(&r->png, r->info != NULL ? &r->info : NULL, NULL);
    free(r->rows);
    free(r);
}

int CBristlePNG_reader_open(int fd, uint32_t max_side, uint64_t max_pixels,
                            CBristlePNG_Reader **out_reader, uint32_t *out_width,
                            uint32_t *out_height, char *message, size_t message_capacity) {
    shim_error local;
    shim_error_init(&local, CBristlePNG_INVALID_ARGUMENT, message, message_capacity);
    if (out_reader == NULL || out_width == NULL || out_height == NULL)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "missing output argument");
    *out_reader = NULL;
    *out_width = 0;
    *out_height = 0;
    if (fd < 0) return fail(&local, CBristlePNG_INVALID_ARGUMENT, "invalid file descriptor");

    CBristlePNG_Reader *r = (CBristlePNG_Reader *)calloc(1, sizeof(CBristlePNG_Reader));
    if (r == NULL) return fail(&local, CBristlePNG_NO_MEMORY, "out of memory");
    shim_error_init(&r->error, CBristlePNG_CORRUPT, message, message_capacity);
    r->fd = fd;

    /* The signature is checked here, before libpng, to give a precise message. */
    unsigned char signature[8];
    ssize_t got = read_exact(r, signature, sizeof signature);
    if (got < 0) {
        int status = fail(&local, CBristlePNG_IO, "reading failed: %s", strerror(errno));
        CBristlePNG_reader_close(r);
        return status;
    }
    if (got < 8 || png_sig_cmp(signature, 0, 8) != 0) {
        int status;
        const char *kind = guess_format(signature, (size_t)got);
        if (got == 0)
            status = fail(&local, CBristlePNG_NOT_PNG, "not a PNG file: the file is empty");
        else if (got >= 4 && png_sig_cmp(signature, 0, 4) == 0)
            status = fail(&local, CBristlePNG_NOT_PNG,
                          "not a PNG file: the PNG signature is damaged or cut short "
                          "(was it transferred in text mode?)");
        else if (kind != NULL)
            status = fail(&local, CBristlePNG_NOT_PNG,
                          "not a PNG file: it looks like %s", kind);
        else
            status = fail(&local, CBristlePNG_NOT_PNG,
                          "not a PNG file: it does not start with the PNG signature");
        CBristlePNG_reader_close(r);
        return status;
    }

    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r->error, on_error, on_warning);
    if (r->png == NULL) {
        CBristlePNG_reader_close(r);
        return fail(&local, CBristlePNG_NO_MEMORY, "out of memory (png_create_read_struct)");
    }
    r->info = png_create_info_struct(r->png);
    if (r->info == NULL) {
        CBristlePNG_reader_close(r);
        return fail(&local, CBristlePNG_NO_MEMORY, "out of memory (png_create_info_struct)");
    }

    if (setjmp(png_jmpbuf(r->png))) {
        int status = r->error.status;
        CBristlePNG_reader_close(r);
        return status;
    }

    png_set_read_fn(r->png, r, on_read);
    png_set_sig_bytes(r->png, 8);
    /* libpng's own limit (1,000,000) would fail inside png_read_info with a generic
     * error; lift it and apply ours right after IHDR is known, before any allocation. */
    png_set_user_limits(r->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_read_info(r->png, r->info);

    uint32_t width = png_get_image_width(r->png, r->info);
    uint32_t height = png_get_image_height(r->png, r->info);
    if (width > max_side || height > max_side || (uint64_t)width * height > max_pixels) {
        int status = fail(&r->error, CBristlePNG_TOO_LARGE,
                          "the image is %ux%u pixels; the limit is %u pixels on each side "
                          "and %llu pixels in total",
                          width, height, max_side, (unsigned long long)max_pixels);
        CBristlePNG_reader_close(r);
        return status;
    }

    int color_type = png_get_color_type(r->png, r->info);
    int bit_depth = png_get_bit_depth(r->png, r->info);
    int has_trns = png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0;

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r->png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(r->png);
    if (has_trns) png_set_tRNS_to_alpha(r->png);
    if (bit_depth == 16) png_set_scale_16(r->png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(r->png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns)
        png_set_add_alpha(r->png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);

    if (png_get_bit_depth(r->png, r->info) != 8 || png_get_channels(r->png, r->info) != 4 ||
        png_get_rowbytes(r->png, r->info) != (size_t)width * 4) {
        int status = fail(&r->error, CBristlePNG_CORRUPT,
                          "unsupported PNG layout (colour type %d, bit depth %d)", color_type,
                          bit_depth);
        CBristlePNG_reader_close(r);
        return status;
    }

    r->width = width;
    r->height = height;
    *out_reader = r;
    *out_width = width;
    *out_height = height;
    return CBristlePNG_OK;
}

int CBristlePNG_reader_read_rgba8(CBristlePNG_Reader *r, uint8_t *destination,
                                  size_t stride_bytes, char *message,
                                  size_t message_capacity) {
    shim_error local;
    shim_error_init(&local, CBristlePNG_INVALID_ARGUMENT, message, message_capacity);
    if (r == NULL || r->png == NULL)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "no open reader");
    if (destination == NULL)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "no destination buffer");
    if (stride_bytes / 4 < r->width)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT,
                    "row stride %zu bytes is less than width * 4", stride_bytes);
    if (r->used)
        return fail(&local, CBristlePNG_INVALID_ARGUMENT, "the image was already read");
    r->used = 1;

    r->rows = (png_bytepp)malloc((size_t)r->height * sizeof(png_bytep));
    if (r->rows == NULL) return fail(&local, CBristlePNG_NO_MEMORY, "out of memory");
    for (uint32_t y = 0; y < r->height; y++) r->rows[y] = destination + (size_t)y * stride_bytes;

    shim_error_init(&r->error, CBristlePNG_CORRUPT, message, message_capacity);
    if (setjmp(png_jmpbuf(r->png))) {
        return r->error.status;
    }
    png_read_image(r->png, r->rows);
    png_read_end(r->png, NULL);
    return CBristlePNG_OK;
}

const char *CBristlePNG_libpng_version(void) {
    return png_get_libpng_ver(NULL);
}
