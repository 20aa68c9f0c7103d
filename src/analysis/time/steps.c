/* steps.c - step windows and their breakdown (spec sections 6, 7.1).  One
 * pass over the sorted events builds the role ranges and the host step
 * list; the op tree's runtime->device links then stretch each step to the
 * end of the GPU work it launched.  Tables and JSON are left to analysis.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/producer.h"
#include "profreport/steps.h"

#include "../internal.h"

struct extent {
    int64_t cpu_min, cpu_max;     /* host events (6.1) */
    int64_t glob_min, glob_max;   /* every created event */
    int64_t prof_start, prof_end; /* "PyTorch Profiler (0)" span */
    int has_cpu, has_glob, has_prof;
    /* where the profiler's window spans end (the last of them) */
    int64_t marker_end;
    int has_marker;
};

static const char *const cat_keys[PR_CAT_COUNT] = {
    "kernel",  "memcpy",     "memset",   "communication",
    "runtime", "dataloader", "cpu_exec", "other",
};

const char *
pr_steps_cat_key(enum pr_cat c)
{
    return c < PR_CAT_COUNT ? cat_keys[c] : "";
}

void
pr_steps_free(struct pr_steps *s)
{
    free(s->v);
    memset(s, 0, sizeof(*s));
}

static void
widen(int64_t *lo, int64_t *hi, int *has, int64_t s, int64_t e)
{
    if (!*has || s < *lo)
        *lo = s;
    if (!*has || e > *hi)
        *hi = e;
    *has = 1;
}

static enum pr_status
add_step(struct pr_steps *s, uint32_t name, int64_t start, int64_t end,
         struct pr_error *err)
{
    struct pr_step *st;

    if (pr_grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*st)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (steps)");
    st = &s->v[s->n++];
    memset(st, 0, sizeof(*st));
    st->name = name;
    st->start_ns = st->host_start_ns = start;
    st->end_ns = st->host_end_ns = end;
    return PR_OK;
}

/* 6.1 role of a host event (operator, python, user annotation); -1 none.
 * The plugin's comm ops remember their external id so that their kernels
 * count as communication (4.5).  Only a host-side collective (Gloo) is
 * communication time itself: an nccl:* op on the host is the enqueue of
 * kernels that carry the communication, so it is CPU time (the plugin
 * counts both; docs/differences.md). */
static int
host_role(const struct pr_trace *t, struct pr_names *nc,
          const struct pr_event *e, struct pr_idmap *comm, struct pr_error *err)
{
    unsigned cls = pr_names_get(nc, e->name);

    if (e->kind != PR_KIND_PY_LEGACY && (cls & PR_NAME_DATALOADER))
        return PR_CAT_DATALOADER;
    if ((cls & PR_NAME_COMM) && pr_event_external_id(t, e) != PR_NO_ID &&
        pr_idmap_put(comm, pr_event_external_id(t, e), 1, err) != PR_OK)
        return -2;
    return (cls & PR_NAME_COMM_HOST) ? PR_CAT_COMM : PR_CAT_CPU_EXEC;
}

static int
is_created(int kind)
{
    return pr_kind_in_capture(kind);
}

static int
is_step_event(struct pr_names *nc, const struct pr_event *e)
{
    return (e->kind == PR_KIND_HOST_OP || e->kind == PR_KIND_ANNOTATION) &&
           (pr_names_get(nc, e->name) & PR_NAME_STEP);
}

/* 6.1 role of any event; -1 none, -2 out of memory.  Step events have
 * none (scan_steps lists them).  GPU-side user annotations have no role:
 * they copy CPU ranges onto the GPU timeline (docs/differences.md). */
static int
role_of(const struct pr_trace *t, struct pr_names *nc, const struct pr_event *e,
        struct pr_idmap *comm, struct pr_error *err)
{
    switch (e->kind) {
    case PR_KIND_DEVICE_TASK: /* NCCL kernels: by link, name or metadata */
        if (pr_names_get(nc, e->name) & PR_NAME_INPUT_KERNEL)
            return PR_CAT_DATALOADER; /* waiting for the input pipeline */
        return pr_comm_kernel_cached(nc, e) ||
                       (pr_event_external_id(t, e) != PR_NO_ID &&
                        pr_idmap_get(comm, pr_event_external_id(t, e)) !=
                            PR_NONE)
                   ? PR_CAT_COMM
                   : PR_CAT_KERNEL;
    case PR_KIND_COPY:
        return PR_CAT_MEMCPY;
    case PR_KIND_SET:
        return PR_CAT_MEMSET;
    case PR_KIND_RUNTIME_CALL:
    case PR_KIND_DRIVER_CALL: /* Triton's cuLaunchKernel: launch time too */
        return PR_CAT_RUNTIME;
    case PR_KIND_HOST_OP:
    case PR_KIND_ANNOTATION:
        if (is_step_event(nc, e))
            return -1;
        return host_role(t, nc, e, comm, err);
    case PR_KIND_PY_LEGACY:
        return host_role(t, nc, e, comm, err);
    default:
        return -1;
    }
}

static void
note_extent(struct pr_names *nc, const struct pr_event *e, struct extent *x)
{
    int64_t end = e->ts_ns + e->dur_ns;

    if (!is_created(e->kind))
        return;
    widen(&x->glob_min, &x->glob_max, &x->has_glob, e->ts_ns, end);
    if (e->kind == PR_KIND_HOST_OP || e->kind == PR_KIND_PY_LEGACY ||
        (e->kind == PR_KIND_ANNOTATION &&
         (pr_names_get(nc, e->name) & PR_NAME_STEP)))
        widen(&x->cpu_min, &x->cpu_max, &x->has_cpu, e->ts_ns, end);
    if (e->kind == PR_KIND_PROFILER_SPAN &&
        strcmp(pr_trace_str(nc->t, e->name), "PyTorch Profiler (0)") == 0) {
        x->prof_start = e->ts_ns; /* the last one wins */
        x->prof_end = end;
        x->has_prof = 1;
    }
    if (e->kind == PR_KIND_PROFILER_SPAN &&
        (!x->has_marker || end > x->marker_end)) {
        x->marker_end = end;
        x->has_marker = 1;
    }
}

/* The step events and the extents of 6.1, 6.2. */
static enum pr_status
scan_steps(const struct pr_trace *t, struct pr_steps *s, struct extent *x,
           struct pr_error *err)
{
    struct pr_names nc;
    enum pr_status st = PR_OK;
    size_t i;

    pr_names_init(&nc, t);
    for (i = 0; i < t->n_events && st == PR_OK; i++) {
        const struct pr_event *e = &t->events[i];

        note_extent(&nc, e, x);
        if (is_step_event(&nc, e)) {
            s->has_step_events = 1;
            st = add_step(s, e->name, e->ts_ns, e->ts_ns + e->dur_ns, err);
        }
    }
    pr_names_free(&nc);
    return st;
}

struct step_dev {
    int64_t min_ns, max_ns; /* device span of matched work */
    int64_t first_call_end; /* end of the launch call of the work that
                               starts at min_ns */
    /* torch_npu's device step (npu_device_steps): the first start of the
     * tasks of the step's first launch that has tasks, and the last end
     * of those of its last such launch (launches in start order) */
    int64_t first_launch_ns, last_launch_end_ns;
};

/* Mark the devices of runtime r as launched inside step k. */
static void
match_runtime(const struct pr_trace *t, const struct pr_tree *tree, size_t r,
              struct pr_step *step, struct step_dev *sd, unsigned char *matched)
{
    const struct pr_tree_rt *rt = &tree->rts[r];
    int first = step->n_matched == 0;
    size_t i;

    for (i = 0; i < rt->n_dev; i++) {
        size_t d = tree->rt_devs[rt->dev_first + i];
        const struct pr_event *e = &t->events[tree->devs[d].ev];
        int64_t end = pr_sat_add_i64(e->ts_ns, e->dur_ns);

        if (first && (i == 0 || e->ts_ns < sd->first_launch_ns))
            sd->first_launch_ns = e->ts_ns;
        if (i == 0 || end > sd->last_launch_end_ns)
            sd->last_launch_end_ns = end;
        if (step->n_matched == 0 || e->ts_ns < sd->min_ns ||
            (e->ts_ns == sd->min_ns &&
             pr_tree_rt_end(t, rt) > sd->first_call_end))
            sd->first_call_end = pr_tree_rt_end(t, rt);
        if (step->n_matched == 0 || e->ts_ns < sd->min_ns)
            sd->min_ns = e->ts_ns;
        if (step->n_matched == 0 || e->ts_ns + e->dur_ns > sd->max_ns)
            sd->max_ns = e->ts_ns + e->dur_ns;
        matched[d] = 1;
        step->n_matched++;
    }
}

/* 6.3 first half: walk steps and runtimes (trace order = start order)
 * together; a runtime wholly inside a step claims its device events. */
static void
match_steps(const struct pr_trace *t, const struct pr_tree *tree,
            struct pr_steps *s, struct step_dev *sd, unsigned char *matched)
{
    size_t k = 0, r = 0;

    while (k < s->n && r < tree->n_rts) {
        const struct pr_tree_rt *rt = &tree->rts[r];
        int64_t start = pr_tree_rt_start(t, rt);

        if (rt->ev == PR_TREE_NONE || start < s->v[k].start_ns) {
            r++; /* the dummy runtime, or one before the step */
        } else if (pr_tree_rt_end(t, rt) <= s->v[k].end_ns) {
            match_runtime(t, tree, r, &s->v[k], &sd[k], matched);
            r++;
        } else if (start < s->v[k].end_ns) {
            r++; /* straddles the step end */
        } else {
            k++;
        }
    }
}

/* The time in [lo, hi) some device task of the trace covers (tasks in
 * trace order, i.e. by start; overlapping streams count once). */
static int64_t
device_busy(const struct pr_trace *t, const struct pr_tree *tree, int64_t lo,
            int64_t hi)
{
    int64_t busy = 0, cur = lo;
    size_t i;

    for (i = 0; i < tree->n_devs; i++) {
        const struct pr_event *e = &t->events[tree->devs[i].ev];
        int64_t a = e->ts_ns > cur ? e->ts_ns : cur;
        int64_t b = pr_sat_add_i64(e->ts_ns, e->dur_ns);

        if (e->ts_ns >= hi)
            break;
        if (b > hi)
            b = hi;
        if (b > a) {
            busy += b - a;
            cur = b;
        }
    }
    return busy;
}

/* The first step starts no earlier than its own first device work when
 * that work waited in the queue after its launch call returned (longer
 * than HTA's consecutive-kernel delay, the launch overhead) while the
 * device was busy for most of that wait: it was still running work
 * launched before the step, whose launches the trace need not hold (the
 * profiler's window opened with ~1,000 kernels queued).  A device idle in
 * the wait was no backlog (review 30g #2: HTA's trace_compare test
 * fragment's one launch waits 57 ms on a device that runs 7 us of it, and
 * its 100 ms ProfilerStep read as a 4 us step).  Later steps start where
 * the previous one's work ended; the first has no previous step to say
 * so.  Only with two steps or more: a single step has no steady state
 * whose pace this would keep. */
static int64_t
backlog_end(const struct pr_trace *t, const struct pr_tree *tree,
            const struct pr_steps *s, const struct step_dev *sd)
{
    int64_t gap;

    if (s->n < 2 || s->v[0].n_matched == 0)
        return INT64_MIN;
    gap = pr_sat_sub_i64(sd[0].min_ns, sd[0].first_call_end);
    if (gap <= PR_STEPS_QUEUED_NS ||
        device_busy(t, tree, sd[0].first_call_end, sd[0].min_ns) < gap / 2)
        return INT64_MIN;
    return sd[0].min_ns;
}

/* Where the first step's device work starts to be its own when the
 * device runs behind the host by more than a step: some step's device
 * work starts before the previous step's ends (its streams pipeline the
 * steps), so a device step is measured end to end, and the first one,
 * with no previous end, would hold the whole pipeline depth (review 28h
 * #5: HTA's negative_queue_length rank 0 read 368.4 ms for step 550
 * where every step advances ~215 ms, the device 1.7 steps behind).  The
 * first step's device work then ends as far past its host end (lag) as
 * the later steps' do, so it starts that far past its host start: its
 * length is its host interval's, the one basis it has.  INT64_MIN when
 * the steps do not overlap on the device. */
static int64_t
pipeline_start(const struct pr_steps *s, const struct step_dev *sd)
{
    const struct pr_step *p = &s->v[0];
    int64_t lag;
    size_t k;
    int overlap = 0;

    for (k = 1; k < s->n && !overlap; k++)
        overlap = s->v[k].n_matched > 0 && s->v[k - 1].n_matched > 0 &&
                  sd[k].min_ns < sd[k - 1].max_ns;
    if (!overlap || p->n_matched == 0)
        return INT64_MIN;
    lag = pr_sat_sub_i64(sd[0].max_ns, p->end_ns);
    if (lag <= PR_STEPS_QUEUED_NS)
        return INT64_MIN;
    return pr_sat_add_i64(p->start_ns, lag);
}

/* 6.3 second half: steps start where the previous one's GPU work ended
 * and end when their own GPU work does.  The capture window of a run
 * without steps has no previous step: the device work before its first
 * launched kernel (launched before the host's record begins: nsys_before
 * pid 144's first 12 kernels, 9.2 ms, ran before its first runtime call)
 * is inside the capture, so the window keeps its start (review 20
 * finding 6: it began 9.4 ms in, leaving them out of the breakdown). */
static void
stretch_steps(const struct pr_trace *t, const struct pr_tree *tree,
              struct pr_steps *s, const struct step_dev *sd,
              const unsigned char *matched)
{
    int64_t prev_end = s->v[0].start_ns, queued = backlog_end(t, tree, s, sd);
    size_t i;

    if (s->v[0].n_matched > 0 && s->has_step_events) {
        for (i = 0; i < tree->n_devs; i++) {
            const struct pr_event *e = &t->events[tree->devs[i].ev];
            int64_t end = e->ts_ns + e->dur_ns;

            if (!matched[i] && end < sd[0].min_ns && end > prev_end)
                prev_end = end;
        }
        /* that work was the device's backlog only if it kept the device
           busy for most of the wait; else the step holds it (review 30g
           #2: the trace_compare fragment's copies, 1.5 ms in 157 ms) */
        if (device_busy(t, tree, s->v[0].start_ns, prev_end) <
            (prev_end - s->v[0].start_ns) / 2)
            prev_end = s->v[0].start_ns;
    }
    if (queued == INT64_MIN)
        queued = pipeline_start(s, sd);
    if (queued > prev_end) { /* prev_end >= the first step's start */
        s->backlog_ns = queued - prev_end;
        prev_end = queued;
    }
    for (i = 0; i < s->n; i++) {
        struct pr_step *st = &s->v[i];
        int64_t start = prev_end > st->start_ns ? prev_end : st->start_ns;
        int64_t end = st->end_ns;

        if (st->n_matched > 0 && sd[i].max_ns > end)
            end = sd[i].max_ns;
        if (end < start)
            end = start;
        st->start_ns = start;
        st->end_ns = end;
        prev_end = end;
    }
}

/* torch_npu's device step where no step table gives it (a trace_view.json
 * alone, issue #30: msprof_tv's trace_view read its 14.09 ms host window,
 * its first task 2.6 ms in).  torch_npu's analysis cuts
 * step_trace_time.csv by FwkCANNRelationParser.get_step_range
 * (torch_npu/profiler/analysis/prof_parse/_fwk_cann_relation_parser.py):
 * the ACL launches inside a ProfilerStep in start order, the step starts
 * at the earliest task of the first launch that has tasks and ends at the
 * later of the latest task end of the last such launch and the
 * ProfilerStep's host end; the time from the host start to the first task
 * is its "Preparing" column, apart from the step (_trace_step_time_parser
 * .py get_prepare_time).  A step that launched no task, for which
 * torch_npu gives up on steps altogether, keeps its host interval here.
 * A launch is the step's whose interval holds its call (6.3's match);
 * behind its task queue torch_npu takes the step the operator was
 * enqueued in, which differs only for a dequeue after the step's end.
 * The host-side analyses still start at the host start
 * (pr_step_host_side_start). */
static void
npu_device_steps(struct pr_steps *s, const struct step_dev *sd)
{
    size_t i;

    for (i = 0; i < s->n; i++) {
        struct pr_step *st = &s->v[i];

        if (st->n_matched == 0)
            continue;
        st->start_ns = sd[i].first_launch_ns;
        if (sd[i].last_launch_end_ns > st->end_ns)
            st->end_ns = sd[i].last_launch_end_ns;
    }
    s->npu_device = 1;
}

/* 6.4: drop steps after the last one that launched GPU work, and that one
 * too when it launched much less than its predecessor (cut off by the end
 * of the capture).  0.8 * count is evaluated in double as the plugin does. */
static void
trim_tail(struct pr_steps *s)
{
    size_t i, last = 0;

    if (s->n < 2)
        return;
    for (i = 0; i < s->n; i++) {
        if (s->v[i].n_matched > 0)
            last = i;
    }
    s->n = last + 1;
    if (last > 0 &&
        0.8 * (double)s->v[last - 1].n_matched > (double)s->v[last].n_matched)
        s->n = last;
}

static enum pr_status
device_aware(const struct pr_trace *t, const struct pr_tree *tree,
             struct pr_steps *s, struct pr_error *err)
{
    struct step_dev *sd = calloc(s->n ? s->n : 1, sizeof(*sd));
    unsigned char *matched = calloc(tree->n_devs ? tree->n_devs : 1, 1);
    size_t i;

    if (sd == NULL || matched == NULL) {
        free(sd);
        free(matched);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (steps)");
    }
    match_steps(t, tree, s, sd, matched);
    for (i = 0; i < s->n; i++)
        s->gpu_used |= s->v[i].n_matched > 0;
    /* a producer's device-side steps already end with their work; a
     * range-profiler trace's device records carry no timing (summary.c
     * note_replay): its steps stay the host's */
    if (s->gpu_used && !t->device_steps && t->replayed_kernels == 0) {
        if (pr_trace_is_npu(t) && s->has_step_events)
            npu_device_steps(s, sd);
        else
            stretch_steps(t, tree, s, sd, matched);
        trim_tail(s);
    }
    free(sd);
    free(matched);
    return PR_OK;
}

/* The 6.1 role ranges as pass 2 (walk_roles) builds them, in start order:
 * only the pieces that reach into a step not yet split are held, not the
 * whole trace's (a range per gap between events, 16 MiB at 1 GB, issue
 * #17). */
struct roles {
    struct pr_ranges r[PR_CAT_OTHER];
    unsigned seen; /* bit c: some event has role c */
    /* per step: computation and overlap with kernels as computation,
     * then with host operators (13.2 picks one when the walk is done) */
    int64_t (*comp)[4];
};

/* Drop the pieces that end by `from`: no step still to split reaches
 * before it (steps come in start order). */
static void
prune(struct roles *ro, int64_t from)
{
    size_t c, j;

    for (c = 0; c < PR_CAT_OTHER; c++) {
        struct pr_ranges *r = &ro->r[c];

        for (j = 0; j < r->n && r->v[j].end_ns <= from; j++)
            ;
        if (j == 0)
            continue; /* r->v may be NULL: memmove must not see it */
        memmove(r->v, r->v + j, (r->n - j) * sizeof(*r->v));
        r->n -= j;
    }
}

/* Step k once every event that can reach into it is in: 7.1, each role
 * taking what it covers of the step time still free (the time role c
 * covers in it and no role before c does).  Unlike the plugin, a role
 * that finds no time left gets nothing (the plugin restarts from the
 * whole steps; see docs/differences.md), so the categories always add up
 * to the step.  Then 13.2: computation (kernel time, or host operator
 * time in a run without kernels), communication (the Communication role)
 * and their overlap. */
static void
split_step(struct pr_steps *s, size_t k, struct roles *ro)
{
    const struct pr_ranges *lists[PR_CAT_OTHER];
    struct pr_step *v = &s->v[k];
    int64_t out[3];
    size_t c;

    for (c = 0; c < PR_CAT_OTHER; c++)
        lists[c] = &ro->r[c];
    pr_ranges_split(lists, PR_CAT_OTHER, v->start_ns, v->end_ns,
                    v->breakdown_ns);
    if (pr_step_host_side_start(s, v) < v->start_ns)
        pr_ranges_split(lists, PR_CAT_OTHER, v->host_start_ns, v->start_ns,
                        v->lead_ns);
    v->comm_ns = pr_ranges_overlap(&ro->r[PR_CAT_COMM], v->start_ns, v->end_ns);
    lists[1] = &ro->r[PR_CAT_COMM];
    for (c = 0; c < 2; c++) {
        lists[0] = &ro->r[c == 0 ? PR_CAT_KERNEL : PR_CAT_CPU_EXEC];
        ro->comp[k][2 * c] =
            pr_ranges_overlap(lists[0], v->start_ns, v->end_ns);
        /* out[1]: communication outside computation */
        pr_ranges_split(lists, 2, v->start_ns, v->end_ns, out);
        ro->comp[k][2 * c + 1] = v->comm_ns - out[1];
    }
}

/* Event e into its role's list, unless it ends by `from`, the start of
 * the first step still to split.  -1 on out-of-memory. */
static int
add_role(const struct pr_trace *t, struct roles *ro, struct pr_names *nc,
         struct pr_idmap *comm, const struct pr_event *e, int64_t from,
         struct pr_error *err)
{
    int role = role_of(t, nc, e, comm, err);
    int64_t end = e->ts_ns + e->dur_ns;

    if (role == -2)
        return -1;
    if (role < 0)
        return 0;
    ro->seen |= 1u << role;
    if (end <= from)
        return 0;
    /* events come in start order: the lists stay merged */
    return pr_ranges_push_merging(&ro->r[role], e->ts_ns, end, err) == PR_OK
               ? 0
               : -1;
}

/* Pass 2: the role ranges in event order, each step split as soon as the
 * events pass its end (later ones start after it, so cannot reach in). */
static enum pr_status
walk_roles(const struct pr_trace *t, struct pr_steps *s, struct roles *ro,
           struct pr_error *err)
{
    struct pr_idmap comm = {0};
    struct pr_names nc;
    size_t i, k = 0;
    int bad = 0;

    pr_names_init(&nc, t);
    for (i = 0; i < t->n_events && !bad; i++) {
        const struct pr_event *e = &t->events[i];

        for (; k < s->n && e->ts_ns >= s->v[k].end_ns; k++) {
            split_step(s, k, ro);
            if (k + 1 < s->n)
                prune(ro, pr_step_host_side_start(s, &s->v[k + 1]));
        }
        bad = add_role(t, ro, &nc, &comm, e,
                       k < s->n ? pr_step_host_side_start(s, &s->v[k])
                                : INT64_MAX,
                       err) != 0;
    }
    for (; k < s->n && !bad; k++)
        split_step(s, k, ro);
    pr_idmap_free(&comm);
    pr_names_free(&nc);
    return bad ? PR_E_NOMEM : PR_OK;
}

/* The role ranges walked, each step split; 13.2's computation is kernel
 * time when the run has a kernel at all. */
static enum pr_status
split_steps(const struct pr_trace *t, struct pr_steps *s, struct pr_error *err)
{
    struct roles ro;
    size_t c, k, alt;
    enum pr_status st;

    memset(&ro, 0, sizeof(ro));
    ro.comp = calloc(s->n ? s->n : 1, sizeof(*ro.comp));
    st = ro.comp != NULL
             ? walk_roles(t, s, &ro, err)
             : pr_error_set(err, PR_E_NOMEM, "out of memory (steps)");
    s->comp_kernels = (ro.seen >> PR_CAT_KERNEL) & 1;
    s->has_comm = (ro.seen >> PR_CAT_COMM) & 1;
    alt = s->comp_kernels ? 0 : 2;
    for (k = 0; k < s->n && st == PR_OK; k++) {
        s->v[k].comp_ns = ro.comp[k][alt];
        s->v[k].both_ns = ro.comp[k][alt + 1];
    }
    for (c = 0; c < PR_CAT_OTHER; c++)
        pr_ranges_free(&ro.r[c]);
    free(ro.comp);
    return st;
}

/* Where the capture ended when the trace says: the profiler's window
 * spans and Kineto's "Record Window End", the later of them; INT64_MAX
 * when it has neither (a step's interval is then all there is). */
static int64_t
capture_end(const struct pr_trace *t, const struct extent *x)
{
    int64_t end = x->has_marker ? x->marker_end : INT64_MIN;

    if (t->has_window_end && t->window_end_ns > end)
        end = t->window_end_ns;
    return end == INT64_MIN ? INT64_MAX : end;
}

/* A step's host interval ends where the capture does.  Kineto writes a
 * ProfilerStep's dur when its RecordFunction closes, which can be long
 * after the profiler stopped: a step whose capture ended 1.8 ms in said
 * 13.3 s.  A step that begins after the capture ended is dropped.  A
 * producer's own device steps are its windows and stay as they are. */
static void
clip_steps(const struct pr_trace *t, struct pr_steps *s, const struct extent *x)
{
    int64_t end = capture_end(t, x);
    size_t i, k = 0;

    if (t->device_steps)
        return;
    for (i = 0; i < s->n; i++) {
        struct pr_step *st = &s->v[i];

        if (st->start_ns >= end)
            continue;
        if (st->end_ns > end) {
            st->end_ns = st->host_end_ns = end;
            s->clipped++;
        }
        s->v[k++] = *st;
    }
    s->dropped = s->n - k;
    s->n = k;
}

/* Without ProfilerStep events there are no steps: the whole capture,
 * every event and the profiler's span, is one window, named nothing
 * (the plugin takes the host events' extent as a step "0", 6.2: an
 * export whose host ranges covered half the capture reported half of
 * it).  With no event at all there is no window. */
static enum pr_status
capture_window(struct pr_steps *s, const struct extent *x, struct pr_error *err)
{
    if (!x->has_glob)
        return PR_OK;
    return add_step(s, PR_STR_NONE, x->glob_min, x->glob_max, err);
}

/* Without steps, the loop is what the host's operators span, to the end
 * of the device work they launched (as 6.3 stretches a step): a sync
 * after that is the profiler's stop. */
static int64_t
host_loop_end(const struct pr_trace *t, const struct pr_tree *tree,
              int64_t start, int64_t end)
{
    int64_t last = end;
    size_t r, i;

    for (r = 0; r < tree->n_rts; r++) {
        const struct pr_tree_rt *rt = &tree->rts[r];

        if (rt->ev == PR_TREE_NONE || pr_tree_rt_start(t, rt) < start ||
            pr_tree_rt_end(t, rt) > end)
            continue;
        for (i = 0; i < rt->n_dev; i++) {
            const struct pr_event *e =
                &t->events[tree->devs[tree->rt_devs[rt->dev_first + i]].ev];

            if (pr_sat_add_i64(e->ts_ns, e->dur_ns) > last)
                last = pr_sat_add_i64(e->ts_ns, e->dur_ns);
        }
    }
    return last;
}

static enum pr_steps_basis
basis_of(const struct pr_trace *t, const struct pr_steps *s)
{
    if (!s->has_step_events)
        return PR_STEPS_BASIS_CAPTURE;
    if (t->device_steps)
        return PR_STEPS_BASIS_PRODUCER;
    if (s->npu_device)
        return PR_STEPS_BASIS_NPU_DEVICE;
    return s->gpu_used && t->replayed_kernels == 0 ? PR_STEPS_BASIS_DEVICE
                                                   : PR_STEPS_BASIS_HOST;
}

const char *
pr_steps_name(const struct pr_trace *t, const struct pr_step *st)
{
    return st->name == PR_STR_NONE ? PR_STEPS_CAPTURE_NAME
                                   : pr_trace_str(t, st->name);
}

const char *
pr_steps_basis_name(enum pr_steps_basis b)
{
    static const char *const names[] = {"host", "device", "producer", "capture",
                                        "npu_device"};

    return (unsigned)b < sizeof(names) / sizeof(names[0]) ? names[b] : "";
}

int64_t
pr_step_device_ns(const struct pr_step *p)
{
    return pr_sat_add_i64(pr_sat_add_i64(p->breakdown_ns[PR_CAT_KERNEL],
                                         p->breakdown_ns[PR_CAT_MEMCPY]),
                          p->breakdown_ns[PR_CAT_MEMSET]);
}

int64_t
pr_step_host_side_start(const struct pr_steps *s, const struct pr_step *p)
{
    /* npu_device: set before basis is (split_step and walk_roles use it
       first); the basis is npu_device exactly when it is set */
    if (s->npu_device && p->host_start_ns < p->start_ns)
        return p->host_start_ns;
    return p->start_ns;
}

/* Where the device record starts and ends: the first device event's
 * start and the last one's end; 0 when there is none. */
static int
device_extent(const struct pr_trace *t, int64_t *lo, int64_t *hi)
{
    size_t i;
    int any = 0;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        int64_t end = pr_sat_add_i64(e->ts_ns, e->dur_ns);

        if (e->kind != PR_KIND_DEVICE_TASK && e->kind != PR_KIND_COPY &&
            e->kind != PR_KIND_SET)
            continue;
        if (!any || e->ts_ns < *lo)
            *lo = e->ts_ns;
        if (!any || end > *hi)
            *hi = end;
        any = 1;
    }
    return any;
}

static int
cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : (x > y);
}

/* Whether step k, the first (last = 0) or last step with device work,
 * is cut by the device record's start or end: its device work is under
 * half the median step's, and the record starts or ends inside it,
 * either because other steps lie beyond it without any device work (the
 * producer started or stopped recording device tasks: MindSpore caps its
 * timeline file) or because the record starts or ends in its latter or
 * former half. */
static int
is_cut(const struct pr_steps *s, size_t k, int last, int64_t med, int64_t dlo,
       int64_t dhi)
{
    const struct pr_step *p = &s->v[k];
    int64_t half = (p->end_ns - p->start_ns) / 2;

    if (!(pr_step_device_ns(p) * 2 < med))
        return 0;
    if (last)
        return k + 1 < s->n || dhi < p->start_ns + half;
    return k > 0 || dlo > p->end_ns - half;
}

/* Review-2 finding 7: a step the device record starts or ends inside
 * holds part of its device work (mindspore ascend_run1: Step 15 holds
 * 1.28 ms of tasks, the others 126 ms, where the timeline file ends), so
 * the means, utilization and the critical path would average a partial
 * step in.  It is left out of the steps, kept in cut_v for the data
 * quality note.  At least three steps with device work are needed to
 * judge; a producer's own steps are judged too (their device tasks come
 * from another file than their step table).  Kineto's ProfilerStep past
 * the capture is clipped before (clip_steps). */
static void
cut_partial(const struct pr_trace *t, struct pr_steps *s)
{
    size_t i, m = 0, lo = s->n, hi = 0, k;
    int64_t *d, med, dlo = 0, dhi = 0;

    for (i = 0; i < s->n; i++) {
        if (pr_step_device_ns(&s->v[i]) <= 0)
            continue;
        lo = lo == s->n ? i : lo;
        hi = i;
        m++;
    }
    if (m < 3 || !device_extent(t, &dlo, &dhi) ||
        (d = malloc(m * sizeof(*d))) == NULL)
        return;
    for (i = 0, k = 0; i < s->n; i++)
        if (pr_step_device_ns(&s->v[i]) > 0)
            d[k++] = pr_step_device_ns(&s->v[i]);
    qsort(d, m, sizeof(*d), cmp_ns);
    med = d[m / 2];
    free(d);
    /* the last first, so that lo's index still holds */
    if (is_cut(s, hi, 1, med, dlo, dhi)) {
        s->cut_v[s->cut] = s->v[hi];
        s->cut_last[s->cut++] = 1;
        memmove(&s->v[hi], &s->v[hi + 1], (s->n - hi - 1) * sizeof(*s->v));
        s->n--;
    }
    if (is_cut(s, lo, 0, med, dlo, dhi)) {
        s->cut_v[s->cut] = s->v[lo];
        s->cut_last[s->cut++] = 0;
        memmove(&s->v[lo], &s->v[lo + 1], (s->n - lo - 1) * sizeof(*s->v));
        s->n--;
    }
}

/* A producer's device steps (t->device_steps: torch_npu's
 * step_trace_time.csv or its .db's device steps) replace the host's
 * ProfilerStep#N, which the reader keeps as an event of no kind (OTHER)
 * under the same name: a step's host interval is that event, clipped to
 * the capture, as for any other step, not the device step again (review
 * 25a #8: npu_db1 rank0's host step 151.9 ms read 132.2 ms, the device
 * step).  A step whose host event is not there, or is there twice,
 * keeps the producer's bounds. */
static enum pr_status
producer_host_steps(const struct pr_trace *t, struct pr_steps *s,
                    const struct extent *x, struct pr_error *err)
{
    struct pr_idmap by_name = {0};
    int64_t end = capture_end(t, x);
    int64_t *lo, *hi;
    size_t i, k;
    enum pr_status st = PR_OK;

    if (!t->device_steps || s->n == 0)
        return PR_OK;
    lo = malloc(2 * s->n * sizeof(*lo));
    if (lo == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (steps)");
    hi = lo + s->n;
    for (i = 0; i < s->n && st == PR_OK; i++) {
        lo[i] = INT64_MAX; /* no host event yet */
        if (s->v[i].name != PR_STR_NONE)
            st = pr_idmap_put(&by_name, s->v[i].name, i, err);
    }
    for (i = 0; i < t->n_events && st == PR_OK; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind != PR_KIND_OTHER || e->dur_ns <= 0 ||
            (k = pr_idmap_get(&by_name, e->name)) == PR_NONE)
            continue;
        if (lo[k] != INT64_MAX) {
            lo[k] = INT64_MIN; /* twice: which is the step's is unknown */
            continue;
        }
        lo[k] = e->ts_ns;
        hi[k] = pr_sat_add_i64(e->ts_ns, e->dur_ns);
    }
    for (i = 0; i < s->n && st == PR_OK; i++) {
        if (lo[i] == INT64_MAX || lo[i] == INT64_MIN || lo[i] >= end)
            continue;
        s->v[i].host_start_ns = lo[i];
        s->v[i].host_end_ns = hi[i] < end ? hi[i] : end;
    }
    free(lo);
    pr_idmap_free(&by_name);
    return st;
}

enum pr_status
pr_steps_compute(const struct pr_trace *t, const struct pr_tree *tree,
                 struct pr_steps *s, struct pr_error *err)
{
    struct extent x;
    enum pr_status st;

    memset(s, 0, sizeof(*s));
    memset(&x, 0, sizeof(x));
    st = scan_steps(t, s, &x, err);
    if (st == PR_OK)
        clip_steps(t, s, &x);
    if (st == PR_OK && s->n == 0)
        st = capture_window(s, &x, err);
    if (st == PR_OK && s->n > 0) {
        s->loop_start_ns = s->v[0].host_start_ns;
        s->loop_end_ns = s->v[s->n - 1].host_end_ns;
        st = device_aware(t, tree, s, err);
    }
    if (st == PR_OK && s->n > 0 && s->v[s->n - 1].end_ns > s->loop_end_ns)
        s->loop_end_ns = s->v[s->n - 1].end_ns;
    if (st == PR_OK && !s->has_step_events && x.has_cpu) {
        s->loop_start_ns = x.cpu_min;
        s->loop_end_ns = host_loop_end(t, tree, x.cpu_min, x.cpu_max);
    }
    if (st == PR_OK)
        st = split_steps(t, s, err);
    if (st == PR_OK)
        pr_producer_steps(t, s); /* a rank of only the producer's tables */
    if (st == PR_OK)
        pr_producer_step_interval(t, s); /* MindSpore's step interval */
    if (st == PR_OK)
        cut_partial(t, s);
    if (st == PR_OK)
        st = producer_host_steps(t, s, &x, err);
    if (st != PR_OK) {
        pr_steps_free(s);
        return st;
    }
    s->basis = basis_of(t, s);
    s->global_start_ns = x.has_prof ? x.prof_start : x.glob_min;
    s->global_end_ns = x.has_prof ? x.prof_end : x.glob_max;
    return PR_OK;
}
