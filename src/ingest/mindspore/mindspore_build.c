/* mindspore_build.c - what the MindSpore and msprof readers share
 * (mindspore.h): telling the files of a profiler/ folder apart by their
 * first bytes, the small text helpers their names and numbers need, and
 * the builder that turns device tasks into the model's events. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../internal.h"
#include "mindspore.h"
#include "profreport/checked.h"
#include "profreport/shapes.h"

/* ------------------------------------------------------------ classify */

struct header {
    const char *prefix; /* the first line starts with this */
    const char *also;   /* and contains this (NULL: nothing more) */
    enum pr_ms_kind kind;
};

/* CSV headers as MindSpore and MindInsight write them, all generations
 * (the old aicore files say full_kernel_name and kernel_type, newer ones
 * full_op_name and op_type; a MindInsight fixture even full_kernel_time). */
static const struct header headers[] = {
    {"task_id,stream_id,block_dim,", "op_info", PR_MS_FRAMEWORK},
    {"full_kernel_name,execution_time", NULL, PR_MS_AICORE_DETAIL},
    {"full_op_name,execution_time", NULL, PR_MS_AICORE_DETAIL},
    {"full_kernel_time,execution_time", NULL, PR_MS_AICORE_DETAIL},
    {"kernel_type,total_time,execution_frequency", NULL, PR_MS_AICORE_TYPE},
    {"op_type,execution_time,execution_frequency", NULL, PR_MS_AICORE_TYPE},
    {"serial_number,kernel_type,", "run_start", PR_MS_AICPU},
    {"serial_number,op_type,", "run_start", PR_MS_AICPU},
    {"op_name, stream_id, start_time(ms)", NULL, PR_MS_TIMELINE_DATA},
    {"op_name,stream_id,start_time(ms)", NULL, PR_MS_TIMELINE_DATA},
    {"step_num,start_point,end_point", NULL, PR_MS_STEP_TRACE},
    {"step_num,communication_cost,wait_cost,", NULL, PR_MS_HCCL},
    {"computation_time,communication_alone_time", NULL, PR_MS_CLUSTER},
    {"computation,communication_alone_time", NULL, PR_MS_CLUSTER},
    {"iteration_interval, fp_and_bp, tail", NULL, PR_MS_CLUSTER},
    {"full_kernel_name, FLOPs,", NULL, PR_MS_FLOPS},
    {"full_kernel_name, MFLOPs(10^6 cube)", NULL, PR_MS_FLOPS},
    {"op_full_name, MFLOPs(10^6)", NULL, PR_MS_FLOPS},
    {"op_full_name,MFLOPs(10^6)", NULL, PR_MS_FLOPS},
    {"op_id,op_type,num_workers,output_queue_size", NULL, PR_MS_MINDDATA},
    {"op_side,op_type,op_name,op_full_name,op_occurrences,", NULL,
     PR_MS_GPU_OP_DETAIL},
    {"op_type,type_occurrences,total_time(us)", NULL, PR_MS_GPU_OP_TYPE},
    {"name,type,op_full_name,stream_id,block_dim,grid_dim,", NULL,
     PR_MS_GPU_ACTIVITY},
    {"op_side,op_type,op_name,full_op_name,op_occurrences,", NULL,
     PR_MS_CPU_OP_DETAIL},
    /* the same facts as files read above, or views of them */
    {"op_type,type_occurrences,execution_frequency", NULL, PR_MS_REDUNDANT},
    {"=====", "op compute time", PR_MS_REDUNDANT},
    {"=====", "HWTS data", PR_MS_REDUNDANT},
    {"serial_number node_type_name ", NULL, PR_MS_REDUNDANT},
    {"host_monotonic_raw_time(ns):", NULL, PR_MS_REDUNDANT},
    {"GetNext_dequeue_wait ", NULL, PR_MS_REDUNDANT},
};

/* JSON objects, by keys only they have. */
static const struct header objects[] = {
    {"\"fp_start\"", "\"bp_end\"", PR_MS_STEP_POINTS},
    {"\"FLOPS_Utilization\"", NULL, PR_MS_FLOPS_SUMMARY},
    {"\"cpu_processor_num\"", NULL, PR_MS_CPU_UTIL},
    {"\"op_exe_times\"", "\"num_of_streams\"", PR_MS_REDUNDANT},
    {"\"op_info\"", "\"num_workers\"", PR_MS_REDUNDANT},
    {"\"nodes\"", "\"links\"", PR_MS_REDUNDANT},
    {"\"parallelType\"", NULL, PR_MS_REDUNDANT},
    {"\"rank_id\"", "\"context_mode\"", PR_MS_REDUNDANT},
    {"\"op_side\"", "\"shape_info\"", PR_MS_REDUNDANT},
};

static const char *
find_in(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle), i;

    for (i = 0; i + m <= n; i++)
        if (s[i] == needle[0] && memcmp(s + i, needle, m) == 0)
            return s + i;
    return NULL;
}

static size_t
line_len(const char *s, size_t n)
{
    size_t i = 0;

    while (i < n && s[i] != '\n' && s[i] != '\r')
        i++;
    return i;
}

static enum pr_ms_kind
by_header(const char *s, size_t n)
{
    size_t len = line_len(s, n), i;

    for (i = 0; i < sizeof(headers) / sizeof(headers[0]); i++) {
        size_t m = strlen(headers[i].prefix);

        if (len >= m && memcmp(s, headers[i].prefix, m) == 0 &&
            (headers[i].also == NULL || find_in(s, len, headers[i].also)))
            return headers[i].kind;
    }
    return PR_MS_UNKNOWN;
}

static enum pr_ms_kind
by_object(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
        if (find_in(s, n, objects[i].prefix) &&
            (objects[i].also == NULL || find_in(s, n, objects[i].also)))
            return objects[i].kind;
    return PR_MS_UNKNOWN;
}

/* MindSpore's timelines are bare arrays of "X" events without "cat" (the
 * Chrome traces of other producers have one): Ascend ops carry "fullname"
 * (pid 1) or sit on the AI CPU row (pid 9000); GPU ones carry
 * "op_full_name" or sit on the "Ops" row. */
static enum pr_ms_kind
by_array(const char *s, size_t n)
{
    if (find_in(s, n, "\"cat\"") || !find_in(s, n, "\"ph\""))
        return PR_MS_UNKNOWN;
    if (find_in(s, n, "\"fullname\"") || find_in(s, n, "\"pid\": 9000") ||
        find_in(s, n, "\"pid\":9000") || find_in(s, n, "\"pid\": 10000"))
        return PR_MS_TIMELINE;
    if (find_in(s, n, "\"op_full_name\"") ||
        find_in(s, n, "\"tid\": \"Ops\"") || find_in(s, n, "\"tid\":\"Ops\""))
        return PR_MS_GPU_TIMELINE;
    return PR_MS_UNKNOWN;
}

static int
is_digits(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return n > 0;
}

static int is_step_trace(const char *s, size_t n);

/* The number of ';'-separated fields of a line, and whether fields a and b
 * are unsigned integers (-1: not checked). */
static size_t
semi_fields(const char *s, size_t n, int a, int b, int *ints)
{
    size_t f = 0, start = 0, i;

    *ints = 1;
    for (i = 0; i <= n; i++) {
        if (i < n && s[i] != ';')
            continue;
        if (((int)f == a || (int)f == b) && !is_digits(s + start, i - start))
            *ints = 0;
        f++;
        start = i + 1;
    }
    return f;
}

/* Text whose lines are MindSpore's own records rather than a table. */
static enum pr_ms_kind
by_lines(const char *s, size_t n, int whole)
{
    size_t len = line_len(s, n), words = 0, i;
    int ints, digits_only = 1, decimal = 1;

    if (find_in(s, len, ";GpuOps;") || find_in(s, len, ";Ops;") ||
        find_in(s, len, ";HostCpuOps;"))
        return PR_MS_GPU_OP_TS;
    if (semi_fields(s, len, 2, -1, &ints) >= 4 && ints &&
        find_in(s, len, ";input_"))
        return PR_MS_GPU_FRAMEWORK;
    if (semi_fields(s, len, 1, 2, &ints) == 4 && ints)
        return PR_MS_GPU_KERNEL_TS;
    for (i = 0; i < len; i++) {
        if (s[i] == ' ' && (i == 0 || s[i - 1] != ' '))
            words++;
        digits_only &= (s[i] >= '0' && s[i] <= '9') || s[i] == ' ';
        decimal &= (s[i] >= '0' && s[i] <= '9') || s[i] == '.';
    }
    if (len > 0 && decimal && whole && len + 2 >= n)
        return PR_MS_MIN_CYCLE; /* one number: the timeline's origin */
    if (len > 0 && digits_only)
        return words >= 4 ? PR_MS_DEVICE_QUEUE : PR_MS_REDUNDANT;
    return is_step_trace(s, len) ? PR_MS_GPU_STEP_TRACE : PR_MS_UNKNOWN;
}

/* "<int>,<int>" (form A's times), or "<text>,<int>[,<int>]" (form B). */
static int
is_time_token(const char *s, size_t n, int named)
{
    size_t c = 0, i, start = 0;

    for (i = 0; i <= n; i++) {
        if (i < n && s[i] != ',')
            continue;
        if ((c > 0 || !named) && !is_digits(s + start, i - start))
            return 0;
        c++;
        start = i + 1;
    }
    return named ? c == 2 || c == 3 : c == 2;
}

/* The GPU step trace: "<op> <start>,<end> <start>,<end> ..." (10 ns), or
 * MindRT's "<op>,<ns> <op>,<ns> <op>,<ns> <op>,<ns> [<op>,<s>,<e> ...]". */
static int
is_step_trace(const char *s, size_t n)
{
    size_t i = 0, tokens = 0, plain = 0, named = 0;

    while (i < n) {
        size_t j;
        while (i < n && s[i] == ' ')
            i++;
        for (j = i; j < n && s[j] != ' '; j++)
            ;
        if (j == i)
            break;
        tokens++;
        if (tokens == 1 && memchr(s + i, ',', j - i) == NULL)
            plain = 1;
        else if (is_time_token(s + i, j - i, 0))
            plain += plain > 0;
        else if (is_time_token(s + i, j - i, 1))
            named++;
        else
            return 0;
        i = j;
    }
    return tokens >= 2 && ((plain > 0 && plain == tokens) || named == tokens);
}

enum pr_ms_kind
pr_ms_classify(const char *head, size_t n, int whole)
{
    enum pr_ms_kind k;

    if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0) {
        head += 3;
        n -= 3;
    }
    while (n > 0 &&
           (*head == ' ' || *head == '\n' || *head == '\r' || *head == '\t')) {
        head++;
        n--;
    }
    if (n == 0)
        return PR_MS_UNKNOWN;
    if (*head == '{')
        return by_object(head, n);
    if (*head == '[')
        return by_array(head, n);
    k = by_header(head, n);
    return k != PR_MS_UNKNOWN ? k : by_lines(head, n, whole);
}

int
pr_ms_kind_family(enum pr_ms_kind k)
{
    if (k >= PR_MS_GPU_OP_DETAIL && k <= PR_MS_CPU_OP_DETAIL)
        return 2;
    if (k == PR_MS_MINDDATA || k == PR_MS_DEVICE_QUEUE || k == PR_MS_CPU_UTIL ||
        k == PR_MS_REDUNDANT || k == PR_MS_UNKNOWN)
        return 0;
    return 1;
}

int64_t
pr_ms_rank_of(const char *base)
{
    size_t n = strlen(base), i, j;
    int64_t r;

    for (i = n; i > 0; i--) {
        if (base[i - 1] < '0' || base[i - 1] > '9')
            continue;
        j = i;
        while (j > 0 && base[j - 1] >= '0' && base[j - 1] <= '9')
            j--;
        if (j > 0 && base[j - 1] == '_' && (base[i] == '_' || base[i] == '.') &&
            i - j <= 9 && pr_fld_parse_int64(base + j, i - j, &r))
            return r;
        i = j + 1;
    }
    return -1;
}

void
pr_ms_op_type(const char *full, char *out, size_t cap)
{
    const char *b = strrchr(full, '/'), *e;
    size_t n;

    b = b ? b + 1 : full;
    e = strrchr(b, '-');
    n = e ? (size_t)(e - b) : strlen(b);
    if (cap == 0)
        return;
    if (n >= cap)
        n = cap - 1;
    memcpy(out, b, n);
    out[n] = '\0';
}

const char *
pr_ms_collective(const char *type)
{
    static const struct {
        const char *op, *coll;
    } ops[] = {
        {"allreduce", "allreduce"},
        {"allgather", "allgather"},
        {"reducescatter", "reducescatter"},
        {"broadcast", "broadcast"},
        {"alltoall", "alltoall"},
        {"alltoallv", "alltoall"},
        {"send", "send"},
        {"receive", "recv"},
        {"recv", "recv"},
        {"reduce", "reduce"},
        {"barrier", "barrier"},
    };
    size_t i;

    if (strncasecmp(type, "hcom", 4) == 0)
        type += 4 + (type[4] == '_');
    for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (strcasecmp(type, ops[i].op) == 0)
            return ops[i].coll;
    return NULL;
}

int
pr_ms_dec_ns(const char *s, size_t n, int exp, int64_t *ns)
{
    size_t i = 0, frac_digits = 0;
    int64_t v = 0, scale = 1, round = 0;
    int neg = 0, any = 0, k;

    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < n && s[i] == '-') {
        neg = 1;
        i++;
    }
    for (k = 0; k < exp; k++)
        scale *= 10;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, any = 1)
        if (!pr_checked_mul_i64(v, 10, &v) ||
            !pr_checked_add_i64(v, s[i] - '0', &v))
            return 0;
    if (!pr_checked_mul_i64(v, scale, &v))
        return 0;
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, any = 1) {
            if ((int)++frac_digits <= exp) {
                scale /= 10;
                v += (s[i] - '0') * scale;
            } else if ((int)frac_digits == exp + 1) {
                round = s[i] >= '5';
            }
        }
    if (!any || i != n || v + round > ((int64_t)1 << 62))
        return 0;
    *ns = neg ? -(v + round) : v + round;
    return 1;
}

int
pr_ms_csv_col(const struct pr_csv *c, const char *name)
{
    size_t i, n = pr_csv_n_cols(c), m = strlen(name);

    for (i = 0; i < n; i++) {
        const char *h = pr_csv_col_name(c, i);
        size_t len = strlen(h);

        while (len > 0 && (*h == ' ' || *h == '\t')) {
            h++;
            len--;
        }
        while (len > 0 && (h[len - 1] == ' ' || h[len - 1] == '\t'))
            len--;
        if (len == m && memcmp(h, name, m) == 0)
            return (int)i;
    }
    return -1;
}

int
pr_ms_num(const char *s, double *out)
{
    size_t n = strlen(s);

    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    return pr_fld_parse_number(s, n, out);
}

/* ------------------------------------------------------------ builder */

enum pr_status
pr_ms_builder_init(struct pr_ms_builder *b, struct pr_trace *t, int64_t device,
                   const char *format, struct pr_error *err)
{
    memset(b, 0, sizeof(*b));
    b->t = t;
    b->device = device;
    b->next_id = 1;
    b->host_pid = pr_strtab_intern(t->strs, "host", 4);
    b->step_tid = pr_strtab_intern(t->strs, "Step Trace", 10);
    b->launch = pr_strtab_intern(t->strs, "launch", 6);
    t->format = pr_strtab_intern(t->strs, format, strlen(format));
    t->drawn_launches = 1; /* "launch" below: at the op's device start */
    if (b->host_pid == PR_STR_NONE || b->step_tid == PR_STR_NONE ||
        b->launch == PR_STR_NONE || t->format == PR_STR_NONE)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

static uint32_t
intern(struct pr_ms_builder *b, const char *s)
{
    return pr_strtab_intern(b->t->strs, s, strlen(s));
}

static uint32_t
intern_num(struct pr_ms_builder *b, const char *prefix, int64_t v)
{
    char buf[48];

    snprintf(buf, sizeof(buf), "%s%lld", prefix, (long long)v);
    return intern(b, buf);
}

static struct pr_event *
new_event(struct pr_ms_builder *b, enum pr_kind kind, uint32_t name,
          uint32_t pid, uint32_t tid, int64_t ts, int64_t dur)
{
    struct pr_event *e;

    if (name == PR_STR_NONE || pid == PR_STR_NONE || tid == PR_STR_NONE)
        return NULL;
    e = pr_trace_add_event(b->t);
    if (e == NULL)
        return NULL;
    e->kind = (uint8_t)kind;
    e->name = name;
    e->ts_ns = ts;
    e->dur_ns = dur;
    e->order = (uint32_t)(b->t->n_events - 1);
    if (pr_event_set_where(b->t, e, pr_event_cat(b->t, e), pid, tid) != PR_OK)
        return NULL;
    return e;
}

/* The ids that join an event to others (PR_NO_ID: none); PR_E_NOMEM. */
static enum pr_status
set_ids(struct pr_ms_builder *b, struct pr_event *e, int64_t ext, int64_t corr)
{
    if (pr_event_set_external_id(b->t, e, ext) != PR_OK ||
        pr_event_set_correlation(b->t, e, corr) != PR_OK)
        return PR_E_NOMEM;
    return PR_OK;
}

/* The operator of a task: a zero-length host op holding a zero-length
 * launch whose correlation id names the task. */
static enum pr_status
add_operator(struct pr_ms_builder *b, const struct pr_ms_task *k, uint32_t tid,
             int64_t corr)
{
    struct pr_op_info *op;
    struct pr_event *e;
    uint32_t info;
    int64_t ext = b->next_id++;
    int64_t ts = k->launch_tid ? k->launch_ts_ns : k->ts_ns;
    int64_t dur = k->launch_tid ? k->launch_dur_ns : 0;

    if (k->launch_tid && (tid = intern(b, k->launch_tid)) == PR_STR_NONE)
        return PR_E_NOMEM;
    op = pr_trace_add_op(b->t, &info);
    if (op == NULL)
        return PR_E_NOMEM;
    op->flops = k->flops;
    if (k->shapes && (op->input_dims = intern(b, k->shapes)) == PR_STR_NONE)
        return PR_E_NOMEM;
    if (k->types && (op->input_types = intern(b, k->types)) == PR_STR_NONE)
        return PR_E_NOMEM;
    if (pr_shapes_note(b->t, PR_SHAPES_DIMS, op->input_dims) != PR_OK ||
        pr_shapes_note(b->t, PR_SHAPES_TYPES, op->input_types) != PR_OK)
        return PR_E_NOMEM;
    e = new_event(b, PR_KIND_HOST_OP, intern(b, k->op), b->host_pid, tid, ts,
                  dur);
    if (e == NULL || set_ids(b, e, ext, PR_NO_ID) != PR_OK)
        return PR_E_NOMEM;
    e->info = info;
    e = new_event(b, PR_KIND_RUNTIME_CALL, b->launch, b->host_pid, tid, ts,
                  dur);
    if (e == NULL)
        return PR_E_NOMEM;
    return set_ids(b, e, ext, corr);
}

static enum pr_status
fill_gpu(struct pr_ms_builder *b, const struct pr_ms_task *k,
         struct pr_event *e)
{
    struct pr_gpu_info *g = pr_trace_add_gpu(b->t, &e->info);

    if (g == NULL)
        return PR_E_NOMEM;
    g->device =
        b->device >= 0 && b->device <= INT32_MAX ? (int32_t)b->device : -1;
    g->stream =
        k->stream >= 0 && k->stream <= INT32_MAX ? (int32_t)k->stream : -1;
    memcpy(g->grid, k->grid, sizeof(g->grid));
    memcpy(g->block, k->block, sizeof(g->block));
    g->bytes = k->bytes;
    /* the unit the producer names (AI CPU: its AI CPU table, its
       timeline's pid 9000), as the Ascend readers keep Accelerator Core */
    g->unit = (uint8_t)k->unit;
    if (k->has_block_dim)
        g->block_dim = k->block_dim;
    if (k->collective &&
        (g->collective = intern(b, k->collective)) == PR_STR_NONE)
        return PR_E_NOMEM;
    return PR_OK;
}

/* The task itself, joined to its launch by corr (PR_NO_ID: none). */
static enum pr_status
add_device_task(struct pr_ms_builder *b, const struct pr_ms_task *k,
                int64_t corr, struct pr_error *err)
{
    uint32_t pid = intern_num(b, "", b->device >= 0 ? b->device : 0);
    uint32_t tid = k->row ? intern(b, k->row)
                          : intern_num(b, "", k->stream >= 0 ? k->stream : 0);
    struct pr_event *e;

    if (pid == PR_STR_NONE || tid == PR_STR_NONE)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    e = new_event(b, k->kind, intern(b, k->name), pid, tid, k->ts_ns,
                  k->dur_ns);
    if (e == NULL || set_ids(b, e, PR_NO_ID, corr) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (pr_info_table_of(k->kind) == PR_INFO_GPU && fill_gpu(b, k, e) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

static int
bad_span(const struct pr_ms_task *k)
{
    int64_t end;

    return k->dur_ns < 0 || !pr_checked_add_i64(k->ts_ns, k->dur_ns, &end);
}

enum pr_status
pr_ms_add_task(struct pr_ms_builder *b, const struct pr_ms_task *k,
               struct pr_error *err)
{
    /* the same strings in the same order as always: ids stay as they were */
    uint32_t pid = intern_num(b, "", b->device >= 0 ? b->device : 0);
    uint32_t tid = k->row ? intern(b, k->row)
                          : intern_num(b, "", k->stream >= 0 ? k->stream : 0);
    uint32_t host_tid =
        k->row ? intern(b, k->row) : intern_num(b, "stream ", k->stream);
    int64_t corr = b->next_id++;

    if (bad_span(k))
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: duration is negative or out of range",
                            k->name);
    if (pid == PR_STR_NONE || tid == PR_STR_NONE || host_tid == PR_STR_NONE ||
        (k->op && add_operator(b, k, host_tid, corr) != PR_OK))
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return add_device_task(b, k, k->op ? corr : PR_NO_ID, err);
}

enum pr_status
pr_ms_add_op(struct pr_ms_builder *b, const struct pr_ms_call *c, int64_t *ext,
             struct pr_error *err)
{
    struct pr_op_info *op;
    struct pr_event *e;
    uint32_t info;
    int64_t end;

    if (c->dur_ns < 0 || !pr_checked_add_i64(c->ts_ns, c->dur_ns, &end))
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: duration is negative or out of range", c->op);
    *ext = b->next_id++;
    op = pr_trace_add_op(b->t, &info);
    if (op == NULL ||
        (c->shapes && (op->input_dims = intern(b, c->shapes)) == PR_STR_NONE) ||
        pr_shapes_note(b->t, PR_SHAPES_DIMS, op->input_dims) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    e = new_event(b, PR_KIND_HOST_OP, intern(b, c->op), b->host_pid,
                  intern(b, c->row), c->ts_ns, c->dur_ns);
    if (e == NULL || set_ids(b, e, *ext, PR_NO_ID) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    e->info = info;
    return PR_OK;
}

enum pr_status
pr_ms_add_kernel(struct pr_ms_builder *b, const struct pr_ms_task *k,
                 int64_t ext, int64_t op_ts_ns, const char *row,
                 struct pr_error *err)
{
    int64_t corr = b->next_id++;
    struct pr_event *e;

    if (bad_span(k))
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: duration is negative or out of range",
                            k->name);
    e = new_event(b, PR_KIND_RUNTIME_CALL, b->launch, b->host_pid,
                  intern(b, row), op_ts_ns, 0);
    if (e == NULL || set_ids(b, e, ext, corr) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return add_device_task(b, k, corr, err);
}

enum pr_status
pr_ms_add_step(struct pr_ms_builder *b, int64_t number, int64_t start_ns,
               int64_t end_ns, struct pr_error *err)
{
    struct pr_op_info *op;
    struct pr_event *e;
    uint32_t info;

    if (end_ns < start_ns)
        return pr_error_set(err, PR_E_FORMAT, "step %lld ends before it starts",
                            (long long)number);
    op = pr_trace_add_op(b->t, &info);
    e = op ? new_event(b, PR_KIND_ANNOTATION,
                       intern_num(b, "ProfilerStep#", number), b->host_pid,
                       b->step_tid, start_ns, end_ns - start_ns)
           : NULL;
    if (e == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    e->info = info;
    return PR_OK;
}

enum pr_status
pr_ms_add_range(struct pr_ms_builder *b, const char *name, int64_t ts_ns,
                int64_t dur_ns, struct pr_error *err)
{
    uint32_t pid = intern_num(b, "", b->device >= 0 ? b->device : 0);

    if (dur_ns < 0)
        return pr_error_set(err, PR_E_FORMAT, "%s: negative duration", name);
    if (new_event(b, PR_KIND_OTHER, intern(b, name), pid, b->step_tid, ts_ns,
                  dur_ns) == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}
