/*
 * gen_trace.c - writes deterministic synthetic PyTorch-profiler (Kineto)
 * Chrome traces of any size for bench/run.sh, tests and examples/.
 * The output is streamed, so memory use does not grow with the trace size.
 * It links libc, zlib and libm only and shares no code with profreport: a
 * bug in the tool cannot hide in the data it is measured with.
 *
 * The trace models a training loop: DataLoader, HtoD copy, a ResNet-style
 * CNN with a small attention head, the loss, backward on the autograd
 * thread (with DDP all-reduce buckets when --ranks > 1), an SGD step and a
 * loss.item() sync.  Times come from FLOP/byte counts of an A100 (V100 for
 * --format 2021) plus seeded jitter; no wall clock, pid or address leaks in.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#elif !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1 /* getopt_long, mkdir, clock_gettime */
#endif

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <zlib.h>

#define SINK_CAP (1u << 20)    /* output buffer */
#define SINK_SLACK (64u << 10) /* largest event we ever write, with margin */
#define FRAME_ARGS 4096        /* pre-formatted args of one open op */
#define MAX_DEPTH 24           /* op and python frame nesting */
#define MAX_LAYERS 2048
#define MAX_RANKS 1024
#define NCCL_BUCKET_ELEMS (25 * 1000 * 1000 / 4) /* DDP's 25 MB buckets */

/* ------------------------------------------------------------------ */
/* Bounded text buffer: appends never overflow, they truncate and flag. */

struct txt {
    char *buf;
    size_t len;
    size_t cap;
    int truncated;
};

static void
txt_mem(struct txt *t, const void *p, size_t n)
{
    if (n > t->cap - t->len) {
        n = t->cap - t->len;
        t->truncated = 1;
    }
    memcpy(t->buf + t->len, p, n);
    t->len += n;
}

/* Literal strings only: the "" forces a compile error for a pointer. */
#define TXT_LIT(t, s) txt_mem((t), "" s, sizeof(s) - 1)

static void
txt_str(struct txt *t, const char *s)
{
    txt_mem(t, s, strlen(s));
}

static void
txt_u64(struct txt *t, uint64_t v)
{
    char tmp[24];
    size_t i = sizeof(tmp);

    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    txt_mem(t, tmp + i, sizeof(tmp) - i);
}

static void
txt_i64(struct txt *t, int64_t v)
{
    if (v < 0) {
        TXT_LIT(t, "-");
        txt_u64(t, (uint64_t)0 - (uint64_t)v);
        return;
    }
    txt_u64(t, (uint64_t)v);
}

/* Microseconds from nanoseconds: "123.456", or whole µs for old traces. */
static void
txt_us(struct txt *t, int64_t ns, int whole)
{
    char frac[4];
    int64_t r;

    if (whole) {
        txt_i64(t, (ns + 500) / 1000);
        return;
    }
    txt_i64(t, ns / 1000);
    r = ns % 1000;
    frac[0] = '.';
    frac[1] = (char)('0' + r / 100);
    frac[2] = (char)('0' + r / 10 % 10);
    frac[3] = (char)('0' + r % 10);
    txt_mem(t, frac, 4);
}

/* A non-negative double with up to 6 decimals, trailing zeros trimmed but
 * one kept ("5.0"), as Python's json writes floats. */
static void
txt_real(struct txt *t, double v)
{
    uint64_t scaled, ip, fp;
    char frac[8];
    int n = 6;

    if (!(v >= 0.0) || v > 1e12)
        v = 0.0;
    scaled = (uint64_t)(v * 1e6 + 0.5);
    ip = scaled / 1000000;
    fp = scaled % 1000000;
    txt_u64(t, ip);
    frac[0] = '.';
    for (int i = 6; i >= 1; i--) {
        frac[i] = (char)('0' + fp % 10);
        fp /= 10;
    }
    while (n > 1 && frac[n] == '0')
        n--;
    txt_mem(t, frac, (size_t)n + 1);
}

/* ------------------------------------------------------------------ */
/* Output sink: plain file, stdout or gzip, with a sticky error. */

struct sink {
    FILE *fp;
    gzFile gz;
    struct txt t;
    uint64_t n_bytes; /* uncompressed bytes written so far */
    int failed;
};

static int
sink_open(struct sink *s, const char *path, int gzip, int level)
{
    memset(s, 0, sizeof(*s));
    s->t.buf = malloc(SINK_CAP);
    s->t.cap = SINK_CAP;
    if (s->t.buf == NULL)
        return -1;
    if (gzip) {
        char mode[4] = {'w', 'b', (char)('0' + level), '\0'};
        s->gz = strcmp(path, "-") == 0 ? gzdopen(fileno(stdout), mode)
                                       : gzopen(path, mode);
        if (s->gz == NULL)
            return -1;
        gzbuffer(s->gz, 256u << 10);
        return 0;
    }
    s->fp = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    return s->fp == NULL ? -1 : 0;
}

static void
sink_flush(struct sink *s)
{
    size_t n = s->t.len;

    if (n == 0 || s->failed) {
        s->t.len = 0;
        return;
    }
    if (s->gz != NULL) {
        if (gzwrite(s->gz, s->t.buf, (unsigned)n) != (int)n)
            s->failed = 1;
    } else if (fwrite(s->t.buf, 1, n, s->fp) != n) {
        s->failed = 1;
    }
    s->n_bytes += n;
    s->t.len = 0;
}

/* Called before each event: room for one event is always left. */
static void
sink_reserve(struct sink *s)
{
    if (s->t.len > SINK_CAP - SINK_SLACK)
        sink_flush(s);
}

static uint64_t
sink_bytes(const struct sink *s)
{
    return s->n_bytes + s->t.len;
}

/* Flushes, closes and frees; returns -1 if any write failed. */
static int
sink_close(struct sink *s)
{
    int rc;

    sink_flush(s);
    rc = s->failed || s->t.truncated ? -1 : 0;
    if (s->gz != NULL && gzclose(s->gz) != Z_OK)
        rc = -1;
    if (s->fp != NULL && s->fp != stdout && fclose(s->fp) != 0)
        rc = -1;
    if (s->fp == stdout && fflush(stdout) != 0)
        rc = -1;
    free(s->t.buf);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Options and the model. */

enum fmt { FMT_CURRENT, FMT_2021 };

struct opts {
    uint64_t size_bytes; /* 0: use steps */
    int64_t steps;
    int ranks;
    uint64_t seed;
    int gzip;
    int level;
    enum fmt fmt;
    int memory;
    int stack;
    int python;
    int base_time;
    int stats;
    int blocks;
    int attn;
    int batch;
    const char *out;
};

enum lkind {
    LK_CONV,
    LK_BN,
    LK_RELU,
    LK_MAXPOOL,
    LK_ADD,
    LK_FLATTEN,
    LK_TRANSPOSE,
    LK_RESHAPE,
    LK_LINEAR,
    LK_LAYERNORM,
    LK_BMM,
    LK_SOFTMAX,
    LK_GELU,
    LK_MEAN,
    LK_LOSS
};

/* One autograd node of the forward pass.  Shapes: CNN layers use NCHW in
 * n,c,h,w; token layers use [n, c, w] with h = 1; bmm is [n,c,w]x[n,w,k];
 * linear maps rows n*c from w to k features; conv maps c to k channels. */
struct layer {
    enum lkind kind;
    int64_t n, c, h, w, k;
    int r, stride, pad;
    int inplace;
    int first;        /* the first conv: no input gradient */
    int inst;         /* how many layers of its kind come before it */
    int64_t n_params; /* parameter elements (conv, bn, linear, norm) */
};

/* Per-layer state of the current step, used again by backward. */
struct lstate {
    int64_t seq;
    int64_t flow;
    uint64_t addr;
    int64_t bytes;
};

struct frame {
    const char *name;
    int is_user;   /* user_annotation, not cpu_op */
    int64_t py_id; /* python_function frame (--python): its id; else -1 */
    int64_t ts;
    int64_t ext;
    int64_t flow_f;   /* fwdbwd flow end drawn on this op, or 0 */
    char py_name[64]; /* "nn.Module: Conv2d_3" (name points here) */
    struct txt args;
    char buf[FRAME_ARGS];
};

struct thr {
    int64_t tid;
    int64_t now; /* epoch ns */
    int depth;
    struct frame fr[MAX_DEPTH];
};

struct mem {
    uint64_t base;
    uint64_t next;
    int64_t allocated;
    int64_t reserved;
};

struct gen {
    const struct opts *o;
    struct sink *s;
    uint64_t rng;
    int rank;
    int device;
    int old; /* --format 2021 */
    int64_t pid;
    int64_t t0;             /* trace start, epoch ns */
    int64_t base_ns;        /* subtracted from every ts (--base-time) */
    int64_t stream_free[2]; /* compute stream 7, NCCL stream 20 */
    double speed;           /* per-rank GPU speed factor */
    int64_t next_ext, next_corr, next_rf, next_ev, next_seq, next_flow;
    int64_t next_py; /* --python: the next "Python id" */
    int64_t n_events;
    int64_t total_params;
    int64_t n_param_tensors;
    struct mem gmem, cmem;
    struct thr main_t, bwd_t;
    int n_layers;
    struct layer layers[MAX_LAYERS];
    struct lstate ls[MAX_LAYERS];
    uint64_t grad_addr; /* gradient buffer live between backward nodes */
    int64_t grad_bytes;
    int64_t bucket_elems; /* DDP: gradient elements not yet reduced */
    int64_t bucket_index;
};

#define STREAM_COMPUTE 7
#define STREAM_NCCL 20

/* ------------------------------------------------------------------ */
/* Deterministic PRNG (splitmix64) and timing helpers. */

static uint64_t
rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double
rng_unit(struct gen *g)
{
    return (double)(rng_next(&g->rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* A duration in ns uniformly in [lo_ns, hi_ns]. */
static int64_t
jit(struct gen *g, int64_t lo_ns, int64_t hi_ns)
{
    return lo_ns + (int64_t)(rng_unit(g) * (double)(hi_ns - lo_ns));
}

static int64_t
max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* ------------------------------------------------------------------ */
/* Event writers.  Layout follows kineto's output_json.cpp: one event per
 * block of lines, args on their own line, events unsorted. */

enum cat {
    C_OP,
    C_USER,
    C_RUNTIME,
    C_KERNEL,
    C_MEMCPY,
    C_MEMSET,
    C_SYNC,
    C_PY
};

static const char *
cat_name(const struct gen *g, enum cat c)
{
    static const char *const cur[] = {
        "cpu_op",     "user_annotation", "cuda_runtime", "kernel",
        "gpu_memcpy", "gpu_memset",      "cuda_sync",    "python_function"};
    static const char *const old[] = {"Operator", "Operator",       "Runtime",
                                      "Kernel",   "Memcpy",         "Memset",
                                      "Runtime",  "python_function"};
    return g->old ? old[c] : cur[c];
}

/* Starts a new event (separator, indentation) and returns the sink text. */
static struct txt *
ev_open(struct gen *g)
{
    struct txt *t = &g->s->t;

    sink_reserve(g->s);
    if (g->n_events++ > 0)
        TXT_LIT(t, ",\n");
    TXT_LIT(t, "  {\n    ");
    return t;
}

static void
ev_ts(struct gen *g, const char *key, int64_t ns)
{
    txt_str(&g->s->t, key);
    txt_us(&g->s->t, ns, g->old);
}

/* "pid": P, "tid": T of a CPU thread; old traces quote X-event tids. */
static void
ev_cpu_ids(struct gen *g, int64_t tid, int quote)
{
    struct txt *t = &g->s->t;

    TXT_LIT(t, "\"pid\": ");
    txt_i64(t, g->pid);
    TXT_LIT(t, ", \"tid\": ");
    if (quote)
        TXT_LIT(t, "\"");
    txt_i64(t, tid);
    if (quote)
        TXT_LIT(t, "\"");
}

/* GPU rows: pid = device, tid = stream ("stream N" in old traces). */
static void
ev_gpu_ids(struct gen *g, int stream)
{
    struct txt *t = &g->s->t;

    TXT_LIT(t, "\"pid\": ");
    txt_i64(t, g->device);
    TXT_LIT(t, ", \"tid\": ");
    if (g->old)
        TXT_LIT(t, "\"stream ");
    txt_i64(t, stream);
    if (g->old)
        TXT_LIT(t, "\"");
}

/* Writes a whole X event.  stream < 0: on CPU thread tid.  args is the
 * pre-formatted inside of the args object. */
static void
ev_x(struct gen *g, enum cat c, const char *name, int64_t tid, int stream,
     int64_t ts, int64_t dur, const struct txt *args)
{
    struct txt *t = ev_open(g);

    TXT_LIT(t, "\"ph\": \"X\", \"cat\": \"");
    txt_str(t, cat_name(g, c));
    TXT_LIT(t, "\", \"name\": \"");
    txt_str(t, name);
    TXT_LIT(t, "\", ");
    if (stream >= 0)
        ev_gpu_ids(g, stream);
    else
        ev_cpu_ids(g, tid, g->old);
    if (g->old) { /* whole µs: round both ends so nesting survives */
        int64_t end = (ts + dur + 500) / 1000 * 1000;

        ts = (ts + 500) / 1000 * 1000;
        dur = end - ts;
    }
    ev_ts(g, ",\n    \"ts\": ", ts - g->base_ns);
    ev_ts(g, ", \"dur\": ", dur);
    TXT_LIT(t, ",\n    \"args\": {\n      ");
    txt_mem(t, args->buf, args->len);
    t->truncated |= args->truncated; /* reported by sink_close */
    TXT_LIT(t, "\n    }\n  }");
}

/* Flow start (s) or end (f, bp "e"): ac2g launches (old: async/launch)
 * and fwdbwd links.  stream < 0: on CPU thread tid. */
static void
ev_flow(struct gen *g, int is_end, const char *cat, int64_t id, int64_t ts,
        int64_t tid, int stream)
{
    struct txt *t = ev_open(g);

    TXT_LIT(t, "\"ph\": \"");
    txt_str(t, is_end ? "f" : "s");
    TXT_LIT(t, "\", \"id\": ");
    txt_i64(t, id);
    TXT_LIT(t, ", ");
    if (stream >= 0)
        ev_gpu_ids(g, stream);
    else
        ev_cpu_ids(g, tid, 0);
    ev_ts(g, ", \"ts\": ", ts - g->base_ns);
    TXT_LIT(t, ", \"cat\": \"");
    txt_str(t, g->old ? "async" : cat);
    TXT_LIT(t, "\", \"name\": \"");
    txt_str(t, g->old ? "launch" : cat);
    if (is_end)
        TXT_LIT(t, "\", \"bp\": \"e\"\n  }");
    else
        TXT_LIT(t, "\"\n  }");
}

/* Args helpers for a local args buffer; they add the ", " separators. */
static void
arg_key(struct txt *t, const char *key)
{
    if (t->len > 0)
        TXT_LIT(t, ", ");
    TXT_LIT(t, "\"");
    txt_str(t, key);
    TXT_LIT(t, "\": ");
}

static void
arg_i64(struct txt *t, const char *key, int64_t v)
{
    arg_key(t, key);
    txt_i64(t, v);
}

static void
arg_str(struct txt *t, const char *key, const char *v)
{
    arg_key(t, key);
    TXT_LIT(t, "\"");
    txt_str(t, v);
    TXT_LIT(t, "\"");
}

static void
arg_real(struct txt *t, const char *key, double v)
{
    arg_key(t, key);
    txt_real(t, v);
}

static void
arg_dim3(struct txt *t, const char *key, int64_t x)
{
    arg_key(t, key);
    TXT_LIT(t, "[");
    txt_i64(t, x);
    TXT_LIT(t, ", 1, 1]");
}

#define ARGS_LOCAL(name, storage)                                              \
    char storage[FRAME_ARGS];                                                  \
    struct txt name = {storage, 0, sizeof(storage), 0}

/* ------------------------------------------------------------------ */
/* Memory events ([memory] instants, --memory). */

static void
ev_memory(struct gen *g, const struct thr *th, int gpu, uint64_t addr,
          int64_t bytes, const struct mem *m)
{
    struct txt *t = ev_open(g);

    if (g->old)
        TXT_LIT(t, "\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", ");
    else
        TXT_LIT(t, "\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": "
                   "\"t\", \"name\": \"[memory]\", ");
    ev_cpu_ids(g, th->tid, 0);
    ev_ts(g, ", \"ts\": ", th->now - g->base_ns);
    TXT_LIT(t, ",\n    \"args\": {\n      ");
    if (!g->old) {
        TXT_LIT(t, "\"Total Reserved\": ");
        txt_i64(t, m->reserved);
        TXT_LIT(t, ", \"Total Allocated\": ");
        txt_i64(t, m->allocated);
        TXT_LIT(t, ", ");
    }
    TXT_LIT(t, "\"Bytes\": ");
    txt_i64(t, bytes);
    if (!g->old) {
        TXT_LIT(t, ", \"Addr\": ");
        txt_u64(t, addr);
    }
    TXT_LIT(t, ", \"Device Id\": ");
    txt_i64(t, gpu ? g->device : -1);
    TXT_LIT(t, ", \"Device Type\": ");
    txt_i64(t, gpu ? 1 : 0);
    if (!g->old) {
        TXT_LIT(t, ", \"Ev Idx\": ");
        txt_i64(t, g->next_ev++);
    }
    TXT_LIT(t, "\n    }\n  }");
}

/* A caching-allocator stand-in: a bump pointer reset each step (every
 * block is freed by then), so addresses repeat across steps as in a real
 * allocator and every free names the address of its allocation. */
static uint64_t
mem_alloc(struct gen *g, struct thr *th, int gpu, int64_t bytes)
{
    struct mem *m = gpu ? &g->gmem : &g->cmem;
    uint64_t addr;

    bytes = (bytes + 511) / 512 * 512;
    addr = m->next;
    m->next += (uint64_t)bytes;
    m->allocated += bytes;
    if (m->allocated > m->reserved)
        m->reserved = (m->allocated + (20 << 20)) / (2 << 20) * (2 << 20);
    th->now += jit(g, 300, 1200);
    if (g->o->memory)
        ev_memory(g, th, gpu, addr, bytes, m);
    return addr;
}

static void
mem_free(struct gen *g, struct thr *th, int gpu, uint64_t addr, int64_t bytes)
{
    struct mem *m = gpu ? &g->gmem : &g->cmem;

    if (addr == 0)
        return;
    bytes = (bytes + 511) / 512 * 512;
    m->allocated -= bytes;
    th->now += jit(g, 200, 800);
    if (g->o->memory)
        ev_memory(g, th, gpu, addr, -bytes, m);
}

/* ------------------------------------------------------------------ */
/* CPU ops: a stack of open frames per thread.  An op is written when it
 * ends, after its children, which is the order kineto writes them in. */

/* One operator input as the profiler records it (record_shapes). */
struct in {
    const char *type; /* "float", "long", "Scalar", "Int", "", ... */
    int nd;           /* tensor rank, or -1 for a non-tensor */
    int64_t d[4];
    const char *concrete; /* scalar value text, "" for tensors */
};

#define T1(a)                                                                  \
    {                                                                          \
        "float", 1, {(a), 0, 0, 0}, ""                                         \
    }
#define T2(a, b)                                                               \
    {                                                                          \
        "float", 2, {(a), (b), 0, 0}, ""                                       \
    }
#define T3(a, b, c)                                                            \
    {                                                                          \
        "float", 3, {(a), (b), (c), 0}, ""                                     \
    }
#define T4(a, b, c, d)                                                         \
    {                                                                          \
        "float", 4, {(a), (b), (c), (d)}, ""                                   \
    }
#define SC(type, text)                                                         \
    {                                                                          \
        (type), -1, {0, 0, 0, 0}, (text)                                       \
    }
#define NONE_IN                                                                \
    {                                                                          \
        "", -1, {0, 0, 0, 0}, ""                                               \
    }

static void
args_inputs(struct gen *g, struct txt *t, const struct in *ins, int n)
{
    if (!g->old) {
        arg_key(t, "Concrete Inputs");
        TXT_LIT(t, "[");
        for (int i = 0; i < n; i++) {
            txt_str(t, i ? ", \"" : "\"");
            txt_str(t, ins[i].concrete);
            TXT_LIT(t, "\"");
        }
        TXT_LIT(t, "]");
    }
    arg_key(t, "Input type");
    TXT_LIT(t, "[");
    for (int i = 0; i < n; i++) {
        txt_str(t, i ? ", \"" : "\"");
        txt_str(t, ins[i].type);
        TXT_LIT(t, "\"");
    }
    TXT_LIT(t, "]");
    arg_key(t, "Input Dims");
    TXT_LIT(t, "[");
    for (int i = 0; i < n; i++) {
        txt_str(t, i ? ", [" : "[");
        for (int j = 0; j < ins[i].nd; j++) {
            if (j)
                TXT_LIT(t, ", ");
            txt_i64(t, ins[i].d[j]);
        }
        TXT_LIT(t, "]");
    }
    TXT_LIT(t, "]");
}

/* Opens an op on th at th->now; its args are formatted now, and callers
 * may append more (Sequence number, collective fields) to fr->args. */
static struct frame *
op_begin(struct gen *g, struct thr *th, enum cat c, const char *name,
         const struct in *ins, int n_in)
{
    struct frame *fr;

    assert(th->depth < MAX_DEPTH); /* the model tables nest at most ~8 */
    fr = &th->fr[th->depth++];
    th->now += jit(g, 400, 1500);
    fr->name = name;
    fr->is_user = c == C_USER;
    fr->py_id = -1;
    fr->ts = th->now;
    fr->ext = g->next_ext++;
    fr->flow_f = 0;
    fr->args.buf = fr->buf;
    fr->args.len = 0;
    fr->args.cap = sizeof(fr->buf);
    fr->args.truncated = 0;
    if (g->old) {
        arg_i64(&fr->args, "Device", g->pid);
        arg_i64(&fr->args, "External id", fr->ext);
        arg_str(&fr->args, "Trace name", "PyTorch Profiler");
        arg_i64(&fr->args, "Trace iteration", 0);
    } else {
        arg_i64(&fr->args, "External id", fr->ext);
        arg_i64(&fr->args, "Record function id",
                c == C_USER ? 0 : g->next_rf++);
    }
    if (n_in > 0 || (g->old && c == C_OP))
        args_inputs(g, &fr->args, ins, n_in);
    if (!g->old)
        arg_i64(&fr->args, "Ev Idx", g->next_ev++);
    return fr;
}

/* Marks the innermost open op as an autograd node's forward op. */
static void
op_seq(struct gen *g, struct thr *th, int64_t seq, int fwd_tid)
{
    struct frame *fr = &th->fr[th->depth - 1];

    if (g->old)
        return;
    arg_i64(&fr->args, "Fwd thread id", fwd_tid);
    arg_i64(&fr->args, "Sequence number", seq);
}

/* Closes the innermost op after `self_ns` more of its own CPU time. */
static void
op_end(struct gen *g, struct thr *th, int64_t self_ns)
{
    struct frame *fr = &th->fr[--th->depth];

    th->now += self_ns + jit(g, 300, 1200);
    ev_x(g,
         fr->py_id >= 0 ? C_PY
         : fr->is_user  ? C_USER
                        : C_OP,
         fr->name, th->tid, -1, fr->ts, th->now - fr->ts, &fr->args);
    if (fr->flow_f != 0 && !g->old)
        ev_flow(g, 1, "fwdbwd", fr->flow_f, fr->ts, th->tid, -1);
}

/* A leaf op with no GPU work (views, metadata). */
static void
op_leaf(struct gen *g, struct thr *th, const char *name, const struct in *ins,
        int n_in)
{
    op_begin(g, th, C_OP, name, ins, n_in);
    op_end(g, th, jit(g, 1000, 4000));
}

static int64_t
cur_ext(const struct thr *th)
{
    return th->depth > 0 ? th->fr[th->depth - 1].ext : 0;
}

static int64_t
cur_ts(const struct thr *th)
{
    return th->depth > 0 ? th->fr[th->depth - 1].ts : th->now;
}

/* Opens a python_function frame on th (--python), as PyTorch 2.x writes
 * them with with_stack=True: ids in call order, "Python parent id" the
 * innermost open frame (null at the root), "Python module id" on
 * nn.Module calls (module >= 0).  `name` is copied when inst >= 0: the
 * frame is then "nn.Module: {name}_{inst}".  op_end closes it. */
static void
py_begin(struct gen *g, struct thr *th, const char *name, int64_t module,
         int inst)
{
    int64_t parent = -1;
    struct frame *fr;

    for (int i = th->depth; i > 0 && parent < 0; i--)
        parent = th->fr[i - 1].py_id;
    assert(th->depth < MAX_DEPTH);
    fr = &th->fr[th->depth++];
    th->now += jit(g, 150, 600);
    fr->name = name;
    if (inst >= 0) {
        snprintf(fr->py_name, sizeof(fr->py_name), "nn.Module: %s_%d", name,
                 inst);
        fr->name = fr->py_name;
    }
    fr->is_user = 0;
    fr->py_id = g->next_py++;
    fr->ts = th->now;
    fr->ext = cur_ext(th); /* a launch below still names the op */
    fr->flow_f = 0;
    fr->args.buf = fr->buf;
    fr->args.len = 0;
    fr->args.cap = sizeof(fr->buf);
    fr->args.truncated = 0;
    if (module >= 0)
        arg_i64(&fr->args, "Python module id", module);
    arg_i64(&fr->args, "Python id", fr->py_id);
    arg_key(&fr->args, "Python parent id");
    if (parent >= 0)
        txt_i64(&fr->args, parent);
    else
        TXT_LIT(&fr->args, "null");
}

/* Closes n python frames (innermost first). */
static void
py_end(struct gen *g, struct thr *th, int n)
{
    for (int i = 0; i < n; i++)
        op_end(g, th, jit(g, 200, 900));
}

/* ------------------------------------------------------------------ */
/* GPU work: kernels, copies, memsets, syncs. */

enum kk { KK_GEMM, KK_MEM };

struct kdef {
    const char *name;     /* current (A100, cuDNN 8 / PyTorch 2.x) */
    const char *old_name; /* 2021 traces (V100, PyTorch 1.8) */
    enum kk kind;
    double rate; /* A100 work per ns: FLOP or bytes */
    int regs;
    int smem;
    int block;
};

#define EW(functor, arr)                                                       \
    "void at::native::vectorized_elementwise_kernel<4, " functor               \
    ", at::detail::Array<char*, " arr "> >(int, " functor                      \
    ", at::detail::Array<char*, " arr ">)"

static const struct kdef K_NCHW2NHWC = {
    "void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, "
    "(cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, "
    "float const*, float*)",
    "void nchwToNhwcKernel<float, float, float, true, false, "
    "(cudnnKernelDataType_t)0>(int, int, int, int, float const*, float*, "
    "float, float)",
    KK_MEM,
    1100,
    24,
    0,
    256};
static const struct kdef K_FPROP = {
    "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_"
    "tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
    "volta_scudnn_128x64_relu_interior_nn_v1",
    KK_GEMM,
    90000,
    232,
    81920,
    128};
static const struct kdef K_FPROP_1X1 = {
    "void cutlass::Kernel<cutlass_tensorop_s1688fprop_optimized_tf32_64x64_"
    "16x10_nhwc_align4>(cutlass_tensorop_s1688fprop_optimized_tf32_64x64_"
    "16x10_nhwc_align4::Params)",
    "volta_scudnn_128x128_stridedB_small_nn_v1",
    KK_GEMM,
    60000,
    168,
    65536,
    128};
static const struct kdef K_FPROP_7X7 = {
    "void implicit_convolve_sgemm<float, float, 1024, 5, 5, 7, 3, 3, 1, false, "
    "true, true>(int, int, int, float const*, int, float*, float const*, "
    "kernel_conv_params, unsigned long long, int, float, float, int, float "
    "const*, float const*, bool, int, int)",
    "void implicit_convolve_sgemm<float, float, 1024, 6, 7, 3, 3, 5, 1, false, "
    "true, true>(int, int, int, float const*, int, float*, float const*, "
    "kernel_conv_params, unsigned long long, int, float, float, int, float "
    "const*, float const*, bool, int, int)",
    KK_GEMM,
    12000,
    128,
    36864,
    1024};
static const struct kdef K_DGRAD = {
    "sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_"
    "tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
    "void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int, "
    "int, int, float const*, int, float const*, int, float*, "
    "kernel_grad_params, unsigned long long, int, unsigned long long, int, "
    "float, int, int, int)",
    KK_GEMM,
    85000,
    232,
    81920,
    128};
static const struct kdef K_WGRAD = {
    "sm80_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_"
    "tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
    "void cudnn::cnn::wgrad_alg0_engine<float, 128, 6, 7, 3, 3, 5, false, "
    "512>(int, int, int, float const*, int, float*, float const*, "
    "kernel_grad_params, unsigned long long, int, float, int, int, int, int)",
    KK_GEMM,
    70000,
    232,
    81920,
    128};
static const struct kdef K_BN_FW = {
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, 512, true, 1>("
    "cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float "
    "const*, float const*, float, float, float*, float*, float*, float*, "
    "float, float)",
    NULL,
    KK_MEM,
    1000,
    40,
    4096,
    512};
static const struct kdef K_BN_BW = {
    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>("
    "float, float, float, float, cudnnTensorStruct, float const*, "
    "cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float "
    "const*, float*, float*, float const*, float const*, float)",
    NULL,
    KK_MEM,
    900,
    40,
    4096,
    512};
static const struct kdef K_RELU = {
    EW("at::native::(anonymous namespace)::launch_clamp_scalar(at::"
       "TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::"
       "ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::"
       "operator()() const::{lambda(float)#1}",
       "2"),
    EW("at::native::(anonymous namespace)::clamp_min_scalar_kernel_impl(at::"
       "TensorIterator&, c10::Scalar)::{lambda()#1}::operator()() const::"
       "{lambda()#8}::operator()() const::{lambda(float)#1}",
       "2"),
    KK_MEM,
    1350,
    16,
    0,
    128};
static const struct kdef K_RELU_BW = {
    EW("at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::"
       "TensorIteratorBase&, float, float)::{lambda(float, float)#1}",
       "3"),
    NULL,
    KK_MEM,
    1350,
    18,
    0,
    128};
static const struct kdef K_ADD = {EW("at::native::CUDAFunctor_add<float>", "3"),
                                  EW("at::native::AddFunctor<float>", "3"),
                                  KK_MEM,
                                  1400,
                                  20,
                                  0,
                                  128};
static const struct kdef K_FILL = {
    EW("at::native::FillFunctor<float>", "1"), NULL, KK_MEM, 1500, 16, 0, 128};
static const struct kdef K_DIV = {
    EW("at::native::BinaryFunctor<float, float, float, at::native::"
       "binary_internal::DivFunctor<float> >",
       "3"),
    NULL,
    KK_MEM,
    1300,
    20,
    0,
    128};
static const struct kdef K_MAXPOOL = {
    "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, "
    "float>(int, float const*, long, long, long, int, int, int, int, int, "
    "int, int, int, int, int, float*, long*)",
    NULL,
    KK_MEM,
    900,
    30,
    0,
    256};
static const struct kdef K_MAXPOOL_BW = {
    "void at::native::(anonymous namespace)::max_pool_backward_nchw<float, "
    "float>(float const*, long const*, int, long, long, long, int, int, int, "
    "int, int, int, int, int, int, int, float*)",
    NULL,
    KK_MEM,
    700,
    30,
    0,
    256};
static const struct kdef K_SGEMM_TN = {"ampere_sgemm_128x64_tn",
                                       "volta_sgemm_128x64_tn",
                                       KK_GEMM,
                                       14000,
                                       122,
                                       12544,
                                       128};
static const struct kdef K_SGEMM_NN = {"ampere_sgemm_128x64_nn",
                                       "volta_sgemm_128x64_nn",
                                       KK_GEMM,
                                       14000,
                                       122,
                                       12544,
                                       128};
static const struct kdef K_SGEMM_NT = {
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nt_"
    "align4>(cutlass_80_tensorop_s1688gemm_128x128_32x3_nt_align4::Params)",
    "volta_sgemm_128x128_nt",
    KK_GEMM,
    45000,
    234,
    73728,
    128};
static const struct kdef K_BMM = {
    "void cutlass::Kernel<cutlass_80_simt_sgemm_128x64_8x5_nn_align1>("
    "cutlass_80_simt_sgemm_128x64_8x5_nn_align1::Params)",
    "volta_h884gemm_64x64_ldg8_nn",
    KK_GEMM,
    11000,
    128,
    34816,
    256};
static const struct kdef K_SUM = {
    "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
    "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
    "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
    "unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::"
    "func_wrapper_t<float, at::native::sum_functor<float, float, float>::"
    "operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned "
    "int, float, 4>)",
    NULL,
    KK_MEM,
    800,
    32,
    16,
    128};
static const struct kdef K_MEAN = {
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
    "at::native::MeanOps<float, float, float, float>, unsigned int, float, "
    "4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, "
    "float, float>, unsigned int, float, 4>)",
    NULL,
    KK_MEM,
    800,
    32,
    16,
    512};
static const struct kdef K_SOFTMAX = {
    "void (anonymous namespace)::softmax_warp_forward<float, float, float, 6, "
    "false, false>(float*, float const*, int, int, int, bool const*, int, "
    "bool)",
    "void (anonymous namespace)::softmax_warp_forward<float, float, float, 6, "
    "false>(float*, float const*, int, int, int)",
    KK_MEM,
    1000,
    30,
    0,
    128};
static const struct kdef K_SOFTMAX_BW = {
    "void (anonymous namespace)::softmax_warp_backward<float, float, float, "
    "6, false, false>(float*, float const*, float const*, int, int, int, "
    "bool const*)",
    "void (anonymous namespace)::softmax_warp_backward<float, float, float, "
    "6, false>(float*, float const*, float const*, int, int, int)",
    KK_MEM,
    1000,
    30,
    0,
    128};
static const struct kdef K_LN = {
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<"
    "float, float>(int, float, float const*, float const*, float const*, "
    "float*, float*, float*)",
    "void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float>("
    "long, float, float const*, float*, float*)",
    KK_MEM,
    1100,
    30,
    0,
    256};
static const struct kdef K_LN_BW = {
    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_"
    "vectorized<float, float>(float const*, float const*, float const*, "
    "float const*, float const*, float*, int)",
    "void at::native::(anonymous namespace)::ComputeInternalGradientsCUDA"
    "Kernel<float>(long, float const*, float const*, float const*, float*, "
    "float*)",
    KK_MEM,
    1000,
    32,
    0,
    256};
static const struct kdef K_LN_GB = {
    "void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32"
    "<float, float>(long, long, float const*, float const*, float const*, "
    "float const*, float*, float*)",
    NULL,
    KK_MEM,
    700,
    40,
    8448,
    1024};
static const struct kdef K_GELU = {
    EW("at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::"
       "GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::"
       "operator()() const::{lambda(float)#1}",
       "2"),
    NULL,
    KK_MEM,
    1300,
    22,
    0,
    128};
static const struct kdef K_GELU_BW = {
    EW("at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::"
       "native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::"
       "operator()() const::{lambda(float, float)#1}",
       "3"),
    NULL,
    KK_MEM,
    1300,
    24,
    0,
    128};
static const struct kdef K_LOGSOFTMAX = {
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, "
    "float, float, at::native::(anonymous namespace)::LogSoftMaxForward"
    "Epilogue>(float*, float const*, int)",
    NULL,
    KK_MEM,
    600,
    38,
    0,
    1024};
static const struct kdef K_LOGSOFTMAX_BW = {
    "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, "
    "float, float, at::native::(anonymous namespace)::LogSoftMaxBackward"
    "Epilogue>(float*, float const*, float const*, long)",
    NULL,
    KK_MEM,
    600,
    36,
    0,
    1024};
static const struct kdef K_NLL = {
    "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_"
    "kernel_2d<float, float, long>(float*, float*, float const*, long const*, "
    "float const*, bool, long, long, long, long)",
    "void cunn_ClassNLLCriterion_updateOutput_kernel<float, float>(float*, "
    "float*, float*, long*, float*, int, int, int, int, long)",
    KK_MEM,
    50,
    26,
    0,
    32};
static const struct kdef K_NLL_BW = {
    "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_"
    "kernel_2d<float, long>(float*, float const*, long const*, float const*, "
    "float const*, bool, int, int, long, long)",
    "void cunn_ClassNLLCriterion_updateGradInput_kernel<float>(float*, "
    "float*, long*, float*, float*, int, int, int, int, long)",
    KK_MEM,
    50,
    24,
    0,
    32};
static const struct kdef K_FOREACH_MUL = {
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::"
    "native::(anonymous namespace)::TensorListMetadata<1>, at::native::"
    "(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::"
    "multiplies<float>, float>(at::native::(anonymous namespace)::"
    "TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOp"
    "ScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float)",
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::"
    "native::(anonymous namespace)::TensorListMetadata<1>, at::native::"
    "(anonymous namespace)::BinaryOpScalarFunctor_<float>, std::multiplies<"
    "float>, float>(at::native::(anonymous namespace)::TensorListMetadata<1>,"
    " at::native::(anonymous namespace)::BinaryOpScalarFunctor_<float>, std::"
    "multiplies<float>, float)",
    KK_MEM,
    1200,
    32,
    0,
    512};
static const struct kdef K_FOREACH_ADD = {
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::"
    "native::(anonymous namespace)::TensorListMetadata<2>, at::native::"
    "(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::"
    "plus<float>, float>(at::native::(anonymous namespace)::TensorList"
    "Metadata<2>, at::native::(anonymous namespace)::BinaryOpListAlpha"
    "Functor<float, 2, 2, 0>, std::plus<float>, float)",
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::"
    "native::(anonymous namespace)::TensorListMetadata<2>, at::native::"
    "(anonymous namespace)::BinaryOpListAlphaFunctor_<float>, std::plus<"
    "float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>,"
    " at::native::(anonymous namespace)::BinaryOpListAlphaFunctor_<float>, "
    "std::plus<float>, float)",
    KK_MEM,
    1200,
    32,
    0,
    512};
static const struct kdef K_NCCL = {
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, "
    "ncclWork*)",
    "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
    KK_MEM,
    90,
    96,
    87568,
    544};

/* Collective fields of one all-reduce, copied onto its kernel. */
struct coll {
    int64_t nelems;
};

static void
args_coll(struct gen *g, struct txt *t, const struct coll *c)
{
    arg_str(t, "Collective name", "allreduce");
    arg_i64(t, "In msg nelems", c->nelems);
    arg_i64(t, "Out msg nelems", c->nelems);
    arg_i64(t, "Group size", g->o->ranks);
    arg_str(t, "dtype", "Float");
    arg_str(t, "In split size", "[]");
    arg_str(t, "Out split size", "[]");
    arg_str(t, "Process Group Name", "0");
    arg_str(t, "Process Group Description", "default_pg");
    arg_key(t, "Process Group Ranks");
    TXT_LIT(t, "\"[");
    for (int r = 0; r < g->o->ranks; r++) {
        if (r)
            TXT_LIT(t, ", ");
        txt_i64(t, r);
    }
    TXT_LIT(t, "]\"");
}

/* GPU-side args common to kernels, copies and memsets. */
static void
args_gpu(struct gen *g, struct txt *t, int64_t ext, int stream, int64_t corr)
{
    if (g->old) {
        arg_i64(t, "device", g->device);
        arg_i64(t, "context", 1);
        arg_i64(t, "stream", stream);
        arg_i64(t, "correlation", corr);
        arg_i64(t, "external id", ext);
        return;
    }
    if (ext != 0)
        arg_i64(t, "External id", ext);
    arg_i64(t, "device", g->device);
    arg_i64(t, "context", 1);
    arg_i64(t, "stream", stream);
    arg_i64(t, "correlation", corr);
}

static void
args_runtime(struct gen *g, struct txt *t, int64_t ext, int64_t ext_ts,
             int cbid, int64_t corr)
{
    if (g->old) {
        arg_i64(t, "cbid", cbid);
        arg_i64(t, "correlation", corr);
        arg_i64(t, "external id", ext);
        arg_key(t, "external ts");
        txt_us(t, ext_ts - g->base_ns, 1);
        return;
    }
    if (ext != 0)
        arg_i64(t, "External id", ext);
    arg_i64(t, "cbid", cbid);
    arg_i64(t, "correlation", corr);
}

/* Occupancy fields as CUPTI reports them, from the grid and the kernel's
 * register use (108 SMs, 64 warps and 64K registers per SM on A100). */
static void
args_occupancy(struct gen *g, struct txt *t, const struct kdef *k, int64_t grid)
{
    double n_sms = g->old ? 80.0 : 108.0;
    double bps = (double)grid / n_sms;
    double wpb = (double)k->block / 32.0;
    int64_t warps_fit = 65536 / ((int64_t)k->regs * 32);
    int64_t occ;

    if (warps_fit > 64)
        warps_fit = 64;
    occ = (int64_t)(bps * wpb < (double)warps_fit
                        ? bps * wpb * 100.0 / 64.0
                        : (double)warps_fit * 100.0 / 64.0);
    arg_i64(t, "registers per thread", k->regs);
    arg_i64(t, "shared memory", k->smem);
    arg_real(t, "blocks per SM", bps);
    arg_real(t, "warps per SM", bps * wpb);
    arg_dim3(t, "grid", grid);
    arg_dim3(t, "block", k->block);
    arg_i64(t, "est. achieved occupancy %", occ > 100 ? 100 : occ);
}

/* Kernel time from its work: FLOPs or bytes over an achieved rate, with
 * +-8% jitter; V100 (old traces) is slower, most of all for TF32 GEMMs. */
static int64_t
kernel_ns(struct gen *g, const struct kdef *k, double work)
{
    double rate = k->rate * g->speed;
    double ns;

    if (g->old)
        rate *= k->kind == KK_GEMM && k->rate > 20000 ? 0.16 : 0.65;
    ns = work / rate;
    ns *= 0.92 + 0.16 * rng_unit(g);
    return 1500 + (int64_t)ns;
}

/* cudaLaunchKernel on th (inside the current op) and its kernel on the
 * stream: ac2g flow, External id of the op (or ext if non-zero). */
static void
launch(struct gen *g, struct thr *th, const struct kdef *k, double work,
       int stream, int64_t ext, const struct coll *coll)
{
    ARGS_LOCAL(a, abuf);
    int64_t corr = g->next_corr++;
    int64_t rt_ts = th->now + jit(g, 500, 2500);
    int64_t rt_dur = jit(g, 3000, 7500);
    int si = stream == STREAM_NCCL;
    int64_t k_ts, k_dur = kernel_ns(g, k, work);
    int64_t grid = (int64_t)(work / (k->kind == KK_GEMM ? 4.0e6 : 8192.0));
    const char *name = g->old && k->old_name ? k->old_name : k->name;

    if (ext == 0)
        ext = cur_ext(th);
    grid = grid < 1 ? 1 : grid > 1048576 ? 1048576 : grid;
    if (coll != NULL)
        grid = 8 + (int64_t)g->o->ranks / 8;
    k_ts = max64(rt_ts + jit(g, 2000, 5000), g->stream_free[si]);
    g->stream_free[si] = k_ts + k_dur + jit(g, 600, 1800);
    th->now = rt_ts + rt_dur;

    args_runtime(g, &a, ext, cur_ts(th), 211, corr);
    ev_x(g, C_RUNTIME, "cudaLaunchKernel", th->tid, -1, rt_ts, rt_dur, &a);
    ev_flow(g, 0, "ac2g", corr, rt_ts, th->tid, -1);
    a.len = 0;
    if (!g->old) {
        arg_i64(&a, "External id", ext);
        arg_i64(&a, "queued", 0);
        args_gpu(g, &a, 0, stream, corr);
    } else {
        arg_i64(&a, "queued", 0);
        args_gpu(g, &a, ext, stream, corr);
    }
    args_occupancy(g, &a, k, grid);
    if (coll != NULL)
        args_coll(g, &a, coll);
    ev_x(g, C_KERNEL, name, 0, stream, k_ts, k_dur, &a);
    ev_flow(g, 1, "ac2g", corr, k_ts, 0, stream);
}

/* A runtime call with no GPU activity (event record, stream wait). */
static void
runtime_only(struct gen *g, struct thr *th, const char *name, int cbid)
{
    ARGS_LOCAL(a, abuf);
    int64_t ts = th->now + jit(g, 300, 1500);
    int64_t dur = jit(g, 1500, 4000);

    args_runtime(g, &a, cur_ext(th), cur_ts(th), cbid, g->next_corr++);
    ev_x(g, C_RUNTIME, name, th->tid, -1, ts, dur, &a);
    th->now = ts + dur;
}

/* cudaMemcpyAsync (pageable, so the call blocks) or cudaMemsetAsync, and
 * its copy on the compute stream, which runs after queued kernels. */
static void
copy_op(struct gen *g, struct thr *th, const char *name, int64_t bytes,
        double gbps, int is_memset)
{
    ARGS_LOCAL(a, abuf);
    int64_t corr = g->next_corr++;
    int64_t rt_ts = th->now + jit(g, 500, 2000);
    int64_t c_ts = max64(rt_ts + jit(g, 3000, 8000), g->stream_free[0]);
    int64_t c_dur = 1200 + (int64_t)((double)bytes / gbps) + jit(g, 0, 800);
    int64_t rt_end = is_memset ? rt_ts + jit(g, 3000, 6000)
                               : c_ts + c_dur + jit(g, 2000, 9000);

    g->stream_free[0] = c_ts + c_dur + jit(g, 600, 1500);
    args_runtime(g, &a, cur_ext(th), cur_ts(th), is_memset ? 51 : 41, corr);
    ev_x(g, C_RUNTIME, is_memset ? "cudaMemsetAsync" : "cudaMemcpyAsync",
         th->tid, -1, rt_ts, rt_end - rt_ts, &a);
    ev_flow(g, 0, "ac2g", corr, rt_ts, th->tid, -1);
    a.len = 0;
    args_gpu(g, &a, cur_ext(th), STREAM_COMPUTE, corr);
    arg_i64(&a, "bytes", bytes);
    arg_real(&a, "memory bandwidth (GB/s)", (double)bytes / (double)c_dur);
    ev_x(g, is_memset ? C_MEMSET : C_MEMCPY, name, 0, STREAM_COMPUTE, c_ts,
         c_dur, &a);
    ev_flow(g, 1, "ac2g", corr, c_ts, 0, STREAM_COMPUTE);
    th->now = rt_end;
}

/* cudaStreamSynchronize on the compute stream: the call lasts until the
 * stream drains; current traces add a cuda_sync row on the GPU. */
static void
stream_sync(struct gen *g, struct thr *th)
{
    ARGS_LOCAL(a, abuf);
    int64_t corr = g->next_corr++;
    int64_t ts = th->now + jit(g, 500, 1500);
    int64_t end =
        max64(ts + jit(g, 2000, 5000), g->stream_free[0] + jit(g, 3000, 8000));

    args_runtime(g, &a, cur_ext(th), cur_ts(th), 131, corr);
    ev_x(g, C_RUNTIME, "cudaStreamSynchronize", th->tid, -1, ts, end - ts, &a);
    th->now = end;
    if (g->old)
        return;
    a.len = 0;
    arg_i64(&a, "External id", cur_ext(th));
    arg_str(&a, "cuda_sync_kind", "Stream Sync");
    arg_i64(&a, "stream", STREAM_COMPUTE);
    arg_i64(&a, "correlation", corr);
    arg_i64(&a, "device", g->device);
    arg_i64(&a, "context", 1);
    ev_x(g, C_SYNC, "Stream Sync", 0, STREAM_COMPUTE,
         max64(ts, g->stream_free[0]), end - max64(ts, g->stream_free[0]), &a);
}

/* ------------------------------------------------------------------ */
/* The model: a ResNet-style CNN, then attention blocks on its 7x7 tokens,
 * a mean over tokens, a classifier and the loss. */

static struct layer *
add_layer(struct gen *g, enum lkind kind, int64_t n, int64_t c, int64_t h,
          int64_t w)
{
    struct layer *l = &g->layers[g->n_layers++];

    memset(l, 0, sizeof(*l));
    l->kind = kind;
    for (int i = 0; i < g->n_layers - 1; i++)
        l->inst += g->layers[i].kind == kind;
    l->n = n;
    l->c = c;
    l->h = h;
    l->w = w;
    return l;
}

static int64_t
conv_out(int64_t hw, int r, int stride, int pad)
{
    return (hw + 2 * pad - r) / stride + 1;
}

static void
add_conv_bn(struct gen *g, int64_t n, int64_t c, int64_t hw, int64_t k, int r,
            int stride, int relu)
{
    struct layer *l = add_layer(g, LK_CONV, n, c, hw, hw);
    int64_t oh = conv_out(hw, r, stride, r / 2);

    l->k = k;
    l->r = r;
    l->stride = stride;
    l->pad = r / 2;
    l->first = g->n_layers == 1;
    l->n_params = k * c * r * r;
    add_layer(g, LK_BN, n, k, oh, oh)->n_params = 2 * k;
    if (relu)
        add_layer(g, LK_RELU, n, k, oh, oh)->inplace = 1;
}

static void
add_linear(struct gen *g, int64_t n, int64_t rows, int64_t in, int64_t out)
{
    struct layer *l = add_layer(g, LK_LINEAR, n, rows, 1, in);

    l->k = out;
    l->n_params = in * out + out;
}

static void
add_attention(struct gen *g, int64_t b, int64_t t, int64_t e)
{
    int64_t heads = 8, d = e / 8;
    struct layer *l;

    add_layer(g, LK_LAYERNORM, b, t, 1, e)->n_params = 2 * e;
    add_linear(g, b, t, e, 3 * e);
    add_layer(g, LK_RESHAPE, b, t, 1, 3 * e);
    l = add_layer(g, LK_BMM, b * heads, t, 1, d); /* q @ k^T */
    l->k = t;
    add_layer(g, LK_SOFTMAX, b * heads, t, 1, t);
    l = add_layer(g, LK_BMM, b * heads, t, 1, t); /* p @ v */
    l->k = d;
    add_layer(g, LK_RESHAPE, b, t, 1, e);
    add_linear(g, b, t, e, e);
    add_layer(g, LK_ADD, b, t, 1, e);
    add_layer(g, LK_LAYERNORM, b, t, 1, e)->n_params = 2 * e;
    add_linear(g, b, t, e, 4 * e);
    add_layer(g, LK_GELU, b, t, 1, 4 * e);
    add_linear(g, b, t, 4 * e, e);
    add_layer(g, LK_ADD, b, t, 1, e);
}

static void
model_build(struct gen *g)
{
    int64_t b = g->o->batch, c = 64, hw = 56;
    int prev_stage = 0;

    add_conv_bn(g, b, 3, 224, 64, 7, 2, 1);
    add_layer(g, LK_MAXPOOL, b, 64, 112, 112);
    for (int i = 0; i < g->o->blocks; i++) {
        int stage = i * 4 / g->o->blocks;
        int64_t k = (int64_t)64 << stage;
        int stride = stage != prev_stage ? 2 : 1;
        int64_t oh = hw / stride;

        prev_stage = stage;
        add_conv_bn(g, b, c, hw, k, 3, stride, 1);
        add_conv_bn(g, b, k, oh, k, 3, 1, 0);
        if (stride != 1 || c != k)
            add_conv_bn(g, b, c, hw, k, 1, stride, 0);
        add_layer(g, LK_ADD, b, k, oh, oh)->inplace = 1;
        add_layer(g, LK_RELU, b, k, oh, oh)->inplace = 1;
        c = k;
        hw = oh;
    }
    add_layer(g, LK_FLATTEN, b, c, hw, hw);
    add_layer(g, LK_TRANSPOSE, b, c, 1, hw * hw);
    for (int i = 0; i < g->o->attn; i++)
        add_attention(g, b, hw * hw, c);
    add_layer(g, LK_MEAN, b, hw * hw, 1, c);
    add_linear(g, b, 1, c, 1000);
    add_layer(g, LK_LOSS, b, 1, 1, 1000);
    for (int i = 0; i < g->n_layers; i++) {
        g->total_params += g->layers[i].n_params;
        g->n_param_tensors += g->layers[i].n_params > 0 ? 2 : 0;
    }
}

static int64_t
elems(const struct layer *l)
{
    return l->n * l->c * l->h * l->w;
}

/* Output elements of a layer (what its forward op allocates). */
static int64_t
out_elems(const struct layer *l)
{
    int64_t oh;

    switch (l->kind) {
    case LK_CONV:
        oh = conv_out(l->h, l->r, l->stride, l->pad);
        return l->n * l->k * oh * oh;
    case LK_MAXPOOL:
        return elems(l) / 4;
    case LK_LINEAR:
    case LK_BMM:
        return l->n * l->c * l->k;
    case LK_MEAN:
        return l->n * l->w;
    case LK_LOSS:
        return 1;
    default:
        return elems(l);
    }
}

static const char *
ints2(int v)
{
    static const char *const s[] = {"[0, 0]", "[1, 1]", "[2, 2]", "[3, 3]"};

    return v >= 0 && v <= 3 ? s[v] : "[1, 1]";
}

/* Call stack text for the outermost forward op of a layer (--stack). */
static const char *
call_stack(enum lkind kind)
{
    switch (kind) {
    case LK_CONV:
        return "torch/nn/modules/conv.py(456): _conv_forward;torch/nn/modules/"
               "conv.py(460): forward;torch/nn/modules/module.py(1527): "
               "_call_impl;model.py(41): forward;train.py(88): train_step;"
               "train.py(120): <module>";
    case LK_BN:
        return "torch/nn/functional.py(2478): batch_norm;torch/nn/modules/"
               "batchnorm.py(171): forward;torch/nn/modules/module.py(1527): "
               "_call_impl;model.py(42): forward;train.py(88): train_step;"
               "train.py(120): <module>";
    case LK_LINEAR:
        return "torch/nn/modules/linear.py(114): forward;torch/nn/modules/"
               "module.py(1527): _call_impl;model.py(77): forward;train.py(88):"
               " train_step;train.py(120): <module>";
    default:
        return "torch/nn/modules/module.py(1527): _call_impl;model.py(60): "
               "forward;train.py(88): train_step;train.py(120): <module>";
    }
}

/* The python frames a layer's forward op is called from (--python): an
 * nn.Module call (its class, then the frames inside it) or a tensor
 * method called straight from the model's forward. */
struct py_layer {
    const char *module; /* class name; NULL: no module call */
    const char *frames[3];
};

static const struct py_layer *
py_layer_of(enum lkind kind)
{
#define BUILTIN(m) "<built-in method " m " of type object at 0x7f8e5c3a1d40>"
#define METHOD(m) "<method '" m "' of 'torch._C.TensorBase' objects>"
    static const struct py_layer conv = {
        "Conv2d",
        {"torch/nn/modules/conv.py(459): forward",
         "torch/nn/modules/conv.py(451): _conv_forward", BUILTIN("conv2d")}};
    static const struct py_layer bn = {
        "BatchNorm2d",
        {"torch/nn/modules/batchnorm.py(139): forward",
         "torch/nn/functional.py(2450): batch_norm", BUILTIN("batch_norm")}};
    static const struct py_layer relu = {
        "ReLU",
        {"torch/nn/modules/activation.py(100): forward",
         "torch/nn/functional.py(1489): relu", BUILTIN("relu_")}};
    static const struct py_layer pool = {
        "MaxPool2d",
        {"torch/nn/modules/pooling.py(163): forward",
         "torch/_jit_internal.py(483): fn", BUILTIN("max_pool2d")}};
    static const struct py_layer linear = {
        "Linear",
        {"torch/nn/modules/linear.py(115): forward",
         "<built-in function linear>", NULL}};
    static const struct py_layer norm = {
        "LayerNorm",
        {"torch/nn/modules/normalization.py(200): forward",
         "torch/nn/functional.py(2546): layer_norm", BUILTIN("layer_norm")}};
    static const struct py_layer gelu = {
        "GELU",
        {"torch/nn/modules/activation.py(681): forward",
         "<built-in function gelu>", NULL}};
    static const struct py_layer loss = {
        "CrossEntropyLoss",
        {"torch/nn/modules/loss.py(1188): forward",
         "torch/nn/functional.py(3029): cross_entropy",
         "<built-in method cross_entropy_loss of PyCapsule object at "
         "0x7f8e61b0c2a0>"}};
    static const struct py_layer add = {NULL, {METHOD("add_"), NULL, NULL}};
    static const struct py_layer flat = {NULL,
                                         {BUILTIN("flatten"), NULL, NULL}};
    static const struct py_layer tr = {NULL, {METHOD("transpose"), NULL, NULL}};
    static const struct py_layer resh = {NULL, {METHOD("reshape"), NULL, NULL}};
    static const struct py_layer bmm = {NULL, {BUILTIN("matmul"), NULL, NULL}};
    static const struct py_layer sm = {NULL, {METHOD("softmax"), NULL, NULL}};
    static const struct py_layer mean = {NULL, {METHOD("mean"), NULL, NULL}};
#undef BUILTIN
#undef METHOD
    switch (kind) {
    case LK_CONV:
        return &conv;
    case LK_BN:
        return &bn;
    case LK_RELU:
        return &relu;
    case LK_MAXPOOL:
        return &pool;
    case LK_LINEAR:
        return &linear;
    case LK_LAYERNORM:
        return &norm;
    case LK_GELU:
        return &gelu;
    case LK_LOSS:
        return &loss;
    case LK_ADD:
        return &add;
    case LK_FLATTEN:
        return &flat;
    case LK_TRANSPOSE:
        return &tr;
    case LK_RESHAPE:
        return &resh;
    case LK_BMM:
        return &bmm;
    case LK_SOFTMAX:
        return &sm;
    default:
        return &mean;
    }
}

#define PY_CALL_IMPL "torch/nn/modules/module.py(1541): _call_impl"
#define PY_WRAPPED "torch/nn/modules/module.py(1532): _wrapped_call_impl"

/* Opens an nn.Module call: _wrapped_call_impl > _call_impl > the module
 * frame.  3 frames. */
static void
py_module(struct gen *g, struct thr *th, const char *cls, int64_t module,
          int inst)
{
    py_begin(g, th, PY_WRAPPED, -1, -1);
    py_begin(g, th, PY_CALL_IMPL, -1, -1);
    py_begin(g, th, cls, module, inst);
}

/* Opens the frames around layer li's forward op; returns how many. */
static int
py_layer_open(struct gen *g, struct thr *th, int li)
{
    const struct layer *l = &g->layers[li];
    const struct py_layer *p = py_layer_of(l->kind);
    int n = 0;

    if (p->module != NULL) {
        py_module(g, th, p->module, 1 + li, l->inst);
        n = 3;
    }
    for (int i = 0; i < 3 && p->frames[i] != NULL; i++, n++)
        py_begin(g, th, p->frames[i], -1, -1);
    return n;
}

/* The forward pass with --python: train.py's train_step calls the model
 * (module id 0), whose forward calls each layer, then the loss. */
static void fwd_layer(struct gen *g, struct thr *th, const struct layer *l,
                      struct lstate *st);

static void
py_forward(struct gen *g, struct thr *th)
{
    int open = 0;

    for (int i = 0; i < g->n_layers; i++) {
        int n;
        if (i == 0 || g->layers[i].kind == LK_LOSS) {
            py_end(g, th, open);
            open = 0;
        }
        if (i == 0) {
            py_module(g, th, "ResNetAttn", 0, 0);
            py_begin(g, th, "model.py(41): forward", -1, -1);
            open = 4;
        }
        n = py_layer_open(g, th, i);
        fwd_layer(g, th, &g->layers[i], &g->ls[i]);
        py_end(g, th, n);
    }
    py_end(g, th, open);
}

/* ------------------------------------------------------------------ */
/* Forward pass: one function per layer kind, on the main thread. */

#define BOOL_IN(v) SC("Bool", (v))
#define INT_IN(v) SC("Int", (v))
#define LIST_IN(v) SC("ScalarList", (v))

static struct in
tensor_of(const struct layer *l)
{
    struct in t4 = T4(l->n, l->c, l->h, l->w);
    struct in t3 = T3(l->n, l->c, l->w);

    return l->h > 1 || l->kind == LK_CONV ? t4 : t3;
}

/* Opens the outermost op of a layer: Sequence number, optional stack. */
static void
fwd_open(struct gen *g, struct thr *th, const struct layer *l,
         const struct lstate *st, const char *name, const struct in *ins, int n)
{
    op_begin(g, th, C_OP, name, ins, n);
    if (g->o->stack)
        arg_str(&th->fr[th->depth - 1].args, "Call stack", call_stack(l->kind));
    op_seq(g, th, st->seq, 0);
}

/* Closes it and starts the fwdbwd flow that its backward node ends. */
static void
fwd_close(struct gen *g, struct thr *th, int64_t flow)
{
    int64_t ts = th->fr[th->depth - 1].ts;

    op_end(g, th, jit(g, 2000, 6000));
    if (!g->old)
        ev_flow(g, 0, "fwdbwd", flow, ts, th->tid, -1);
}

/* aten::empty allocating a layer's output on the GPU. */
static void
op_empty(struct gen *g, struct thr *th, struct lstate *st, int64_t bytes)
{
    struct in a[] = {LIST_IN(""),      INT_IN("6"), NONE_IN,
                     SC("Device", ""), NONE_IN,     NONE_IN};

    op_begin(g, th, C_OP, "aten::empty", a, 6);
    st->bytes = bytes;
    st->addr = mem_alloc(g, th, 1, bytes);
    op_end(g, th, jit(g, 1000, 3000));
}

static void
fwd_conv(struct gen *g, struct thr *th, const struct layer *l,
         struct lstate *st)
{
    int64_t oh = conv_out(l->h, l->r, l->stride, l->pad);
    double flops = 2.0 * (double)(l->n * l->k * l->c * l->r * l->r * oh * oh);
    struct in x = T4(l->n, l->c, l->h, l->w), wt = T4(l->k, l->c, l->r, l->r);
    struct in s = LIST_IN(ints2(l->stride)), p = LIST_IN(ints2(l->pad));
    struct in d = LIST_IN("[1, 1]"), g1 = INT_IN("1"), f = BOOL_IN("False");
    struct in tr = BOOL_IN("True"), op = LIST_IN("[0, 0]");
    struct in a7[] = {x, wt, NONE_IN, s, p, d, g1};
    struct in a9[] = {x, wt, NONE_IN, s, p, d, f, op, g1};
    struct in a13[] = {x, wt, NONE_IN, s, p, d, f, op, g1, f, f, tr, tr};
    struct in ac[] = {x, wt, p, s, d, g1, f, f, tr};

    fwd_open(g, th, l, st, "aten::conv2d", a7, 7);
    op_begin(g, th, C_OP, "aten::convolution", a9, 9);
    op_seq(g, th, st->seq, 0);
    op_begin(g, th, C_OP, "aten::_convolution", a13, 13);
    op_begin(g, th, C_OP, "aten::cudnn_convolution", ac, 9);
    op_empty(g, th, st, out_elems(l) * 4);
    if (l->r == 3)
        launch(g, th, &K_NCHW2NHWC, 8.0 * (double)elems(l), STREAM_COMPUTE, 0,
               NULL);
    launch(g, th,
           l->r == 3   ? &K_FPROP
           : l->r == 1 ? &K_FPROP_1X1
                       : &K_FPROP_7X7,
           flops, STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 8000, 20000)); /* cuDNN heuristics, descriptors */
    op_end(g, th, jit(g, 1000, 3000));
    op_end(g, th, jit(g, 1000, 3000));
    fwd_close(g, th, st->flow);
}

static void
fwd_bn(struct gen *g, struct thr *th, const struct layer *l, struct lstate *st)
{
    struct in x = tensor_of(l), v = T1(l->c);
    struct in a9[] = {x,
                      v,
                      v,
                      v,
                      v,
                      BOOL_IN("True"),
                      SC("Double", "0.1"),
                      SC("Double", "1e-05"),
                      BOOL_IN("True")};

    fwd_open(g, th, l, st, "aten::batch_norm", a9, 9);
    op_begin(g, th, C_OP, "aten::_batch_norm_impl_index", a9, 9);
    op_begin(g, th, C_OP, "aten::cudnn_batch_norm", a9, 8);
    op_empty(g, th, st, elems(l) * 4);
    launch(g, th, &K_BN_FW, 8.0 * (double)elems(l), STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 4000, 9000));
    op_end(g, th, jit(g, 1000, 3000));
    fwd_close(g, th, st->flow);
}

/* Elementwise and simple ops: outer op [> inner op] > alloc + kernel. */
static void
fwd_simple(struct gen *g, struct thr *th, const struct layer *l,
           struct lstate *st, const char *outer, const char *inner,
           const struct in *ins, int n, const struct kdef *k, double work)
{
    fwd_open(g, th, l, st, outer, ins, n);
    if (inner != NULL)
        op_begin(g, th, C_OP, inner, ins, n);
    if (!l->inplace) {
        st->bytes = out_elems(l) * 4;
        st->addr = mem_alloc(g, th, 1, st->bytes);
    }
    if (k != NULL)
        launch(g, th, k, work, STREAM_COMPUTE, 0, NULL);
    if (inner != NULL)
        op_end(g, th, jit(g, 2000, 5000));
    fwd_close(g, th, st->flow);
}

static void
fwd_view(struct gen *g, struct thr *th, const struct layer *l,
         struct lstate *st, const char *outer, const char *inner)
{
    struct in a[] = {tensor_of(l), LIST_IN("")};

    fwd_open(g, th, l, st, outer, a, 2);
    op_leaf(g, th, inner, a, 2);
    fwd_close(g, th, st->flow);
}

static void
fwd_linear(struct gen *g, struct thr *th, const struct layer *l,
           struct lstate *st)
{
    int64_t rows = l->n * l->c;
    struct in x =
        l->c > 1 ? (struct in)T3(l->n, l->c, l->w) : (struct in)T2(l->n, l->w);
    struct in w = T2(l->k, l->w), b = T1(l->k), one = SC("Scalar", "1");
    struct in a3[] = {x, w, b};
    struct in at[] = {w};
    struct in atr[] = {w, INT_IN("0"), INT_IN("1")};
    struct in amm[] = {b, T2(rows, l->w), T2(l->w, l->k), one, one};

    fwd_open(g, th, l, st, "aten::linear", a3, 3);
    op_begin(g, th, C_OP, "aten::t", at, 1);
    op_begin(g, th, C_OP, "aten::transpose", atr, 3);
    op_leaf(g, th, "aten::as_strided", at, 1);
    op_end(g, th, jit(g, 1000, 2000));
    op_end(g, th, jit(g, 500, 1500));
    if (l->c > 1)
        op_leaf(g, th, "aten::view", a3, 1);
    op_begin(g, th, C_OP, "aten::addmm", amm, 5);
    st->bytes = out_elems(l) * 4;
    st->addr = mem_alloc(g, th, 1, st->bytes);
    launch(g, th, &K_SGEMM_TN, 2.0 * (double)(rows * l->w * l->k),
           STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 4000, 9000));
    if (l->c > 1)
        op_leaf(g, th, "aten::view", a3, 1);
    fwd_close(g, th, st->flow);
}

static void
fwd_loss(struct gen *g, struct thr *th, const struct layer *l,
         struct lstate *st)
{
    struct in x = T2(l->n, l->w), y = {"long", 1, {l->n, 0, 0, 0}, ""};
    struct in ace[] = {
        x, y, NONE_IN, INT_IN("1"), INT_IN("-100"), SC("Double", "0")};
    struct in als[] = {x, INT_IN("1"), NONE_IN};
    struct in anl[] = {x, y, NONE_IN, INT_IN("1"), INT_IN("-100")};
    int64_t ts;

    fwd_open(g, th, l, st, "aten::cross_entropy_loss", ace, 6);
    op_begin(g, th, C_OP, "aten::log_softmax", als, 3);
    op_seq(g, th, st->seq, 0);
    ts = th->fr[th->depth - 1].ts;
    op_begin(g, th, C_OP, "aten::_log_softmax", als, 3);
    st->bytes = elems(l) * 4;
    st->addr = mem_alloc(g, th, 1, st->bytes);
    launch(g, th, &K_LOGSOFTMAX, 8.0 * (double)elems(l), STREAM_COMPUTE, 0,
           NULL);
    op_end(g, th, jit(g, 2000, 4000));
    op_end(g, th, jit(g, 1000, 2000));
    if (!g->old)
        ev_flow(g, 0, "fwdbwd", st->flow, ts, th->tid, -1);
    op_begin(g, th, C_OP, "aten::nll_loss_nd", anl, 5);
    op_seq(g, th, st->seq + 1, 0);
    ts = th->fr[th->depth - 1].ts;
    op_begin(g, th, C_OP, "aten::nll_loss", anl, 5);
    op_begin(g, th, C_OP, "aten::nll_loss_forward", anl, 5);
    launch(g, th, &K_NLL, 8.0 * (double)l->n, STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 2000, 4000));
    op_end(g, th, jit(g, 1000, 2000));
    op_end(g, th, jit(g, 1000, 2000));
    if (!g->old)
        ev_flow(g, 0, "fwdbwd", st->flow + 1, ts, th->tid, -1);
    op_end(g, th, jit(g, 2000, 5000));
}

static void
fwd_layer(struct gen *g, struct thr *th, const struct layer *l,
          struct lstate *st)
{
    struct in x = tensor_of(l);
    double ew = 8.0 * (double)elems(l); /* bytes read + written */
    struct in a1[] = {x};
    struct in a2[] = {x, x, SC("Scalar", "1")};
    struct in ln[] = {x,        LIST_IN(""),           T1(l->w),
                      T1(l->w), SC("Double", "1e-05"), BOOL_IN("True")};
    struct in bmm[] = {T3(l->n, l->c, l->w), T3(l->n, l->w, l->k)};
    struct in sm[] = {x, INT_IN("-1"), BOOL_IN("False")};
    struct in mp[] = {x,
                      LIST_IN("[3, 3]"),
                      LIST_IN("[2, 2]"),
                      LIST_IN("[1, 1]"),
                      LIST_IN("[1, 1]"),
                      BOOL_IN("False")};
    struct in mean[] = {x, LIST_IN("[1]"), BOOL_IN("False"), NONE_IN};

    switch (l->kind) {
    case LK_CONV:
        fwd_conv(g, th, l, st);
        break;
    case LK_BN:
        fwd_bn(g, th, l, st);
        break;
    case LK_RELU:
        fwd_simple(g, th, l, st, "aten::relu_",
                   g->old ? "aten::clamp_min_" : NULL, a1, 1, &K_RELU, ew);
        break;
    case LK_MAXPOOL:
        fwd_simple(g, th, l, st, "aten::max_pool2d",
                   "aten::max_pool2d_with_indices", mp, 6, &K_MAXPOOL,
                   ew * 0.75);
        break;
    case LK_ADD:
        fwd_simple(g, th, l, st, l->inplace ? "aten::add_" : "aten::add", NULL,
                   a2, 3, &K_ADD, ew * 1.5);
        break;
    case LK_FLATTEN:
        fwd_view(g, th, l, st, "aten::flatten", "aten::view");
        break;
    case LK_TRANSPOSE:
        fwd_view(g, th, l, st, "aten::transpose", "aten::as_strided");
        break;
    case LK_RESHAPE:
        fwd_view(g, th, l, st, "aten::reshape", "aten::view");
        break;
    case LK_LINEAR:
        fwd_linear(g, th, l, st);
        break;
    case LK_LAYERNORM:
        fwd_simple(g, th, l, st, "aten::layer_norm", "aten::native_layer_norm",
                   ln, 6, &K_LN, ew);
        break;
    case LK_BMM:
        fwd_simple(g, th, l, st, "aten::matmul", "aten::bmm", bmm, 2, &K_BMM,
                   2.0 * (double)(l->n * l->c * l->w * l->k));
        break;
    case LK_SOFTMAX:
        fwd_simple(g, th, l, st, "aten::softmax", "aten::_softmax", sm, 3,
                   &K_SOFTMAX, ew);
        break;
    case LK_GELU:
        fwd_simple(g, th, l, st, "aten::gelu", NULL, a1, 1, &K_GELU, ew);
        break;
    case LK_MEAN:
        fwd_simple(g, th, l, st, "aten::mean", NULL, mean, 4, &K_MEAN,
                   4.0 * (double)elems(l));
        break;
    case LK_LOSS:
        fwd_loss(g, th, l, st);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* Backward pass on the autograd thread, layers in reverse. */

#define EVAL(node) "autograd::engine::evaluate_function: " node

/* Opens the engine's evaluate_function op and the node op inside it; the
 * node ends the forward op's fwdbwd flow. */
static void
bwd_open(struct gen *g, struct thr *th, const char *eval, const char *node,
         int64_t seq, int64_t flow)
{
    op_begin(g, th, C_OP, eval, NULL, 0);
    op_seq(g, th, seq, 1);
    op_begin(g, th, C_OP, node, NULL, 0);
    op_seq(g, th, seq, 1);
    th->fr[th->depth - 1].flow_f = flow;
}

static void
bwd_close(struct gen *g, struct thr *th)
{
    op_end(g, th, jit(g, 2000, 5000));
    op_end(g, th, jit(g, 3000, 8000));
}

/* The gradient a node produces replaces the one it consumed. */
static void
grad_alloc(struct gen *g, struct thr *th, int64_t bytes)
{
    uint64_t addr = mem_alloc(g, th, 1, bytes);

    mem_free(g, th, 1, g->grad_addr, g->grad_bytes);
    g->grad_addr = addr;
    g->grad_bytes = bytes;
}

/* All-reduce of one DDP bucket: record_param_comms > nccl:all_reduce >
 * launch on the NCCL stream, after the stream waits for compute. */
static void
allreduce(struct gen *g, struct thr *th, int64_t nelems)
{
    struct coll c = {nelems};
    struct in a[] = {{"float", 1, {nelems, 0, 0, 0}, ""}};
    double work = 4.0 * (double)nelems * 2.0 * (double)(g->o->ranks - 1) /
                  (double)g->o->ranks * (1.0 + 0.4 * rng_unit(g));
    int64_t ext = 0;

    if (!g->old) {
        struct frame *fr = op_begin(g, th, C_OP, "record_param_comms", a, 1);

        args_coll(g, &fr->args, &c);
        arg_i64(&fr->args, "Global rank start", 0);
        arg_i64(&fr->args, "Global rank stride", 1);
        arg_i64(&fr->args, "Seq", g->bucket_index++);
        ext = fr->ext;
        runtime_only(g, th, "cudaEventRecord", 135);
    }
    op_begin(g, th, g->old ? C_OP : C_USER, "nccl:all_reduce", a, 1);
    runtime_only(g, th, "cudaStreamWaitEvent", 146);
    g->stream_free[1] = max64(g->stream_free[1], g->stream_free[0]);
    launch(g, th, &K_NCCL, work, STREAM_NCCL, ext, &c);
    op_end(g, th, jit(g, 10000, 30000));
    if (!g->old)
        op_end(g, th, jit(g, 20000, 60000));
}

/* AccumulateGrad for one parameter; DDP reduces full buckets. */
static void
bwd_accumulate(struct gen *g, struct thr *th, int64_t n_elems)
{
    struct in a[] = {T1(n_elems)};

    op_begin(g, th, C_OP, EVAL("torch::autograd::AccumulateGrad"), NULL, 0);
    op_begin(g, th, C_OP, "torch::autograd::AccumulateGrad", a, 1);
    op_begin(g, th, C_OP, "aten::detach", a, 1);
    op_leaf(g, th, "detach", a, 1);
    op_end(g, th, jit(g, 500, 1500));
    op_end(g, th, jit(g, 2000, 5000));
    op_end(g, th, jit(g, 1000, 3000));
    if (g->o->ranks < 2)
        return;
    g->bucket_elems += n_elems;
    if (g->bucket_elems >= NCCL_BUCKET_ELEMS) {
        allreduce(g, th, g->bucket_elems);
        g->bucket_elems = 0;
    }
}

static void
bwd_conv(struct gen *g, struct thr *th, const struct layer *l,
         const struct lstate *st)
{
    int64_t oh = conv_out(l->h, l->r, l->stride, l->pad);
    double flops = 2.0 * (double)(l->n * l->k * l->c * l->r * l->r * oh * oh);
    struct in a[] = {T4(l->n, l->k, oh, oh),     T4(l->n, l->c, l->h, l->w),
                     T4(l->k, l->c, l->r, l->r), LIST_IN("[0]"),
                     LIST_IN(ints2(l->stride)),  LIST_IN(ints2(l->pad)),
                     LIST_IN("[1, 1]"),          BOOL_IN("False"),
                     LIST_IN("[0, 0]"),          INT_IN("1"),
                     SC("GenericList", "")};

    bwd_open(g, th, EVAL("ConvolutionBackward0"), "ConvolutionBackward0",
             st->seq, st->flow);
    op_begin(g, th, C_OP, "aten::convolution_backward", a, 11);
    if (oh <= 14) /* split-K wgrad zeroes its accumulator */
        copy_op(g, th, "Memset (Device)", l->k * l->c * l->r * l->r * 4, 1200.0,
                1);
    if (!l->first) {
        grad_alloc(g, th, elems(l) * 4);
        launch(g, th, &K_DGRAD, flops, STREAM_COMPUTE, 0, NULL);
    }
    launch(g, th, &K_WGRAD, flops, STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 10000, 25000));
    bwd_close(g, th);
    bwd_accumulate(g, th, l->n_params);
}

/* A node with one inner op and up to two kernels. */
static void
bwd_simple(struct gen *g, struct thr *th, const struct layer *l,
           const struct lstate *st, const char *node, const char *eval,
           const char *inner, const struct kdef *k1, const struct kdef *k2,
           double work)
{
    struct in a[] = {tensor_of(l), tensor_of(l)};

    bwd_open(g, th, eval, node, st->seq, st->flow);
    if (inner != NULL)
        op_begin(g, th, C_OP, inner, a, 2);
    if (k1 != NULL) {
        grad_alloc(g, th, elems(l) * 4);
        launch(g, th, k1, work, STREAM_COMPUTE, 0, NULL);
    }
    if (k2 != NULL)
        launch(g, th, k2, work / 2, STREAM_COMPUTE, 0, NULL);
    if (inner != NULL)
        op_end(g, th, jit(g, 3000, 8000));
    bwd_close(g, th);
}

/* A transpose as PyTorch records it: aten::t / aten::transpose chain. */
static void
op_transpose(struct gen *g, struct thr *th, const char *name, struct in x)
{
    struct in a[] = {x, INT_IN("0"), INT_IN("1")};

    op_begin(g, th, C_OP, name, a, strcmp(name, "aten::t") == 0 ? 1 : 3);
    op_leaf(g, th, "aten::as_strided", a, 1);
    op_end(g, th, jit(g, 500, 1500));
}

static void
bwd_linear(struct gen *g, struct thr *th, const struct layer *l,
           const struct lstate *st)
{
    int64_t rows = l->n * l->c;
    double flops = 2.0 * (double)(rows * l->w * l->k);
    struct in go = T2(rows, l->k), w = T2(l->k, l->w), x = T2(rows, l->w);
    struct in mm_in[] = {go, w}, mm_w[] = {T2(l->k, rows), x};
    struct in sum[] = {go, LIST_IN("[0]"), BOOL_IN("True"), NONE_IN};

    bwd_open(g, th, EVAL("AddmmBackward0"), "AddmmBackward0", st->seq,
             st->flow);
    op_transpose(g, th, "aten::t", w);
    op_begin(g, th, C_OP, "aten::mm", mm_in, 2);
    grad_alloc(g, th, rows * l->w * 4);
    launch(g, th, &K_SGEMM_NN, flops, STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 4000, 9000));
    op_transpose(g, th, "aten::t", go);
    op_begin(g, th, C_OP, "aten::mm", mm_w, 2);
    launch(g, th, &K_SGEMM_NT, flops, STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 4000, 9000));
    op_begin(g, th, C_OP, "aten::sum", sum, 4);
    launch(g, th, &K_SUM, 4.0 * (double)(rows * l->k), STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 3000, 7000));
    bwd_close(g, th);
    op_begin(g, th, C_OP, EVAL("TBackward0"), NULL, 0);
    op_begin(g, th, C_OP, "TBackward0", NULL, 0);
    op_transpose(g, th, "aten::t", w);
    op_end(g, th, jit(g, 1000, 3000));
    op_end(g, th, jit(g, 1000, 3000));
    bwd_accumulate(g, th, l->k * l->w);
    bwd_accumulate(g, th, l->k);
}

static void
bwd_bmm(struct gen *g, struct thr *th, const struct layer *l,
        const struct lstate *st)
{
    double flops = 2.0 * (double)(l->n * l->c * l->w * l->k);
    struct in a[] = {T3(l->n, l->c, l->k), T3(l->n, l->k, l->w)};

    bwd_open(g, th, EVAL("BmmBackward0"), "BmmBackward0", st->seq, st->flow);
    op_transpose(g, th, "aten::transpose", a[1]);
    op_begin(g, th, C_OP, "aten::bmm", a, 2);
    grad_alloc(g, th, elems(l) * 4);
    launch(g, th, &K_BMM, flops, STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 3000, 7000));
    op_transpose(g, th, "aten::transpose", a[0]);
    op_begin(g, th, C_OP, "aten::bmm", a, 2);
    launch(g, th, &K_BMM, flops, STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 3000, 7000));
    bwd_close(g, th);
}

static void
bwd_loss(struct gen *g, struct thr *th, const struct layer *l,
         const struct lstate *st)
{
    struct in x = T2(l->n, l->w), a[] = {T1(1), x};
    struct in fill[] = {x, SC("Scalar", "0")};

    bwd_open(g, th, EVAL("NllLossBackward0"), "NllLossBackward0", st->seq + 1,
             st->flow + 1);
    op_begin(g, th, C_OP, "aten::nll_loss_backward", a, 2);
    grad_alloc(g, th, elems(l) * 4);
    op_begin(g, th, C_OP, "aten::zero_", fill, 1);
    op_begin(g, th, C_OP, "aten::fill_", fill, 2);
    launch(g, th, &K_FILL, 4.0 * (double)elems(l), STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 1000, 3000));
    op_end(g, th, jit(g, 1000, 3000));
    launch(g, th, &K_NLL_BW, 8.0 * (double)l->n, STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 3000, 6000));
    bwd_close(g, th);
    bwd_simple(g, th, l, st, "LogSoftmaxBackward0", EVAL("LogSoftmaxBackward0"),
               "aten::_log_softmax_backward_data", &K_LOGSOFTMAX_BW, NULL,
               12.0 * (double)elems(l));
}

static void
bwd_maxpool(struct gen *g, struct thr *th, const struct layer *l,
            const struct lstate *st)
{
    struct in x = tensor_of(l), fill[] = {x, SC("Scalar", "0")};

    bwd_open(g, th, EVAL("MaxPool2DWithIndicesBackward0"),
             "MaxPool2DWithIndicesBackward0", st->seq, st->flow);
    op_begin(g, th, C_OP, "aten::max_pool2d_with_indices_backward", fill, 1);
    grad_alloc(g, th, elems(l) * 4);
    op_begin(g, th, C_OP, "aten::zero_", fill, 1);
    op_begin(g, th, C_OP, "aten::fill_", fill, 2);
    launch(g, th, &K_FILL, 4.0 * (double)elems(l), STREAM_COMPUTE, 0, NULL);
    op_end(g, th, jit(g, 1000, 3000));
    op_end(g, th, jit(g, 1000, 3000));
    launch(g, th, &K_MAXPOOL_BW, 6.0 * (double)elems(l), STREAM_COMPUTE, 0,
           NULL);
    op_end(g, th, jit(g, 3000, 6000));
    bwd_close(g, th);
}

static void
bwd_view(struct gen *g, struct thr *th, const struct layer *l,
         const struct lstate *st, const char *node, const char *eval,
         const char *outer, const char *inner)
{
    struct in a[] = {tensor_of(l), LIST_IN("")};

    bwd_open(g, th, eval, node, st->seq, st->flow);
    op_begin(g, th, C_OP, outer, a, 2);
    op_leaf(g, th, inner, a, 2);
    op_end(g, th, jit(g, 1000, 3000));
    bwd_close(g, th);
}

static void
bwd_layer(struct gen *g, struct thr *th, const struct layer *l,
          const struct lstate *st)
{
    double ew = 12.0 * (double)elems(l);

    switch (l->kind) {
    case LK_CONV:
        bwd_conv(g, th, l, st);
        break;
    case LK_BN:
        bwd_simple(g, th, l, st, "CudnnBatchNormBackward0",
                   EVAL("CudnnBatchNormBackward0"),
                   "aten::cudnn_batch_norm_backward", &K_BN_BW, NULL, ew);
        bwd_accumulate(g, th, l->c);
        bwd_accumulate(g, th, l->c);
        break;
    case LK_RELU:
        bwd_simple(g, th, l, st, "ReluBackward0", EVAL("ReluBackward0"),
                   "aten::threshold_backward", &K_RELU_BW, NULL, ew);
        break;
    case LK_MAXPOOL:
        bwd_maxpool(g, th, l, st);
        break;
    case LK_ADD:
        bwd_simple(g, th, l, st, "AddBackward0", EVAL("AddBackward0"), NULL,
                   NULL, NULL, 0);
        break;
    case LK_FLATTEN:
    case LK_RESHAPE:
        bwd_view(g, th, l, st, "ViewBackward0", EVAL("ViewBackward0"),
                 "aten::reshape", "aten::view");
        break;
    case LK_TRANSPOSE:
        bwd_view(g, th, l, st, "TransposeBackward0", EVAL("TransposeBackward0"),
                 "aten::transpose", "aten::as_strided");
        break;
    case LK_LINEAR:
        bwd_linear(g, th, l, st);
        break;
    case LK_LAYERNORM:
        bwd_simple(g, th, l, st, "NativeLayerNormBackward0",
                   EVAL("NativeLayerNormBackward0"),
                   "aten::native_layer_norm_backward", &K_LN_BW, &K_LN_GB, ew);
        bwd_accumulate(g, th, l->w);
        bwd_accumulate(g, th, l->w);
        break;
    case LK_BMM:
        bwd_bmm(g, th, l, st);
        break;
    case LK_SOFTMAX:
        bwd_simple(g, th, l, st, "SoftmaxBackward0", EVAL("SoftmaxBackward0"),
                   "aten::_softmax_backward_data", &K_SOFTMAX_BW, NULL, ew);
        break;
    case LK_GELU:
        bwd_simple(g, th, l, st, "GeluBackward0", EVAL("GeluBackward0"),
                   "aten::gelu_backward", &K_GELU_BW, NULL, ew);
        break;
    case LK_MEAN:
        bwd_simple(g, th, l, st, "MeanBackward1", EVAL("MeanBackward1"),
                   "aten::div", &K_DIV, NULL, ew);
        break;
    case LK_LOSS:
        bwd_loss(g, th, l, st);
        break;
    }
}

/* loss.backward(): the autograd thread runs every node in reverse; the
 * main thread waits.  DDP flushes its last bucket at the end. */
static void
backward(struct gen *g)
{
    struct thr *th = &g->bwd_t;

    th->now = max64(th->now, g->main_t.now + jit(g, 20000, 60000));
    for (int i = g->n_layers - 1; i >= 0; i--) {
        bwd_layer(g, th, &g->layers[i], &g->ls[i]);
        mem_free(g, th, 1, g->ls[i].addr, g->ls[i].bytes);
        g->ls[i].addr = 0;
    }
    if (g->bucket_elems > 0 && g->o->ranks > 1)
        allreduce(g, th, g->bucket_elems);
    g->bucket_elems = 0;
    mem_free(g, th, 1, g->grad_addr, g->grad_bytes);
    g->grad_addr = 0;
    g->main_t.now = th->now + jit(g, 10000, 40000);
}

/* ------------------------------------------------------------------ */
/* The rest of a step: input pipeline, optimizer, loss.item(). */

/* The DataLoader collates a batch on the CPU (python time dominates). */
static uint64_t
dataloader(struct gen *g, struct thr *th, int64_t bytes)
{
    struct in st[] = {SC("GenericList", ""), INT_IN("0")};
    uint64_t addr;

    op_begin(g, th, C_USER,
             "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
             NULL, 0);
    th->now += jit(g, 1500000, 4500000);
    op_begin(g, th, C_OP, "aten::stack", st, 2);
    op_begin(g, th, C_OP, "aten::cat", st, 2);
    addr = mem_alloc(g, th, 0, bytes);
    th->now += bytes / 6;
    op_end(g, th, jit(g, 2000, 5000));
    op_end(g, th, jit(g, 3000, 9000));
    op_begin(g, th, C_OP, "aten::stack", st, 2);
    op_leaf(g, th, "aten::cat", st, 2);
    op_end(g, th, jit(g, 3000, 9000));
    op_end(g, th, jit(g, 100000, 400000));
    return addr;
}

/* x.to(device): aten::to > aten::_to_copy > empty_strided, copy_. */
static uint64_t
to_device(struct gen *g, struct thr *th, struct in x, int64_t bytes)
{
    struct in a[] = {
        x,       INT_IN("6"),      NONE_IN,          SC("Device", "cuda:0"),
        NONE_IN, BOOL_IN("False"), BOOL_IN("False"), NONE_IN};
    struct in cp[] = {x, x, BOOL_IN("False")};
    uint64_t addr;

    op_begin(g, th, C_OP, "aten::to", a, 8);
    op_begin(g, th, C_OP, "aten::_to_copy", a, 8);
    op_begin(g, th, C_OP, "aten::empty_strided", a, 6);
    addr = mem_alloc(g, th, 1, bytes);
    op_end(g, th, jit(g, 2000, 6000));
    op_begin(g, th, C_OP, "aten::copy_", cp, 3);
    copy_op(g, th, "Memcpy HtoD (Pageable -> Device)", bytes, 11.5, 0);
    op_end(g, th, jit(g, 3000, 8000));
    op_end(g, th, jit(g, 2000, 5000));
    op_end(g, th, jit(g, 2000, 5000));
    return addr;
}

/* SGD with momentum through the foreach kernels, in chunks. */
static void
optimizer_step(struct gen *g, struct thr *th)
{
    static const char *const names[] = {
        "aten::_foreach_mul_", "aten::_foreach_add_", "aten::_foreach_add_"};
    struct in a[] = {SC("TensorList", ""), SC("Scalar", "0.9")};
    int64_t chunks = g->n_param_tensors / 48 + 1;
    double bytes = 12.0 * (double)g->total_params / (double)chunks;

    op_begin(g, th, C_USER, "Optimizer.step#SGD.step", NULL, 0);
    for (int i = 0; i < 3; i++) {
        op_begin(g, th, C_OP, names[i], a, 2);
        for (int64_t c = 0; c < chunks; c++)
            launch(g, th, i == 0 ? &K_FOREACH_MUL : &K_FOREACH_ADD, bytes,
                   STREAM_COMPUTE, 0, NULL);
        op_end(g, th, jit(g, 20000, 60000));
    }
    op_end(g, th, jit(g, 50000, 150000));
}

/* loss.item(): a 4-byte DtoH copy that waits for the whole step. */
static void
loss_item(struct gen *g, struct thr *th)
{
    struct in a[] = {T1(1)};

    op_begin(g, th, C_OP, "aten::item", a, 1);
    op_begin(g, th, C_OP, "aten::_local_scalar_dense", a, 1);
    copy_op(g, th, "Memcpy DtoH (Device -> Pageable)", 4, 9.0, 0);
    stream_sync(g, th);
    op_end(g, th, jit(g, 3000, 8000));
    op_end(g, th, jit(g, 2000, 5000));
}

static void
step(struct gen *g, int64_t step_no)
{
    struct thr *th = &g->main_t;
    int64_t b = g->o->batch, img = b * 3 * 224 * 224 * 4;
    struct in x = T4(b, 3, 224, 224), y = {"long", 1, {b, 0, 0, 0}, ""};
    char name[48];
    uint64_t cpu_addr, x_addr, y_addr;

    snprintf(name, sizeof(name), "ProfilerStep#%" PRId64, step_no);
    g->gmem.next = g->gmem.base;
    g->cmem.next = g->cmem.base;
    op_begin(g, th, C_USER, name, NULL, 0);
    cpu_addr = dataloader(g, th, img);
    x_addr = to_device(g, th, x, img);
    y_addr = to_device(g, th, y, b * 8);
    mem_free(g, th, 0, cpu_addr, img);
    if (g->o->python)
        py_begin(g, th, "train.py(88): train_step", -1, -1);
    op_begin(g, th, C_USER, "Optimizer.zero_grad#SGD.zero_grad", NULL, 0);
    op_end(g, th, jit(g, 30000, 90000));
    if (g->o->ranks > 1)
        op_begin(g, th, C_USER, "DistributedDataParallel.forward", NULL, 0);
    for (int i = 0; i < g->n_layers; i++) {
        g->ls[i].seq = g->next_seq;
        g->next_seq += g->layers[i].kind == LK_LOSS ? 2 : 1;
        g->ls[i].flow = g->next_flow;
        g->next_flow += g->layers[i].kind == LK_LOSS ? 2 : 1;
        if (!g->o->python)
            fwd_layer(g, th, &g->layers[i], &g->ls[i]);
    }
    if (g->o->python)
        py_forward(g, th);
    if (g->o->ranks > 1)
        op_end(g, th, jit(g, 20000, 50000));
    backward(g);
    if (g->o->ranks > 1) { /* DDP: compute waits for the last all-reduce */
        runtime_only(g, th, "cudaStreamWaitEvent", 146);
        g->stream_free[0] = max64(g->stream_free[0], g->stream_free[1]);
    }
    optimizer_step(g, th);
    loss_item(g, th);
    if (g->o->python)
        py_end(g, th, 1);
    mem_free(g, th, 1, y_addr, b * 8);
    mem_free(g, th, 1, x_addr, img);
    op_end(g, th, jit(g, 20000, 60000));
    th->now += jit(g, 50000, 200000);
}

/* ------------------------------------------------------------------ */
/* File header and trailer. */

static void
write_device(struct gen *g, int id)
{
    struct txt *t = &g->s->t;

    TXT_LIT(t, "    {\n      \"id\": ");
    txt_i64(t, id);
    if (g->old)
        TXT_LIT(t, ", \"name\": \"Tesla V100-SXM2-32GB\", \"totalGlobalMem\": "
                   "34089730048,\n      \"computeMajor\": 7, "
                   "\"computeMinor\": 0,\n      \"maxThreadsPerBlock\": 1024,"
                   " \"maxThreadsPerMultiprocessor\": 2048,\n      "
                   "\"regsPerBlock\": 65536, \"regsPerMultiprocessor\": "
                   "65536, \"warpSize\": 32,\n      \"sharedMemPerBlock\": "
                   "49152, \"sharedMemPerMultiprocessor\": 98304,\n      "
                   "\"numSms\": 80, \"sharedMemPerBlockOptin\": 98304\n    }");
    else
        TXT_LIT(t, ", \"name\": \"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": "
                   "85097971712,\n      \"computeMajor\": 8, "
                   "\"computeMinor\": 0,\n      \"maxThreadsPerBlock\": 1024,"
                   " \"maxThreadsPerMultiprocessor\": 2048,\n      "
                   "\"regsPerBlock\": 65536, \"regsPerMultiprocessor\": "
                   "65536, \"warpSize\": 32,\n      \"sharedMemPerBlock\": "
                   "49152, \"sharedMemPerMultiprocessor\": 167936,\n      "
                   "\"numSms\": 108, \"sharedMemPerBlockOptin\": 166912, "
                   "\"maxSharedMemoryPerMultiProcessor\": 167936\n    }");
}

static void
write_dist_info(struct gen *g)
{
    struct txt *t = &g->s->t;
    int n = g->o->ranks;

    TXT_LIT(t, "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
    txt_i64(t, g->rank);
    TXT_LIT(t, ", \"world_size\": ");
    txt_i64(t, n);
    if (!g->old) {
        TXT_LIT(t, ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", "
                   "\"pg_desc\": \"default_pg\", \"backend_config\": "
                   "\"cuda:nccl\", \"pg_size\": ");
        txt_i64(t, n);
        TXT_LIT(t, ", \"ranks\": [");
        for (int r = 0; r < n; r++) {
            if (r)
                TXT_LIT(t, ", ");
            txt_i64(t, r);
        }
        TXT_LIT(t, "]}], \"nccl_version\": \"2.20.5\"");
    }
    TXT_LIT(t, "},\n");
}

static void
write_header(struct gen *g)
{
    struct txt *t = &g->s->t;
    int n_dev = g->o->ranks < 8 ? g->o->ranks : 8;

    TXT_LIT(t, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n");
    for (int i = 0; i < n_dev; i++) {
        if (i)
            TXT_LIT(t, ",\n");
        write_device(g, i);
    }
    TXT_LIT(t, "\n  ],\n");
    if (!g->old) {
        TXT_LIT(t, "  \"record_shapes\": 1,\n");
        if (g->o->memory)
            TXT_LIT(t, "  \"profile_memory\": 1,\n");
        if (g->o->stack || g->o->python)
            TXT_LIT(t, "  \"with_stack\": 1,\n");
    }
    if (g->o->ranks > 1)
        write_dist_info(g);
    TXT_LIT(t, "  \"displayTimeUnit\": \"ms\",\n");
    if (g->o->base_time) {
        TXT_LIT(t, "  \"baseTimeNanoseconds\": ");
        txt_i64(t, g->base_ns);
        TXT_LIT(t, ",\n");
    }
    TXT_LIT(t, "  \"traceEvents\": [\n");
}

/* A metadata (M) event; quoted is for old traces' string tids. */
static void
ev_meta(struct gen *g, const char *name, int64_t pid, int64_t tid,
        const char *key, const char *sval, int64_t ival)
{
    struct txt *t = ev_open(g);

    TXT_LIT(t, "\"name\": \"");
    txt_str(t, name);
    TXT_LIT(t, "\", \"ph\": \"M\", ");
    ev_ts(g, "\"ts\": ", g->t0 - g->base_ns);
    TXT_LIT(t, ", \"pid\": ");
    txt_i64(t, pid);
    TXT_LIT(t, ", \"tid\": ");
    txt_i64(t, tid);
    TXT_LIT(t, ",\n    \"args\": {\n      \"");
    txt_str(t, key);
    TXT_LIT(t, "\": ");
    if (sval != NULL) {
        TXT_LIT(t, "\"");
        txt_str(t, sval);
        TXT_LIT(t, "\"");
    } else {
        txt_i64(t, ival);
    }
    TXT_LIT(t, "\n    }\n  }");
}

static void
write_metadata(struct gen *g)
{
    const char *proc = g->old ? "python" : "python3.10";
    char buf[64];
    int64_t tids[2] = {g->main_t.tid, g->bwd_t.tid};
    int streams[2] = {STREAM_COMPUTE, STREAM_NCCL};
    int n_streams = g->o->ranks > 1 ? 2 : 1;

    ev_meta(g, "process_name", g->pid, 0, "name", proc, 0);
    ev_meta(g, "process_labels", g->pid, 0, "labels", "CPU", 0);
    ev_meta(g, "process_sort_index", g->pid, 0, "sort_index", NULL, g->pid);
    ev_meta(g, "process_name", g->device, 0, "name", proc, 0);
    snprintf(buf, sizeof(buf), "GPU %d", g->device);
    ev_meta(g, "process_labels", g->device, 0, "labels", buf, 0);
    ev_meta(g, "process_sort_index", g->device, 0, "sort_index", NULL,
            0x1000000 + g->device);
    for (int i = 0; i < n_streams; i++) {
        snprintf(buf, sizeof(buf), g->old ? "stream %d" : "stream %d ",
                 streams[i]);
        ev_meta(g, "thread_name", g->device, streams[i], "name", buf, 0);
        ev_meta(g, "thread_sort_index", g->device, streams[i], "sort_index",
                NULL, streams[i]);
    }
    for (int i = 0; i < 2; i++) {
        snprintf(buf, sizeof(buf), "thread %" PRId64 " (%s)", tids[i],
                 i == 0 ? proc : "pt_autograd_0");
        ev_meta(g, "thread_name", g->pid, tids[i], "name", buf, 0);
        ev_meta(g, "thread_sort_index", g->pid, tids[i], "sort_index", NULL,
                tids[i]);
    }
}

/* Metadata, the profiler span and the record-window instants; kineto
 * writes these last.  traceName is fixed by the arguments, not the path. */
static void
write_trailer(struct gen *g, int64_t end, const char *trace_name)
{
    struct txt *t;

    write_metadata(g);
    t = ev_open(g);
    TXT_LIT(t, "\"ph\": \"X\", \"cat\": \"Trace\", ");
    ev_ts(g, "\"ts\": ", g->t0 - g->base_ns);
    ev_ts(g, ", \"dur\": ", end - g->t0);
    TXT_LIT(t, ",\n    \"pid\": ");
    txt_str(t, g->old ? "\"Traces\"" : "\"Spans\"");
    TXT_LIT(t, ", \"tid\": \"PyTorch Profiler\",\n    \"name\": \"PyTorch "
               "Profiler (0)\",\n    \"args\": {\n      \"Op count\": 0\n    "
               "}\n  }");
    t = ev_open(g);
    TXT_LIT(t, "\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": "
               "\"i\", \"s\": \"g\",\n    \"pid\": \"Traces\", \"tid\": "
               "\"Trace PyTorch Profiler\", ");
    ev_ts(g, "\"ts\": ", g->t0 - g->base_ns);
    TXT_LIT(t, "\n  }");
    t = ev_open(g);
    TXT_LIT(t, "\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\","
               "\n    \"pid\": \"\", \"tid\": \"\", ");
    ev_ts(g, "\"ts\": ", end + 1000 - g->base_ns);
    TXT_LIT(t, "\n  }\n],\n  \"traceName\": \"");
    txt_str(t, trace_name);
    TXT_LIT(t, "\"\n}\n");
}

/* ------------------------------------------------------------------ */
/* One rank's file. */

#define EPOCH_NS INT64_C(1714521600000000000) /* 2024-05-01T00:00:00Z */

/* Profiler start shared by all ranks; it also names the files (span). */
static int64_t
start_ns(const struct opts *o)
{
    return EPOCH_NS + (int64_t)(o->seed % 1000) * INT64_C(3600000000000) +
           INT64_C(123456789);
}

static void
gen_init(struct gen *g, const struct opts *o, int rank, struct sink *s)
{
    g->o = o;
    g->s = s;
    g->rank = rank;
    g->old = o->fmt == FMT_2021;
    g->rng = o->seed * 0x2545f4914f6cdd1dull + (uint64_t)rank * 7919u + 1u;
    g->device = rank % 8;
    g->pid = 1000 + (int64_t)(rng_next(&g->rng) % 3000000);
    g->t0 = start_ns(o) + (int64_t)rank * jit(g, 50000, 900000);
    g->base_ns = o->base_time ? start_ns(o) / 1000000000 * 1000000000 : 0;
    g->speed = rank == 0 ? 1.0 : 0.97 + 0.06 * rng_unit(g);
    g->next_ext = 1;
    g->next_corr = 1 + (int64_t)(rng_next(&g->rng) % 5000);
    g->next_rf = 1;
    g->next_flow = 1;
    g->main_t.tid = g->pid;
    g->bwd_t.tid = g->pid + 100 + (int64_t)(rng_next(&g->rng) % 9000);
    g->main_t.now = g->t0 + jit(g, 200000, 600000);
    g->bwd_t.now = g->t0;
    g->stream_free[0] = g->t0;
    g->stream_free[1] = g->t0;
    g->gmem.base = 0x7f4a00000000ull + ((uint64_t)g->device << 36);
    g->cmem.base = 0x55a000000000ull;
    model_build(g);
    /* parameters, gradients and momentum live for the whole run */
    g->gmem.allocated = g->total_params * 12;
    g->gmem.reserved = (g->gmem.allocated / (2 << 20) + 11) * (2 << 20);
}

/* Writes one rank's trace.  With o->size_bytes, *steps is set to the
 * number of steps needed; otherwise *steps steps are written.  Returns 0,
 * or -1 if the file could not be written. */
static int
gen_rank(const struct opts *o, int rank, const char *path,
         const char *trace_name, int64_t *steps, uint64_t *n_bytes,
         int64_t *n_events)
{
    struct sink s;
    struct gen *g = calloc(1, sizeof(*g));
    int64_t k, end;
    int rc;

    if (g == NULL || sink_open(&s, path, o->gzip, o->level) != 0) {
        free(g);
        return -1;
    }
    gen_init(g, o, rank, &s);
    write_header(g);
    for (k = 0; o->size_bytes > 0 && rank == 0 ? sink_bytes(&s) < o->size_bytes
                                               : k < *steps;
         k++)
        step(g, k + 2); /* the profiler schedule skipped wait+warmup */
    *steps = k;
    end = max64(g->main_t.now, max64(g->stream_free[0], g->stream_free[1]));
    write_trailer(g, end + jit(g, 5000, 20000), trace_name);
    *n_bytes = sink_bytes(&s);
    *n_events = g->n_events;
    rc = sink_close(&s);
    free(g);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Command line. */

static const char usage_text[] =
    "usage: gen_trace [options]\n"
    "Writes a synthetic PyTorch profiler (Kineto) trace, the same bytes for\n"
    "the same arguments.\n"
    "  -o, --output PATH   output file, '-' for stdout (default); with\n"
    "                      --ranks > 1 a directory, created if missing, that\n"
    "                      gets rank{r}.{span}.pt.trace.json[.gz]\n"
    "  --steps N           profiler steps per rank (default 5)\n"
    "  --size-mb N         instead: add steps until the uncompressed output\n"
    "                      reaches N MB (10^6 bytes; per rank file)\n"
    "  --ranks R           DDP run over R ranks with NCCL all-reduce (1-256)\n"
    "  --seed S            PRNG seed (default 1)\n"
    "  --gzip              gzip output (rank files get .gz)\n"
    "  --level N           gzip level 1-9 (default 6)\n"
    "  --format F          'current' (default: PyTorch 2.x) or '2021'\n"
    "                      (PyTorch 1.8: Operator/Runtime/Kernel, integer ts)\n"
    "  --memory            [memory] allocation and free events\n"
    "  --stack             \"Call stack\" args on forward ops\n"
    "  --python            python_function frames around the forward ops\n"
    "                      and each step's train_step (not with 2021)\n"
    "  --base-time         write baseTimeNanoseconds, ts relative to it\n"
    "  --blocks N          residual blocks in the CNN (1-64, default 8)\n"
    "  --attn N            attention blocks (0-32, default 2)\n"
    "  --batch N           batch size (1-4096, default 32)\n"
    "  --stats             print size and throughput to stderr\n"
    "  -h, --help          this text\n";

enum {
    OPT_STEPS = 256,
    OPT_SIZE,
    OPT_RANKS,
    OPT_SEED,
    OPT_GZIP,
    OPT_LEVEL,
    OPT_FORMAT,
    OPT_MEMORY,
    OPT_STACK,
    OPT_PYTHON,
    OPT_BASE,
    OPT_BLOCKS,
    OPT_ATTN,
    OPT_BATCH,
    OPT_STATS
};

static const struct option long_opts[] = {
    {"output", required_argument, NULL, 'o'},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"size-mb", required_argument, NULL, OPT_SIZE},
    {"ranks", required_argument, NULL, OPT_RANKS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"gzip", no_argument, NULL, OPT_GZIP},
    {"level", required_argument, NULL, OPT_LEVEL},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"memory", no_argument, NULL, OPT_MEMORY},
    {"stack", no_argument, NULL, OPT_STACK},
    {"python", no_argument, NULL, OPT_PYTHON},
    {"base-time", no_argument, NULL, OPT_BASE},
    {"blocks", required_argument, NULL, OPT_BLOCKS},
    {"attn", required_argument, NULL, OPT_ATTN},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"stats", no_argument, NULL, OPT_STATS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

/* The long name of option c, for error messages. */
static const char *
opt_name(int c)
{
    for (const struct option *p = long_opts; p->name != NULL; p++) {
        if (p->val == c)
            return p->name;
    }
    return "?";
}

/* Parses a decimal integer in [lo, hi]; returns -1 on anything else. */
static int
parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    long long v;

    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = (int64_t)v;
    return 0;
}

static int
set_int_opt(struct opts *o, int c, const char *arg)
{
    int64_t v;
    int64_t lo = c == OPT_ATTN || c == OPT_SEED ? 0 : 1;
    int64_t hi = c == OPT_RANKS    ? 256
                 : c == OPT_LEVEL  ? 9
                 : c == OPT_BLOCKS ? 64
                 : c == OPT_ATTN   ? 32
                 : c == OPT_BATCH  ? 4096
                 : c == OPT_SIZE   ? 1000000
                                   : INT64_C(1000000000000);

    if (parse_int(arg, lo, hi, &v) != 0)
        return -1;
    switch (c) {
    case OPT_STEPS:
        o->steps = v;
        break;
    case OPT_SIZE:
        o->size_bytes = (uint64_t)v * 1000000u;
        break;
    case OPT_RANKS:
        o->ranks = (int)v;
        break;
    case OPT_SEED:
        o->seed = (uint64_t)v;
        break;
    case OPT_LEVEL:
        o->level = (int)v;
        break;
    case OPT_BLOCKS:
        o->blocks = (int)v;
        break;
    case OPT_ATTN:
        o->attn = (int)v;
        break;
    default:
        o->batch = (int)v;
        break;
    }
    return 0;
}

/* Fills o from argv; returns 0, 1 for --help, -1 after printing an error. */
static int
parse_args(struct opts *o, int argc, char **argv)
{
    int c, have_steps = 0;

    *o = (struct opts){.steps = 5,
                       .ranks = 1,
                       .seed = 1,
                       .level = 6,
                       .blocks = 8,
                       .attn = 2,
                       .batch = 32,
                       .out = "-"};
    while ((c = getopt_long(argc, argv, "o:h", long_opts, NULL)) != -1) {
        if (c == 'h')
            return 1;
        if (c == '?')
            return -1;
        if (c == 'o')
            o->out = optarg;
        else if (c == OPT_GZIP)
            o->gzip = 1;
        else if (c == OPT_MEMORY)
            o->memory = 1;
        else if (c == OPT_STACK)
            o->stack = 1;
        else if (c == OPT_PYTHON)
            o->python = 1;
        else if (c == OPT_BASE)
            o->base_time = 1;
        else if (c == OPT_STATS)
            o->stats = 1;
        else if (c == OPT_FORMAT && strcmp(optarg, "current") == 0)
            o->fmt = FMT_CURRENT;
        else if (c == OPT_FORMAT && strcmp(optarg, "2021") == 0)
            o->fmt = FMT_2021;
        else if (c != OPT_FORMAT && set_int_opt(o, c, optarg) == 0)
            have_steps |= c == OPT_STEPS;
        else {
            fprintf(stderr, "gen_trace: bad value for --%s: '%s'\n",
                    opt_name(c), optarg);
            return -1;
        }
    }
    if (optind < argc || (have_steps && o->size_bytes > 0) ||
        (o->ranks > 1 && strcmp(o->out, "-") == 0) ||
        (o->python && o->fmt == FMT_2021)) {
        fprintf(stderr, "gen_trace: %s\n",
                optind < argc ? "unexpected argument"
                : o->python && o->fmt == FMT_2021
                    ? "--python needs --format current (PyTorch 1.8 traces "
                      "have no python_function events)"
                : o->ranks > 1 ? "--ranks needs -o DIR"
                               : "--steps and --size-mb exclude each other");
        return -1;
    }
    return 0;
}

static double
now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes every rank's file; rank 0 fixes the step count for the rest. */
static int
run(const struct opts *o)
{
    char path[4096], name[128];
    int64_t steps = o->steps, n_events;
    uint64_t n_bytes = 0;
    double t = now_s();

    if (o->ranks > 1 && mkdir(o->out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gen_trace: %s: %s\n", o->out, strerror(errno));
        return 1;
    }
    for (int r = 0; r < o->ranks; r++) {
        snprintf(name, sizeof(name), "rank%d.%" PRId64 ".pt.trace.json", r,
                 start_ns(o) / 1000000);
        if (o->ranks > 1 &&
            (size_t)snprintf(path, sizeof(path), "%s/%s%s", o->out, name,
                             o->gzip ? ".gz" : "") >= sizeof(path)) {
            fprintf(stderr, "gen_trace: output path too long\n");
            return 1;
        }
        if (gen_rank(o, r, o->ranks > 1 ? path : o->out, name, &steps, &n_bytes,
                     &n_events) != 0) {
            fprintf(stderr, "gen_trace: %s: write failed: %s\n",
                    o->ranks > 1 ? path : o->out, strerror(errno));
            return 1;
        }
        if (o->stats)
            fprintf(stderr,
                    "gen_trace: rank %d: %" PRId64 " steps, %" PRId64
                    " events, %" PRIu64 " bytes\n",
                    r, steps, n_events, n_bytes);
    }
    if (o->stats) {
        t = now_s() - t;
        fprintf(
            stderr,
            "gen_trace: %.2f s, %.0f MB/s uncompressed (rank 0 size x %d)\n", t,
            (double)n_bytes * o->ranks / 1e6 / t, o->ranks);
    }
    return 0;
}

int
main(int argc, char **argv)
{
    struct opts o;
    int rc = parse_args(&o, argc, argv);

    if (rc == 1) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (rc != 0) {
        fputs("try 'gen_trace --help'\n", stderr);
        return 1;
    }
    return run(&o);
}
