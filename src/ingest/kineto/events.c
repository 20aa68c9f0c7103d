/* events.c - one event's JSON text becomes compact records in a batch
 * (struct pr_recs).  A slim pass first cuts the members nobody reads and
 * takes plain values (strings without escapes, decimal numbers, lists of
 * those) straight from the text; cJSON parses what is left, if anything,
 * and the tree is freed at once.  Runs on parser threads, so it touches only
 * its own batch; reader.c merges batches into the trace.  Field typing
 * lives in fields.c.
 *
 * Tolerated, as Python's json module and the TB plugin do: NaN, Infinity,
 * -Infinity (read as absent) and bare N/A (the string "N/A"); control bytes
 * in strings.  ts/dur that are absent, null or not numbers skip the event
 * (counted in diag); numbers beyond +-2^62 ns are an error.  Events that
 * are not kept (metadata, counters, ac2g flows) are checked for shape only. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../internal.h"
#include "profreport/shapes.h"

/* The members of an event that we read. */
struct ev {
    const cJSON *ph, *cat, *name, *pid, *tid, *ts, *dur, *id, *args;
    const struct raw *raw;
};

/* The args that any analysis reads; everything else is never copied. */
enum arg {
    A_EXT,         /* "External id" */
    A_EXT_LC,      /* "external id" (2021 traces) */
    A_CORR,        /* "correlation" */
    A_DIMS,        /* "Input Dims" */
    A_DIMS_LC,     /* "Input dims" */
    A_TYPES,       /* "Input type" */
    A_CONCRETE,    /* "Concrete Inputs" */
    A_STRIDES,     /* "Input Strides" (PyTorch >= 2.1, record_shapes) */
    A_SEQ,         /* "Sequence number" */
    A_FWD_TID,     /* "Fwd thread id" */
    A_PY_ID,       /* "Python id" */
    A_PY_PARENT,   /* "Python parent id" */
    A_PY_MODULE,   /* "Python module id" */
    A_STACK,       /* "Call stack" (with_stack=True, PyTorch 1.x) */
    A_FLOPS,       /* "flops" */
    A_DEVICE,      /* "device" */
    A_STREAM,      /* "stream" */
    A_GRID,        /* "grid" */
    A_BLOCK,       /* "block" */
    A_REGS,        /* "registers per thread" */
    A_SMEM,        /* "shared memory" */
    A_BPSM,        /* "blocks per SM" */
    A_OCC,         /* "est. achieved occupancy %" */
    A_BYTES,       /* "bytes" (memcpy, memset) */
    A_COLL,        /* "Collective name" (NCCL kernels) */
    A_DTYPE,       /* "dtype" */
    A_IN_NELEMS,   /* "In msg nelems" */
    A_OUT_NELEMS,  /* "Out msg nelems" */
    A_GROUP,       /* "Group size" */
    A_SIZE,        /* "size" (MTIA DMA requests) */
    A_DIRECTION,   /* "direction" (MTIA DMA requests) */
    A_SASS_FFMA,   /* CUPTI SASS counters (cuda_profiler_range), */
    A_SASS_HFMA,   /* full names in arg_names: fp32, fp16 and */
    A_SASS_DFMA,   /* fp64 FMAs count 2 FLOPs each, */
    A_SASS_FMUL,   /* multiplies */
    A_SASS_HMUL,   /* (fp16) */
    A_SASS_DMUL,   /* (fp64) */
    A_SASS_FADD,   /* and adds */
    A_SASS_HADD,   /* (fp16) */
    A_SASS_DADD,   /* (fp64) 1 each */
    A_DEV_TYPE,    /* "Device Type" ([memory]) */
    A_DEV_ID,      /* "Device Id" */
    A_ADDR,        /* "Addr" */
    A_MBYTES,      /* "Bytes" */
    A_TOTAL_ALLOC, /* "Total Allocated" */
    A_TOTAL_RES,   /* "Total Reserved" */
    A_EV_IDX,      /* "Ev Idx": the profiler's index of a host event */
    N_ARGS,
    A_NONE = N_ARGS
};

/* struct raw keeps a bit per arg */
_Static_assert(N_ARGS <= 64, "arg_bits holds one bit per arg");

static const char *const arg_names[N_ARGS] = {
    "External id",
    "external id",
    "correlation",
    "Input Dims",
    "Input dims",
    "Input type",
    "Concrete Inputs",
    "Input Strides",
    "Sequence number",
    "Fwd thread id",
    "Python id",
    "Python parent id",
    "Python module id",
    "Call stack",
    "flops",
    "device",
    "stream",
    "grid",
    "block",
    "registers per thread",
    "shared memory",
    "blocks per SM",
    "est. achieved occupancy %",
    "bytes",
    "Collective name",
    "dtype",
    "In msg nelems",
    "Out msg nelems",
    "Group size",
    "size",
    "direction",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "Device Type",
    "Device Id",
    "Addr",
    "Bytes",
    "Total Allocated",
    "Total Reserved",
    "Ev Idx",
};

/* Top-level members read straight from the event text during slimming,
 * when they are plain (strings without escapes, decimal numbers), so that
 * cJSON need not build nodes for them.  They win over cJSON's. */
enum { RAW_PH, RAW_CAT, RAW_NAME, N_RAW_STR };
enum { RAW_TS, RAW_DUR };
enum { RAW_PID, RAW_TID };

struct raw {
    const char *str[N_RAW_STR]; /* not NUL-terminated; NULL = not raw */
    size_t str_n[N_RAW_STR];
    int has_time[2];
    int64_t time_ns[2];
    const char *id[2]; /* integer text; NULL = not raw */
    size_t id_n[2];
    uint64_t arg_bits; /* 1 << arg: taken raw (see args below) */
    unsigned char arg_isint[N_ARGS];
    int64_t arg_i[N_ARGS];
    double arg_d[N_ARGS];
    int32_t dim[2][3]; /* grid, block */
    const char *stack; /* "Call stack" without escapes; not NUL-terminated */
    size_t stack_n;
};

/* An event's args: cJSON nodes, or values taken raw. */
struct args {
    const cJSON *node[N_ARGS];
    const struct raw *raw;
};

/* ------------------------------------------------------------ pool */

/* The last n (1..7) bytes at p as a word, with fixed-size loads only (a
 * copy of a variable length went through memory and stalled the load
 * after it).  Two loads that may overlap: which bytes land where does not
 * matter, only that equal texts give equal words. */
static uint64_t
tail_word(const char *p, size_t n)
{
    uint32_t a, b;

    if (n >= 4) {
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return (uint64_t)a | (uint64_t)b << 32;
    }
    return (uint64_t)(unsigned char)p[0] |
           (uint64_t)(unsigned char)p[n / 2] << 8 |
           (uint64_t)(unsigned char)p[n - 1] << 16;
}

/* Eight bytes a step: every event interns four to seven strings, some of
 * them 100-byte kernel names, and FNV's byte loop showed in profiles. */
static uint32_t
hash_bytes(const char *s, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w;
    size_t i;

    for (i = 0; i + 8 <= len; i += 8) {
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    if (i < len) {
        w = tail_word(s + i, len - i);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return (uint32_t)(h ^ (h >> 29));
}

static int
pool_rehash(struct pr_pool *p, size_t n_slots)
{
    uint32_t *slots = calloc(n_slots, sizeof(*slots));
    size_t i;

    if (slots == NULL)
        return 0;
    for (i = 0; i < p->n; i++) {
        size_t j = p->ents[i].hash & (n_slots - 1);

        while (slots[j])
            j = (j + 1) & (n_slots - 1);
        slots[j] = (uint32_t)i + 1;
    }
    free(p->slots);
    p->slots = slots;
    p->n_slots = n_slots;
    return 1;
}

/* Intern `len` bytes in the batch pool; PR_STR_NONE on out-of-memory. */
static uint32_t
pool_add(struct pr_pool *p, const char *s, size_t len)
{
    uint32_t h = hash_bytes(s, len);
    struct pr_pool_ent *e;
    size_t j;

    if ((p->n + 1) * 2 > p->n_slots &&
        !pool_rehash(p, p->n_slots ? p->n_slots * 2 : 1024))
        return PR_STR_NONE;
    for (j = h & (p->n_slots - 1); p->slots[j];
         j = (j + 1) & (p->n_slots - 1)) {
        e = &p->ents[p->slots[j] - 1];
        if (e->hash == h && e->len == len &&
            memcmp(p->text.data + e->off, s, len) == 0)
            return p->slots[j] - 1;
    }
    if (len > UINT32_MAX - 1 - p->text.len ||
        pr_grow((void **)&p->ents, &p->cap, p->n + 1, sizeof(*e)) != PR_OK)
        return PR_STR_NONE;
    e = &p->ents[p->n];
    e->off = (uint32_t)p->text.len;
    e->len = (uint32_t)len;
    e->hash = h;
    e->uses = 0;
    if (pr_buf_add(&p->text, s, len) != PR_OK ||
        pr_buf_addc(&p->text, '\0') != PR_OK)
        return PR_STR_NONE;
    p->slots[j] = (uint32_t)++p->n;
    return (uint32_t)p->n - 1;
}

/* pool_add() that first tries the id in *last, the same field's in the
 * event before (its text compared, no hash). */
static uint32_t
pool_add_last(struct pr_pool *p, uint32_t *last, const char *s, size_t len)
{
    const struct pr_pool_ent *e = *last < p->n ? &p->ents[*last] : NULL;

    if (e != NULL && e->len == len &&
        memcmp(p->text.data + e->off, s, len) == 0)
        return *last;
    *last = pool_add(p, s, len);
    return *last;
}

static uint32_t
pool_addz(struct pr_pool *p, const char *s)
{
    return pool_add(p, s, strlen(s));
}

/* ------------------------------------------------------------ recs */

void
pr_recs_init(struct pr_recs *r)
{
    int i;

    memset(r, 0, sizeof(*r));
    pr_buf_init(&r->strs.text, UINT32_MAX - 1);
    pr_buf_init(&r->scratch, 0);
    for (i = 0; i < PR_RECS_PY; i++)
        pr_buf_init(&r->py[i], 0);
}

void
pr_recs_reset(struct pr_recs *r)
{
    r->n_ev = r->n_ops = r->n_gpu = r->n_mem = r->n_flows = r->n_pyids = 0;
    memset(&r->diag, 0, sizeof(r->diag));
    r->n_phased = 0;
    r->has_window_end = 0;
    r->n_ev_idx = 0;
    pr_wheres_reset(&r->wheres);
    pr_wide_ids_reset(&r->wide);
    pr_buf_reset(&r->strs.text);
    r->strs.n = 0;
    memset(r->last, 0xff, sizeof(r->last)); /* PR_STR_NONE: none yet */
    if (r->strs.slots != NULL)
        memset(r->strs.slots, 0, r->strs.n_slots * sizeof(uint32_t));
}

void
pr_recs_free(struct pr_recs *r)
{
    int i;

    if (r == NULL)
        return;
    free(r->ev);
    free(r->ops);
    free(r->pyids);
    free(r->gpu);
    free(r->mem);
    free(r->flows);
    pr_wheres_free(&r->wheres);
    pr_wide_ids_free(&r->wide);
    pr_buf_free(&r->strs.text);
    free(r->strs.ents);
    free(r->strs.slots);
    pr_buf_free(&r->scratch);
    free(r->slim);
    for (i = 0; i < PR_RECS_PY; i++)
        pr_buf_free(&r->py[i]);
}

/* ------------------------------------------------------------ picking */

static int
is_key(const char *k, const char *want)
{
    return strcmp(k, want) == 0;
}

/* `len` bytes at k (not NUL-terminated) equal the string `want`; called
 * for every member of every event, hence no strlen/memcmp calls. */
static int
is_key_n(const char *k, size_t len, const char *want)
{
    size_t i;

    for (i = 0; i < len; i++) {
        if (want[i] == '\0' || want[i] != k[i])
            return 0;
    }
    return want[len] == '\0';
}

/* Which arg a key is.  A table on the first byte keeps this to one or two
 * string compares per arg; traces carry a dozen args per event.  Entries
 * are arg + 1 so that 0 ends a row. */
static enum arg
arg_of(const char *k, size_t len)
{
/* Kineto's instant at the end of the recording window */
#define WINDOW_END "Record Window End"

#define R(...)                                                                 \
    {                                                                          \
        __VA_ARGS__, 0                                                         \
    }
    static const unsigned char first[128][6] = {
        ['E'] = R(A_EXT + 1, A_EV_IDX + 1),
        ['e'] = R(A_EXT_LC + 1, A_OCC + 1),
        ['c'] = R(A_CORR + 1),
        ['I'] = R(A_DIMS + 1, A_DIMS_LC + 1, A_TYPES + 1, A_IN_NELEMS + 1,
                  A_STRIDES + 1),
        ['C'] = R(A_CONCRETE + 1, A_COLL + 1, A_STACK + 1),
        ['O'] = R(A_OUT_NELEMS + 1),
        ['G'] = R(A_GROUP + 1),
        ['S'] = R(A_SEQ + 1),
        ['F'] = R(A_FWD_TID + 1),
        ['P'] = R(A_PY_ID + 1, A_PY_PARENT + 1, A_PY_MODULE + 1),
        ['f'] = R(A_FLOPS + 1),
        ['d'] = R(A_DEVICE + 1, A_DTYPE + 1, A_DIRECTION + 1),
        ['s'] = R(A_STREAM + 1, A_SMEM + 1, A_SIZE + 1),
        ['g'] = R(A_GRID + 1),
        ['b'] = R(A_BLOCK + 1, A_BPSM + 1, A_BYTES + 1),
        ['r'] = R(A_REGS + 1),
        ['D'] = R(A_DEV_TYPE + 1, A_DEV_ID + 1),
        ['A'] = R(A_ADDR + 1),
        ['B'] = R(A_MBYTES + 1),
        ['T'] = R(A_TOTAL_ALLOC + 1, A_TOTAL_RES + 1),
    };
#undef R
    unsigned char c = (unsigned char)k[0];
    size_t i;

    if (len == 0 || c >= 128)
        return A_NONE;
    for (i = 0; i < sizeof(first[0]) && first[c][i] != 0; i++) {
        if (is_key_n(k, len, arg_names[first[c][i] - 1]))
            return (enum arg)(first[c][i] - 1);
    }
    /* the counters share a long prefix: one compare rules out the rest */
    if (len > 6 && memcmp(k, "smsp__", 6) == 0) {
        for (i = A_SASS_FFMA; i <= A_SASS_DADD; i++) {
            if (is_key_n(k, len, arg_names[i]))
                return (enum arg)i;
        }
    }
    return A_NONE;
}

static void
pick_args(const struct ev *e, struct args *a)
{
    const cJSON *c;

    memset(a->node, 0, sizeof(a->node));
    a->raw = e->raw;
    if (!cJSON_IsObject(e->args))
        return;
    for (c = e->args->child; c != NULL; c = c->next) {
        enum arg id = c->string ? arg_of(c->string, strlen(c->string)) : A_NONE;

        if (id != A_NONE)
            a->node[id] = c; /* a repeated key: the last wins, as in Python */
    }
}

static void
pick_event(const cJSON *root, struct ev *e)
{
    const cJSON *c;

    memset(e, 0, sizeof(*e));
    for (c = root ? root->child : NULL; c != NULL; c = c->next) {
        const char *k = c->string ? c->string : "";

        if (is_key(k, "ph"))
            e->ph = c;
        else if (is_key(k, "cat"))
            e->cat = c;
        else if (is_key(k, "name"))
            e->name = c;
        else if (is_key(k, "pid"))
            e->pid = c;
        else if (is_key(k, "tid"))
            e->tid = c;
        else if (is_key(k, "ts"))
            e->ts = c;
        else if (is_key(k, "dur"))
            e->dur = c;
        else if (is_key(k, "id"))
            e->id = c;
        else if (is_key(k, "args"))
            e->args = c;
    }
}

/* ------------------------------------------------------------ slimming */

/* Before cJSON sees an event, the members nobody reads are cut out of its
 * text ("Call stack" alone is most of the bytes of a with_stack trace, and
 * every member costs cJSON a malloc or two), and the shapes and type lists
 * are printed Python-style straight from the text.  Every member, cut or
 * kept, is checked against the JSON grammar of split.c on the way, so this
 * pass, not cJSON, decides whether an event is JSON and where it is not:
 * the same answer whichever members an event has and whichever path its
 * values take. */

struct cur {
    const char *p, *end;
    char *o; /* output: never longer than the input, which it has room for */
    struct pr_recs *r;
    struct raw *raw;
    int esc; /* the last string skipped holds an escape */
};

static int
is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static inline void
skip_ws(struct cur *c)
{
    /* Kineto indents: one space after ':' and ',' is the common case */
    if (c->p < c->end && *c->p == ' ')
        c->p++;
    while (c->p < c->end && is_ws(*c->p))
        c->p++;
}

/* The skip_* functions check what they pass over against the grammar of
 * split.c; on failure c->p is at the offending byte. */

/* c->p is at the opening quote.  c->esc says whether the string holds an
 * escape. */
static int
skip_str(struct cur *c)
{
    const char *p = c->p + 1;
    size_t k;

    c->esc = 0;
    for (;;) {
        p = pr_str_stop(p, c->end);
        if (p == c->end || *p == '"')
            break;
        c->esc = 1;
        k = pr_json_escape_len(p, c->end);
        if (k == 0) {
            /* an unterminated string is blamed on its end, as before */
            c->p = memchr(p, '"', (size_t)(c->end - p)) ? p : c->end;
            return 0;
        }
        p += k;
    }
    c->p = p == c->end ? p : p + 1;
    return p != c->end;
}

/* A number or literal (NaN and friends included). */
static int
skip_scalar(struct cur *c)
{
    const char *start = c->p, *q = pr_json_number_end(c->p, c->end);
    struct pr_jscalar s;
    int r = 1;

    if (q != NULL) {
        c->p = q;
        return 1;
    }
    pr_jscalar_init(&s);
    while (c->p < c->end && (r = pr_jscalar_step(&s, (unsigned char)*c->p)) > 0)
        c->p++;
    if (r >= 0 && pr_jscalar_ok(&s))
        return 1;
    c->p = start; /* blame the token, not the byte after it */
    return 0;
}

static int
skip_container(struct cur *c)
{
    struct pr_jchk k;
    size_t n;
    int r;

    pr_jchk_init(&k);
    r = pr_jchk_feed(&k, c->p, (size_t)(c->end - c->p), &n);
    c->p += r == PR_JCHK_BAD || r == PR_JCHK_DEEP ? (size_t)k.bad : n;
    return r == PR_JCHK_DONE;
}

static int
skip_val(struct cur *c)
{
    if (c->p == c->end)
        return 0;
    if (*c->p == '"')
        return skip_str(c);
    if (*c->p == '{' || *c->p == '[')
        return skip_container(c);
    return skip_scalar(c);
}

/* Top-level members we read; T_OTHER for the rest. */
enum top {
    T_PH,
    T_CAT,
    T_NAME,
    T_PID,
    T_TID,
    T_TS,
    T_DUR,
    T_ID,
    T_ARGS,
    T_OTHER
};

/* Which top-level member a key is; runs for every member of every event,
 * hence the switch on the first byte. */
static enum top
top_of(const char *k, size_t len)
{
    switch (len ? k[0] : 0) {
    case 'p':
        return is_key_n(k, len, "ph")    ? T_PH
               : is_key_n(k, len, "pid") ? T_PID
                                         : T_OTHER;
    case 'c':
        return is_key_n(k, len, "cat") ? T_CAT : T_OTHER;
    case 'n':
        return is_key_n(k, len, "name") ? T_NAME : T_OTHER;
    case 't':
        return is_key_n(k, len, "tid")  ? T_TID
               : is_key_n(k, len, "ts") ? T_TS
                                        : T_OTHER;
    case 'd':
        return is_key_n(k, len, "dur") ? T_DUR : T_OTHER;
    case 'i':
        return is_key_n(k, len, "id") ? T_ID : T_OTHER;
    case 'a':
        return is_key_n(k, len, "args") ? T_ARGS : T_OTHER;
    default:
        return T_OTHER;
    }
}

static int
py_slot(enum arg a)
{
    switch (a) {
    case A_DIMS:
        return 0;
    case A_DIMS_LC:
        return 1;
    case A_TYPES:
        return 2;
    case A_CONCRETE:
        return 3;
    case A_STRIDES:
        return 4;
    default:
        return -1;
    }
}

static void
put(struct cur *c, const char *s, size_t n)
{
    memcpy(c->o, s, n);
    c->o += n;
}

static int slim_object(struct cur *c, int in_args);

/* [v, end) is the value skipped last; a string without escapes? */
static int
plain_string(const struct cur *c, const char *v, const char *end,
             const char **s, size_t *n)
{
    /* end is the byte after the closing quote */
    if (*v != '"' || c->esc)
        return 0;
    *s = v + 1;
    *n = (size_t)(end - v - 2);
    return 1;
}

static int
plain_int(const char *v, size_t n)
{
    size_t i = v[0] == '-';

    /* JSON has no leading zeros; cJSON rejects those, so we must too */
    if (n <= i || n - i > 18 || (v[i] == '0' && n - i > 1))
        return 0;
    for (; i < n; i++) {
        if (v[i] < '0' || v[i] > '9')
            return 0;
    }
    return 1;
}

/* Take a top-level member [v, c->p) into c->raw when it is plain; 1 when
 * taken (it is then left out of the slim text). */
static int
take_raw(struct cur *c, enum top t, const char *v)
{
    struct raw *raw = c->raw;
    size_t n = (size_t)(c->p - v);
    int i;

    switch (t) {
    case T_PH:
    case T_CAT:
    case T_NAME:
        i = t == T_PH ? RAW_PH : t == T_CAT ? RAW_CAT : RAW_NAME;
        raw->str[i] = NULL;
        return plain_string(c, v, c->p, &raw->str[i], &raw->str_n[i]);
    case T_TS:
    case T_DUR:
        i = t == T_TS ? RAW_TS : RAW_DUR;
        raw->has_time[i] =
            pr_fld_us_text_to_ns(v, n, &raw->time_ns[i]) == PR_FLD_OK;
        return raw->has_time[i];
    case T_PID:
    case T_TID:
        i = t == T_PID ? RAW_PID : RAW_TID;
        raw->id[i] = plain_int(v, n) ? v : NULL;
        raw->id_n[i] = n;
        return raw->id[i] != NULL;
    default:
        return 0;
    }
}

/* "[1, 2, 3]" into out (missing entries 0); 0 when not that plain. */
static int
raw_dim3(const char *v, size_t n, int32_t *out)
{
    const char *p = v + 1, *end = v + n - 1;
    int i = 0;

    if (n < 2 || v[0] != '[' || v[n - 1] != ']')
        return 0;
    memset(out, 0, 3 * sizeof(*out));
    for (;;) {
        const char *s;
        int64_t x;

        while (p < end && is_ws(*p))
            p++;
        if (p == end)
            return i == 0;
        for (s = p; p < end && *p >= '0' && *p <= '9'; p++)
            ;
        if (i == 3 || !plain_int(s, (size_t)(p - s)) ||
            !pr_fld_parse_int64(s, (size_t)(p - s), &x) || x > INT32_MAX)
            return 0;
        out[i++] = (int32_t)x;
        while (p < end && is_ws(*p))
            p++;
        if (p == end)
            return 1;
        if (*p++ != ',')
            return 0;
    }
}

/* Take an arg's value [v, v + n) raw when it is a plain number, [x, y, z],
 * null (absent) or a Call stack without escapes; 1 when taken. */
static int
take_arg(struct cur *c, enum arg a, const char *v, size_t n)
{
    struct raw *raw = c->raw;
    uint64_t bit = (uint64_t)1 << a;

    raw->arg_bits &= ~bit; /* a repeated key: the last one decides */
    if (a == A_CONCRETE)
        return 0;
    if (n == 4 && memcmp(v, "null", 4) == 0)
        return 1;
    if (a == A_STACK) {
        /* hashed straight from the text; one with escapes goes to cJSON */
        if (!plain_string(c, v, v + n, &raw->stack, &raw->stack_n))
            return 0;
    } else if (a == A_GRID || a == A_BLOCK) {
        if (!raw_dim3(v, n, raw->dim[a == A_BLOCK]))
            return 0;
    } else if (plain_int(v, n) && pr_fld_parse_int64(v, n, &raw->arg_i[a])) {
        raw->arg_isint[a] = 1;
    } else if ((*v == '-' || (*v >= '0' && *v <= '9')) &&
               pr_fld_parse_number(v, n, &raw->arg_d[a])) {
        raw->arg_isint[a] = 0;
    } else {
        return 0;
    }
    raw->arg_bits |= bit;
    return 1;
}

/* One member; c->p at its key.  Returns 0 when the text is not as
 * expected. */
static int
slim_member(struct cur *c, int in_args, int *first)
{
    const char *k = c->p, *v;
    size_t klen;
    enum arg a = A_NONE;
    enum top t = T_OTHER;
    int keep, nested, slot;

    if (*c->p != '"' || !skip_str(c))
        return 0;
    klen = (size_t)(c->p - k);
    skip_ws(c);
    if (c->p == c->end || *c->p != ':')
        return 0;
    c->p++;
    skip_ws(c);
    v = c->p;
    if (in_args)
        a = arg_of(k + 1, klen - 2);
    else
        t = top_of(k + 1, klen - 2);
    keep = in_args ? a != A_NONE : t != T_OTHER;
    nested = t == T_ARGS && c->p < c->end && *c->p == '{';
    if (!nested && !skip_val(c))
        return 0;
    if (!in_args && take_raw(c, t, v))
        return 1;
    slot = py_slot(a);
    if (slot >= 0 && (slot == 3 ? pr_fld_json_raw : pr_fld_py_str_raw)(
                         v, (size_t)(c->p - v), &c->r->py[slot]))
        c->r->py_ok[slot] = 1; /* printed already: cJSON need not see it */
    else if (slot < 0 && a != A_NONE && take_arg(c, a, v, (size_t)(c->p - v)))
        return 1;
    else if (keep) {
        if (!*first)
            put(c, ",", 1);
        put(c, k, klen);
        put(c, ":", 1);
        *first = 0;
        if (nested)
            return slim_object(c, 1);
        put(c, v, (size_t)(c->p - v));
    }
    return 1;
}

/* c->p at '{'.  Writes the object with only the members we keep. */
static int
slim_object(struct cur *c, int in_args)
{
    int first = 1;

    c->p++;
    put(c, "{", 1);
    skip_ws(c);
    if (c->p < c->end && *c->p == '}') {
        c->p++;
        put(c, "}", 1);
        return 1;
    }
    for (;;) {
        skip_ws(c);
        if (c->p == c->end || !slim_member(c, in_args, &first))
            return 0;
        skip_ws(c);
        if (c->p == c->end)
            return 0;
        if (*c->p == '}') {
            c->p++;
            put(c, "}", 1);
            return 1;
        }
        if (*c->p != ',')
            return 0;
        c->p++;
    }
}

static int
raw_is(const struct cur *c, int i, const char *want)
{
    return c->raw->str[i] != NULL &&
           is_key_n(c->raw->str[i], c->raw->str_n[i], want);
}

/* Whether convert() would keep the event, judged from the raw text; when
 * ph, cat or name were not plain strings we cannot tell, and say yes. */
static int
may_keep(const struct cur *c)
{
    const struct raw *raw = c->raw;

    if (raw->str[RAW_PH] == NULL || raw->str_n[RAW_PH] != 1)
        return raw->str[RAW_PH] == NULL;
    switch (raw->str[RAW_PH][0]) {
    case 'X':
        return 1;
    case 'i':
        return raw->str[RAW_NAME] == NULL || raw_is(c, RAW_NAME, "[memory]") ||
               raw_is(c, RAW_NAME, WINDOW_END);
    case 's':
    case 'f':
        return raw->str[RAW_CAT] == NULL || raw_is(c, RAW_CAT, "fwdbwd");
    default:
        return 0;
    }
}

/* The slim text of an event, NULL when the event is not JSON (*bad is
 * then the offending byte) or memory ran out (*bad NULL: the caller parses
 * the original, and meets it again).  *skip is set for an event that is
 * well formed but not kept (metadata, counters, ac2g flows, other
 * instants): it needs no parse. */
static const char *
slim_event(struct pr_recs *r, const char *text, size_t len, size_t *n,
           int *skip, struct raw *raw, const char **bad)
{
    struct cur c = {text, text + len, NULL, r, raw, 0};

    *n = 0;
    *bad = NULL;
    memset(r->py_ok, 0, sizeof(r->py_ok));
    memset(raw, 0, sizeof(*raw));
    if (len >= r->slim_cap) {
        char *p = realloc(r->slim, len + 1);

        if (p == NULL)
            return NULL;
        r->slim = p;
        r->slim_cap = len + 1;
    }
    c.o = r->slim;
    skip_ws(&c);
    if (c.p == c.end || *c.p != '{' || !slim_object(&c, 0)) {
        *bad = c.p;
        return NULL;
    }
    skip_ws(&c);
    if (c.p != c.end) {
        *bad = c.p;
        return NULL;
    }
    *n = (size_t)(c.o - r->slim);
    *skip = !may_keep(&c);
    return r->slim;
}

/* ------------------------------------------------------------ records */

/* Where the event sits, for messages. */
struct where {
    uint64_t index;  /* in traceEvents */
    uint64_t offset; /* first byte in the document */
};

static const char *
str_of(const cJSON *v)
{
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int64_t
int_or(const cJSON *v, int64_t lo, int64_t hi, int64_t absent)
{
    int64_t i;

    return pr_fld_int(v, lo, hi, &i) == PR_FLD_OK ? i : absent;
}

static double
num_or(const cJSON *v, double absent)
{
    double d;

    return pr_fld_num(v, &d) == PR_FLD_OK ? d : absent;
}

static int
arg_has(const struct args *a, enum arg id)
{
    return a->node[id] != NULL || ((a->raw->arg_bits >> id) & 1);
}

static int64_t
arg_int(const struct args *a, enum arg id, int64_t lo, int64_t hi,
        int64_t absent)
{
    const struct raw *raw = a->raw;
    int64_t i;
    double d;

    if (((raw->arg_bits >> id) & 1) == 0)
        return int_or(a->node[id], lo, hi, absent);
    i = raw->arg_i[id];
    if (!raw->arg_isint[id]) {
        d = raw->arg_d[id];
        if (d != floor(d) || d < -9.2e18 || d > 9.2e18)
            return absent;
        i = (int64_t)d;
    }
    return i >= lo && i <= hi ? i : absent;
}

static double
arg_num(const struct args *a, enum arg id, double absent)
{
    const struct raw *raw = a->raw;

    if (((raw->arg_bits >> id) & 1) == 0)
        return num_or(a->node[id], absent);
    return raw->arg_isint[id] ? (double)raw->arg_i[id] : raw->arg_d[id];
}

static enum pr_status
no_memory(const struct where *w, struct pr_error *err)
{
    return pr_error_set(err, PR_E_NOMEM,
                        "byte %" PRIu64 ": event %" PRIu64 ": out of memory",
                        w->offset, w->index);
}

/* ph, cat or name: raw text or cJSON's string; "" when absent. */
static const char *
ev_str(const struct ev *e, int which, size_t *n)
{
    const cJSON *v = which == RAW_PH    ? e->ph
                     : which == RAW_CAT ? e->cat
                                        : e->name;

    if (e->raw->str[which] != NULL) {
        *n = e->raw->str_n[which];
        return e->raw->str[which];
    }
    *n = cJSON_IsString(v) ? strlen(v->valuestring) : 0;
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int
ev_str_is(const struct ev *e, int which, const char *want)
{
    size_t n;
    const char *s = ev_str(e, which, &n);

    return is_key_n(s, n, want);
}

/* A ts or dur that is a number but no sane time: corrupt data. */
static enum pr_status
bad_time(const struct ev *e, const cJSON *v, const char *what, int type,
         const struct where *w, struct pr_error *err)
{
    char val[48];
    size_t n;
    const char *name = ev_str(e, RAW_NAME, &n);

    if (cJSON_IsNumber(v))
        snprintf(val, sizeof(val), "%.17g", v->valuedouble);
    else if (cJSON_IsString(v))
        snprintf(val, sizeof(val), "\"%.40s\"", str_of(v));
    else
        snprintf(val, sizeof(val), "%s",
                 cJSON_IsArray(v)    ? "an array"
                 : cJSON_IsObject(v) ? "an object"
                 : cJSON_IsBool(v)   ? "a boolean"
                                     : "not a value");
    return pr_error_set(err, PR_E_FORMAT,
                        "byte %" PRIu64 ": event %" PRIu64
                        " (\"%.*s\"): %s %s (%s)",
                        w->offset, w->index, (int)(n < 60 ? n : 60), name, what,
                        type ? "is not a number" : "out of range", val);
}

/* ts or dur in ns.  *ok is 0 when the value is missing or null (the
 * caller counts and skips the event); a number out of range, or a value of
 * another type (a string that is no number, an array: review 25u #1, a
 * kernel whose ts was "abc" dropped without a word and the run then called
 * CPU-only), is corrupt data: an error naming the byte and the event. */
static enum pr_status
get_time(const struct ev *e, int which, int64_t *ns, int *ok,
         const struct where *w, struct pr_error *err)
{
    const cJSON *v = which == RAW_TS ? e->ts : e->dur;
    const char *what = which == RAW_TS ? "ts" : "dur";
    enum pr_fld f;

    if (e->raw->has_time[which]) {
        *ns = e->raw->time_ns[which];
        *ok = 1;
        return PR_OK;
    }
    f = pr_fld_time_ns(v, ns);
    *ok = f == PR_FLD_OK;
    if (f == PR_FLD_RANGE || f == PR_FLD_BAD)
        return bad_time(e, v, what, f == PR_FLD_BAD, w, err);
    return PR_OK;
}

/* pid/tid text into the pool. */
static uint32_t
id_str(struct pr_recs *r, const struct ev *e, int which)
{
    const cJSON *v = which == RAW_PID ? e->pid : e->tid;
    const char *s = e->raw->id[which];
    int absolute = which == RAW_TID;

    if (s != NULL) {
        size_t n = e->raw->id_n[which];

        /* "-0" and "0" are one thread; so are -5 and 5 for tids */
        if (s[0] == '-' && (absolute || (n == 2 && s[1] == '0'))) {
            s++;
            n--;
        }
        return pool_add_last(&r->strs, &r->last[2 + which - RAW_PID], s, n);
    }
    if (v == NULL || !pr_fld_id_text(v, absolute, &r->scratch) ||
        r->scratch.data == NULL)
        return pool_add(&r->strs, "", 0);
    return pool_add(&r->strs, r->scratch.data, r->scratch.len);
}

/* Python str() of an arg into the pool. */
static uint32_t
py_str(struct pr_recs *r, const cJSON *v)
{
    pr_buf_reset(&r->scratch);
    if (pr_fld_py_str(v, &r->scratch) != PR_OK || r->scratch.data == NULL)
        return PR_STR_NONE;
    return pool_add(&r->strs, r->scratch.data, r->scratch.len);
}

static uint32_t
json_str(struct pr_recs *r, const cJSON *v)
{
    char *s = cJSON_PrintUnformatted(v);
    uint32_t id;

    if (s == NULL)
        return PR_STR_NONE;
    id = pool_addz(&r->strs, s);
    cJSON_free(s);
    return id;
}

/* A string arg into the pool; PR_STR_NONE when absent or not a string,
 * *oom on out-of-memory. */
static uint32_t
str_arg(struct pr_recs *r, const struct args *a, enum arg id, int *oom)
{
    const cJSON *v = a->node[id];
    uint32_t s;

    if (!cJSON_IsString(v))
        return PR_STR_NONE;
    s = pool_addz(&r->strs, v->valuestring);
    *oom |= s == PR_STR_NONE;
    return s;
}

/* A new event record with the members every kind has; NULL on
 * out-of-memory. */
static struct pr_event *
new_event(struct pr_recs *r, const struct ev *e, uint64_t index, uint8_t kind)
{
    struct pr_event *out;

    if (pr_grow((void **)&r->ev, &r->cap_ev, r->n_ev + 1, sizeof(*out)) !=
        PR_OK)
        return NULL;
    out = &r->ev[r->n_ev];
    memset(out, 0, sizeof(*out));
    out->ext_code = out->corr_code = -1;
    out->info = PR_NO_INFO;
    out->order = (uint32_t)index;
    out->kind = kind;
    const char *s;
    size_t n;
    uint32_t cat, pid, tid;

    s = ev_str(e, RAW_NAME, &n);
    out->name = pool_add_last(&r->strs, &r->last[0], s, n);
    s = ev_str(e, RAW_CAT, &n);
    cat = pool_add_last(&r->strs, &r->last[1], s, n);
    pid = id_str(r, e, RAW_PID);
    tid = id_str(r, e, RAW_TID);
    if (out->name == PR_STR_NONE || cat == PR_STR_NONE || pid == PR_STR_NONE ||
        tid == PR_STR_NONE ||
        pr_wheres_intern(&r->wheres, cat, pid, tid, &out->where) != PR_OK)
        return NULL;
    r->n_ev++;
    return out;
}

static int
has_any(const struct args *a, enum arg first, enum arg last)
{
    int i;

    for (i = first; i <= (int)last; i++) {
        if (arg_has(a, (enum arg)i))
            return 1;
    }
    return 0;
}

/* Python str() of an op arg: printed during slimming, or from its cJSON
 * node.  PR_STR_NONE when absent; *oom on out-of-memory. */
static uint32_t
py_arg(struct pr_recs *r, const struct args *a, enum arg id, int *oom)
{
    int slot = py_slot(id);
    uint32_t s = PR_STR_NONE;

    if (slot >= 0 && r->py_ok[slot])
        s = pool_add(&r->strs, r->py[slot].data, r->py[slot].len);
    else if (a->node[id] != NULL)
        s = py_str(r, a->node[id]);
    else
        return PR_STR_NONE;
    *oom |= s == PR_STR_NONE;
    return s;
}

static int
has_py(const struct pr_recs *r, const struct args *a, enum arg id)
{
    return a->node[id] != NULL || r->py_ok[py_slot(id)];
}

/* The merge has the model parse the texts an op's inputs were recorded
 * in; a pool string may be both a shape and a type text. */
static void
mark_use(struct pr_pool *p, uint32_t id, enum pr_shapes_what what)
{
    if (id != PR_STR_NONE)
        p->ents[id].uses |= (uint8_t)(1u << what);
}

/* "Call stack" into the pool (few distinct stacks: interning keeps them
 * small); PR_STR_NONE when absent, *oom on out-of-memory. */
static uint32_t
stack_arg(struct pr_recs *r, const struct args *a, int *oom)
{
    uint32_t s;

    if ((a->raw->arg_bits >> A_STACK) & 1)
        s = pool_add(&r->strs, a->raw->stack, a->raw->stack_n);
    else if (cJSON_IsString(a->node[A_STACK]))
        s = pool_addz(&r->strs, a->node[A_STACK]->valuestring);
    else
        return PR_STR_NONE;
    *oom |= s == PR_STR_NONE;
    return s;
}

/* Side record of an op, annotation or python function; none when the
 * event carries none of its args (most annotations), to save memory. */
/* The Python tracer's ids of the op record being added, when it has any
 * (kept by op index, in order, as the trace keeps them). */
static enum pr_status
add_py_ids(struct pr_recs *r, const struct args *a)
{
    struct pr_py_ids x;

    x.op = (uint32_t)r->n_ops;
    x.id = (int32_t)arg_int(a, A_PY_ID, INT32_MIN, INT32_MAX, -1);
    x.parent = (int32_t)arg_int(a, A_PY_PARENT, INT32_MIN, INT32_MAX, -1);
    x.module = (int32_t)arg_int(a, A_PY_MODULE, INT32_MIN, INT32_MAX, -1);
    if (x.id == -1 && x.parent == -1 && x.module == -1)
        return PR_OK;
    if (pr_grow((void **)&r->pyids, &r->cap_pyids, r->n_pyids + 1,
                sizeof(*r->pyids)) != PR_OK)
        return PR_E_NOMEM;
    r->pyids[r->n_pyids++] = x;
    return PR_OK;
}

/* Whether an "Input Strides" text holds a stride of 0 (a broadcast,
 * expanded dim): only such texts change the bytes an input is counted
 * with, so only they are kept (a PyTorch >= 2.1 trace records strides on
 * every op). */
static int
has_zero_stride(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        size_t j = i + 1;

        if (s[i] != '[' && s[i] != ',')
            continue;
        while (j < n && s[j] == ' ')
            j++;
        if (j < n && s[j] == '0') {
            j++;
            while (j < n && s[j] == ' ')
                j++;
            if (j < n && (s[j] == ',' || s[j] == ']'))
                return 1;
        }
    }
    return 0;
}

/* "Input Strides" when it holds a 0 stride; PR_STR_NONE otherwise. */
static uint32_t
strides_arg(struct pr_recs *r, const struct args *a, int *oom)
{
    uint32_t s = py_arg(r, a, A_STRIDES, oom);

    if (s == PR_STR_NONE)
        return s;
    return has_zero_stride(pr_pool_str(&r->strs, s), r->strs.ents[s].len)
               ? s
               : PR_STR_NONE;
}

static enum pr_status
add_op_info(struct pr_recs *r, struct pr_event *out, const struct args *a)
{
    struct pr_op_info *o;
    int oom = 0;

    if (!has_any(a, A_DIMS, A_FLOPS) && !r->py_ok[0] && !r->py_ok[1] &&
        !r->py_ok[2] && !r->py_ok[3] && !r->py_ok[4])
        return PR_OK;
    if (r->n_ops >= PR_NO_INFO || pr_grow((void **)&r->ops, &r->cap_ops,
                                          r->n_ops + 1, sizeof(*o)) != PR_OK)
        return PR_E_NOMEM;
    o = &r->ops[r->n_ops];
    memset(o, 0, sizeof(*o));
    /* "Input Dims", else the older "Input dims" */
    o->input_dims =
        py_arg(r, a, has_py(r, a, A_DIMS) ? A_DIMS : A_DIMS_LC, &oom);
    o->input_types = py_arg(r, a, A_TYPES, &oom);
    o->concrete_inputs = PR_STR_NONE;
    if (r->py_ok[3]) {
        o->concrete_inputs = pool_add(&r->strs, r->py[3].data, r->py[3].len);
        oom |= o->concrete_inputs == PR_STR_NONE;
    } else if (a->node[A_CONCRETE] != NULL) {
        o->concrete_inputs = json_str(r, a->node[A_CONCRETE]);
        oom |= o->concrete_inputs == PR_STR_NONE;
    }
    o->input_strides = strides_arg(r, a, &oom);
    if (oom)
        return PR_E_NOMEM;
    /* strides are read with the dims' grammar */
    mark_use(&r->strs, o->input_strides, PR_SHAPES_DIMS);
    mark_use(&r->strs, o->input_dims, PR_SHAPES_DIMS);
    mark_use(&r->strs, o->input_types, PR_SHAPES_TYPES);
    mark_use(&r->strs, o->concrete_inputs, PR_SHAPES_CONCRETE);
    o->seq = arg_int(a, A_SEQ, INT64_MIN, INT64_MAX, -1);
    o->fwd_tid = arg_int(a, A_FWD_TID, INT64_MIN, INT64_MAX, -1);
    o->flops = arg_num(a, A_FLOPS, -1);
    o->stack = stack_arg(r, a, &oom);
    if (oom || add_py_ids(r, a) != PR_OK)
        return PR_E_NOMEM;
    out->info = (uint32_t)r->n_ops++;
    return PR_OK;
}

/* grid / block: [x, y, z]; 0 for what is missing. */
static void
dim3(const cJSON *v, int32_t *out)
{
    const cJSON *c = cJSON_IsArray(v) ? v->child : NULL;
    int i;

    for (i = 0; i < 3; i++) {
        out[i] = (int32_t)int_or(c, 0, INT32_MAX, 0);
        c = c ? c->next : NULL;
    }
}

/* FLOPs from the SASS instruction counters of a cuda_profiler_range, as
 * HTA's CUPTI counter analysis counts them; -1 when none is recorded. */
static double
measured_flops(const struct args *a)
{
    double sum = 0;
    int i, any = 0;

    for (i = A_SASS_FFMA; i <= A_SASS_DADD; i++) {
        double n = arg_num(a, (enum arg)i, NAN);

        if (!isfinite(n) || n < 0)
            continue;
        any = 1;
        sum += n * (i <= A_SASS_DFMA ? 2.0 : 1.0);
    }
    return any ? sum : -1.0;
}

static enum pr_status
add_gpu_info(struct pr_recs *r, struct pr_event *out, const struct args *a)
{
    struct pr_gpu_info *g;
    const cJSON *bpsm = a->node[A_BPSM];
    int i, oom = 0;

    if (!has_any(a, A_DEVICE, A_SASS_DADD))
        return PR_OK;
    if (r->n_gpu >= PR_NO_INFO || pr_grow((void **)&r->gpu, &r->cap_gpu,
                                          r->n_gpu + 1, sizeof(*g)) != PR_OK)
        return PR_E_NOMEM;
    g = &r->gpu[r->n_gpu];
    pr_gpu_info_init(g); /* fields added to the model later stay absent */
    g->device = (int32_t)arg_int(a, A_DEVICE, INT32_MIN, INT32_MAX, -1);
    g->stream = (int32_t)arg_int(a, A_STREAM, INT32_MIN, INT32_MAX, -1);
    for (i = 0; i < 2; i++) {
        enum arg id = i ? A_BLOCK : A_GRID;
        int32_t *d = i ? g->block : g->grid;

        if ((a->raw->arg_bits >> id) & 1)
            memcpy(d, a->raw->dim[i], 3 * sizeof(*d));
        else
            dim3(a->node[id], d);
    }
    g->regs_per_thread = (int32_t)arg_int(a, A_REGS, 0, INT32_MAX, -1);
    g->shared_mem = (int32_t)arg_int(a, A_SMEM, 0, INT32_MAX, -1);
    /* Kineto writes "inf" when a kernel has no blocks to spread */
    if (cJSON_IsString(bpsm) && strcmp(bpsm->valuestring, "inf") == 0)
        g->blocks_per_sm = INFINITY;
    else
        g->blocks_per_sm = arg_num(a, A_BPSM, NAN);
    g->occupancy_pct = arg_num(a, A_OCC, NAN);
    /* 0 with blocks running and over 48 KiB of shared memory: the
     * profiler did not compute it (pr_gpu_occupancy_not_computed) */
    if (g->occupancy_pct == 0 && g->blocks_per_sm > 0 &&
        g->shared_mem > PR_OCC_SMEM_DEFAULT_MAX)
        g->occupancy_pct = NAN;
    g->bytes =
        arg_int(a, arg_has(a, A_BYTES) ? A_BYTES : A_SIZE, 0, INT64_MAX, -1);
    g->in_nelems = arg_int(a, A_IN_NELEMS, 0, INT64_MAX, -1);
    g->out_nelems = arg_int(a, A_OUT_NELEMS, 0, INT64_MAX, -1);
    g->group_size = (int32_t)arg_int(a, A_GROUP, 0, INT32_MAX, -1);
    g->collective = str_arg(r, a, A_COLL, &oom);
    g->dtype = str_arg(r, a, A_DTYPE, &oom);
    g->measured_flops = measured_flops(a);
    if (oom)
        return PR_E_NOMEM;
    out->info = (uint32_t)r->n_gpu++;
    return PR_OK;
}

static enum pr_status
add_mem_info(struct pr_recs *r, struct pr_event *out, const struct args *a)
{
    struct pr_mem_info *m;

    if (r->n_mem >= PR_NO_INFO || pr_grow((void **)&r->mem, &r->cap_mem,
                                          r->n_mem + 1, sizeof(*m)) != PR_OK)
        return PR_E_NOMEM;
    m = &r->mem[r->n_mem];
    memset(m, 0, sizeof(*m));
    m->device_type = (int32_t)arg_int(a, A_DEV_TYPE, INT32_MIN, INT32_MAX, -1);
    m->device_id = (int32_t)arg_int(a, A_DEV_ID, INT32_MIN, INT32_MAX, -1);
    m->addr = arg_int(a, A_ADDR, INT64_MIN + 1, INT64_MAX, PR_NO_ID);
    m->bytes = arg_int(a, A_MBYTES, INT64_MIN, INT64_MAX, 0);
    m->total_allocated = arg_num(a, A_TOTAL_ALLOC, NAN);
    m->total_reserved = arg_num(a, A_TOTAL_RES, NAN);
    out->info = (uint32_t)r->n_mem++;
    return PR_OK;
}

/* Kineto's categories as our kinds, matched case-insensitively across
 * generations ("Operator" = "cpu_op", "Runtime" = "cuda_runtime", ...). */
static const struct {
    const char *cat;
    enum pr_kind kind;
} cats[] = {
    {"cpu_op", PR_KIND_HOST_OP},
    {"operator", PR_KIND_HOST_OP},
    {"user_annotation", PR_KIND_ANNOTATION},
    {"gpu_user_annotation", PR_KIND_DEVICE_ANNOTATION},
    {"python", PR_KIND_PY_LEGACY},
    {"python_function", PR_KIND_PY_FUNCTION},
    {"runtime", PR_KIND_RUNTIME_CALL},
    {"cuda_runtime", PR_KIND_RUNTIME_CALL},
    {"mtia_runtime", PR_KIND_RUNTIME_CALL},
    {"glow_runtime", PR_KIND_RUNTIME_CALL},
    {"xpu_runtime", PR_KIND_RUNTIME_CALL},
    {"privateuse1_runtime", PR_KIND_RUNTIME_CALL},
    {"cuda_driver", PR_KIND_DRIVER_CALL},
    {"kernel", PR_KIND_DEVICE_TASK},
    {"mtia_ccp_events", PR_KIND_DEVICE_TASK}, /* see mtia_kind() */
    /* a kernel's CUPTI counters, one range per kernel of a kernel-replay
     * trace (Kineto's CUPTI profiler mode writes no "kernel" events) */
    {"cuda_profiler_range", PR_KIND_DEVICE_TASK},
    {"memcpy", PR_KIND_COPY},
    {"gpu_memcpy", PR_KIND_COPY},
    {"memset", PR_KIND_SET},
    {"gpu_memset", PR_KIND_SET},
    {"trace", PR_KIND_PROFILER_SPAN},
    {"cuda_sync", PR_KIND_SYNC},
};

static enum pr_kind
kind_of_cat(const char *cat, size_t len)
{
    size_t i;

    for (i = 0; i < sizeof(cats) / sizeof(cats[0]); i++) {
        if (strlen(cats[i].cat) == len &&
            strncasecmp(cats[i].cat, cat, len) == 0)
            return cats[i].kind;
    }
    return PR_KIND_OTHER;
}

/* Which way a copy went, from its Kineto name ("Memcpy HtoD (Pageable ->
 * Device)", "Memcpy PtoP (Device -> Device)"). */
static enum pr_copy_dir
copy_dir(const struct ev *e)
{
    static const struct {
        const char *tag;
        enum pr_copy_dir dir;
    } dirs[] = {
        {"HtoD", PR_DIR_H2D}, {"DtoH", PR_DIR_D2H}, {"DtoD", PR_DIR_D2D},
        {"PtoP", PR_DIR_P2P}, {"HtoH", PR_DIR_H2H},
    };
    size_t n, i;
    const char *name = ev_str(e, RAW_NAME, &n);

    if (n < 11 || memcmp(name, "Memcpy ", 7) != 0)
        return PR_DIR_UNKNOWN;
    for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        if (memcmp(name + 7, dirs[i].tag, 4) == 0)
            return dirs[i].dir;
    }
    return PR_DIR_UNKNOWN;
}

static int
cat_is(const char *cat, size_t len, const char *want)
{
    return strlen(want) == len && strncmp(cat, want, len) == 0;
}

/* MTIA's command processor writes its DMA transfers and its stream event
 * records and waits in the same category as the work itself: a transfer
 * is a copy, and a wait is no work at all (it would count idle time as
 * busy).  Everything else there ran an operator on the device. */
static enum pr_kind
mtia_kind(const struct ev *e)
{
    size_t n;
    const char *name = ev_str(e, RAW_NAME, &n);

    if (n >= 3 && strncmp(name, "dma", 3) == 0)
        return PR_KIND_COPY;
    if (n >= 6 && strncmp(name, "event_", 6) == 0)
        return PR_KIND_DEVICE_SYNC; /* event_wait/event_record on the
                                       device's queue */
    return PR_KIND_DEVICE_TASK;
}

/* Which way an MTIA DMA request went ("HOST_TO_DEVICE"). */
static enum pr_copy_dir
dma_dir(const struct args *a)
{
    const cJSON *v = a->node[A_DIRECTION];

    if (!cJSON_IsString(v))
        return PR_DIR_UNKNOWN;
    if (strcmp(v->valuestring, "HOST_TO_DEVICE") == 0)
        return PR_DIR_H2D;
    if (strcmp(v->valuestring, "DEVICE_TO_HOST") == 0)
        return PR_DIR_D2H;
    if (strcmp(v->valuestring, "DEVICE_TO_DEVICE") == 0)
        return PR_DIR_D2D;
    return PR_DIR_UNKNOWN;
}

/* MTIA work and CUPTI counter ranges carry no "device" arg: their pid is
 * the device ("MTIA 17" is pid 17).  Sets it when the pid is a plain
 * small number. */
static void
device_from_pid(struct pr_recs *r, const struct pr_event *out)
{
    const char *pid =
        pr_pool_str(&r->strs, pr_wheres_get(&r->wheres, out->where).pid);
    struct pr_gpu_info *g;
    int32_t v = 0;
    size_t i;

    if (out->info == PR_NO_INFO || r->gpu[out->info].device >= 0)
        return;
    g = &r->gpu[out->info];
    for (i = 0; pid[i] >= '0' && pid[i] <= '9' && i < 6; i++)
        v = v * 10 + (pid[i] - '0');
    if (i > 0 && pid[i] == '\0')
        g->device = v;
}

/* Kineto numbers the host events it records ("Ev Idx", PyTorch 2.x):
 * the extent of those numbers against how many the trace holds says
 * whether events were dropped (a sampled trace, hostcov.c). */
static void
note_ev_idx(struct pr_recs *r, const struct args *a)
{
    int64_t v = arg_int(a, A_EV_IDX, 0, INT64_MAX - 1, -1);

    if (v < 0)
        return;
    if (r->n_ev_idx == 0 || v < r->ev_idx_min)
        r->ev_idx_min = v;
    if (r->n_ev_idx == 0 || v > r->ev_idx_max)
        r->ev_idx_max = v;
    r->n_ev_idx++;
}

/* ph "X": every category is kept; the kind says which ones we know. */
static enum pr_status
add_duration(struct pr_recs *r, const struct ev *e, const struct where *w,
             struct pr_error *err)
{
    struct args a;
    size_t cat_n;
    const char *cat = ev_str(e, RAW_CAT, &cat_n);
    struct pr_event *out;
    int64_t ts, dur;
    int ok, mtia, pid_dev;
    enum pr_kind kind;
    enum pr_status st = get_time(e, RAW_TS, &ts, &ok, w, err);

    if (st != PR_OK || !ok) {
        r->diag.skipped_bad_ts += st == PR_OK;
        return st;
    }
    st = get_time(e, RAW_DUR, &dur, &ok, w, err);
    if (st != PR_OK || !ok) {
        r->diag.skipped_no_dur += st == PR_OK;
        return st;
    }
    if (dur < 0) {
        r->diag.negative_dur++;
        dur = 0;
    }
    kind = kind_of_cat(cat, cat_n);
    mtia = cat_is(cat, cat_n, "mtia_ccp_events");
    pid_dev = mtia || cat_is(cat, cat_n, "cuda_profiler_range");
    if (mtia)
        kind = mtia_kind(e);
    r->diag.unknown_cat += kind == PR_KIND_OTHER;
    out = new_event(r, e, w->index, (uint8_t)kind);
    if (out == NULL)
        return no_memory(w, err);
    out->ts_ns = ts;
    out->dur_ns = dur;
    pick_args(e, &a);
    note_ev_idx(r, &a);
    /* the plugin prefers the 2021 spelling when both are present */
    if (pr_wide_ids_set(&r->wide, &out->ext_code,
                        arg_int(&a, arg_has(&a, A_EXT_LC) ? A_EXT_LC : A_EXT,
                                INT64_MIN + 1, INT64_MAX, PR_NO_ID)) != PR_OK ||
        pr_wide_ids_set(
            &r->wide, &out->corr_code,
            arg_int(&a, A_CORR, INT64_MIN + 1, INT64_MAX, PR_NO_ID)) != PR_OK)
        return no_memory(w, err);
    if (pr_info_table_of(kind) == PR_INFO_OP)
        st = add_op_info(r, out, &a);
    else if (pr_info_table_of(kind) == PR_INFO_GPU)
        st = add_gpu_info(r, out, &a);
    if (st == PR_OK && kind == PR_KIND_COPY && out->info != PR_NO_INFO)
        r->gpu[out->info].copy_dir =
            (uint8_t)(mtia ? dma_dir(&a) : copy_dir(e));
    if (st == PR_OK && pid_dev && pr_info_table_of(kind) == PR_INFO_GPU)
        device_from_pid(r, out);
    return st == PR_OK ? PR_OK : no_memory(w, err);
}

/* ph "i" named "[memory]": an allocation or a free. */
static enum pr_status
add_memory(struct pr_recs *r, const struct ev *e, const struct where *w,
           struct pr_error *err)
{
    struct args a;
    struct pr_event *out;
    int64_t ts;
    int ok;
    enum pr_status st = get_time(e, RAW_TS, &ts, &ok, w, err);

    if (st != PR_OK || !ok) {
        r->diag.skipped_bad_ts += st == PR_OK;
        return st;
    }
    out = new_event(r, e, w->index, PR_KIND_MEMORY_RECORD);
    if (out == NULL)
        return no_memory(w, err);
    out->ts_ns = ts;
    pick_args(e, &a);
    note_ev_idx(r, &a);
    if (add_mem_info(r, out, &a) != PR_OK)
        return no_memory(w, err);
    return PR_OK;
}

/* cat "fwdbwd", ph "s"/"f": links a forward op to its backward. */
static enum pr_status
add_flow(struct pr_recs *r, const struct ev *e, char ph, const struct where *w,
         struct pr_error *err)
{
    struct pr_flow f;
    int ok;
    enum pr_status st = get_time(e, RAW_TS, &f.ts_ns, &ok, w, err);

    if (st != PR_OK || !ok) {
        r->diag.skipped_bad_ts += st == PR_OK;
        return st;
    }
    if (pr_fld_int(e->id, INT64_MIN, INT64_MAX, &f.id) != PR_FLD_OK)
        return PR_OK; /* a flow without an id links nothing */
    f.ph = ph;
    if (pr_grow((void **)&r->flows, &r->cap_flows, r->n_flows + 1, sizeof(f)) !=
        PR_OK)
        return no_memory(w, err);
    r->flows[r->n_flows++] = f;
    return PR_OK;
}

/* Kineto's instant at the end of the profiler's recording window: the
 * capture ends there (a step's dur may not, steps.c). */
static enum pr_status
add_window_end(struct pr_recs *r, const struct ev *e, const struct where *w,
               struct pr_error *err)
{
    int64_t ts;
    int ok;
    enum pr_status st = get_time(e, RAW_TS, &ts, &ok, w, err);

    if (st != PR_OK || !ok)
        return st;
    if (!r->has_window_end || ts > r->window_end_ns)
        r->window_end_ns = ts;
    r->has_window_end = 1;
    return PR_OK;
}

/* root may be NULL when every member we read was taken raw. */
static enum pr_status
convert(struct pr_recs *r, const cJSON *root, const struct raw *raw,
        const struct where *w, struct pr_error *err)
{
    struct ev e;
    const char *ph;
    size_t n;

    pick_event(root, &e);
    e.raw = raw;
    ph = ev_str(&e, RAW_PH, &n);
    r->n_phased += n > 0;
    if (n != 1)
        return PR_OK; /* every phase we keep is one letter */
    if ((ph[0] == 's' || ph[0] == 'f') && ev_str_is(&e, RAW_CAT, "fwdbwd"))
        return add_flow(r, &e, ph[0], w, err);
    if (ph[0] == 'X' && e.raw->str[RAW_NAME] == NULL && e.name != NULL &&
        !cJSON_IsString(e.name) && !cJSON_IsNull(e.name))
        /* an operator of no name would stand in every table with none
           (review 25u #1: "name": ["x"] read as "") */
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %" PRIu64 ": event %" PRIu64
                            ": name is not a string (%s)",
                            w->offset, w->index,
                            cJSON_IsArray(e.name)    ? "an array"
                            : cJSON_IsObject(e.name) ? "an object"
                            : cJSON_IsNumber(e.name) ? "a number"
                                                     : "a boolean");
    if (ph[0] == 'X')
        return add_duration(r, &e, w, err);
    if (ph[0] == 'i' && ev_str_is(&e, RAW_NAME, "[memory]"))
        return add_memory(r, &e, w, err);
    if (ph[0] == 'i' && ev_str_is(&e, RAW_NAME, WINDOW_END))
        return add_window_end(r, &e, w, err);
    return PR_OK; /* M, C, other flows and instants: counted, not kept */
}

/* Length of a bare NaN / Infinity / -Infinity / N/A token at p, and its
 * replacement. */
static size_t
bare_token(const char *p, size_t n, const char **repl)
{
    static const char *const toks[][2] = {
        {"NaN", "null"},
        {"Infinity", "null"},
        {"-Infinity", "null"},
        {"N/A", "\"N/A\""},
    };
    size_t i;

    for (i = 0; i < sizeof(toks) / sizeof(toks[0]); i++) {
        size_t len = strlen(toks[i][0]);

        if (n >= len && memcmp(p, toks[i][0], len) == 0) {
            *repl = toks[i][1];
            return len;
        }
    }
    return 0;
}

/* Python's json module reads NaN, Infinity and -Infinity, and the TB
 * plugin rewrites bare N/A; cJSON reads none of them.  On a failed parse we
 * retry once with the first three as null (so the field counts as absent)
 * and N/A as the string "N/A".  NULL when that does not help. */
static cJSON *
parse_lenient(struct pr_recs *r, const char *text, size_t len)
{
    struct pr_buf *b = &r->scratch;
    size_t i = 0, k;
    int in_str = 0, changed = 0;
    enum pr_status st = PR_OK;
    const char *repl;

    pr_buf_reset(b);
    while (i < len && st == PR_OK) {
        k = in_str ? 0 : bare_token(text + i, len - i, &repl);
        if (k > 0) {
            changed = 1;
            st = pr_buf_adds(b, repl);
        } else {
            /* an escape pair is copied whole so \" does not end a string */
            k = in_str && text[i] == '\\' && i + 1 < len ? 2 : 1;
            if (text[i] == '"')
                in_str = !in_str;
            st = pr_buf_add(b, text + i, k);
        }
        i += k;
    }
    if (!changed || st != PR_OK || b->data == NULL) {
        if (st != PR_OK)
            errno = ENOMEM;
        return NULL;
    }
    return cJSON_ParseWithLength(b->data, b->len);
}

static enum pr_status
bad_json(const char *text, size_t len, const char *at, const struct where *w,
         struct pr_error *err)
{
    char near[20];
    size_t pos = 0, n = 0;

    if (at != NULL && at >= text && at <= text + len)
        pos = (size_t)(at - text);
    while (pos + n < len && n < sizeof(near) - 1) {
        unsigned char c = (unsigned char)text[pos + n];

        near[n++] = c >= 0x20 && c < 0x7f && c != '"' ? (char)c : '?';
    }
    near[n] = '\0';
    return pr_error_set(err, PR_E_FORMAT,
                        "byte %" PRIu64 ": event %" PRIu64
                        ": invalid JSON near \"%s\"",
                        w->offset + pos, w->index, near);
}

enum pr_status
pr_recs_add_event(struct pr_recs *r, const char *text, size_t len,
                  uint64_t index, uint64_t offset, struct pr_error *err)
{
    struct where w = {index, offset};
    const char *end = NULL, *slim, *bad;
    cJSON *root = NULL;
    struct raw raw;
    size_t n;
    int skip = 0;
    enum pr_status st;

    st = pr_json_refuse_nul(text, len, offset, index, err);
    if (st != PR_OK)
        return st;
    slim = slim_event(r, text, len, &n, &skip, &raw, &bad);
    if (bad != NULL) /* the grammar, not cJSON, decides what is JSON */
        return bad_json(text, len, bad, &w, err);
    if (skip) { /* only events with a ph are skipped */
        r->n_phased += raw.str_n[RAW_PH] > 0;
        return PR_OK; /* its shape was checked; none of it is kept */
    }
    /* nothing left for cJSON: all that we read was taken raw */
    if (slim != NULL &&
        (n == 2 || (n == 11 && memcmp(slim, "{\"args\":{}}", 11) == 0)))
        return convert(r, NULL, &raw, &w, err);
    /* cJSON gives NULL for bad text and for a failed allocation alike;
     * malloc's errno tells them apart */
    errno = 0;
    if (slim != NULL)
        root = cJSON_ParseWithLength(slim, n);
    if (root == NULL && errno != ENOMEM) {
        /* the original, for the error's position; it holds everything,
         * so nothing taken during slimming is used */
        memset(r->py_ok, 0, sizeof(r->py_ok));
        memset(&raw, 0, sizeof(raw));
        root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    }
    if (root == NULL && errno != ENOMEM)
        root = parse_lenient(r, text, len);
    if (root == NULL && errno == ENOMEM)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (root == NULL)
        return bad_json(text, len, end, &w, err);
    st = convert(r, root, &raw, &w, err);
    cJSON_Delete(root);
    return st;
}

/* ------------------------------------------------------------ top level */

static int
obj_int(const cJSON *o, const char *key, int64_t absent)
{
    int64_t v = int_or(cJSON_GetObjectItemCaseSensitive(o, key), INT32_MIN,
                       INT32_MAX, absent);

    return (int)v;
}

static int64_t
obj_i64(const cJSON *o, const char *key)
{
    return int_or(cJSON_GetObjectItemCaseSensitive(o, key), INT64_MIN,
                  INT64_MAX, -1);
}

static enum pr_status
intern_str(struct pr_trace *t, const cJSON *v, uint32_t *id)
{
    if (!cJSON_IsString(v))
        return PR_OK;
    *id = pr_strtab_intern(t->strs, v->valuestring, strlen(v->valuestring));
    return *id == PR_STR_NONE ? PR_E_NOMEM : PR_OK;
}

/* A HIP device whose deviceProperties name is empty (ROCm fills "name"
 * from the marketing name, which some drivers and virtual functions leave
 * blank) but whose gcnArchName says what it is: the reports name it by
 * that architecture and take its peaks from the device table's entry of
 * that architecture and compute-unit count, a guess.  The note says so. */
static enum pr_status
note_nameless_amd(struct pr_trace *t, size_t n, const char *arch)
{
    char text[400];

    if (n == 0)
        return PR_OK;
    snprintf(text, sizeof(text),
             "%zu deviceProperties entr%s of an AMD GPU %s an empty \"name\": "
             "the reports name %s by its gcnArchName (%.*s) and take the "
             "peaks of the device table's entry of that architecture and "
             "compute-unit count, where it has one, as a guess "
             "(peak_source \"guess\"); --peak-tflops and --peak-gbps set them",
             n, n == 1 ? "y" : "ies", n == 1 ? "has" : "have",
             n == 1 ? "it" : "them", (int)strcspn(arch, ":"), arch);
    return pr_trace_add_gap(t, "no_device_name", n, text);
}

/* deviceProperties: one object per GPU, by list position. */
static enum pr_status
apply_devices(struct pr_trace *t, const cJSON *list)
{
    const cJSON *o;
    const char *nameless_arch = NULL;
    size_t nameless = 0;

    cJSON_ArrayForEach(o, list)
    {
        struct pr_device *d = pr_trace_add_device(t);

        if (d == NULL)
            return PR_E_NOMEM;
        if (!cJSON_IsObject(o))
            continue; /* keeps the positions of the ones after it */
        d->id = obj_i64(o, "id");
        if (intern_str(t, cJSON_GetObjectItemCaseSensitive(o, "name"),
                       &d->name) != PR_OK)
            return PR_E_NOMEM;
        d->total_global_mem = obj_i64(o, "totalGlobalMem");
        d->compute_major = obj_int(o, "computeMajor", -1);
        d->compute_minor = obj_int(o, "computeMinor", -1);
        d->num_sms = obj_int(o, "numSms", -1);
        d->max_threads_per_block = obj_int(o, "maxThreadsPerBlock", -1);
        d->max_threads_per_sm = obj_int(o, "maxThreadsPerMultiprocessor", -1);
        d->regs_per_block = obj_int(o, "regsPerBlock", -1);
        d->regs_per_sm = obj_int(o, "regsPerMultiprocessor", -1);
        d->warp_size = obj_int(o, "warpSize", -1);
        d->smem_per_block = obj_i64(o, "sharedMemPerBlock");
        d->smem_per_sm = obj_i64(o, "sharedMemPerMultiprocessor");
        d->smem_per_block_optin = obj_i64(o, "sharedMemPerBlockOptin");
        /* HIP's architecture ("gfx942:sramecc+:xnack-"), where given:
           computeMajor/Minor of a HIP device are no CUDA capability */
        if (intern_str(t, cJSON_GetObjectItemCaseSensitive(o, "gcnArchName"),
                       &d->arch) != PR_OK)
            return PR_E_NOMEM;
        if ((d->name == PR_STR_NONE || pr_trace_str(t, d->name)[0] == '\0') &&
            d->arch != PR_STR_NONE &&
            strncmp(pr_trace_str(t, d->arch), "gfx", 3) == 0) {
            nameless++;
            if (!nameless_arch)
                nameless_arch = pr_trace_str(t, d->arch);
        }
    }
    return note_nameless_amd(t, nameless, nameless_arch ? nameless_arch : "");
}

static enum pr_status
apply_one(struct pr_trace *t, enum pr_split_cap which, const cJSON *v)
{
    switch (which) {
    case PR_SPLIT_CAP_DEVICES:
        return cJSON_IsArray(v) ? apply_devices(t, v) : PR_OK;
    case PR_SPLIT_CAP_DIST:
        t->rank = obj_i64(v, "rank");
        t->world_size = obj_i64(v, "world_size");
        t->world_source = t->world_size > 0 ? "distributedInfo" : NULL;
        return intern_str(t, cJSON_GetObjectItemCaseSensitive(v, "backend"),
                          &t->backend);
    case PR_SPLIT_CAP_BASE_TIME:
        t->has_base_time =
            pr_fld_int(v, INT64_MIN, INT64_MAX, &t->base_time_ns) == PR_FLD_OK;
        return PR_OK;
    case PR_SPLIT_CAP_FRAMEWORK:
        t->lightning = cJSON_IsString(v) &&
                       strcmp(v->valuestring, "pytorch-lightning") == 0;
        return PR_OK;
    default:
        return PR_OK;
    }
}

enum pr_status
pr_recs_apply_meta(struct pr_trace *t, const struct pr_split *s,
                   struct pr_error *err)
{
    int i;

    t->format = pr_strtab_intern(t->strs, s->bare ? "chrome" : "kineto", 6);
    for (i = 0; i < PR_SPLIT_N_CAPS; i++) {
        const struct pr_buf *b = &s->caps[i];
        cJSON *v;
        enum pr_status st;

        if (b->len == 0)
            continue;
        /* epoch nanoseconds need all 64 bits; a double would round them */
        if (i == PR_SPLIT_CAP_BASE_TIME &&
            pr_fld_parse_int64(b->data, b->len, &t->base_time_ns)) {
            t->has_base_time = 1;
            continue;
        }
        /* the splitter checked it against the grammar; what cJSON does
         * not read then holds NaN or N/A, and the value counts as absent */
        errno = 0;
        v = cJSON_ParseWithLength(b->data, b->len);
        if (v == NULL && errno == ENOMEM)
            return pr_error_set(err, PR_E_NOMEM, "out of memory");
        if (v == NULL)
            continue;
        st = apply_one(t, (enum pr_split_cap)i, v);
        cJSON_Delete(v);
        if (st != PR_OK)
            return pr_error_set(err, st, "out of memory");
    }
    return PR_OK;
}
