/* steps.c - step windows and their breakdown (spec sections 6, 7.1).  One
 * pass over the sorted events builds the role ranges and the host step
 * list; the op tree's runtime->device links then stretch each step to the
 * end of the GPU work it launched.  Tables and JSON are left to analysis.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/steps.h"

#include "internal.h"

struct extent {
    int64_t cpu_min, cpu_max;     /* host events (6.1) */
    int64_t glob_min, glob_max;   /* every created event */
    int64_t prof_start, prof_end; /* "PyTorch Profiler (0)" span */
    int has_cpu, has_glob, has_prof;
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
    st->start_ns = start;
    st->end_ns = end;
    return PR_OK;
}

/* 6.1 role of a host event (operator, python, user annotation); -1 none.
 * The plugin's comm ops remember their external id so that their kernels
 * count as communication (4.5).  Only a host-side collective (Gloo) is
 * communication time itself: an nccl:* op on the host is the enqueue of
 * kernels that carry the communication, so it is CPU time (the plugin
 * counts both; docs/differences.md). */
static int
host_role(struct pr_names *nc, const struct pr_event *e, struct pr_idmap *comm,
          struct pr_error *err)
{
    unsigned cls = pr_names_get(nc, e->name);

    if (e->kind != PR_KIND_PY_LEGACY && (cls & PR_NAME_DATALOADER))
        return PR_CAT_DATALOADER;
    if ((cls & PR_NAME_COMM) && e->external_id != PR_NO_ID &&
        pr_idmap_put(comm, e->external_id, 1, err) != PR_OK)
        return -2;
    return (cls & PR_NAME_COMM_HOST) ? PR_CAT_COMM : PR_CAT_CPU_EXEC;
}

static int
is_created(int kind)
{
    return kind != PR_KIND_OTHER && kind != PR_KIND_DRIVER_CALL &&
           kind != PR_KIND_SYNC && kind != PR_KIND_MEMORY_RECORD;
}

/* 6.1 role of any event; -1 none, -2 out of memory.  Step events are
 * appended to the step list instead.  GPU-side user annotations have no
 * role: they copy CPU ranges onto the GPU timeline (docs/differences.md). */
static int
role_of(struct pr_names *nc, const struct pr_event *e, struct pr_steps *s,
        struct pr_idmap *comm, struct pr_error *err)
{
    switch (e->kind) {
    case PR_KIND_DEVICE_TASK: /* NCCL kernels: by link, name or metadata */
        return pr_comm_kernel_cached(nc, e) ||
                       (e->external_id != PR_NO_ID &&
                        pr_idmap_get(comm, e->external_id) != PR_NONE)
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
        if (pr_names_get(nc, e->name) & PR_NAME_STEP) {
            s->has_step_events = 1;
            if (add_step(s, e->name, e->ts_ns, e->ts_ns + e->dur_ns, err))
                return -2;
            return -1;
        }
        return host_role(nc, e, comm, err);
    case PR_KIND_PY_LEGACY:
        return host_role(nc, e, comm, err);
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
}

static enum pr_status
scan_roles(const struct pr_trace *t, struct pr_steps *s,
           struct pr_ranges *roles, struct extent *x, struct pr_error *err)
{
    struct pr_idmap comm = {0};
    struct pr_names nc;
    enum pr_status st = PR_OK;
    size_t i;

    pr_names_init(&nc, t);
    for (i = 0; i < t->n_events && st == PR_OK; i++) {
        const struct pr_event *e = &t->events[i];
        int role = role_of(&nc, e, s, &comm, err);

        note_extent(&nc, e, x);
        if (role == -2)
            st = PR_E_NOMEM;
        else if (role >= 0)
            /* events come in start order: the lists stay merged rather
             * than holding a range per event until pr_ranges_merge() */
            st = pr_ranges_push_merging(&roles[role], e->ts_ns,
                                        e->ts_ns + e->dur_ns, err);
    }
    pr_idmap_free(&comm);
    pr_names_free(&nc);
    for (i = 0; i < PR_CAT_OTHER; i++)
        pr_ranges_merge(&roles[i]);
    return st;
}

struct step_dev {
    int64_t min_ns, max_ns; /* device span of matched work */
};

/* Mark the devices of runtime r as launched inside step k. */
static void
match_runtime(const struct pr_trace *t, const struct pr_tree *tree, size_t r,
              struct pr_step *step, struct step_dev *sd, unsigned char *matched)
{
    const struct pr_tree_rt *rt = &tree->rts[r];
    size_t i;

    for (i = 0; i < rt->n_dev; i++) {
        size_t d = tree->rt_devs[rt->dev_first + i];
        const struct pr_event *e = &t->events[tree->devs[d].ev];

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

/* 6.3 second half: steps start where the previous one's GPU work ended
 * and end when their own GPU work does. */
static void
stretch_steps(const struct pr_trace *t, const struct pr_tree *tree,
              struct pr_steps *s, const struct step_dev *sd,
              const unsigned char *matched)
{
    int64_t prev_end = s->v[0].start_ns;
    size_t i;

    if (s->v[0].n_matched > 0) {
        for (i = 0; i < tree->n_devs; i++) {
            const struct pr_event *e = &t->events[tree->devs[i].ev];
            int64_t end = e->ts_ns + e->dur_ns;

            if (!matched[i] && end < sd[0].min_ns && end > prev_end)
                prev_end = end;
        }
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
    /* a producer's device-side steps already end with their work */
    if (s->gpu_used && !t->device_steps) {
        stretch_steps(t, tree, s, sd, matched);
        trim_tail(s);
    }
    free(sd);
    free(matched);
    return PR_OK;
}

/* 7.1: walk the roles in priority order; each takes what it covers of the
 * step time still free.  Unlike the plugin, a role that finds no time left
 * gets nothing (the plugin restarts from the whole steps; see
 * docs/differences.md), so the categories always add up to the step.
 * The time still free is not built as lists (three of them, as long as
 * the role lists, were the step pass's peak, issue #17): a step's share
 * of role c is the time c covers in it and no role before c does. */
static void
breakdown(struct pr_steps *s, const struct pr_ranges *roles)
{
    const struct pr_ranges *lists[PR_CAT_OTHER];
    size_t c, k;

    for (c = 0; c < PR_CAT_OTHER; c++)
        lists[c] = &roles[c];
    for (k = 0; k < s->n; k++)
        pr_ranges_split(lists, PR_CAT_OTHER, s->v[k].start_ns, s->v[k].end_ns,
                        s->v[k].breakdown_ns);
}

/* 13.2 per step: computation is kernel time (host operator time when the
 * run has no kernel at all), communication is the Communication role, the
 * same ranges the breakdown splits. */
static void
split_comm(struct pr_steps *s, const struct pr_ranges *roles)
{
    const struct pr_ranges *lists[2];
    int64_t out[3];
    size_t k;

    s->comp_kernels = roles[PR_CAT_KERNEL].n > 0;
    s->has_comm = roles[PR_CAT_COMM].n > 0;
    lists[0] = &roles[s->comp_kernels ? PR_CAT_KERNEL : PR_CAT_CPU_EXEC];
    lists[1] = &roles[PR_CAT_COMM];
    for (k = 0; k < s->n; k++) {
        struct pr_step *v = &s->v[k];

        v->comp_ns = pr_ranges_overlap(lists[0], v->start_ns, v->end_ns);
        v->comm_ns = pr_ranges_overlap(lists[1], v->start_ns, v->end_ns);
        /* out[1]: communication outside computation */
        pr_ranges_split(lists, 2, v->start_ns, v->end_ns, out);
        v->both_ns = v->comm_ns - out[1];
    }
}

/* 6.2: without ProfilerStep events the host extent is one step.  With no
 * host event at all we fall back to the whole trace (the plugin produces
 * an inverted step), and with no event at all there is no step. */
static enum pr_status
fallback_step(struct pr_steps *s, const struct extent *x, struct pr_error *err)
{
    if (x->has_cpu)
        return add_step(s, PR_STR_NONE, x->cpu_min, x->cpu_max, err);
    if (x->has_glob)
        return add_step(s, PR_STR_NONE, x->glob_min, x->glob_max, err);
    return PR_OK;
}

enum pr_status
pr_steps_compute(const struct pr_trace *t, const struct pr_tree *tree,
                 struct pr_steps *s, struct pr_error *err)
{
    struct pr_ranges roles[PR_CAT_OTHER];
    struct extent x;
    enum pr_status st;
    size_t c;

    memset(s, 0, sizeof(*s));
    memset(roles, 0, sizeof(roles));
    memset(&x, 0, sizeof(x));
    st = scan_roles(t, s, roles, &x, err);
    if (st == PR_OK && s->n == 0)
        st = fallback_step(s, &x, err);
    if (st == PR_OK)
        st = device_aware(t, tree, s, err);
    if (st == PR_OK) {
        breakdown(s, roles);
        split_comm(s, roles);
    }
    for (c = 0; c < PR_CAT_OTHER; c++)
        pr_ranges_free(&roles[c]);
    if (st != PR_OK) {
        pr_steps_free(s);
        return st;
    }
    s->global_start_ns = x.has_prof ? x.prof_start : x.glob_min;
    s->global_end_ns = x.has_prof ? x.prof_end : x.glob_max;
    return PR_OK;
}
