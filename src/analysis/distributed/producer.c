/* producer.c - the Ascend producer's own figures in the summary
 * (producer.h): step phases as step_trace_time.csv (or MindSpore's
 * cluster analysis) writes them, and communication.json's time split per
 * HCCL operation type and group, in the producer's words. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/checked.h"
#include "profreport/comm.h"
#include "profreport/keys.h"
#include "profreport/phases.h"
#include "profreport/producer.h"
#include "profreport/sget.h"

#include "../internal.h"

/* ---- the steps of a run without tasks */

/* Whether the run has device work of its own besides communication: a
 * run of only collective tasks (MindSpore's step trace gives its
 * Receive, Send and AllReduce segments, issue #30) takes its compute
 * time from the producer's phases too. */
static int
has_tasks(const struct pr_trace *t)
{
    struct pr_names nc;
    size_t i;
    int any = 0;

    pr_names_init(&nc, t);
    for (i = 0; i < t->n_events && !any; i++)
        any = (t->events[i].kind == PR_KIND_DEVICE_TASK &&
               !pr_comm_kernel_cached(&nc, &t->events[i])) ||
              t->events[i].kind == PR_KIND_COPY ||
              t->events[i].kind == PR_KIND_SET;
    pr_names_free(&nc);
    return any;
}

/* A decimal step number, the whole of `s`. */
static int
parse_number(const char *s, int64_t *out)
{
    char *end;
    long long v;

    if (*s < '0' || *s > '9')
        return 0;
    v = strtoll(s, &end, 10);
    if (*end != '\0' || v < 0 || v == LLONG_MAX)
        return 0;
    *out = (int64_t)v;
    return 1;
}

/* The phase row of step `k` of n: by the number in its name
 * ("ProfilerStep#5", "Step 5"), else the k-th row when the counts agree. */
static const struct pr_phase_step *
phase_of(const struct pr_trace *t, const struct pr_step *st, size_t k, size_t n)
{
    const struct pr_phases *p = t->phases;
    const char *name = st->name != PR_STR_NONE ? pr_trace_str(t, st->name) : "";
    const char *hash = strrchr(name, '#');
    int64_t num;
    size_t i;

    if (hash == NULL && strncmp(name, "Step ", 5) == 0)
        hash = name + 4; /* an NPU run's "Step 5" (analysis.c) */
    if (hash != NULL && parse_number(hash + 1, &num))
        for (i = 0; i < p->n_steps; i++)
            if (p->steps[i].number == num)
                return &p->steps[i];
    return n == p->n_steps ? &p->steps[k] : NULL;
}

static int64_t
known(int64_t v)
{
    return v == PR_PHASE_UNKNOWN || v < 0 ? 0 : v;
}

void
pr_producer_steps(const struct pr_trace *t, struct pr_steps *s)
{
    size_t k;
    int c;

    if (t->phases == NULL || t->phases->n_steps == 0 || has_tasks(t))
        return;
    for (k = 0; k < s->n; k++) {
        struct pr_step *st = &s->v[k];
        const struct pr_phase_step *p = phase_of(t, st, k, s->n);
        int64_t span = pr_sat_sub_i64(st->end_ns, st->start_ns);
        int64_t comp, alone, over, rest;

        if (p == NULL || p->computing_ns == PR_PHASE_UNKNOWN)
            continue;
        comp = known(p->computing_ns);
        alone = known(p->comm_alone_ns);
        over = known(p->overlapped_ns);
        if (comp > span)
            comp = span;
        if (alone > span - comp)
            alone = span - comp;
        rest = span - comp - alone;
        for (c = 0; c < PR_CAT_COUNT; c++)
            st->breakdown_ns[c] = 0;
        st->breakdown_ns[PR_CAT_KERNEL] = comp;
        st->breakdown_ns[PR_CAT_COMM] = alone;
        st->breakdown_ns[PR_CAT_OTHER] = rest;
        st->comp_ns = comp;
        st->both_ns = over < comp ? over : comp;
        st->comm_ns = pr_sat_add_i64(alone, st->both_ns);
        s->comp_kernels = 1;
        s->has_comm |= st->comm_ns > 0;
        s->gpu_used |= comp > 0;
    }
}

/* ---- run["step_phases"] */

static const struct {
    const char *key;
    size_t off;
} phase_keys[] = {
    {"computing_us", offsetof(struct pr_phase_step, computing_ns)},
    {"communication_not_overlapped_us",
     offsetof(struct pr_phase_step, comm_alone_ns)},
    {"overlapped_us", offsetof(struct pr_phase_step, overlapped_ns)},
    {"communication_us", offsetof(struct pr_phase_step, comm_ns)},
    {"free_us", offsetof(struct pr_phase_step, free_ns)},
    {"stage_us", offsetof(struct pr_phase_step, stage_ns)},
    {"bubble_us", offsetof(struct pr_phase_step, bubble_ns)},
    {"communication_not_overlapped_exclude_receive_us",
     offsetof(struct pr_phase_step, comm_excl_recv_ns)},
    {"preparing_us", offsetof(struct pr_phase_step, preparing_ns)},
};

#define N_PHASE_KEYS (sizeof(phase_keys) / sizeof(phase_keys[0]))

static int64_t
phase_at(const struct pr_phase_step *p, size_t k)
{
    return *(const int64_t *)(const void *)((const char *)p +
                                            phase_keys[k].off);
}

static void
emit_phase_row(cJSON *o, const struct pr_phase_step *p, int *ok)
{
    size_t k;

    if (p->number >= 0)
        pr_emit_num(o, PR_K_STEP, (double)p->number, ok);
    else
        pr_emit_null(o, PR_K_STEP, ok);
    for (k = 0; k < N_PHASE_KEYS; k++) {
        int64_t v = phase_at(p, k);
        if (v == PR_PHASE_UNKNOWN)
            pr_emit_null(o, phase_keys[k].key, ok);
        else
            pr_emit_us(o, phase_keys[k].key, v, ok);
    }
}

/* The mean per step of each phase over the steps that give it, leaving
 * out the leading steps the producer's own average leaves out. */
static void
emit_phase_mean(cJSON *o, const struct pr_phases *p, int *ok)
{
    size_t k, i, skip = p->mean_skip < p->n_steps ? p->mean_skip : 0;

    for (k = 0; k < N_PHASE_KEYS; k++) {
        double sum = 0;
        size_t n = 0;

        for (i = skip; i < p->n_steps; i++) {
            int64_t v = phase_at(&p->steps[i], k);
            if (v != PR_PHASE_UNKNOWN) {
                sum += (double)v;
                n++;
            }
        }
        pr_emit_num_or_null(o, phase_keys[k].key,
                            n > 0 ? sum / (double)n / 1000.0 : NAN, ok);
    }
}

static void
emit_phases(const struct pr_phases *p, cJSON *run, int *ok)
{
    cJSON *o, *arr;
    size_t i;

    if (p == NULL || p->n_steps == 0) {
        pr_emit_null(run, PR_K_STEP_PHASES, ok);
        return;
    }
    o = pr_emit_obj(run, PR_K_STEP_PHASES, ok);
    pr_emit_str(o, PR_K_SOURCE, p->steps_source ? p->steps_source : "", ok);
    arr = pr_emit_arr(o, PR_K_STEPS, ok);
    for (i = 0; i < p->n_steps && *ok; i++)
        emit_phase_row(pr_emit_obj(arr, NULL, ok), &p->steps[i], ok);
    emit_phase_mean(pr_emit_obj(o, PR_K_MEAN, ok), p, ok);
    pr_emit_num(o, PR_K_MEAN_SKIPPED_STEPS,
                (double)(p->mean_skip < p->n_steps ? p->mean_skip : 0), ok);
    if (p->parallel_mode[0])
        pr_emit_str(o, PR_K_PARALLEL_MODE, p->parallel_mode, ok);
    else
        pr_emit_null(o, PR_K_PARALLEL_MODE, ok);
    if (p->stage_count > 0)
        pr_emit_num(o, PR_K_PIPELINE_STAGES, (double)p->stage_count, ok);
    else
        pr_emit_null(o, PR_K_PIPELINE_STAGES, ok);
}

/* ---- run["hccl"] */

/* One row: an operation type ("hcom_allReduce_") in one group. */
struct hrow {
    char type[64];
    uint32_t group;
    int p2p;
    size_t calls;
    int64_t t[5];      /* elapse, transit, wait, sync, idle; -1 none */
    double bytes;      /* -1 when some call names none */
    double hccs, rdma; /* their parts; -1 none */
};

static const char *const time_keys[5] = {"elapse_us", "transit_us", "wait_us",
                                         "synchronization_us", "idle_us"};

/* "hcom_allReduce__586_0_1" -> "hcom_allReduce_", as kernel_details'
 * Type column names it. */
static void
op_type(const char *name, char *out, size_t cap)
{
    const char *dd = strstr(name, "__");
    size_t n = dd ? (size_t)(dd - name) + 1 : strlen(name);

    if (n >= cap)
        n = cap - 1;
    memcpy(out, name, n);
    out[n] = '\0';
}

static int64_t
stat_time(const struct pr_comm_stat *c, int k)
{
    const int64_t v[5] = {c->elapse_ns, c->transit_ns, c->wait_ns, c->sync_ns,
                          c->idle_ns};

    return v[k];
}

static void
add_known_ns(int64_t *sum, int64_t v)
{
    if (v == PR_PHASE_UNKNOWN || v < 0)
        return;
    *sum = pr_sat_add_i64(*sum < 0 ? 0 : *sum, v);
}

static void
add_known_b(double *sum, double v)
{
    if (v < 0)
        return;
    *sum = (*sum < 0 ? 0 : *sum) + v;
}

static struct hrow *
row_for(struct hrow *rows, size_t *n, size_t cap, const char *type,
        uint32_t group, int p2p)
{
    size_t i;

    for (i = 0; i < *n; i++)
        if (rows[i].group == group && rows[i].p2p == p2p &&
            strcmp(rows[i].type, type) == 0)
            return &rows[i];
    if (*n == cap)
        return NULL;
    memset(&rows[*n], 0, sizeof(rows[0]));
    snprintf(rows[*n].type, sizeof(rows[0].type), "%s", type);
    rows[*n].group = group;
    rows[*n].p2p = p2p;
    for (i = 0; i < 5; i++)
        rows[*n].t[i] = -1;
    rows[*n].bytes = rows[*n].hccs = rows[*n].rdma = -1;
    return &rows[(*n)++];
}

static int
cmp_hrow(const void *a, const void *b)
{
    const struct hrow *x = a, *y = b;
    int c;

    if (x->t[0] != y->t[0])
        return x->t[0] > y->t[0] ? -1 : 1;
    c = strcmp(x->type, y->type);
    if (c != 0)
        return c;
    return x->group < y->group ? -1 : x->group > y->group;
}

/* The collective of an operation type in pr_comm's words:
 * "hcom_allReduce_" -> "all_reduce", "hcom_batchSendRecv_" ->
 * "send_recv", "hcom_receive_" -> "recv"; NULL unknown. */
const char *
pr_producer_collective(const char *type)
{
    char word[64];
    size_t n;

    if (strncmp(type, "hcom_", 5) == 0)
        type += 5;
    n = strcspn(type, "_");
    if (n == 0 || n >= sizeof(word))
        return NULL;
    memcpy(word, type, n);
    word[n] = '\0';
    if (strcasecmp(word, "batchSendRecv") == 0)
        return "send_recv";
    if (strcasecmp(word, "receive") == 0)
        return "recv";
    if (strncasecmp(word, "allgatherv", 10) == 0)
        return "all_gather";
    if (strncasecmp(word, "reducescatterv", 14) == 0)
        return "reduce_scatter";
    if (strncasecmp(word, "alltoall", 8) == 0)
        return "all_to_all";
    return pr_comm_collective(word);
}

static void
emit_hrow(const struct pr_trace *t, const struct hrow *r, cJSON *o, int *ok)
{
    const char *coll = pr_producer_collective(r->type);
    int k;

    pr_emit_str(o, PR_K_NAME, r->type, ok);
    if (coll != NULL)
        pr_emit_str(o, PR_K_COLLECTIVE, coll, ok);
    else
        pr_emit_null(o, PR_K_COLLECTIVE, ok);
    pr_emit_str(o, PR_K_KIND, r->p2p ? "p2p" : "collective", ok);
    if (r->group != PR_STR_NONE)
        pr_emit_str(o, PR_K_GROUP, pr_trace_str(t, r->group), ok);
    else
        pr_emit_null(o, PR_K_GROUP, ok);
    pr_emit_num(o, PR_K_CALLS, (double)r->calls, ok);
    for (k = 0; k < 5; k++) {
        if (r->t[k] < 0)
            pr_emit_null(o, time_keys[k], ok);
        else
            pr_emit_us(o, time_keys[k], r->t[k], ok);
    }
    pr_emit_num_or_null(o, PR_K_BYTES, r->bytes >= 0 ? r->bytes : NAN, ok);
    /* msprof's own ratio: Wait / (Wait + Transit) */
    pr_emit_num_or_null(o, PR_K_WAIT_RATIO,
                        r->t[1] >= 0 && r->t[2] >= 0 && r->t[1] + r->t[2] > 0
                            ? (double)r->t[2] / (double)(r->t[1] + r->t[2])
                            : NAN,
                        ok);
    pr_emit_num_or_null(
        o, PR_K_TRANSIT_BANDWIDTH_GBPS,
        r->bytes >= 0 && r->t[1] > 0 ? r->bytes / (double)r->t[1] : NAN, ok);
}

#define MAX_HROWS 128

static void
emit_hccl(const struct pr_trace *t, cJSON *run, int *ok)
{
    const struct pr_phases *p = t->phases;
    struct hrow *rows;
    size_t n = 0, i, left = 0;
    cJSON *o, *arr;
    int k;

    if (p == NULL || p->n_comm == 0) {
        pr_emit_null(run, PR_K_HCCL, ok);
        return;
    }
    rows = calloc(MAX_HROWS, sizeof(*rows));
    if (rows == NULL) {
        *ok = 0;
        return;
    }
    for (i = 0; i < p->n_comm; i++) {
        const struct pr_comm_stat *c = &p->comm[i];
        char type[64];
        struct hrow *r;
        double b = pr_comm_stat_bytes(c);

        op_type(c->name != PR_STR_NONE ? pr_trace_str(t, c->name) : "", type,
                sizeof(type));
        r = row_for(rows, &n, MAX_HROWS, type, c->group, c->p2p);
        if (r == NULL) {
            left++;
            continue;
        }
        r->calls++;
        for (k = 0; k < 5; k++)
            add_known_ns(&r->t[k], stat_time(c, k));
        if (b < 0 || (r->calls > 1 && r->bytes < 0))
            r->bytes = -2; /* a call of unknown size: the sum is unknown */
        else
            add_known_b(&r->bytes, b);
        add_known_b(&r->hccs, c->hccs_bytes);
        add_known_b(&r->rdma, c->rdma_bytes);
    }
    qsort(rows, n, sizeof(*rows), cmp_hrow);
    o = pr_emit_obj(run, PR_K_HCCL, ok);
    pr_emit_str(o, PR_K_SOURCE, p->comm_source ? p->comm_source : "", ok);
    arr = pr_emit_arr(o, PR_K_OPS, ok);
    for (i = 0; i < n && *ok; i++)
        emit_hrow(t, &rows[i], pr_emit_obj(arr, NULL, ok), ok);
    pr_emit_num(o, PR_K_ROWS_LEFT_OUT, (double)left, ok);
    free(rows);
}

/* ---- run["npu_memory"]: memory_record.csv's components */

static void
emit_mem(const struct pr_phases *p, cJSON *run, int *ok)
{
    cJSON *o, *arr;
    size_t i;

    if (p == NULL || p->n_mem == 0) {
        pr_emit_null(run, PR_K_NPU_MEMORY, ok);
        return;
    }
    o = pr_emit_obj(run, PR_K_NPU_MEMORY, ok);
    pr_emit_str(o, PR_K_SOURCE, "memory_record.csv", ok);
    arr = pr_emit_arr(o, PR_K_COMPONENTS, ok);
    for (i = 0; i < p->n_mem && *ok; i++) {
        const struct pr_mem_component *m = &p->mem[i];
        cJSON *c = pr_emit_obj(arr, NULL, ok);

        pr_emit_str(c, PR_K_COMPONENT, m->name, ok);
        pr_emit_num(c, PR_K_DEVICE, (double)m->device, ok);
        pr_emit_num(c, PR_K_SAMPLES, (double)m->samples, ok);
        pr_emit_num_or_null(c, PR_K_PEAK_ALLOCATED_BYTES,
                            m->peak_allocated >= 0 ? m->peak_allocated : NAN,
                            ok);
        pr_emit_num_or_null(c, PR_K_PEAK_RESERVED_BYTES,
                            m->peak_reserved >= 0 ? m->peak_reserved : NAN, ok);
    }
}

/* ---- online operator compilation (CANN's aclop path) */

/* CANN's calls that compile an operator for its shapes at run time
 * before launching it (torch_npu's jit_compile=True, the aclop path):
 * AscendCL@aclopCompileAndExecute, aclopCompile, and their V2 forms. */
static int
is_op_compile(const char *name)
{
    const char *at = strrchr(name, '@');
    const char *fn = at != NULL ? at + 1 : name;

    return strncmp(fn, "aclopCompileAndExecute", 22) == 0 ||
           strncmp(fn, "aclopCompile", 12) == 0;
}

#define OPC_OPS 8

struct opc_op {
    uint32_t name; /* string id of "Dequeue@<op>" */
    size_t calls;
    int64_t ns;
};

/* The operator a compile call worked for: the Dequeue@<op> range of
 * torch_npu's task queue that holds it on its thread (PR_STR_NONE when
 * the export has none: msprof alone, the database). */
static uint32_t
op_of_call(const struct pr_trace *t, size_t i)
{
    const struct pr_event *c = &t->events[i];
    int64_t end = c->ts_ns + c->dur_ns;
    size_t k, walked = 0;

    for (k = i; k-- > 0 && walked < 64; walked++) {
        const struct pr_event *e = &t->events[k];
        const char *n = pr_trace_str(t, e->name);

        if (pr_event_tid(t, e) != pr_event_tid(t, c) ||
            strncmp(n, "Dequeue@", 8) != 0)
            continue;
        if (e->ts_ns <= c->ts_ns && e->ts_ns + e->dur_ns >= end)
            return e->name;
    }
    return PR_STR_NONE;
}

static int
cmp_opc(const void *a, const void *b)
{
    const struct opc_op *x = a, *y = b;

    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return x->name < y->name ? -1 : x->name > y->name;
}

static void
emit_op_compile(const struct pr_trace *t, cJSON *run, int *ok)
{
    struct opc_op ops[OPC_OPS];
    size_t n_ops = 0, calls = 0, i, k;
    int64_t ns = 0;
    double steps = (double)pr_sget_len(pr_sget(run, PR_K_STEPS));
    double mean = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEAN_US);
    cJSON *o, *arr;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        uint32_t op;

        if (e->kind != PR_KIND_RUNTIME_CALL ||
            !is_op_compile(pr_trace_str(t, e->name)))
            continue;
        calls++;
        ns += e->dur_ns;
        op = op_of_call(t, i);
        for (k = 0; k < n_ops && ops[k].name != op; k++)
            ;
        if (k == n_ops && n_ops < OPC_OPS) {
            ops[n_ops].name = op;
            ops[n_ops].calls = 0;
            ops[n_ops++].ns = 0;
        }
        if (k < n_ops) {
            ops[k].calls++;
            ops[k].ns += e->dur_ns;
        }
    }
    if (calls == 0) {
        pr_emit_null(run, PR_K_OP_COMPILE, ok);
        return;
    }
    qsort(ops, n_ops, sizeof(ops[0]), cmp_opc);
    o = pr_emit_obj(run, PR_K_OP_COMPILE, ok);
    pr_emit_num(o, PR_K_CALLS, (double)calls, ok);
    pr_emit_us(o, PR_K_TOTAL_US, ns, ok);
    pr_emit_num_or_null(o, PR_K_STEP_PCT,
                        steps > 0 && mean > 0
                            ? 100.0 * (double)ns / 1000.0 / (steps * mean)
                            : NAN,
                        ok);
    arr = pr_emit_arr(o, PR_K_OPERATORS, ok);
    for (k = 0; k < n_ops; k++) {
        cJSON *r;

        if (ops[k].name == PR_STR_NONE)
            continue;
        r = pr_emit_obj(arr, NULL, ok);
        pr_emit_str(r, PR_K_NAME, pr_trace_str(t, ops[k].name) + 8, ok);
        pr_emit_num(r, PR_K_CALLS, (double)ops[k].calls, ok);
        pr_emit_us(r, PR_K_US, ops[k].ns, ok);
    }
}

enum pr_status
pr_producer_fill(const struct pr_trace *t, cJSON *run, struct pr_error *err)
{
    int ok = 1;

    emit_phases(t->phases, run, &ok);
    emit_hccl(t, run, &ok);
    emit_mem(t->phases, run, &ok);
    emit_op_compile(t, run, &ok);
    return ok ? PR_OK
              : pr_error_set(err, PR_E_NOMEM, "out of memory (step phases)");
}

/* ---- the communication advice of an Ascend run */

/* The run's steps, for per-step figures: the producer's phases' count,
 * else its steps'; 0 when neither. */
static double
run_steps(const cJSON *run)
{
    double n = (double)pr_sget_len(
        pr_sget(pr_sget(run, PR_K_STEP_PHASES), PR_K_STEPS));

    return n > 0 ? n : (double)pr_sget_len(pr_sget(run, PR_K_STEPS));
}

/* How to overlap gradient collectives with backward, in the words of
 * the framework that ran the model. */
static const char *
overlap_words(const cJSON *run)
{
    const char *fw = pr_sget_str_or(run, PR_K_FRAMEWORK, "");

    if (strcmp(fw, "mindspore") == 0)
        return "MindSpore all-reduces the gradients in fused groups after "
               "backward: split them so the first groups start while "
               "backward still runs (set_auto_parallel_context's "
               "all_reduce_fusion_config, by parameter index, or "
               "comm_fusion), and all-reduce fewer bytes (fp16 or bf16 "
               "gradients).";
    if (strcmp(fw, "pytorch") == 0)
        return "Reduce the gradients in buckets while backward runs (DDP's "
               "bucket_cap_mb) and all-reduce fewer bytes (bf16 gradients). "
               "Whether the time is transfer or waiting for other ranks is "
               "in communication.json (torch_npu writes it at "
               "profiler_level1 and above), which this run lacks.";
    return "Overlap the collectives with computation (reduce gradients in "
           "groups while backward runs) and move fewer bytes (fp16 or bf16 "
           "gradients).";
}

int
pr_producer_pipeline_note(const cJSON *run, char *text, size_t cap)
{
    const cJSON *ph = pr_sget(run, PR_K_STEP_PHASES),
                *m = pr_sget(ph, PR_K_MEAN);
    double bubble = pr_sget_num(m, PR_K_BUBBLE_US);
    double comp = pr_sget_num(m, PR_K_COMPUTING_US);
    double step = pr_sget_num(pr_sget(run, PR_K_STEP_SUMMARY), PR_K_MEDIAN_US);

    if (!(step > 0) || isnan(bubble) || isnan(comp) ||
        !pr_sget_is(pr_sget_str(ph, PR_K_SOURCE), "ascend_cluster_analyse"))
        return 0;
    if (bubble >= 0.2 * step) {
        snprintf(text, cap,
                 " This rank's pipeline stage waits %.1f ms of its %.1f ms "
                 "median step alone in Receive for the slower stage "
                 "(receive_alone_time, MindSpore's ascend_cluster_analyse) "
                 "and computes %.1f ms (computation_time): a pipeline "
                 "bubble, not transfer; balance the stages (the Distributed "
                 "section's pipeline view), not the links.",
                 bubble / 1000.0, step / 1000.0, comp / 1000.0);
        return PR_PIPE_BUBBLE;
    }
    if (comp >= 0.5 * step) {
        snprintf(text, cap,
                 " MindSpore's cluster table says this rank computes %.1f ms "
                 "of its %.1f ms median step (computation_time), work its "
                 "export holds no tasks for: it is the slower pipeline "
                 "stage, which the others wait for.",
                 comp / 1000.0, step / 1000.0);
        return PR_PIPE_SLOW_STAGE;
    }
    return 0;
}

/* Without the producer's split: the step's largest collective as the
 * communication view measured it. */
static int
comm_fallback(const cJSON *run, double share, char *text, size_t cap)
{
    const cJSON *comm = pr_sget(run, PR_K_COMMUNICATION), *op, *top = NULL;
    double steps = (double)pr_sget_len(pr_sget(comm, PR_K_PER_STEP));
    double cu = pr_sget_num(comm, PR_K_COMMUNICATION_US);
    double ov = pr_sget_num(comm, PR_K_OVERLAP_US), calls, mb, bw;
    char bws[160] = "";

    cJSON_ArrayForEach(op, pr_sget(comm, PR_K_OPS))
    {
        if (top == NULL ||
            pr_sget_num(op, PR_K_TOTAL_US) > pr_sget_num(top, PR_K_TOTAL_US))
            top = op;
    }
    if (top == NULL || !(steps > 0) || !(pr_sget_num(top, PR_K_TOTAL_US) > 0))
        return 0;
    if (pr_sget_is(pr_producer_collective(pr_sget_str_or(top, PR_K_NAME, "")),
                   "recv") ||
        strstr(pr_sget_str_or(top, PR_K_NAME, ""), "recv") != NULL) {
        /* a pipeline stage waiting in Receive: a bubble */
        char note[600];

        if (pr_producer_pipeline_note(run, note, sizeof(note))) {
            snprintf(text, cap,
                     "%.1f%% of the step is HCCL communication not "
                     "overlapped with computation, most of it in Receive "
                     "(%s).%s",
                     100.0 * share, pr_sget_str_or(top, PR_K_NAME, "?"), note);
            return 1;
        }
    }
    calls = pr_sget_num(top, PR_K_CALLS) / steps;
    mb = pr_sget_num(top, PR_K_TOTAL_BYTES) / steps / 1e6;
    bw = pr_sget_num(top, PR_K_BUSBW_GBPS);
    if (bw > 0)
        snprintf(bws, sizeof(bws), ", bus bandwidth %.1f GB/s", bw);
    else if (pr_sget_num(top, PR_K_ALGBW_GBPS) > 0) /* no group size: no bus */
        snprintf(bws, sizeof(bws),
                 ", algorithm bandwidth %.1f GB/s (the bus bandwidth needs "
                 "the group's size, which the trace does not state)",
                 pr_sget_num(top, PR_K_ALGBW_GBPS));
    if (mb > 0)
        snprintf(text, cap,
                 "%.1f%% of the step is HCCL communication not overlapped "
                 "with computation. Its largest collective, %s, runs %.3g "
                 "time%s a step for %.1f ms, moving %.0f MB%s; computation "
                 "overlaps %.0f%% of the step's collectives. %s",
                 100.0 * share, pr_sget_str_or(top, PR_K_NAME, "?"), calls,
                 calls == 1 ? "" : "s",
                 pr_sget_num(top, PR_K_TOTAL_US) / steps / 1000.0, mb, bws,
                 cu > 0 && ov >= 0 ? 100.0 * ov / cu : 0.0, overlap_words(run));
    else
        snprintf(text, cap,
                 "%.1f%% of the step is HCCL communication not overlapped "
                 "with computation. Its largest collective, %s, runs %.3g "
                 "time%s a step for %.1f ms; computation overlaps %.0f%% of "
                 "the step's collectives. %s",
                 100.0 * share, pr_sget_str_or(top, PR_K_NAME, "?"), calls,
                 calls == 1 ? "" : "s",
                 pr_sget_num(top, PR_K_TOTAL_US) / steps / 1000.0,
                 cu > 0 && ov >= 0 ? 100.0 * ov / cu : 0.0, overlap_words(run));
    return 1;
}

int
pr_producer_comm_advice(const cJSON *run, double share, char *text, size_t cap)
{
    const cJSON *op, *top = NULL;
    double t[5] = {0, 0, 0, 0, 0}, steps = run_steps(run), el, len;
    int k;

    cJSON_ArrayForEach(op, pr_sget(pr_sget(run, PR_K_HCCL), PR_K_OPS))
    {
        for (k = 0; k < 5; k++)
            if (!isnan(pr_sget_num(op, time_keys[k])))
                t[k] += pr_sget_num(op, time_keys[k]);
        if (top == NULL ||
            pr_sget_num(op, PR_K_WAIT_US) > pr_sget_num(top, PR_K_WAIT_US))
            top = op;
    }
    if (top == NULL || !(steps > 0) || !(t[0] > 0))
        return comm_fallback(run, share, text, cap);
    for (k = 0; k < 5; k++)
        t[k] /= steps * 1000.0; /* ms a step */
    el = t[0];
    len = (double)snprintf(
        text, cap,
        "%.1f%% of the step is HCCL communication not overlapped with "
        "computation. %s splits HCCL's %.1f ms a step into "
        "Transit %.1f ms (moving data), Wait %.1f ms (Notify Wait for the "
        "peers; %.1f ms of it Synchronization, before the first transfer) "
        "and Idle %.1f ms.",
        100.0 * share,
        pr_sget_str_or(pr_sget(run, PR_K_HCCL), PR_K_SOURCE,
                       "communication.json"),
        el, t[1], t[2], t[3], t[4]);
    if (len < 0 || len >= (double)cap)
        return 1;
    if (t[2] >= 0.5 * el)
        snprintf(text + (size_t)len, cap - (size_t)len,
                 " Most of it is waiting for other ranks, not transfer: %s "
                 "(%s) waits %.1f ms a step. A peer arrives late: a slower "
                 "rank or pipeline stage (the Distributed section's stages "
                 "and stragglers say which); faster links or fewer bytes "
                 "would not shorten it.",
                 pr_sget_str_or(top, PR_K_NAME, "?"),
                 pr_sget_str_or(top, PR_K_KIND, "?"),
                 pr_sget_num(top, PR_K_WAIT_US) / steps / 1000.0);
    else if (t[1] >= 0.5 * el)
        snprintf(text + (size_t)len, cap - (size_t)len,
                 " Most of it is transfer: overlap the collectives with "
                 "computation (reduce gradients in buckets while backward "
                 "runs) or move fewer bytes (bf16 gradients).");
    else if (t[4] >= 0.5 * el)
        snprintf(text + (size_t)len, cap - (size_t)len,
                 " Most of it is Idle: inside the operations, time neither "
                 "moving data nor waiting on a peer (Elapse - Transit - Wait, "
                 "as msprof counts it: gaps between HCCL's tasks); the "
                 "timeline of the HCCL stream shows what its tasks waited "
                 "for.");
    return 1;
}
