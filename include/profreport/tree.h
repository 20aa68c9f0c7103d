/* tree.h - the operator tree of spec/tb-plugin-semantics.md sections 4-5:
 * device events linked to runtimes by correlation id, runtimes to host
 * nodes by external id (or, where the id does not name the op around the
 * runtime, by time), one call tree per thread, duplicate collapse and
 * the host/device self/total statistics (fill_stats).
 *
 * Everything is indexes, not pointers: nodes, runtimes and device records
 * live in arrays owned by struct pr_tree; PR_TREE_NONE marks "no link".
 * The tree borrows the trace (event indexes, string ids) and must not
 * outlive it.  Section 5.3 (backward/module restructuring) is not done. */
#ifndef PROFREPORT_TREE_H
#define PROFREPORT_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/checked.h"
#include "profreport/error.h"
#include "profreport/trace.h"

/* Indexes are 32-bit (pr_tree_build refuses traces with 2^32 - 2 events or
 * more): nodes outnumber everything else, and halving their links halves
 * the tree.  PR_TREE_NONE compares equal to such an index widened to
 * size_t. */
#define PR_TREE_NONE UINT32_MAX
/* Name prefix of a Lightning module range (3.2): "[pl][module]TYPE: NAME". */
#define PR_TREE_PL_MODULE "[pl][module]"

enum pr_node_type {
    PR_N_ROOT = 0,   /* per-thread CallTreeRoot */
    PR_N_OP,         /* plain host node (cpu_op, python, comm annotation) */
    PR_N_STEP,       /* ProfilerStep#N */
    PR_N_MODULE,     /* python_function with a Python module id, or in
                        Lightning mode a PR_TREE_PL_MODULE range */
    PR_N_DATALOADER, /* enumerate(DataLoader)#...__next__ */
    PR_N_OPTIMIZER   /* Optimizer.step... */
};

/* One kernel / memcpy / memset event.  12 bytes: the host node that
 * owns its runtime is the runtime's (pr_tree_dev_node). */
struct pr_tree_dev {
    uint32_t ev;         /* index into t->events */
    uint32_t rt;         /* runtime that launched it; NONE = staled */
    uint8_t tc;          /* kernel name matches 10.1 (an Ascend task: on
                            the Cube); 2: an Ascend MIX_AIC task whose Cube
                            use is not known, eligible but not Cube time */
    uint8_t op_eligible; /* launching node's own tc eligibility (5.2) */
};

/* One launching host call (a cuda_runtime event, or a cuda_driver one such
 * as Triton's cuLaunchKernel), or the synthetic "dummy" runtime (ev =
 * NONE) that holds the staled kernels under the main thread's root.  16
 * bytes: its span is its event's (pr_tree_rt_start, pr_tree_rt_end), and
 * its device times are summed from its few device events when asked
 * (pr_tree_rt_device, pr_tree_rt_tc). */
struct pr_tree_rt {
    uint32_t ev;
    uint32_t node;             /* host node that took it; NONE = lost */
    uint32_t dev_first, n_dev; /* slice of pr_tree.rt_devs */
};

/* 24 bytes: nodes outnumber every other record of the tree (4M at
 * 3 GB), so what a node can find elsewhere is not stored: its name
 * (pr_tree_name) and span (pr_tree_start/end) are its event's, its thread
 * is found by pr_tree_tid, its host total and self time by
 * pr_tree_host_total and pr_tree_host_self, its own device and
 * tensor-core time by pr_tree_device_self and pr_tree_tc_self (its
 * tensor-core total is summed by the pass that needs it), the number of
 * its children from the slices in node order (pr_tree_n_kids), and its
 * runtimes from pr_tree.rt_bits (pr_tree_rts, pr_tree_n_rts): most nodes
 * launch nothing.  Its links are 32-bit. */
struct pr_tree_node {
    uint32_t ev;              /* index into t->events; NONE for roots */
    uint32_t parent;          /* NONE for roots and dropped nodes */
    unsigned type : 4;        /* enum pr_node_type */
    signed kind : 8;          /* enum pr_kind of the event; -1 for roots */
    unsigned is_operator : 1; /* the 5.4 predicate */
    unsigned tc_eligible : 1; /* 10.2 plus 5.2 propagation */
    unsigned dropped : 1;     /* partial overlap (5.1.4) or collapsed */
    uint32_t kid0;            /* children: pr_tree_kids(), sorted by
                                 (start, -end) */
    union {
        int64_t device_total_ns;
        uint32_t build[2]; /* tree.c's scratch until the totals are
                              filled */
    };
};

struct pr_tree {
    struct pr_tree_node *nodes; /* owned */
    size_t n_nodes, cap_nodes;
    struct pr_tree_rt *rts; /* owned; every runtime event, then dummy */
    size_t n_rts, cap_rts;
    struct pr_tree_dev *devs; /* owned; device events in trace order */
    size_t n_devs, cap_devs;
    uint32_t *rt_devs; /* owned; device indexes grouped by runtime */
    uint32_t *kid_idx; /* owned; every node's children, one slice each,
                          in node order */
    uint32_t *rt_idx;  /* owned; every node's runtimes, one slice each,
                          in node order */
    size_t n_kid_idx, n_rt_idx;
    /* The nodes with runtimes: bit i of rt_bits is node i's; rt_rank[w]
     * counts those before word w, and the k-th of them in node order
     * has the slice rt_first[k] .. rt_first[k + 1] of rt_idx.  Owned. */
    uint64_t *rt_bits;
    uint32_t *rt_rank, *rt_first;
    uint32_t root_name;  /* string id "CallTreeRoot", the roots' name */
    uint32_t *roots;     /* owned; one root per thread, tid order */
    uint32_t *root_tids; /* owned; the tid string id of each root */
    size_t n_roots;
    /* Nodes in the trees (roots included, dropped and collapsed nodes
     * not), and the most nodes on one path from a root down: the room a
     * walk (struct pr_tree_walk) needs.  No array in post-order is held:
     * it was a fifth of the tree's links (issue #17). */
    size_t n_post, depth;
    /* How runtimes found their node: by a trusted external id (4.4), or
     * by time, as the deepest node containing them (PyTorch 2.x traces,
     * whose runtime ids often name no op). */
    size_t n_rt_by_id, n_rt_by_time;
};

/* A walk over every tree in post-order (5.5: the children in order, then
 * the node; threads in tid order), or in exactly the reverse order, which
 * visits each parent before its children.  It holds one path from a root
 * (pr_tree.depth nodes at most), not an array of every node. */
struct pr_tree_walk {
    const struct pr_tree *tree;
    uint32_t *path; /* owned; the node at each level */
    /* owned; that node's children still to visit, as positions in
     * tree->kid_idx: from pos up to lim going forward, from pos - 1 down
     * to lim going back */
    uint32_t *pos, *lim;
    size_t level; /* going forward, after pr_tree_walk_next: the depth
                     of the node it returned (a root's is 0) */
    size_t root;
    int reverse;
};

/* Start a walk over tree (reverse: the reversed post-order).  PR_E_NOMEM
 * (err may be NULL); the walk then needs no pr_tree_walk_free. */
PR_NODISCARD enum pr_status pr_tree_walk_init(struct pr_tree_walk *w,
                                              const struct pr_tree *tree,
                                              int reverse,
                                              struct pr_error *err);

/* The next node's index; PR_TREE_NONE once every node was visited. */
uint32_t pr_tree_walk_next(struct pr_tree_walk *w);

void pr_tree_walk_free(struct pr_tree_walk *w);

/* The children of node n, a node of tree->nodes, (pr_tree_n_kids of them)
 * and its runtimes (pr_tree_n_rts), as node and runtime indexes. */
static inline const uint32_t *
pr_tree_kids(const struct pr_tree *tree, const struct pr_tree_node *n)
{
    return tree->kid_idx + n->kid0;
}

/* Where node n's runtimes begin in rt_first; SIZE_MAX when it has none. */
static inline size_t
pr_tree_rt_slot(const struct pr_tree *tree, const struct pr_tree_node *n)
{
    size_t i = (size_t)(n - tree->nodes);
    uint64_t w = tree->rt_bits[i / 64], bit = (uint64_t)1 << (i % 64);

    if ((w & bit) == 0)
        return SIZE_MAX;
    return tree->rt_rank[i / 64] + (size_t)__builtin_popcountll(w & (bit - 1));
}

static inline const uint32_t *
pr_tree_rts(const struct pr_tree *tree, const struct pr_tree_node *n)
{
    size_t k = pr_tree_rt_slot(tree, n);

    return tree->rt_idx + (k == SIZE_MAX ? 0 : tree->rt_first[k]);
}

/* How many: each slice ends where the next node's begins. */
static inline uint32_t
pr_tree_n_kids(const struct pr_tree *tree, const struct pr_tree_node *n)
{
    size_t i = (size_t)(n - tree->nodes);

    return (uint32_t)(i + 1 < tree->n_nodes ? n[1].kid0 : tree->n_kid_idx) -
           n->kid0;
}

static inline uint32_t
pr_tree_n_rts(const struct pr_tree *tree, const struct pr_tree_node *n)
{
    size_t k = pr_tree_rt_slot(tree, n);

    return k == SIZE_MAX ? 0 : tree->rt_first[k + 1] - tree->rt_first[k];
}

/* The string id of node n's name: its event's, "CallTreeRoot" for a
 * root. */
static inline uint32_t
pr_tree_name(const struct pr_trace *t, const struct pr_tree *tree,
             const struct pr_tree_node *n)
{
    return n->ev == PR_TREE_NONE ? tree->root_name : t->events[n->ev].name;
}

/* The host node that owns device event d's runtime; NONE if none. */
static inline uint32_t
pr_tree_dev_node(const struct pr_tree *tree, const struct pr_tree_dev *d)
{
    return d->rt == PR_TREE_NONE ? PR_TREE_NONE : tree->rts[d->rt].node;
}

/* The tid string id of node `node`: its event's, or its thread's for a
 * root. */
static inline uint32_t
pr_tree_tid(const struct pr_trace *t, const struct pr_tree *tree, size_t node)
{
    size_t r;

    if (tree->nodes[node].ev != PR_TREE_NONE)
        return pr_event_tid(t, &t->events[tree->nodes[node].ev]);
    for (r = 0; r < tree->n_roots && tree->roots[r] != node; r++)
        ;
    return r < tree->n_roots ? tree->root_tids[r] : PR_STR_NONE;
}

/* Span of node n of trace t's tree: its event's, or (INT64_MIN,
 * INT64_MAX) for a root.  Not stored: nodes outnumber every other record. */
static inline int64_t
pr_tree_start(const struct pr_trace *t, const struct pr_tree_node *n)
{
    return n->ev == PR_TREE_NONE ? INT64_MIN : t->events[n->ev].ts_ns;
}

static inline int64_t
pr_tree_end(const struct pr_trace *t, const struct pr_tree_node *n)
{
    const struct pr_event *e;

    if (n->ev == PR_TREE_NONE)
        return INT64_MAX;
    e = &t->events[n->ev];
    return e->ts_ns + e->dur_ns;
}

/* Span of runtime r: its event's (the end saturating); 0, 0 for the
 * dummy runtime. */
static inline int64_t
pr_tree_rt_start(const struct pr_trace *t, const struct pr_tree_rt *r)
{
    return r->ev == PR_TREE_NONE ? 0 : t->events[r->ev].ts_ns;
}

static inline int64_t
pr_tree_rt_end(const struct pr_trace *t, const struct pr_tree_rt *r)
{
    const struct pr_event *e;

    if (r->ev == PR_TREE_NONE)
        return 0;
    e = &t->events[r->ev];
    return pr_sat_add_i64(e->ts_ns, e->dur_ns);
}

/* Host total time of a node (5.2): its event's duration; 0 for a root,
 * which spans the whole thread. */
static inline int64_t
pr_tree_host_total(const struct pr_trace *t, const struct pr_tree_node *n)
{
    if (n->ev == PR_TREE_NONE)
        return 0;
    return pr_sat_sub_i64(pr_tree_end(t, n), pr_tree_start(t, n));
}

/* The summed durations of the device events runtime r launched: all of
 * them (a sum, not a union: kernels may overlap), or those on tensor
 * cores (10.1). */
static inline int64_t
pr_tree_rt_sum(const struct pr_trace *t, const struct pr_tree *tree,
               const struct pr_tree_rt *r, int tc_only)
{
    int64_t sum = 0;
    uint32_t i;

    for (i = 0; i < r->n_dev; i++) {
        const struct pr_tree_dev *d =
            &tree->devs[tree->rt_devs[r->dev_first + i]];

        if (!tc_only || d->tc == 1)
            sum = pr_sat_add_i64(sum, t->events[d->ev].dur_ns);
    }
    return sum;
}

static inline int64_t
pr_tree_rt_device(const struct pr_trace *t, const struct pr_tree *tree,
                  const struct pr_tree_rt *r)
{
    return pr_tree_rt_sum(t, tree, r, 0);
}

static inline int64_t
pr_tree_rt_tc(const struct pr_trace *t, const struct pr_tree *tree,
              const struct pr_tree_rt *r)
{
    return pr_tree_rt_sum(t, tree, r, 1);
}

/* Tensor-core time of a node's own runtimes (5.2 tc_self): the summed
 * tensor-core durations of the device events they launched. */
static inline int64_t
pr_tree_tc_self(const struct pr_trace *t, const struct pr_tree *tree,
                const struct pr_tree_node *n)
{
    int64_t sum = 0;
    uint32_t i, k = pr_tree_n_rts(tree, n);

    for (i = 0; i < k; i++)
        sum = pr_sat_add_i64(
            sum, pr_tree_rt_tc(t, tree, &tree->rts[pr_tree_rts(tree, n)[i]]));
    return sum;
}

/* Host self time of a node (5.2): its total less its children's totals and
 * its runtimes' spans, none rather than negative where they overlap in an
 * unsound trace; 0 for a root.  O(children + runtimes). */
int64_t pr_tree_host_self(const struct pr_trace *t, const struct pr_tree *tree,
                          const struct pr_tree_node *n);

/* Device self time of a node (5.2): the device time of its own runtimes;
 * a module's also covers its direct operators' device total.
 * O(children + runtimes). */
int64_t pr_tree_device_self(const struct pr_trace *t,
                            const struct pr_tree *tree,
                            const struct pr_tree_node *n);

/* Build the tree of trace t into *tree (zero-initialised by the call).
 * PR_E_NOMEM on allocation failure; *tree is then freed already. */
PR_NODISCARD enum pr_status pr_tree_build(const struct pr_trace *t,
                                          struct pr_tree *tree,
                                          struct pr_error *err);

/* Release everything; accepts a zero-initialised or freed tree. */
void pr_tree_free(struct pr_tree *tree);

/* Name predicates of 4.3 / 4.5 (used by steps.c for role ranges too). */
int pr_tree_is_dataloader(const char *name);
int pr_tree_is_comm(const char *name);
int pr_tree_is_step(const char *name);
/* Kinds that launch device work and link to it by correlation id:
 * runtime calls and driver calls (cuLaunchKernel of Triton/Inductor). */
int pr_tree_is_launcher(int kind);

#endif
