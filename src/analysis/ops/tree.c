/* tree.c - builds the per-thread operator trees (spec sections 4-5) from
 * the sorted events: link device events to runtimes, runtimes to host
 * nodes, nest host nodes by the stack rule, collapse duplicates and fill
 * the self/total statistics.  Aggregation into tables is left to ops.c
 * and kernels.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/cube.h"
#include "profreport/tree.h"

#include "../internal.h"

struct builder {
    const struct pr_trace *t;
    struct pr_tree *tree;
    /* 32-bit maps sized once from the counting pass (reserve): with an
     * entry per runtime they were the scan's peak (issue #17). */
    struct pr_idmap32 rt_by_corr; /* correlation -> latest runtime */
    struct pr_idmap32 pending;    /* correlation -> first waiting device;
                                     TAKEN once its runtime came */
    struct pr_idmap32 rt_by_ext;  /* external id -> its latest runtime */
    struct pr_idmap tid_num;      /* tid string id -> thread number */
    struct pr_names names;        /* name classes by string id */
    struct pr_cube_ctx cube;      /* an NPU's tasks on the Cube */
    int npu;                      /* an Ascend run: the tasks say */
    uint32_t *tids;               /* thread number -> tid string id */
    size_t n_tids, cap_tids;
    uint32_t *node_tid; /* host node -> thread number, until grouped */
    size_t cap_node_tid;
    uint32_t *ext_next; /* per runtime: next with its external id */
    uint32_t *dev_next; /* per device: next waiting on its correlation */
    size_t cap_dev_next;
    /* Runtimes of each node as linked lists until the slices of
     * tree->rt_idx are laid out: collapsing appends one list to another.
     * Each list runs from the last runtime given to the first, so that a
     * node needs a head and no tail (lay_out_rts turns them round). */
    uint32_t *rt_next; /* per runtime (dummy included); each node's head
                          is in its scratch (rt_list) */
    size_t n_nested;   /* host nodes kept by nesting */
    struct pr_error *err;
};

/* A map value that names no runtime or device (they are indexes below
 * PR_TREE_NONE - 1: pr_tree_build refuses larger traces). */
#define TAKEN (PR_IDMAP32_NONE - 1)

/* A node's children while nesting counts them and collapsing moves them
 * (the slices are then laid out again in node order, relay_kids), and the
 * head of its runtime list: kept in the node's device total, which is
 * filled only once they are done (an array of each was 4 bytes a node
 * beside the tree, issue #17). */
static uint32_t *
kid_count(const struct builder *b, size_t node)
{
    return &b->tree->nodes[node].build[0];
}

static uint32_t *
rt_list(const struct builder *b, size_t node)
{
    return &b->tree->nodes[node].build[1];
}

struct span_key {
    int64_t start_ns, end_ns;
    uint32_t idx;
};

static int
starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int
pr_tree_is_dataloader(const char *name)
{
    size_t n = strlen(name), k = strlen(".__next__");

    if (starts_with(name, "enumerate(DataPipe)#"))
        return 1;
    return starts_with(name, "enumerate(DataLoader)#") && n >= k &&
           strcmp(name + n - k, ".__next__") == 0;
}

int
pr_tree_is_comm(const char *name)
{
    static const char *const ops[] = {"broadcast", "reduce", "all_reduce",
                                      "all_gather", "reduce_scatter"};
    const char *op;
    size_t i;

    if (starts_with(name, "nccl:"))
        op = name + 5;
    else if (starts_with(name, "gloo:"))
        op = name + 5;
    else
        return 0;
    for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        if (strcmp(op, ops[i]) == 0)
            return 1;
    }
    return 0;
}

int
pr_tree_is_step(const char *name)
{
    return starts_with(name, "ProfilerStep#");
}

int
pr_tree_is_launcher(int kind)
{
    return kind == PR_KIND_RUNTIME_CALL || kind == PR_KIND_DRIVER_CALL;
}

/* 4.3: which host node an event creates; -1 for none.  GPU-side user
 * annotations create none: they are copies of CPU ranges (a sound-side
 * difference, docs/differences.md). */
static int
node_type_of(struct builder *b, const struct pr_event *e)
{
    const struct pr_py_ids *py;
    unsigned cls;

    switch (e->kind) {
    case PR_KIND_PY_FUNCTION:
        /* 3.2: Lightning mode drops python_function events entirely */
        py = pr_trace_py(b->t, e);
        return !b->t->lightning && py != NULL && py->module >= 0 ? PR_N_MODULE
                                                                 : -1;
    case PR_KIND_HOST_OP:
    case PR_KIND_ANNOTATION:
    case PR_KIND_PY_LEGACY:
        break;
    default:
        return -1;
    }
    /* 3.2, 4.3: in Lightning mode "[pl][module]" ranges are Lightning
       module nodes; "[pl][profile]" ones belong to a separate tree */
    if (b->t->lightning &&
        starts_with(pr_trace_str(b->t, e->name), PR_TREE_PL_MODULE))
        return PR_N_MODULE;
    if (b->t->lightning &&
        starts_with(pr_trace_str(b->t, e->name), "[pl][profile]"))
        return -1;
    cls = pr_names_get(&b->names, e->name);
    if (e->kind != PR_KIND_PY_LEGACY && (cls & PR_NAME_STEP))
        return PR_N_STEP;
    if (cls & PR_NAME_DATALOADER)
        return PR_N_DATALOADER;
    if (cls & PR_NAME_OPTIMIZER)
        return PR_N_OPTIMIZER;
    if (e->kind == PR_KIND_ANNOTATION && !(cls & PR_NAME_COMM))
        return -1;
    return PR_N_OP;
}

/* 5.4: a "PyTorch operator" row. */
static int
is_operator_node(struct builder *b, const struct pr_tree_node *n, uint32_t name)
{
    return n->type == PR_N_OP && n->kind == PR_KIND_HOST_OP &&
           !(pr_names_get(&b->names, name) & PR_NAME_NOT_OPERATOR);
}

static struct pr_tree_node *
new_node(struct builder *b, size_t *idx)
{
    struct pr_tree *tr = b->tree;
    struct pr_tree_node *n;

    if (pr_grow((void **)&tr->nodes, &tr->cap_nodes, tr->n_nodes + 1,
                sizeof(*n)) != PR_OK) {
        pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
        return NULL;
    }
    *idx = tr->n_nodes;
    n = &tr->nodes[tr->n_nodes++];
    memset(n, 0, sizeof(*n));
    n->ev = PR_TREE_NONE;
    n->parent = PR_TREE_NONE;
    n->kind = -1;
    return n;
}

static enum pr_status
thread_of(struct builder *b, uint32_t tid, size_t *num)
{
    *num = pr_idmap_get(&b->tid_num, tid);
    if (*num != PR_NONE)
        return PR_OK;
    *num = b->n_tids;
    if (pr_grow((void **)&b->tids, &b->cap_tids, b->n_tids + 1,
                sizeof(*b->tids)) != PR_OK)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    b->tids[b->n_tids++] = tid;
    return pr_idmap_put(&b->tid_num, tid, *num, b->err);
}

static enum pr_status
add_host(struct builder *b, size_t i, int type)
{
    const struct pr_event *e = &b->t->events[i];
    struct pr_tree_node *n;
    size_t idx, tnum;

    if (thread_of(b, pr_event_tid(b->t, e), &tnum) != PR_OK)
        return PR_E_NOMEM;
    n = new_node(b, &idx);
    if (n == NULL)
        return PR_E_NOMEM;
    n->ev = (uint32_t)i;
    n->type = (uint8_t)type;
    n->kind = (int8_t)e->kind;
    n->is_operator = is_operator_node(b, n, e->name);
    n->tc_eligible = (pr_names_get(&b->names, e->name) & PR_NAME_TC_OP) != 0;
    if (pr_grow((void **)&b->node_tid, &b->cap_node_tid, idx + 1,
                sizeof(*b->node_tid)) != PR_OK)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    b->node_tid[idx] = (uint32_t)tnum;
    return PR_OK;
}

/* 4.1: a device event joins the runtime already seen with its correlation
 * id, or waits for it. */
static enum pr_status
add_dev(struct builder *b, size_t i)
{
    const struct pr_event *e = &b->t->events[i];
    int64_t corr = pr_event_correlation(b->t, e);
    struct pr_tree *tr = b->tree;
    struct pr_tree_dev *d;
    size_t idx = tr->n_devs;

    if (pr_grow((void **)&tr->devs, &tr->cap_devs, tr->n_devs + 1,
                sizeof(*d)) != PR_OK ||
        pr_grow((void **)&b->dev_next, &b->cap_dev_next, tr->n_devs + 1,
                sizeof(*b->dev_next)) != PR_OK)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    d = &tr->devs[tr->n_devs++];
    d->ev = (uint32_t)i;
    d->rt = b->dev_next[idx] = PR_TREE_NONE;
    if (b->npu) {
        /* an Ascend task says where it ran (its counters, its core,
           its operator type: cube.h), as the kernel table reads it */
        struct pr_gpu_info gb;
        const struct pr_gpu_info *gi = pr_trace_gpu(b->t, e, &gb);

        enum pr_cube cu = gi != NULL && e->kind == PR_KIND_DEVICE_TASK
                              ? pr_cube_task(&b->cube, e->info, gi)
                              : PR_CUBE_NO;

        /* a MIX_AIC task without counters launched the Cube core: its
           operator could use the Cube (eligible), its time is not known
           to be the Cube's (2: not counted as Cube time) */
        d->tc = cu == PR_CUBE_YES                                         ? 1
                : cu == PR_CUBE_UNKNOWN && gi->unit == PR_UNIT_MIX_MATRIX ? 2
                                                                          : 0;
    } else {
        d->tc = (pr_names_get(&b->names, e->name) & PR_NAME_TC) != 0;
    }
    d->op_eligible = 0;
    /* An absent correlation links to nothing (the plugin would pair all
     * "None" ids together). */
    if (corr == PR_NO_ID)
        return PR_OK;
    d->rt = pr_idmap32_get(&b->rt_by_corr, corr);
    if (d->rt != PR_TREE_NONE)
        return PR_OK;
    b->dev_next[idx] = pr_idmap32_get(&b->pending, corr);
    if (b->dev_next[idx] == TAKEN) /* not reached: the runtime is mapped */
        b->dev_next[idx] = PR_TREE_NONE;
    return pr_idmap32_put(&b->pending, corr, (uint32_t)idx, b->err);
}

/* 4.2: a runtime takes the devices waiting on its correlation id and is
 * filed under its external id for 4.4. */
static enum pr_status
add_rt(struct builder *b, size_t i)
{
    const struct pr_event *e = &b->t->events[i];
    int64_t corr = pr_event_correlation(b->t, e);
    struct pr_tree *tr = b->tree;
    struct pr_tree_rt *r;
    size_t idx = tr->n_rts;
    uint32_t d;

    if (pr_grow((void **)&tr->rts, &tr->cap_rts, tr->n_rts + 1, sizeof(*r)) !=
        PR_OK)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    r = &tr->rts[tr->n_rts++];
    memset(r, 0, sizeof(*r));
    r->ev = (uint32_t)i;
    r->node = PR_TREE_NONE;
    if (corr != PR_NO_ID) {
        /* Only devices that came first wait: the map holds few entries
         * in a sorted trace, and marks only those it hands over. */
        d = pr_idmap32_get(&b->pending, corr);
        if (d != PR_TREE_NONE && d != TAKEN) {
            for (; d != PR_TREE_NONE; d = b->dev_next[d])
                tr->devs[d].rt = (uint32_t)idx;
            if (pr_idmap32_put(&b->pending, corr, TAKEN, b->err))
                return PR_E_NOMEM;
        }
        if (pr_idmap32_put(&b->rt_by_corr, corr, (uint32_t)idx, b->err))
            return PR_E_NOMEM;
    }
    return PR_OK;
}

/* 4.4's index: each external id to the list of its runtimes, the latest
 * first.  Made once the trees are nested rather than while scanning:
 * beside the nesting it was the build's peak (issue #17). */
static enum pr_status
index_ext_ids(struct builder *b)
{
    const struct pr_tree *tr = b->tree;
    size_t r;

    b->ext_next = malloc((tr->n_rts ? tr->n_rts : 1) * sizeof(*b->ext_next));
    if (b->ext_next == NULL)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    if (pr_idmap32_reserve(&b->rt_by_ext, tr->n_rts, b->err) != PR_OK)
        return PR_E_NOMEM;
    for (r = 0; r < tr->n_rts; r++) {
        int64_t ext = pr_event_external_id(b->t, &b->t->events[tr->rts[r].ev]);

        b->ext_next[r] = PR_TREE_NONE;
        if (ext == PR_NO_ID)
            continue;
        b->ext_next[r] = pr_idmap32_get(&b->rt_by_ext, ext);
        if (pr_idmap32_put(&b->rt_by_ext, ext, (uint32_t)r, b->err) != PR_OK)
            return PR_E_NOMEM;
    }
    return PR_OK;
}

/* Size the record arrays once from a counting pass: growing them by half
 * at a time left up to a third of the largest ones unused. */
static enum pr_status
reserve(struct builder *b)
{
    const struct pr_trace *t = b->t;
    struct pr_tree *tr = b->tree;
    size_t i, n_dev = 0, n_rt = 0, n_host = 0;

    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];

        if (e->kind == PR_KIND_DEVICE_TASK || e->kind == PR_KIND_COPY ||
            e->kind == PR_KIND_SET)
            n_dev++;
        else if (pr_tree_is_launcher(e->kind))
            n_rt++;
        else
            n_host += node_type_of(b, e) >= 0;
    }
    /* Roots come later, one per thread: room for a few without a copy. */
    if (pr_grow((void **)&tr->nodes, &tr->cap_nodes, n_host + 16,
                sizeof(*tr->nodes)) != PR_OK ||
        pr_grow((void **)&tr->devs, &tr->cap_devs, n_dev + 1,
                sizeof(*tr->devs)) != PR_OK ||
        pr_grow((void **)&b->dev_next, &b->cap_dev_next, n_dev + 1,
                sizeof(*b->dev_next)) != PR_OK ||
        pr_grow((void **)&tr->rts, &tr->cap_rts, n_rt + 1, sizeof(*tr->rts)) !=
            PR_OK ||
        pr_grow((void **)&b->node_tid, &b->cap_node_tid, n_host + 1,
                sizeof(*b->node_tid)) != PR_OK)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    if (pr_idmap32_reserve(&b->rt_by_corr, n_rt, b->err) != PR_OK)
        return PR_E_NOMEM;
    return PR_OK;
}

static enum pr_status
scan(struct builder *b)
{
    const struct pr_trace *t = b->t;
    size_t i;
    enum pr_status st = reserve(b);

    for (i = 0; i < t->n_events && st == PR_OK; i++) {
        const struct pr_event *e = &t->events[i];
        int type;

        switch (e->kind) {
        case PR_KIND_DEVICE_TASK:
        case PR_KIND_COPY:
        case PR_KIND_SET:
            st = add_dev(b, i);
            break;
        case PR_KIND_RUNTIME_CALL:
        case PR_KIND_DRIVER_CALL:
            st = add_rt(b, i);
            break;
        default:
            type = node_type_of(b, e);
            if (type >= 0)
                st = add_host(b, i, type);
            break;
        }
    }
    /* The correlation maps have made every launch-to-device link: give
     * them back before nesting, the tree's largest moment. */
    pr_idmap32_free(&b->rt_by_corr);
    pr_idmap32_free(&b->pending);
    free(b->dev_next);
    b->dev_next = NULL;
    b->cap_dev_next = 0;
    return st;
}

/* Append runtime rt to node's list (at its head: the lists run
 * backwards).  Cannot fail: the lists live in arrays sized before the
 * first call (alloc_rt_lists). */
static void
give_rt(struct builder *b, size_t node, size_t rt)
{
    b->tree->rts[rt].node = (uint32_t)node;
    b->rt_next[rt] = *rt_list(b, node);
    *rt_list(b, node) = (uint32_t)rt;
}

/* The per-node runtime lists; called once every node exists, with room for
 * the dummy runtime of attach_staled. */
static enum pr_status
alloc_rt_lists(struct builder *b)
{
    size_t n = b->tree->n_nodes, i;

    b->rt_next = malloc((b->tree->n_rts + 1) * sizeof(*b->rt_next));
    if (b->rt_next == NULL)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    for (i = 0; i < n; i++)
        *rt_list(b, i) = PR_TREE_NONE;
    return PR_OK;
}

/* Host node indexes grouped by thread (tid order), creation order within a
 * thread: the traversal order of 4.4 and the input of 5.1. */
static uint32_t *
group_by_thread(struct builder *b, size_t n_host, size_t *first)
{
    uint32_t *order = malloc((n_host ? n_host : 1) * sizeof(*order));
    size_t i, k;

    if (order == NULL) {
        pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
        return NULL;
    }
    memset(first, 0, (b->n_tids + 1) * sizeof(*first));
    for (i = 0; i < n_host; i++)
        first[b->node_tid[i] + 1]++;
    for (k = 0; k < b->n_tids; k++)
        first[k + 1] += first[k];
    for (i = 0; i < n_host; i++)
        order[first[b->node_tid[i]]++] = (uint32_t)i;
    for (k = b->n_tids; k > 0; k--)
        first[k] = first[k - 1];
    first[0] = 0;
    return order;
}

/* External id of node n as 4.4 matches it: a module's is forced to "none"
 * (4.3), and 0 marks runtimes outside any op, so it names no node. */
static int64_t
node_ext(const struct builder *b, const struct pr_tree_node *n)
{
    int64_t ext;

    if (n->ev == PR_TREE_NONE || n->type == PR_N_MODULE)
        return PR_NO_ID;
    ext = pr_event_external_id(b->t, &b->t->events[n->ev]);
    return ext == 0 ? PR_NO_ID : ext;
}

/* The last child of p that starts at or before ts; NONE if none. */
static uint32_t
last_kid_at(const struct pr_trace *t, const struct pr_tree *tr,
            const struct pr_tree_node *p, int64_t ts)
{
    const struct pr_tree_node *nodes = tr->nodes;
    const uint32_t *kids = pr_tree_kids(tr, p);
    size_t lo = 0, hi = pr_tree_n_kids(tr, p);

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (pr_tree_start(t, &nodes[kids[mid]]) <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? PR_TREE_NONE : kids[lo - 1];
}

/* Where event e lies in the nested tree of its thread: the deepest node
 * whose interval contains it, or the root when none does.  Siblings never
 * overlap, so on each level only the last child starting at or before e
 * can hold it.  0 when e's thread has no host nodes. */
static int
locate(const struct builder *b, const struct pr_event *e, uint32_t *deepest)
{
    const struct pr_tree_node *nodes = b->tree->nodes;
    size_t k = pr_idmap_get(&b->tid_num, pr_event_tid(b->t, e));
    int64_t end = e->ts_ns + e->dur_ns;
    uint32_t kid;

    if (k == PR_NONE)
        return 0;
    *deepest = b->tree->roots[k];
    for (;;) {
        kid = last_kid_at(b->t, b->tree, &nodes[*deepest], e->ts_ns);
        if (kid == PR_TREE_NONE || pr_tree_end(b->t, &nodes[kid]) < end)
            return 1;
        *deepest = kid;
    }
}

/* Whether the op named by a runtime's id holds the runtime on the
 * runtime's thread with no other operator with an id of its own between
 * them: the op Kineto's external-id stack held at the launch (user
 * annotations such as nccl:all_reduce inside record_param_comms do not
 * take the id over, so they may lie between). */
static int
holds_launch(const struct builder *b, size_t node, size_t rt)
{
    const struct pr_tree_node *nodes = b->tree->nodes;
    uint32_t n;

    if (!locate(b, &b->t->events[b->tree->rts[rt].ev], &n))
        return 0;
    for (; n != PR_TREE_NONE; n = nodes[n].parent) {
        if (n == node)
            return 1;
        if (nodes[n].kind == PR_KIND_HOST_OP &&
            node_ext(b, &nodes[n]) != PR_NO_ID)
            return 0;
    }
    return 0;
}

/* An id link is trusted (4.4, the plugin's rule): the launch belongs to
 * the op its runtime's External id names, even inside a nested op and
 * across threads, as the plugin's own test_external_id and
 * test_group_by_kernel_columns pin.  Except when that External id is the
 * runtime's own correlation number: PyTorch 2.x often writes it so, and
 * then it names no operator or collides with an unrelated op's id
 * (trusting it would give a launch to an op that does not hold it, with
 * negative host self time); such an id counts only when the op it names
 * holds the launch (holds_launch), and other runtimes go to the op
 * around them by time (attach_by_time). */
static int
id_trusted(const struct builder *b, size_t node, size_t rt)
{
    const struct pr_event *e = &b->t->events[b->tree->rts[rt].ev];
    int64_t corr = pr_event_correlation(b->t, e);

    if (corr == PR_NO_ID || pr_event_external_id(b->t, e) != corr)
        return 1;
    return holds_launch(b, node, rt);
}

/* The thread number of host node i (the order of threads in 4.4). */
static size_t
thread_num(const struct builder *b, size_t i)
{
    const struct pr_event *e = &b->t->events[b->tree->nodes[i].ev];

    return pr_idmap_get(&b->tid_num, pr_event_tid(b->t, e));
}

/* 4.4: the first host node (tid order, then time) with an external id
 * claims the id.  Found without the nodes in that order (4 bytes a node,
 * issue #17): each id's latest runtime holds, in its node field (free
 * until the links are made), the first node seen with the id so far;
 * nodes come in time order, so only an earlier thread displaces it. */
static void
claim_ids(struct builder *b, size_t n_host)
{
    struct pr_tree *tr = b->tree;
    size_t i;
    uint32_t r, c;

    for (i = 0; i < n_host; i++) {
        int64_t ext = node_ext(b, &tr->nodes[i]);

        if (ext == PR_NO_ID)
            continue;
        r = pr_idmap32_get(&b->rt_by_ext, ext);
        if (r == PR_TREE_NONE)
            continue;
        c = tr->rts[r].node;
        if (c == PR_TREE_NONE || thread_num(b, i) < thread_num(b, c))
            tr->rts[r].node = (uint32_t)i;
    }
}

/* 4.4: the node that claimed an id takes every runtime carrying it whose
 * id is an op's (id_trusted), the latest first.  Ids "none" and 0 take
 * nothing here: 0 marks runtimes outside any op (given to the thread root
 * instead), and "none" is no id (sound-side differences,
 * docs/differences.md). */
static void
attach_by_id(struct builder *b, size_t n_host)
{
    struct pr_tree *tr = b->tree;
    size_t r;
    uint32_t w, q;

    claim_ids(b, n_host);
    /* an id's latest runtime comes after the others it leads to, which
     * are still unclaimed when the loop passes them */
    for (r = 0; r < tr->n_rts; r++) {
        w = tr->rts[r].node;
        if (w == PR_TREE_NONE)
            continue;
        tr->rts[r].node = PR_TREE_NONE;
        for (q = (uint32_t)r; q != PR_TREE_NONE; q = b->ext_next[q]) {
            if (id_trusted(b, w, q)) {
                give_rt(b, w, q);
                tr->n_rt_by_id++;
            }
        }
    }
}

/* Runtimes whose id named no node that holds them go to the deepest node
 * on their thread whose interval contains them, as HTA's call stack does.
 * Those outside every node stay unattached (4.4), and id 0 keeps its
 * plugin meaning (the thread root, attach_zero_runtimes). */
static void
attach_by_time(struct builder *b)
{
    struct pr_tree *tr = b->tree;
    uint32_t deepest;
    size_t r;

    for (r = 0; r < tr->n_rts; r++) {
        const struct pr_event *e = &b->t->events[tr->rts[r].ev];

        if (tr->rts[r].node != PR_TREE_NONE ||
            pr_event_external_id(b->t, e) == 0 || !locate(b, e, &deepest) ||
            tr->nodes[deepest].type == PR_N_ROOT)
            continue;
        give_rt(b, deepest, r);
        tr->n_rt_by_time++;
    }
}

static enum pr_status
make_roots(struct builder *b)
{
    struct pr_tree *tr = b->tree;
    size_t k, idx;

    tr->roots = malloc((b->n_tids ? b->n_tids : 1) * sizeof(*tr->roots));
    tr->root_tids =
        malloc((b->n_tids ? b->n_tids : 1) * sizeof(*tr->root_tids));
    if (tr->roots == NULL || tr->root_tids == NULL)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    tr->root_name = pr_strtab_find(b->t->strs, "CallTreeRoot", 12);
    for (k = 0; k < b->n_tids; k++) {
        struct pr_tree_node *n = new_node(b, &idx);

        if (n == NULL)
            return PR_E_NOMEM;
        n->type = PR_N_ROOT;
        tr->root_tids[tr->n_roots] = b->tids[k];
        tr->roots[tr->n_roots++] = (uint32_t)idx;
    }
    return PR_OK;
}

/* 4.2/5.1.3: runtimes with external id 0 hang under their thread's root. */
static void
attach_zero_runtimes(struct builder *b)
{
    struct pr_tree *tr = b->tree;
    size_t r, k;

    for (r = 0; r < tr->n_rts; r++) {
        const struct pr_event *e = &b->t->events[tr->rts[r].ev];

        if (pr_event_external_id(b->t, e) != 0)
            continue;
        k = pr_idmap_get(&b->tid_num, pr_event_tid(b->t, e));
        if (k != PR_NONE)
            give_rt(b, tr->roots[k], r);
    }
}

/* 4.6: kernels whose runtime never appeared go under the root of the main
 * thread (the last one with a ProfilerStep) through one "dummy" runtime;
 * staled memcpy/memset are left out of the tree, as in the plugin. */
static enum pr_status
attach_staled(struct builder *b, size_t n_host)
{
    struct pr_tree *tr = b->tree;
    struct pr_tree_rt *r;
    size_t i, k, main_tid = PR_NONE, dummy = tr->n_rts;

    for (i = 0; i < n_host; i++) {
        if (tr->nodes[i].type != PR_N_STEP)
            continue;
        k = pr_idmap_get(&b->tid_num,
                         pr_event_tid(b->t, &b->t->events[tr->nodes[i].ev]));
        if (main_tid == PR_NONE || k > main_tid)
            main_tid = k;
    }
    if (main_tid == PR_NONE)
        return PR_OK;
    if (pr_grow((void **)&tr->rts, &tr->cap_rts, tr->n_rts + 1, sizeof(*r)) !=
        PR_OK)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    r = &tr->rts[tr->n_rts++];
    memset(r, 0, sizeof(*r));
    r->ev = r->node = PR_TREE_NONE;
    for (i = 0; i < tr->n_devs; i++) {
        if (tr->devs[i].rt == PR_TREE_NONE &&
            b->t->events[tr->devs[i].ev].kind == PR_KIND_DEVICE_TASK)
            tr->devs[i].rt = (uint32_t)dummy;
    }
    give_rt(b, tr->roots[main_tid], dummy);
    return PR_OK;
}

/* Device lists per runtime as slices of one array, in trace order. */
static enum pr_status
index_devices(struct builder *b)
{
    struct pr_tree *tr = b->tree;
    size_t i;
    uint32_t pos = 0;

    tr->rt_devs = malloc((tr->n_devs ? tr->n_devs : 1) * sizeof(uint32_t));
    if (tr->rt_devs == NULL)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    for (i = 0; i < tr->n_devs; i++) {
        if (tr->devs[i].rt != PR_TREE_NONE)
            tr->rts[tr->devs[i].rt].n_dev++;
    }
    for (i = 0; i < tr->n_rts; i++) {
        tr->rts[i].dev_first = pos;
        pos += tr->rts[i].n_dev;
        tr->rts[i].n_dev = 0;
    }
    for (i = 0; i < tr->n_devs; i++) {
        struct pr_tree_rt *r;

        if (tr->devs[i].rt == PR_TREE_NONE)
            continue;
        r = &tr->rts[tr->devs[i].rt];
        tr->rt_devs[r->dev_first + r->n_dev++] = (uint32_t)i;
    }
    return PR_OK;
}

/* 5.1.1 order: start ascending, end descending, then trace order. */
static int
cmp_span(const void *a, const void *b)
{
    const struct span_key *x = a, *y = b;

    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    if (x->end_ns != y->end_ns)
        return x->end_ns > y->end_ns ? -1 : 1;
    return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

/* Nest the node of key k under the stack top (5.1.4).  A node that starts
 * inside the stack top but ends after it overlaps partially and is
 * dropped.  The order of this visit is each parent's child order
 * (lay_out_kids visits again). */
static void
nest_one(struct builder *b, const struct span_key *k, struct span_key *stack,
         size_t *depth)
{
    struct pr_tree_node *node = &b->tree->nodes[k->idx];

    while (k->start_ns >= stack[*depth - 1].end_ns)
        (*depth)--; /* the root ends at INT64_MAX, so depth stays >= 1 */
    if (k->end_ns > stack[*depth - 1].end_ns) {
        node->dropped = 1;
        return;
    }
    node->parent = stack[*depth - 1].idx;
    (*kid_count(b, node->parent))++;
    b->n_nested++;
    stack[(*depth)++] = *k;
    if (*depth > b->tree->depth) /* collapsing only shortens a path */
        b->tree->depth = *depth;
}

static void
key_of(const struct builder *b, uint32_t idx, struct span_key *k)
{
    const struct pr_tree_node *node = &b->tree->nodes[idx];

    k->start_ns = pr_tree_start(b->t, node);
    k->end_ns = pr_tree_end(b->t, node);
    k->idx = idx;
}

static int64_t
start_of(const struct builder *b, uint32_t idx)
{
    return pr_tree_start(b->t, &b->tree->nodes[idx]);
}

/* End of the run of equal starts that begins at ids[i]. */
static size_t
run_end(const struct builder *b, const uint32_t *ids, size_t n, size_t i)
{
    size_t j = i + 1;

    while (j < n && start_of(b, ids[j]) == start_of(b, ids[i]))
        j++;
    return j;
}

/* Place node idx, if nesting kept it, in its parent's slice of
 * tree->kid_idx (sized by lay_out_kids). */
static void
place_kid(struct builder *b, uint32_t idx)
{
    struct pr_tree *tr = b->tree;
    uint32_t p = tr->nodes[idx].parent;

    if (tr->nodes[idx].dropped)
        return; /* overlaps partially: in no tree */
    tr->kid_idx[tr->nodes[p].kid0 + (*kid_count(b, p))++] = idx;
}

/* Visit the nodes ids[0..n) of the thread of `root` in cmp_span order:
 * nest each under the top of stack, or (stack NULL: the second time)
 * place each kept one among its parent's children, which then come in
 * that order without a list of every node in it (4 bytes a node).  They
 * come in event order, which is start order, so only runs of equal
 * starts are out of place: sorting each run alone in keys (room for
 * *room) gives the same order as sorting all of them, without a key per
 * node of the thread (24 bytes each, the tree's peak, issue #17).  Nodes
 * out of start order (not expected) are sorted all at once. */
static enum pr_status
span_order(struct builder *b, size_t root, const uint32_t *ids, size_t n,
           struct span_key **keys, size_t *room, struct span_key *stack)
{
    size_t i, j, r, depth = 1;
    int sorted = 1;

    for (i = 1; i < n && sorted; i++)
        sorted = start_of(b, ids[i]) >= start_of(b, ids[i - 1]);
    if (stack != NULL) {
        stack[0].start_ns = INT64_MIN;
        stack[0].end_ns = INT64_MAX;
        stack[0].idx = (uint32_t)root;
    }
    for (i = 0; i < n; i = j) {
        j = sorted ? run_end(b, ids, n, i) : n;
        if (pr_grow((void **)keys, room, j - i, sizeof(**keys)) != PR_OK)
            return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
        for (r = i; r < j; r++)
            key_of(b, ids[r], &(*keys)[r - i]);
        if (j - i > 1)
            qsort(*keys, j - i, sizeof(**keys), cmp_span);
        for (r = 0; r < j - i; r++) {
            if (stack != NULL)
                nest_one(b, &(*keys)[r], stack, &depth);
            else
                place_kid(b, (*keys)[r].idx);
        }
    }
    return PR_OK;
}

/* Children of every node as slices of one array in node order, each in
 * nesting order: sized from the counts, filled by a second visit. */
static enum pr_status
lay_out_kids(struct builder *b, const uint32_t *order, const size_t *first,
             struct span_key **keys, size_t *room)
{
    struct pr_tree *tr = b->tree;
    size_t i, k, pos = 0;
    enum pr_status st = PR_OK;

    tr->kid_idx = malloc((b->n_nested ? b->n_nested : 1) * sizeof(uint32_t));
    if (tr->kid_idx == NULL)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    for (i = 0; i < tr->n_nodes; i++) {
        tr->nodes[i].kid0 = (uint32_t)pos;
        pos += *kid_count(b, i);
        *kid_count(b, i) = 0;
    }
    tr->n_kid_idx = pos;
    for (k = 0; k < b->n_tids && st == PR_OK; k++)
        st = span_order(b, tr->roots[k], order + first[k],
                        first[k + 1] - first[k], keys, room, NULL);
    return st;
}

static enum pr_status
nest_all(struct builder *b, const uint32_t *order, const size_t *first)
{
    size_t most = 1, room = 0, k;
    struct span_key *keys = NULL, *stack;
    enum pr_status st = PR_OK;

    /* one thread at a time: a stack as deep as the largest thread (only
     * its used depth is touched), keys for one run of equal starts */
    for (k = 0; k < b->n_tids; k++)
        if (first[k + 1] - first[k] > most)
            most = first[k + 1] - first[k];
    stack = malloc((most + 1) * sizeof(*stack));
    if (stack == NULL)
        st = pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    for (k = 0; k < b->n_tids && st == PR_OK; k++)
        st = span_order(b, b->tree->roots[k], order + first[k],
                        first[k + 1] - first[k], &keys, &room, stack);
    free(stack);
    if (st == PR_OK)
        st = lay_out_kids(b, order, first, &keys, &room);
    free(keys);
    return st;
}

static int
is_dup_pair(const struct builder *b, const struct pr_tree_node *p,
            const struct pr_tree_node *k)
{
    return p->type == PR_N_OP && k->type == PR_N_OP &&
           p->kind == PR_KIND_HOST_OP && k->kind == PR_KIND_HOST_OP &&
           b->t->events[p->ev].name == b->t->events[k->ev].name;
}

/* 5.1.5: a node whose only child has its name absorbs the child.  The
 * parent keeps its own runtimes as well (the plugin discards them; a
 * sound-side difference, docs/differences.md). */
static void
collapse_into(struct builder *b, size_t p)
{
    struct pr_tree_node *nodes = b->tree->nodes;
    size_t k = b->tree->kid_idx[nodes[p].kid0], i;
    uint32_t r, last = PR_TREE_NONE;

    /* k's list goes after p's: before it, as the lists run backwards */
    for (r = *rt_list(b, k); r != PR_TREE_NONE; r = b->rt_next[r]) {
        b->tree->rts[r].node = (uint32_t)p;
        last = r;
    }
    if (last != PR_TREE_NONE) {
        b->rt_next[last] = *rt_list(b, p);
        *rt_list(b, p) = *rt_list(b, k);
    }
    *rt_list(b, k) = PR_TREE_NONE;
    nodes[p].kid0 = nodes[k].kid0;
    *kid_count(b, p) = *kid_count(b, k);
    nodes[k].kid0 = 0;
    *kid_count(b, k) = 0;
    nodes[k].dropped = 1;
    for (i = 0; i < *kid_count(b, p); i++)
        nodes[b->tree->kid_idx[nodes[p].kid0 + i]].parent = (uint32_t)p;
}

static void
collapse_all(struct builder *b, uint32_t *stack)
{
    struct pr_tree *tr = b->tree;
    size_t r, depth, i;

    for (r = 0; r < tr->n_roots; r++) {
        depth = 0;
        stack[depth++] = tr->roots[r];
        while (depth > 0) {
            size_t p = stack[--depth];

            while (*kid_count(b, p) == 1 &&
                   is_dup_pair(b, &tr->nodes[p],
                               &tr->nodes[pr_tree_kids(tr, &tr->nodes[p])[0]]))
                collapse_into(b, p);
            for (i = *kid_count(b, p); i > 0; i--)
                stack[depth++] = pr_tree_kids(tr, &tr->nodes[p])[i - 1];
        }
    }
}

/* Collapsing gave some nodes the slice of a child: lay the children out
 * in node order again, so that each slice ends where the next begins
 * (pr_tree_n_kids). */
static enum pr_status
relay_kids(struct builder *b)
{
    struct pr_tree *tr = b->tree;
    uint32_t *kids =
        malloc((tr->n_kid_idx ? tr->n_kid_idx : 1) * sizeof(*kids));
    size_t i, pos = 0;

    if (kids == NULL)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    for (i = 0; i < tr->n_nodes; i++) {
        memcpy(kids + pos, tr->kid_idx + tr->nodes[i].kid0,
               *kid_count(b, i) * sizeof(*kids));
        tr->nodes[i].kid0 = (uint32_t)pos;
        pos += *kid_count(b, i);
    }
    free(tr->kid_idx);
    tr->kid_idx = kids;
    tr->n_kid_idx = pos;
    return PR_OK;
}

/* Runtimes of every node as slices of one array in node order, each in
 * the order they were given (its list backwards); rt_bits marks the nodes
 * with any, and only they get a start in rt_first. */
static enum pr_status
lay_out_rts(struct builder *b)
{
    struct pr_tree *tr = b->tree;
    size_t i, r, j, pos = 0, k = 0, words = tr->n_nodes / 64 + 1, with = 0;

    for (i = 0; i < tr->n_nodes; i++)
        with += *rt_list(b, i) != PR_TREE_NONE;
    tr->rt_idx = malloc((tr->n_rts ? tr->n_rts : 1) * sizeof(uint32_t));
    tr->rt_bits = calloc(words, sizeof(*tr->rt_bits));
    tr->rt_rank = malloc(words * sizeof(*tr->rt_rank));
    tr->rt_first = malloc((with + 1) * sizeof(*tr->rt_first));
    if (tr->rt_idx == NULL || tr->rt_bits == NULL || tr->rt_rank == NULL ||
        tr->rt_first == NULL)
        return pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    for (i = 0; i < tr->n_nodes; i++) {
        if (i % 64 == 0)
            tr->rt_rank[i / 64] = (uint32_t)k;
        if (*rt_list(b, i) == PR_TREE_NONE)
            continue;
        tr->rt_bits[i / 64] |= (uint64_t)1 << (i % 64);
        tr->rt_first[k++] = (uint32_t)pos;
        for (r = *rt_list(b, i); r != PR_TREE_NONE; r = b->rt_next[r])
            pos++;
        for (j = pos, r = *rt_list(b, i); r != PR_TREE_NONE; r = b->rt_next[r])
            tr->rt_idx[--j] = (uint32_t)r;
    }
    if (tr->n_nodes % 64 == 0)
        tr->rt_rank[tr->n_nodes / 64] = (uint32_t)k;
    tr->rt_first[k] = (uint32_t)pos;
    tr->n_rt_idx = pos;
    return PR_OK;
}

enum pr_status
pr_tree_walk_init(struct pr_tree_walk *w, const struct pr_tree *tree,
                  int reverse, struct pr_error *err)
{
    size_t room = tree->depth + 1;

    memset(w, 0, sizeof(*w));
    w->path = malloc(room * sizeof(*w->path));
    w->pos = malloc(room * sizeof(*w->pos));
    w->lim = malloc(room * sizeof(*w->lim));
    if (w->path == NULL || w->pos == NULL || w->lim == NULL) {
        pr_tree_walk_free(w);
        return pr_error_set(err, PR_E_NOMEM, "out of memory (op tree walk)");
    }
    w->tree = tree;
    w->reverse = reverse;
    w->root = reverse ? tree->n_roots : 0;
    return PR_OK;
}

/* Step onto node n, one level down. */
static void
walk_push(struct pr_tree_walk *w, uint32_t n)
{
    const struct pr_tree *tr = w->tree;
    uint32_t lo = tr->nodes[n].kid0,
             hi = lo + pr_tree_n_kids(tr, &tr->nodes[n]);

    w->path[w->level] = n;
    w->pos[w->level] = w->reverse ? hi : lo;
    w->lim[w->level++] = w->reverse ? lo : hi;
}

/* Post-order: down to the first child still to visit, else the node. */
static uint32_t
walk_forward(struct pr_tree_walk *w)
{
    const struct pr_tree *tr = w->tree;

    for (;;) {
        size_t top;

        if (w->level == 0) {
            if (w->root == tr->n_roots)
                return PR_TREE_NONE;
            walk_push(w, tr->roots[w->root++]);
        }
        top = w->level - 1;
        if (w->pos[top] < w->lim[top]) {
            walk_push(w, tr->kid_idx[w->pos[top]++]);
            continue;
        }
        return w->path[--w->level];
    }
}

/* The reverse: a node as it is reached, then its children last first. */
static uint32_t
walk_back(struct pr_tree_walk *w)
{
    const struct pr_tree *tr = w->tree;

    for (;;) {
        size_t top;

        if (w->level == 0) {
            if (w->root == 0)
                return PR_TREE_NONE;
            walk_push(w, tr->roots[--w->root]);
            return w->path[0];
        }
        top = w->level - 1;
        if (w->pos[top] > w->lim[top]) {
            walk_push(w, tr->kid_idx[--w->pos[top]]);
            return w->path[w->level - 1];
        }
        w->level--;
    }
}

uint32_t
pr_tree_walk_next(struct pr_tree_walk *w)
{
    return w->reverse ? walk_back(w) : walk_forward(w);
}

void
pr_tree_walk_free(struct pr_tree_walk *w)
{
    free(w->path);
    free(w->pos);
    free(w->lim);
    memset(w, 0, sizeof(*w));
}

/* 5.2 for one runtime: record the launching node's own eligibility
 * (before propagation) on each of its devices; whether any of them ran
 * on tensor cores for a while. */
static int
fill_runtime(const struct pr_trace *t, struct pr_tree *tr, size_t rt,
             size_t node)
{
    const struct pr_tree_rt *r = &tr->rts[rt];
    size_t i;
    int tc = 0;

    for (i = 0; i < r->n_dev; i++) {
        struct pr_tree_dev *d = &tr->devs[tr->rt_devs[r->dev_first + i]];

        d->op_eligible = tr->nodes[node].tc_eligible;
        tc |= d->tc && t->events[d->ev].dur_ns > 0;
    }
    return tc;
}

/* 5.2 fill_stats for node n; its children are already filled.  Self
 * times are not stored (pr_tree_host_self, pr_tree_device_self). */
static void
fill_node(const struct pr_trace *t, struct pr_tree *tr, size_t n)
{
    struct pr_tree_node *p = &tr->nodes[n];
    int64_t rt_dev = 0, dev_kids = 0;
    int eligible_below = 0;
    uint32_t i, n_rts = pr_tree_n_rts(tr, p), n_kids = pr_tree_n_kids(tr, p);

    for (i = 0; i < n_rts; i++) {
        const struct pr_tree_rt *r = &tr->rts[pr_tree_rts(tr, p)[i]];

        eligible_below |= fill_runtime(t, tr, pr_tree_rts(tr, p)[i], n);
        rt_dev = pr_sat_add_i64(rt_dev, pr_tree_rt_device(t, tr, r));
    }
    for (i = 0; i < n_kids; i++) {
        const struct pr_tree_node *k = &tr->nodes[pr_tree_kids(tr, p)[i]];

        dev_kids = pr_sat_add_i64(dev_kids, k->device_total_ns);
        eligible_below |= k->tc_eligible;
    }
    p->device_total_ns = pr_sat_add_i64(dev_kids, rt_dev);
    if (p->kind == PR_KIND_HOST_OP && p->type != PR_N_STEP && eligible_below)
        p->tc_eligible = 1;
}

int64_t
pr_tree_host_self(const struct pr_trace *t, const struct pr_tree *tree,
                  const struct pr_tree_node *n)
{
    int64_t kid_span = 0, rt_span = 0, self;
    uint32_t i, n_rts = pr_tree_n_rts(tree, n),
                n_kids = pr_tree_n_kids(tree, n);

    if (n->type == PR_N_ROOT)
        return 0; /* spans from INT64_MIN to INT64_MAX: no host time */
    for (i = 0; i < n_rts; i++) {
        const struct pr_tree_rt *r = &tree->rts[pr_tree_rts(tree, n)[i]];

        rt_span =
            pr_sat_add_i64(rt_span, pr_sat_sub_i64(pr_tree_rt_end(t, r),
                                                   pr_tree_rt_start(t, r)));
    }
    /* kids are never roots */
    for (i = 0; i < n_kids; i++)
        kid_span = pr_sat_add_i64(
            kid_span,
            pr_tree_host_total(t, &tree->nodes[pr_tree_kids(tree, n)[i]]));
    self = pr_sat_sub_i64(pr_sat_sub_i64(pr_tree_host_total(t, n), kid_span),
                          rt_span);
    /* Children and runtimes of one thread never overlap in a sound trace;
     * where they do, self time is none rather than negative. */
    return self < 0 ? 0 : self;
}

int64_t
pr_tree_device_self(const struct pr_trace *t, const struct pr_tree *tree,
                    const struct pr_tree_node *n)
{
    int64_t self = 0;
    uint32_t i, n_rts = pr_tree_n_rts(tree, n),
                n_kids = pr_tree_n_kids(tree, n);

    for (i = 0; i < n_rts; i++)
        self = pr_sat_add_i64(
            self,
            pr_tree_rt_device(t, tree, &tree->rts[pr_tree_rts(tree, n)[i]]));
    if (n->type != PR_N_MODULE)
        return self;
    /* A module's "self" also covers its direct operators. */
    for (i = 0; i < n_kids; i++) {
        const struct pr_tree_node *k = &tree->nodes[pr_tree_kids(tree, n)[i]];

        if (k->is_operator)
            self = pr_sat_add_i64(self, k->device_total_ns);
    }
    return self;
}

static void
builder_free(struct builder *b)
{
    pr_idmap32_free(&b->rt_by_corr);
    pr_idmap32_free(&b->pending);
    pr_idmap32_free(&b->rt_by_ext);
    pr_idmap_free(&b->tid_num);
    free(b->tids);
    free(b->node_tid);
    free(b->ext_next);
    free(b->dev_next);
    free(b->rt_next);
    pr_names_free(&b->names);
}

/* Steps 5.1.5 to 5.2 once the trees are nested and the links made:
 * collapse, order, and fill the statistics bottom-up. */
static enum pr_status
shape_trees(struct builder *b)
{
    struct pr_tree *tr = b->tree;
    /* node indexes: 32-bit, like the tree's links */
    uint32_t *stack = NULL, n;
    struct pr_tree_walk w;
    size_t i;
    enum pr_status st = PR_OK;

    /* the child counts of lay_out_kids are still in the nodes */
    stack = malloc((tr->n_nodes + 1) * sizeof(*stack));
    if (stack == NULL)
        st = pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    if (st == PR_OK) {
        collapse_all(b, stack);
        st = relay_kids(b);
    }
    if (st == PR_OK)
        st = lay_out_rts(b);
    free(stack);
    if (st == PR_OK)
        st = pr_tree_walk_init(&w, tr, 0, b->err);
    if (st != PR_OK)
        return st;
    /* the scratch gives way to the totals: 0 for nodes out of the trees */
    for (i = 0; i < tr->n_nodes; i++)
        tr->nodes[i].device_total_ns = 0;
    tr->n_post = 0;
    while ((n = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        fill_node(b->t, tr, n);
        tr->n_post++;
    }
    pr_tree_walk_free(&w);
    return PR_OK;
}

static void
release_id_links(struct builder *b)
{
    pr_idmap32_free(&b->rt_by_ext);
    free(b->ext_next);
    b->ext_next = NULL;
}

static enum pr_status
build(struct builder *b)
{
    size_t n_host, *first = NULL;
    uint32_t *order = NULL;
    enum pr_status st = scan(b);

    n_host = b->tree->n_nodes;
    if (st == PR_OK) {
        first = calloc(b->n_tids + 1, sizeof(*first));
        if (first == NULL)
            st = pr_error_set(b->err, PR_E_NOMEM, "out of memory (op tree)");
    }
    if (st == PR_OK) {
        order = group_by_thread(b, n_host, first);
        st = order == NULL ? PR_E_NOMEM : PR_OK;
    }
    free(b->node_tid);
    b->node_tid = NULL;
    if (st == PR_OK)
        st = make_roots(b);
    /* Nesting needs no runtime; the links need the nesting (id_trusted). */
    if (st == PR_OK)
        st = nest_all(b, order, first);
    free(order); /* the links by id do without it (claim_ids) */
    order = NULL;
    if (st == PR_OK)
        st = index_ext_ids(b);
    if (st == PR_OK)
        st = alloc_rt_lists(b);
    if (st == PR_OK)
        attach_by_id(b, n_host);
    /* What only the links by id use goes before the tree's next peak
     * (shape_trees), as the correlation maps did before nesting. */
    release_id_links(b);
    if (st == PR_OK) {
        attach_by_time(b);
        attach_zero_runtimes(b);
        st = attach_staled(b, n_host);
    }
    if (st == PR_OK)
        st = index_devices(b);
    if (st == PR_OK)
        st = shape_trees(b);
    free(order);
    free(first);
    return st;
}

enum pr_status
pr_tree_build(const struct pr_trace *t, struct pr_tree *tree,
              struct pr_error *err)
{
    struct builder b;
    enum pr_status st;

    memset(tree, 0, sizeof(*tree));
    memset(&b, 0, sizeof(b));
    if (t->n_events >= TAKEN)
        return pr_error_set(err, PR_E_LIMIT,
                            "%zu events: the op tree holds at most %lu",
                            t->n_events, (unsigned long)TAKEN - 1);
    b.t = t;
    b.tree = tree;
    b.err = err;
    pr_names_init(&b.names, t);
    b.npu = pr_trace_is_npu(t);
    if (b.npu)
        pr_cube_init(t, &b.cube);
    st = build(&b);
    builder_free(&b);
    if (st != PR_OK)
        pr_tree_free(tree);
    return st;
}

void
pr_tree_free(struct pr_tree *tree)
{
    free(tree->nodes);
    free(tree->kid_idx);
    free(tree->rt_idx);
    free(tree->rt_bits);
    free(tree->rt_rank);
    free(tree->rt_first);
    free(tree->rts);
    free(tree->devs);
    free(tree->rt_devs);
    free(tree->roots);
    free(tree->root_tids);
    memset(tree, 0, sizeof(*tree));
}
