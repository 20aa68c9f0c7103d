/* summary.c - assembles the summary tree: the top, inputs and runs as
 * typed rows (rows.def's TOP, INPUTS, RUNS), each run filled by the
 * analyses (pr_analysis_fill) and written once, then the summary-level
 * keys.  The keys are the contract of spec/summary-json.md. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/jobs.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/schema.h"
#include "profreport/sget.h"
#include "profreport/stages.h"
#include "profreport/summary.h"

#include "internal.h"
#include "pr_build.h" /* PR_BUILD: Makefile.am */

/* The top row: the tool, no input or run yet, distributed null; job,
 * jobs and rank_form left out.  The inputs and runs are added as they are
 * read, the views once they are all in (jobs.c), and pr_summary_finish
 * writes the top again, once, in its rows' order (top_write); a merge's
 * rank_form comes last, after it (pipeline.c). */
cJSON *
pr_summary_new(void)
{
    struct pr_row_top top;
    cJSON *inputs = cJSON_CreateArray(), *runs = cJSON_CreateArray(), *s;

    memset(&top, 0, sizeof(top));
    top.schema_version = PR_SCHEMA_VERSION;
    top.tool.name = PACKAGE_NAME;
    top.tool.version = PACKAGE_VERSION;
    top.tool.build = PR_BUILD;
    top.tool.definitions = PR_DEFINITIONS;
    top.inputs = inputs;
    top.runs = runs;
    top.distributed = NULL;
    (void)pr_rows_omit(PR_RO_TOP, &top, PR_SR_TOP_PR_K_JOB);
    (void)pr_rows_omit(PR_RO_TOP, &top, PR_SR_TOP_PR_K_JOBS);
    (void)pr_rows_omit(PR_RO_TOP, &top, PR_SR_TOP_PR_K_RANK_FORM);
    s = inputs != NULL && runs != NULL ? pr_rows_row(PR_RO_TOP, &top) : NULL;
    cJSON_Delete(inputs);
    cJSON_Delete(runs);
    return s;
}

enum pr_status
pr_summary_add_input(cJSON *s, const char *path, const struct pr_trace *t,
                     const char *worker, const char *span, struct pr_error *err)
{
    struct pr_row_input in;

    memset(&in, 0, sizeof(in));
    in.path = path;
    in.format = pr_trace_str(t, t->format);
    in.bytes = (int64_t)t->bytes;
    in.events = (int64_t)t->n_trace_events;
    in.worker = worker;
    in.span = span;
    if (!pr_rows_write(cJSON_GetObjectItemCaseSensitive(s, PR_K_INPUTS),
                       PR_RO_INPUTS, &in, 1))
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    return PR_OK;
}

static const struct {
    const char *kind;
    const char *text;
    size_t offset;
} quality[] = {
    {"skipped_no_dur", "duration events without a usable dur were skipped",
     offsetof(struct pr_diag, skipped_no_dur)},
    {"skipped_bad_ts", "events without a usable ts were skipped",
     offsetof(struct pr_diag, skipped_bad_ts)},
    {"negative_dur", "events with a negative dur were clamped to 0",
     offsetof(struct pr_diag, negative_dur)},
    {"unknown_cat", "duration events of unknown categories were ignored",
     offsetof(struct pr_diag, unknown_cat)},
    {"non_object", "traceEvents entries that are not objects were ignored",
     offsetof(struct pr_diag, non_object)},
    {"invalid_utf8",
     "strings that were not UTF-8 were kept with U+FFFD for the bad bytes",
     offsetof(struct pr_diag, invalid_utf8)},
    {"long_text_cut",
     "strings longer than 64 KiB (names, stacks) were kept as their first "
     "64 KiB and the count of bytes cut",
     offsetof(struct pr_diag, long_text_cut)},
};

/* What the input's format cannot give, after the counters. */
static void
note_gaps(struct pr_notes *notes, const struct pr_trace *t)
{
    size_t i;

    for (i = 0; i < t->n_gaps; i++)
        pr_notes_row(notes, pr_trace_str(t, t->gaps[i].kind), t->gaps[i].count,
                     pr_trace_str(t, t->gaps[i].text));
}

/* A CUPTI range-profiler trace: Kineto writes one cuda_profiler_range
 * per kernel with the counters and spreads the ranges evenly over the
 * profiling span (CuptiRangeProfiler.cpp: "the actual times do not
 * really matter here"), so they carry no timing at all.  Its FLOPs are
 * Kineto's kineto__cuda_core_flops: SASS FMA, MUL and ADD instructions in
 * fp16/32/64; tensor-pipe instructions (sm__inst_executed_pipe_tensor)
 * are not FLOPs of known size and are not in them. */
static void
note_replay(struct pr_notes *notes, const struct pr_trace *t)
{
    char text[640];

    if (t->replayed_kernels == 0)
        return;
    snprintf(text, sizeof(text),
             "kernels were measured by CUPTI's range profiler: each "
             "cuda_profiler_range carries a kernel's counters but no "
             "timing (Kineto spreads the ranges evenly over the profiling "
             "span), so device utilization is not reported and kernel "
             "times, step times and rankings by time do not describe the "
             "run; read the counters. Measured FLOPs count CUDA-core "
             "instructions (FMA, MUL, ADD in fp16/32/64) only: tensor-core "
             "work is not in them%s",
             t->replay_unlinked ? " (ranges not paired with their launches: "
                                  "the counts of ranges and launches differ)"
                                : "");
    pr_notes_count(notes, PR_K_REPLAYED_KERNELS, (double)t->replayed_kernels);
    pr_notes_row(notes, "kernel_replay", t->replayed_kernels, text);
}

/* The trace's data-quality notes, before the analyses add theirs:
 * "data_quality" as counters, "diagnostics" as the rows the reports show
 * (only the non-zero ones), then what the format cannot give. */
static void
note_trace(struct pr_notes *notes, const struct pr_trace *t)
{
    size_t i;

    for (i = 0; i < sizeof(quality) / sizeof(quality[0]); i++) {
        size_t n = *(const size_t *)(const void *)((const char *)&t->diag +
                                                   quality[i].offset);

        pr_notes_count(notes, quality[i].kind, (double)n);
        if (n > 0)
            pr_notes_row(notes, quality[i].kind, n, quality[i].text);
    }
    note_replay(notes, t);
    note_gaps(notes, t);
}

/* A run whose trace holds nothing of a device's work: no device work,
 * runtime or driver calls, syncs or device memory (a CPU training run, a
 * legacy trace without use_cuda, or a process whose trace names its GPUs
 * in deviceProperties but recorded none of their work: HTA's
 * distributed_info_not_found, review22g item 9).  Its reports leave the
 * device views out rather than show them empty; the devices it names stay
 * listed (devices.c). */
static int
host_only(const struct pr_trace *t)
{
    size_t i;

    /* a raw memory timeline's device is not named: not known host-only;
       a rank of only its producer's step tables ran on the NPU its files
       name (device_kind, phases) */
    if (t->device_kind != PR_STR_NONE || t->memtl != NULL ||
        (t->n_devices > 0 && t->phases != NULL))
        return 0;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        const struct pr_mem_info *m;

        switch (e->kind) {
        case PR_KIND_DEVICE_ANNOTATION:
        case PR_KIND_RUNTIME_CALL:
        case PR_KIND_DRIVER_CALL:
        case PR_KIND_DEVICE_TASK:
        case PR_KIND_COPY:
        case PR_KIND_SET:
        case PR_KIND_SYNC:
            return 0;
        case PR_KIND_MEMORY_RECORD:
            /* c10's DeviceType: CPU 0, MKLDNN 2 and IDEEP 5 are host
             * memory; -1 is unknown */
            m = pr_trace_mem(t, e);
            if (m != NULL && m->device_type != -1 && m->device_type != 0 &&
                m->device_type != 2 && m->device_type != 5)
                return 0;
            break;
        default:
            break;
        }
    }
    return 1;
}

/* The framework that ran the model, so advice speaks its words: what the
 * reader saw, else the format's (torch_npu's exports and Kineto traces
 * come from PyTorch, MindSpore's profiler folders from MindSpore); NULL
 * when neither says (Nsight Systems, msprof's own exports of a framework
 * its tasks do not name). */
const char *
pr_run_framework(const struct pr_trace *t)
{
    static const struct {
        const char *format, *framework;
    } by_format[] = {
        {"kineto", "pytorch"},         {"chrome", "pytorch"},
        {"autograd", "pytorch"},       {"ascend", "pytorch"},
        {"ascend_trace", "pytorch"},   {"mindspore", "mindspore"},
        {"megengine", "megengine"},    {"megengine-static", "megengine"},
        {"memory_timeline", "pytorch"}};
    const char *f;
    size_t i;

    if (t->framework != PR_STR_NONE)
        return pr_trace_str(t, t->framework);
    f = t->format != PR_STR_NONE ? pr_trace_str(t, t->format) : "";
    for (i = 0; i < sizeof(by_format) / sizeof(by_format[0]); i++)
        if (strcmp(f, by_format[i].format) == 0)
            return by_format[i].framework;
    return NULL;
}

/* A run's typed row: its scalars from the trace; every slot (a JSON
 * field, operators_source and the rank form's form) left out until an
 * analysis writes it, but those the schema always writes (tensor_cores,
 * memory, timeline), null where no pass wrote them. */
static void
run_row(const struct pr_trace *t, const char *worker, const char *span,
        struct pr_row_run *r)
{
    const struct pr_rows_objinfo *o = pr_rows_object(PR_RO_RUNS);
    size_t k;

    memset(r, 0, sizeof(*r));
    r->worker = worker;
    r->span = span;
    r->rank = t->rank >= 0 ? (double)t->rank : NAN;
    r->world_size = t->world_size >= 0 ? (double)t->world_size : NAN;
    r->host_only = host_only(t);
    r->world_size_source = t->world_size >= 0 ? t->world_source : NULL;
    /* a figure from the groups' ranks is a lower bound (issue #30) */
    r->world_size_bound = t->world_size < 0 ? NULL
                          : t->world_floor  ? "at_least"
                                            : "exact";
    r->world_size_note =
        t->world_size >= 0 && t->world_floor && t->world_note != PR_STR_NONE
            ? pr_trace_str(t, t->world_note)
            : NULL;
    r->device_kind =
        t->device_kind != PR_STR_NONE ? pr_trace_str(t, t->device_kind) : NULL;
    r->framework = pr_run_framework(t);
    r->profiler_level = t->profiler_level != PR_STR_NONE
                            ? pr_trace_str(t, t->profiler_level)
                            : NULL;
    if (r->profiler_level == NULL)
        pr_rows_omit(PR_RO_RUNS, r, PR_SR_RUNS_PR_K_PROFILER_LEVEL);
    r->iterations_note = t->iterations_note != PR_STR_NONE
                             ? pr_trace_str(t, t->iterations_note)
                             : NULL;
    if (r->iterations_note == NULL)
        pr_rows_omit(PR_RO_RUNS, r, PR_SR_RUNS_PR_K_ITERATIONS_NOTE);
    for (k = 0; k < o->n_fields; k++) {
        const struct pr_rows_field *f = &o->fields[k];
        if ((f->type == PR_RT_JSON &&
             !(pr_schema_rows[f->row].flags & PR_SF_ALWAYS)) ||
            f->row == PR_SR_RUNS_PR_K_OPERATORS_SOURCE ||
            f->row == PR_SR_RUNS_PR_K_DEVICE_NOT_RECORDED ||
            f->row == PR_SR_RUNS_PR_K_KERNELS_NOTE ||
            f->row == PR_SR_RUNS_PR_K_FORM)
            pr_rows_omit(PR_RO_RUNS, r, f->row);
    }
}

/* The object the analyses are handed and write their parts into: the
 * row's scalars alone, which they read (framework, host_only). */
static cJSON *
new_run(const struct pr_row_run *r)
{
    const struct pr_rows_objinfo *o = pr_rows_object(PR_RO_RUNS);
    struct pr_row_run scalars = *r;
    size_t k;

    for (k = 0; k < o->n_fields; k++)
        if (o->fields[k].type == PR_RT_JSON)
            pr_rows_omit(PR_RO_RUNS, &scalars, o->fields[k].row);
    return pr_rows_row(PR_RO_RUNS, &scalars);
}

/* The run written once, in its row's order: the row's scalars, each slot
 * the object an analysis wrote into work.  work is freed; NULL when out
 * of memory. */
static cJSON *
run_write(const struct pr_row_run *r, cJSON *work)
{
    cJSON *run = pr_rows_row_from(PR_RO_RUNS, r, work);

    cJSON_Delete(work);
    return run;
}

/* work's findings without a gain moved to its observations (advice),
 * before the run is written. */
static enum pr_status
observe(cJSON *work, struct pr_error *err)
{
    if (pr_recommend_observe(work))
        return PR_OK;
    return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
}

/* The same for a run already written (a cluster's rank, whose gains are
 * set once the last rank is in): its observations made, it is written
 * again through its row, so that they stand in the row's place; run is
 * replaced in runs. */
static enum pr_status
observe_written(cJSON *runs, cJSON *run, struct pr_error *err)
{
    struct pr_row_run row;
    enum pr_status st;
    cJSON *again, *r;
    int left = 0;

    cJSON_ArrayForEach(r, pr_sget(run, PR_K_RECOMMENDATIONS))
    {
        left |= !cJSON_IsNumber(pr_sget(r, PR_K_GAIN_US));
    }
    if (!left)
        return PR_OK; /* none to move: the run stays as written */
    st = observe(run, err);
    if (st == PR_OK)
        st = pr_rows_read_one(run, "runs[]", PR_RO_RUNS, &row, err);
    if (st != PR_OK)
        return st;
    again = pr_rows_row_from(PR_RO_RUNS, &row, run);
    if (again == NULL || !cJSON_ReplaceItemViaPointer(runs, run, again)) {
        cJSON_Delete(again);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
    }
    return PR_OK;
}

enum pr_status
pr_summary_add_run(cJSON *s, const struct pr_trace *t, const char *worker,
                   const char *span, const struct pr_analysis_opts *o,
                   struct pr_error *err)
{
    struct pr_row_run row;
    cJSON *run, *runs, *next;
    struct pr_notes notes = {0};
    enum pr_status st;
    int cluster;

    run_row(t, worker, span, &row);
    run = new_run(&row);
    if (run == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    note_trace(&notes, t);
    st = pr_analysis_fill(t, o, run, &notes, err);
    /* the notes, the trace's and the analyses', once they are all in */
    if (st == PR_OK)
        st = pr_notes_emit(&notes, run, err);
    pr_notes_free(&notes);
    if (st != PR_OK) {
        cJSON_Delete(run);
        return st;
    }
    /* the last rank of a MindSpore cluster folder in: its pipeline stages'
       balance gives the stage findings of every rank their gain, below;
       any other run's findings without a gain are observations now */
    cluster =
        pr_sget_is(pr_sget_str(pr_sget(run, PR_K_STEP_PHASES), PR_K_SOURCE),
                   "ascend_cluster_analyse");
    if (!cluster && (st = observe(run, err)) != PR_OK) {
        cJSON_Delete(run);
        return st;
    }
    /* the analyses' parts into the run's slots: written once, in order */
    if ((run = run_write(&row, run)) == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
    if (!cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(s, PR_K_RUNS),
                              run)) {
        cJSON_Delete(run);
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    /* a cluster's ranks: once the last is in, here, where a report that
       reads the input again for its runs in full gets it too (the job's
       views see lite runs), every gain set, their findings without one
       become observations */
    if (!cluster || t->next != NULL)
        return PR_OK;
    runs = cJSON_GetObjectItemCaseSensitive(s, PR_K_RUNS);
    st = pr_stages_gains(runs, err);
    for (run = runs->child; st == PR_OK && run != NULL; run = next) {
        next = run->next;
        st = observe_written(runs, run, err);
    }
    return st;
}

static int
cmp_run(const void *a, const void *b)
{
    const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
    int c = strcmp(pr_sget_str_or(x, PR_K_WORKER, ""),
                   pr_sget_str_or(y, PR_K_WORKER, ""));

    if (c != 0)
        return c;
    return strcmp(pr_sget_str_or(x, PR_K_SPAN, ""),
                  pr_sget_str_or(y, PR_K_SPAN, ""));
}

/* The top written once, in its row's order, now that its parts are in:
 * its schema version and tool as they stand (a merge's, read back), the
 * inputs, runs and views moved into their slots (pr_rows_row_from); s
 * keeps its address (the caller's), its members replaced. */
static enum pr_status
top_write(cJSON *s, struct pr_error *err)
{
    struct pr_row_top top;
    cJSON *work, *out;
    enum pr_status st = pr_rows_read_one(s, "summary", PR_RO_TOP, &top, err);

    if (st != PR_OK)
        return st;
    work = cJSON_CreateObject();
    if (work == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
    work->child = s->child;
    s->child = NULL;
    out = pr_rows_row_from(PR_RO_TOP, &top, work);
    if (out == NULL) { /* what was not moved goes back */
        s->child = work->child;
        work->child = NULL;
        cJSON_Delete(work);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (summary)");
    }
    s->child = out->child;
    out->child = NULL;
    cJSON_Delete(out);
    cJSON_Delete(work);
    return PR_OK;
}

/* The views over all runs: the runs grouped into jobs, and each job's
 * distributed (comm/overlap per rank) and job overview (jobs.h), read
 * from the sorted runs; then the top written once. */
static enum pr_status
finish_views(cJSON *s, struct pr_error *err)
{
    enum pr_status st = pr_jobs_build(s, err);

    return st == PR_OK ? top_write(s, err) : st;
}

enum pr_status
pr_summary_finish(cJSON *s, struct pr_error *err)
{
    cJSON *runs = cJSON_GetObjectItemCaseSensitive(s, PR_K_RUNS);
    int n = cJSON_GetArraySize(runs), i;
    cJSON **v;

    if (n < 2)
        return finish_views(s, err);
    v = malloc((size_t)n * sizeof(*v));
    if (v == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    for (i = 0; i < n; i++)
        v[i] = cJSON_DetachItemFromArray(runs, 0);
    /* stable: the input order breaks ties (same worker and span twice) */
    for (i = 1; i < n; i++) {
        cJSON *x = v[i];
        int j = i - 1;
        while (j >= 0 && cmp_run(&v[j], &x) > 0) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
    for (i = 0; i < n; i++)
        cJSON_AddItemToArray(runs, v[i]);
    free(v);
    return finish_views(s, err);
}
