/* sources.c - the source view (sources.h): each operator node of the op
 * tree gets the Python frames that called it, its innermost user frame
 * becomes its location, and self times, calls and FLOPs are summed per
 * location and per stack of user frames.  Stacks repeat (a few hundred
 * distinct ones per trace), so each distinct stack is read once and its
 * result cached by the stack's string id (or, for python_function
 * frames, by the innermost frame's event). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/flops.h"
#include "profreport/keys.h"
#include "profreport/memtl.h"
#include "profreport/roofline.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/shapes.h"
#include "profreport/sources.h"
#include "profreport/strtab.h"

#include "../internal.h"

#define MAX_FRAMES 512 /* frames read per stack; deeper ones are cut */
#define MAX_TEXT 8192  /* bytes of a location or stack text */
#define NO_ATTR UINT32_MAX
#define BWD_ATTR 0x80000000u /* node_attr: a backward node's forward attr */
#define NO_USER "(library code only)"

struct group {
    uint32_t key;        /* ctx->strs id of the location or stack text */
    uint32_t loc;        /* stack rows: index of their location group */
    uint32_t path, func; /* ctx->strs ids; PR_STR_NONE for NO_USER */
    int64_t line;
    size_t calls, bwd_calls;
    int64_t dev_ns, host_ns, bwd_dev_ns, bwd_host_ns;
    double flops;
    int has_flops;
};

struct groups {
    struct group *v; /* owned */
    size_t n, cap;
    struct pr_idmap by_key; /* key id -> index */
};

/* Where a distinct stack leads: its location and stack groups. */
struct attr {
    uint32_t loc, stack;
};

struct raw_frame {
    const char *s; /* borrowed from the trace */
    size_t n;
};

struct ctx {
    const struct pr_trace *t;   /* borrowed */
    const struct pr_tree *tree; /* borrowed */
    struct pr_strtab *strs;     /* owned: location, stack and frame texts */
    struct pr_strtab *skipped;  /* owned: distinct skipped frames */
    size_t n_skipped[PR_FRAME_N_RULES];
    uint32_t skip_example[PR_FRAME_N_RULES]; /* skipped's first frame id */
    struct groups locs, stacks;
    struct attr *attrs; /* owned */
    size_t n_attrs, cap_attrs;
    struct pr_idmap cache; /* stack key -> attrs index */
    /* owned; per tree node: its attr; or BWD_ATTR | the attr of the
     * forward op of a backward node without one (by sequence number);
     * else NO_ATTR.  One array, not two: it is held beside the tree; and
     * none (NULL: every node NO_ATTR) until a node has an attr, which a
     * trace recorded without stacks never has (node_attr, set_attr). */
    uint32_t *node_attr;
    uint32_t *up;         /* owned; per event, the innermost python frame
                             around it (NO_ATTR: none); NULL when the
                             trace has no python frames */
    struct raw_frame *fr; /* owned; frames of the stack being read */
    size_t cap_fr;
    struct pr_buf text; /* scratch */
    int from_stack, from_python;
};

/* ---- frames ----------------------------------------------------------- */

static int
is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* [*s, *s + *n) without blanks at either end. */
static void
trim(const char **s, size_t *n)
{
    while (*n > 0 && is_blank(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && is_blank((*s)[*n - 1]))
        (*n)--;
}

/* Length of the run of digits at s (at most 10), 0 when none. */
static size_t
digits(const char *s, size_t n, int64_t *v)
{
    size_t i = 0;

    *v = 0;
    while (i < n && i < 10 && s[i] >= '0' && s[i] <= '9')
        *v = *v * 10 + (s[i++] - '0');
    return i;
}

int
pr_sources_parse_frame(const char *s, size_t n, struct pr_frame *f)
{
    size_t i, k;

    trim(&s, &n);
    /* the first "(digits): " ends the path: paths may hold parentheses
     * ("<frozen importlib._bootstrap>") but never that */
    for (i = 1; i < n; i++) {
        if (s[i] != '(')
            continue;
        k = digits(s + i + 1, n - i - 1, &f->line);
        if (k == 0 || i + 1 + k + 1 >= n || s[i + 1 + k] != ')' ||
            s[i + 2 + k] != ':')
            continue;
        f->path = s;
        f->path_n = i;
        f->func = s + i + 3 + k;
        f->func_n = n - (i + 3 + k);
        trim(&f->path, &f->path_n);
        trim(&f->func, &f->func_n);
        return f->path_n > 0;
    }
    return 0;
}

static int
contains(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle), i;

    for (i = 0; k <= n && i <= n - k; i++)
        if (memcmp(s + i, needle, k) == 0)
            return 1;
    return 0;
}

static int
starts(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);

    return n >= k && memcmp(s, prefix, k) == 0;
}

/* A directory named like a framework package, at the start of a relative
 * path or anywhere in an absolute one. */
static int
in_framework(const char *p, size_t n)
{
    static const char *const pkgs[] = {
        "torch",     "torch_npu", "torchvision",       "torchaudio",
        "torch_xla", "functorch", "pytorch_lightning", "lightning",
        "apex",      "deepspeed", "transformers",      "triton"};
    char dir[32];
    size_t i;

    for (i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++) {
        snprintf(dir, sizeof(dir), "/%s/", pkgs[i]);
        if (starts(p, n, dir + 1) || contains(p, n, dir))
            return 1;
    }
    return 0;
}

enum pr_frame_rule
pr_sources_frame_rule(const struct pr_frame *f)
{
    const char *p = f->path;
    size_t n = f->path_n;

    if (contains(p, n, "site-packages/") || contains(p, n, "dist-packages/"))
        return PR_FRAME_SITE_PACKAGES;
    if (in_framework(p, n))
        return PR_FRAME_FRAMEWORK;
    /* "<string>" and "<frozen ...>" are the interpreter's own; other
     * "<...>" names are user code ("<stdin>", "<ipython-input-3-...>") */
    if (contains(p, n, "/lib/python") || contains(p, n, "/lib64/python") ||
        starts(p, n, "<string>") || starts(p, n, "<frozen "))
        return PR_FRAME_STDLIB;
    return PR_FRAME_USER;
}

const char *
pr_sources_rule_name(enum pr_frame_rule r)
{
    static const char *const names[PR_FRAME_N_RULES] = {
        "user", "site-packages", "framework", "stdlib", "not-source"};

    return (unsigned)r < PR_FRAME_N_RULES ? names[r] : "?";
}

/* ---- reading a stack -------------------------------------------------- */

static int
push_frame(struct ctx *c, size_t *n, const char *s, size_t len)
{
    trim(&s, &len);
    if (len == 0 || *n == MAX_FRAMES)
        return 1;
    if (pr_grow((void **)&c->fr, &c->cap_fr, *n + 1, sizeof(*c->fr)) != PR_OK)
        return 0;
    c->fr[*n].s = s;
    c->fr[(*n)++].n = len;
    return 1;
}

/* Frames of a "Call stack" text, innermost first: "f1;f2;" with
 * torch_npu's "\r\n" after each ';'.  0 on out-of-memory. */
static int
stack_frames(struct ctx *c, const char *text, size_t *n)
{
    const char *p = text, *semi;

    *n = 0;
    while ((semi = strchr(p, ';')) != NULL) {
        if (!push_frame(c, n, p, (size_t)(semi - p)))
            return 0;
        p = semi + 1;
    }
    return push_frame(c, n, p, strlen(p));
}

/* Frames of the python_function events around event ev, innermost
 * first.  0 on out-of-memory. */
static int
python_frames(struct ctx *c, uint32_t ev, size_t *n)
{
    uint32_t py = c->up[ev];

    *n = 0;
    while (py != NO_ATTR && *n < MAX_FRAMES) {
        const char *name = pr_trace_str(c->t, c->t->events[py].name);
        if (!push_frame(c, n, name, strlen(name)))
            return 0;
        py = c->up[py];
    }
    return 1;
}

/* ---- groups ----------------------------------------------------------- */

/* Index of the group keyed by text [s, s + n) in g, created empty on
 * first sight; NO_ATTR on out-of-memory. */
static uint32_t
group_of(struct ctx *c, struct groups *g, const char *s, size_t n)
{
    uint32_t id = pr_strtab_intern(c->strs, s, n);
    size_t i;

    if (id == PR_STR_NONE)
        return NO_ATTR;
    i = pr_idmap_get(&g->by_key, id);
    if (i != PR_NONE)
        return (uint32_t)i;
    if (g->n >= NO_ATTR ||
        pr_grow((void **)&g->v, &g->cap, g->n + 1, sizeof(*g->v)) != PR_OK ||
        pr_idmap_put(&g->by_key, id, g->n, NULL) != PR_OK)
        return NO_ATTR;
    memset(&g->v[g->n], 0, sizeof(g->v[0]));
    g->v[g->n].key = id;
    g->v[g->n].path = g->v[g->n].func = PR_STR_NONE;
    return (uint32_t)g->n++;
}

/* Count a skipped frame once per distinct text; 0 on out-of-memory. */
static int
note_skipped(struct ctx *c, enum pr_frame_rule r, const struct raw_frame *rf)
{
    size_t before = pr_strtab_count(c->skipped);

    if (pr_strtab_intern(c->skipped, rf->s, rf->n) == PR_STR_NONE)
        return 0;
    if (pr_strtab_count(c->skipped) == before)
        return 1;
    c->n_skipped[r]++;
    if (c->skip_example[r] == PR_STR_NONE)
        c->skip_example[r] = pr_strtab_intern(c->strs, rf->s, rf->n);
    return c->skip_example[r] != PR_STR_NONE;
}

/* The location group of user frame f ("path:line (function)"). */
static uint32_t
location_of(struct ctx *c, const struct pr_frame *f)
{
    struct group *g;
    uint32_t i;

    pr_buf_reset(&c->text);
    if (f->path_n > MAX_TEXT || f->func_n > MAX_TEXT ||
        pr_buf_printf(&c->text, "%.*s:%lld (%.*s)", (int)f->path_n, f->path,
                      (long long)f->line, (int)f->func_n, f->func) != PR_OK)
        return NO_ATTR;
    i = group_of(c, &c->locs, c->text.data, c->text.len);
    if (i == NO_ATTR)
        return NO_ATTR;
    g = &c->locs.v[i];
    if (g->path == PR_STR_NONE) {
        g->line = f->line;
        g->path = pr_strtab_intern(c->strs, f->path, f->path_n);
        g->func = pr_strtab_intern(c->strs, f->func, f->func_n);
        if (g->path == PR_STR_NONE || g->func == PR_STR_NONE)
            return NO_ATTR;
    }
    return i;
}

/* Read frames fr[0..n): the location and user stack they lead to, as a
 * new attr; NO_ATTR on out-of-memory. */
static uint32_t
resolve(struct ctx *c, size_t n)
{
    struct pr_buf *b = &c->text;
    struct pr_frame f, first = {0};
    struct attr a = {NO_ATTR, NO_ATTR};
    size_t i, users = 0;
    int ok = 1;

    for (i = 0; i < n && ok; i++) {
        enum pr_frame_rule r =
            pr_sources_parse_frame(c->fr[i].s, c->fr[i].n, &f)
                ? pr_sources_frame_rule(&f)
                : PR_FRAME_NOT_SOURCE;
        if (r != PR_FRAME_USER) {
            ok = note_skipped(c, r, &c->fr[i]);
            continue;
        }
        if (users++ == 0)
            first = f;
    }
    if (!ok)
        return NO_ATTR;
    if (users > 0)
        a.loc = location_of(c, &first);
    else
        a.loc = group_of(c, &c->locs, NO_USER, strlen(NO_USER));
    /* the stack: user frames only, "; " between them */
    pr_buf_reset(b);
    for (i = 0; i < n && users > 0; i++) {
        if (!pr_sources_parse_frame(c->fr[i].s, c->fr[i].n, &f) ||
            pr_sources_frame_rule(&f) != PR_FRAME_USER || b->len > MAX_TEXT)
            continue;
        ok &= (b->len == 0 || pr_buf_adds(b, "; ") == PR_OK) &&
              pr_buf_add(b, c->fr[i].s, c->fr[i].n) == PR_OK;
    }
    if (users == 0)
        ok &= pr_buf_adds(b, NO_USER) == PR_OK;
    if (!ok || a.loc == NO_ATTR)
        return NO_ATTR;
    a.stack = group_of(c, &c->stacks, b->data, b->len);
    if (a.stack == NO_ATTR || c->n_attrs >= BWD_ATTR - 1 ||
        pr_grow((void **)&c->attrs, &c->cap_attrs, c->n_attrs + 1,
                sizeof(*c->attrs)) != PR_OK)
        return NO_ATTR;
    c->stacks.v[a.stack].loc = a.loc;
    c->attrs[c->n_attrs] = a;
    return (uint32_t)c->n_attrs++;
}

/* ---- operators to stacks ---------------------------------------------- */

/* The attr of the operator at event ev, from its own "Call stack" or the
 * python frames around it; NO_ATTR when it has neither, or on
 * out-of-memory (*oom set). */
static uint32_t
attr_of(struct ctx *c, uint32_t ev, int *oom)
{
    struct pr_op_info ob;
    const struct pr_op_info *op = pr_trace_op(c->t, &c->t->events[ev], &ob);
    int64_t key;
    size_t n, hit;
    uint32_t a;
    int ok;

    if (op != NULL && op->stack != PR_STR_NONE)
        key = op->stack;
    else if (c->up != NULL && c->up[ev] != NO_ATTR)
        key = -1 - (int64_t)c->up[ev];
    else
        return NO_ATTR;
    hit = pr_idmap_get(&c->cache, key);
    if (hit != PR_NONE)
        return (uint32_t)hit;
    if (key >= 0) {
        c->from_stack = 1;
        ok = stack_frames(c, pr_trace_str(c->t, op->stack), &n);
    } else {
        c->from_python = 1;
        ok = python_frames(c, ev, &n);
    }
    a = ok ? resolve(c, n) : NO_ATTR;
    if (a == NO_ATTR || pr_idmap_put(&c->cache, key, a, NULL) != PR_OK) {
        *oom = 1;
        return NO_ATTR;
    }
    return a;
}

/* One python frame or host op in the sweep: 16 bytes, as the sweep holds
 * one per python frame and per host op on a thread with python frames
 * (about a million at 1 GB).  The end and the kind are read from the
 * event; sweep_ties orders the keys that tie on (tid, ts). */
struct sweep_key {
    int64_t ts;
    uint32_t tid, ev;
};

static int
cmp_sweep(const void *a, const void *b)
{
    const struct sweep_key *x = a, *y = b;

    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->ev < y->ev ? -1 : (x->ev > y->ev);
}

/* Keys starting together: enclosing spans first, longer, then frames
 * before the operators they hold. */
struct tie {
    int64_t end;
    uint32_t ev;
    uint8_t py;
};

static int
cmp_tie(const void *a, const void *b)
{
    const struct tie *x = a, *y = b;

    if (x->end != y->end)
        return x->end > y->end ? -1 : 1;
    if (x->py != y->py)
        return x->py ? -1 : 1;
    return x->ev < y->ev ? -1 : (x->ev > y->ev);
}

static int
is_py(int kind)
{
    return kind == PR_KIND_PY_FUNCTION || kind == PR_KIND_PY_LEGACY;
}

static int64_t
end_of(const struct pr_event *e)
{
    return pr_sat_add_i64(e->ts_ns, e->dur_ns);
}

/* Orders each run of keys tying on (tid, ts) by cmp_tie; 0 on
 * out-of-memory.  Runs are short (a frame and the op it calls). */
static int
sweep_ties(const struct pr_trace *t, struct sweep_key *k, size_t n)
{
    struct tie *v = NULL;
    size_t i, j, m, cap = 0;

    for (i = 0; i < n; i = j) {
        for (j = i + 1; j < n && k[j].tid == k[i].tid && k[j].ts == k[i].ts;)
            j++;
        if (j - i < 2)
            continue;
        if (pr_grow((void **)&v, &cap, j - i, sizeof(*v)) != PR_OK) {
            free(v);
            return 0;
        }
        for (m = 0; m < j - i; m++) {
            const struct pr_event *e = &t->events[k[i + m].ev];
            v[m].end = end_of(e);
            v[m].ev = k[i + m].ev;
            v[m].py = (uint8_t)is_py(e->kind);
        }
        qsort(v, j - i, sizeof(*v), cmp_tie);
        for (m = 0; m < j - i; m++)
            k[i + m].ev = v[m].ev;
    }
    free(v);
    return 1;
}

/* An event the sweep needs: a python frame, or a host op or annotation
 * on a thread with python frames (ops elsewhere have none around them
 * and close none). */
static int
in_sweep(const struct pr_trace *t, const struct pr_event *e,
         const struct pr_idmap *py_tids)
{
    if (is_py(e->kind))
        return 1;
    return (e->kind == PR_KIND_HOST_OP || e->kind == PR_KIND_ANNOTATION) &&
           pr_idmap_get(py_tids, pr_event_tid(t, e)) != PR_NONE;
}

/* Keys of the python frames and of the host ops on their threads, sorted;
 * *n = 0 when the trace has no python frame.  NULL on out-of-memory. */
static struct sweep_key *
sweep_keys(const struct pr_trace *t, size_t *n)
{
    struct pr_idmap py_tids = {0}; /* tid -> 1 */
    struct sweep_key *k;
    size_t i, m = 0;
    int ok = 1;

    for (i = 0; i < t->n_events && ok; i++)
        if (is_py(t->events[i].kind) &&
            pr_idmap_get(&py_tids, pr_event_tid(t, &t->events[i])) == PR_NONE)
            ok = pr_idmap_put(&py_tids, pr_event_tid(t, &t->events[i]), 1,
                              NULL) == PR_OK;
    for (i = 0; i < t->n_events && ok && py_tids.n > 0; i++)
        m += (size_t)in_sweep(t, &t->events[i], &py_tids);
    *n = m;
    k = ok ? malloc((m ? m : 1) * sizeof(*k)) : NULL;
    for (i = 0, m = 0; k != NULL && i<t->n_events && * n> 0; i++) {
        if (!in_sweep(t, &t->events[i], &py_tids))
            continue;
        k[m].ts = t->events[i].ts_ns;
        k[m].tid = pr_event_tid(t, &t->events[i]);
        k[m++].ev = (uint32_t)i;
    }
    pr_idmap_free(&py_tids);
    if (k != NULL && *n > 1) {
        qsort(k, *n, sizeof(*k), cmp_sweep);
        if (!sweep_ties(t, k, *n)) {
            free(k);
            return NULL;
        }
    }
    return k;
}

/* An open python frame in the sweep. */
struct open_frame {
    int64_t end;
    uint32_t ev;
};

/* c->up: the innermost python frame around each host event, by nesting
 * on its thread.  Stays NULL without python frames; 0 on out-of-memory. */
static int
link_python(struct ctx *c)
{
    size_t n, i, depth = 0, cap = 0;
    struct sweep_key *k = sweep_keys(c->t, &n);
    struct open_frame *stk = NULL;
    int ok = k != NULL;

    if (ok && n > 0) {
        c->up = malloc(c->t->n_events * sizeof(*c->up));
        ok = c->up != NULL;
        for (i = 0; ok && i < c->t->n_events; i++)
            c->up[i] = NO_ATTR;
    }
    for (i = 0; ok && i < n; i++) {
        const struct pr_event *e = &c->t->events[k[i].ev];
        int64_t end = end_of(e);
        if (i > 0 && k[i].tid != k[i - 1].tid)
            depth = 0;
        while (depth > 0 &&
               !(k[i].ts < stk[depth - 1].end && end <= stk[depth - 1].end))
            depth--;
        c->up[k[i].ev] = depth > 0 ? stk[depth - 1].ev : NO_ATTR;
        if (!is_py(e->kind))
            continue;
        ok = pr_grow((void **)&stk, &cap, depth + 1, sizeof(*stk)) == PR_OK;
        if (ok) {
            stk[depth].end = end;
            stk[depth++].ev = k[i].ev;
        }
    }
    free(stk);
    free(k);
    return ok;
}

/* A backward operator: autograd ran it for the forward op with its
 * sequence number ("Fwd thread id" names that op's thread; forward ops
 * carry 0 or nothing). */
static int
is_backward(const struct pr_op_info *op)
{
    return op != NULL && op->seq >= 0 && op->fwd_tid > 0;
}

static uint32_t
node_attr(const struct ctx *c, uint32_t ni)
{
    return c->node_attr != NULL ? c->node_attr[ni] : NO_ATTR;
}

/* Set node ni's attr to v, making the array on the first one; 0 on
 * out-of-memory. */
static int
set_attr(struct ctx *c, uint32_t ni, uint32_t v)
{
    size_t i, n = c->tree->n_nodes;

    if (c->node_attr == NULL && v != NO_ATTR) {
        c->node_attr = malloc((n ? n : 1) * sizeof(*c->node_attr));
        if (c->node_attr == NULL)
            return 0;
        for (i = 0; i < n; i++)
            c->node_attr[i] = NO_ATTR;
    }
    if (c->node_attr != NULL)
        c->node_attr[ni] = v;
    return 1;
}

/* Node ni's own attr; NO_ATTR none. */
static uint32_t
fwd_attr(const struct ctx *c, uint32_t ni)
{
    uint32_t v = node_attr(c, ni);

    return v == NO_ATTR || (v & BWD_ATTR) ? NO_ATTR : v;
}

/* The forward attr node ni counts for as backward work; NO_ATTR none. */
static uint32_t
bwd_attr(const struct ctx *c, uint32_t ni)
{
    uint32_t v = node_attr(c, ni);

    return v != NO_ATTR && (v & BWD_ATTR) ? v & ~BWD_ATTR : NO_ATTR;
}

/* node_attr for every operator node, then for the others below (or at)
 * a backward op, the attr of the forward op with that sequence number.
 * 0 on out-of-memory. */
static int
link_nodes(struct ctx *c)
{
    const struct pr_tree *tr = c->tree;
    struct pr_idmap fwd = {0}; /* sequence number -> attr */
    struct pr_tree_walk w;
    uint32_t ni;
    int oom = pr_tree_walk_init(&w, tr, 0, NULL) != PR_OK;

    while (!oom && (ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        const struct pr_tree_node *nd = &tr->nodes[ni];
        struct pr_op_info ob;
        const struct pr_op_info *op;

        if (!nd->is_operator || nd->ev == PR_TREE_NONE)
            continue;
        oom |= !set_attr(c, ni, attr_of(c, nd->ev, &oom));
        op = pr_trace_op(c->t, &c->t->events[nd->ev], &ob);
        if (node_attr(c, ni) != NO_ATTR && op != NULL && op->seq >= 0 &&
            !is_backward(op) && pr_idmap_get(&fwd, op->seq) == PR_NONE)
            oom |= pr_idmap_put(&fwd, op->seq, node_attr(c, ni), NULL) != PR_OK;
    }
    pr_tree_walk_free(&w);
    /* reverse post-order visits a parent before its children */
    if (!oom && fwd.n > 0)
        oom = pr_tree_walk_init(&w, tr, 1, NULL) != PR_OK;
    while (!oom && fwd.n > 0 && (ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        const struct pr_tree_node *nd = &tr->nodes[ni];
        struct pr_op_info ob;
        const struct pr_op_info *op =
            nd->ev == PR_TREE_NONE
                ? NULL
                : pr_trace_op(c->t, &c->t->events[nd->ev], &ob);
        size_t a = is_backward(op) ? pr_idmap_get(&fwd, op->seq) : PR_NONE;

        if (node_attr(c, ni) != NO_ATTR)
            continue;
        if (a != PR_NONE)
            oom |= !set_attr(c, ni, BWD_ATTR | (uint32_t)a);
        else if (nd->parent != PR_TREE_NONE &&
                 bwd_attr(c, nd->parent) != NO_ATTR)
            oom |= !set_attr(c, ni, node_attr(c, nd->parent));
    }
    pr_tree_walk_free(&w);
    pr_idmap_free(&fwd);
    return !oom;
}

/* ---- sums ------------------------------------------------------------- */

struct totals {
    size_t ops, with_stack, bwd_ops;
    int64_t op_dev_ns, op_host_ns, dev_ns, host_ns, bwd_dev_ns, bwd_host_ns;
};

/* FLOPs of one call from its recorded inputs; -1 unknown.  A convolution
 * whose inputs lack the stride and padding takes its output shape from
 * its backward node (bwd: sequence number -> grad_output dims), as the
 * operator tables' roofline does (issue #4): aten::conv2d and the
 * cudnn_convolution below it share that number.  A conv backward counts
 * the gradients its inner ops show (pr_roofline_conv_grads). */
static double
flops_of(const struct pr_trace *t, const struct pr_tree *tree, uint32_t ni,
         const struct pr_idmap *bwd)
{
    const struct pr_tree_node *nd = &tree->nodes[ni];
    struct pr_op_info ob;
    const struct pr_op_info *op = pr_trace_op(t, &t->events[nd->ev], &ob);
    struct pr_op_inputs in, out;
    struct pr_op_call call;
    struct pr_op_cost cost;
    size_t dims;

    if (op == NULL)
        return -1;
    pr_shapes_get(t, op->input_dims, op->input_types, op->concrete_inputs, &in);
    call.name = pr_trace_str(t, t->events[nd->ev].name);
    call.in = &in;
    call.trace_flops = op->flops;
    call.conv_grads = pr_roofline_conv_grads(t, tree, ni);
    if (pr_flops_estimate(&call, &cost, NULL) != PR_OK)
        return -1;
    if (cost.flops >= 0 || cost.cls != PR_OPC_CONV || op->seq < 0 ||
        !in.has_shapes || in.st != PR_OK)
        return cost.flops;
    dims = pr_idmap_get(bwd, op->seq);
    if (dims == PR_NONE || dims == PR_STR_NONE)
        return -1;
    pr_shapes_get(t, (uint32_t)dims, PR_STR_NONE, PR_STR_NONE, &out);
    if (out.st != PR_OK ||
        !pr_roofline_conv_from_output(&in.shapes, &out.shapes, &cost))
        return -1;
    return cost.flops;
}

/* A node's self times (pr_tree_device_self, pr_tree_host_self). */
struct self {
    int64_t dev_ns, host_ns;
};

static void
add_forward(struct group *g, const struct self *me, int new_call, double flops)
{
    g->calls += (size_t)new_call;
    g->dev_ns = pr_sat_add_i64(g->dev_ns, me->dev_ns);
    g->host_ns = pr_sat_add_i64(g->host_ns, me->host_ns);
    if (flops >= 0) {
        g->flops += flops;
        g->has_flops = 1;
    }
}

static void
add_backward(struct group *g, const struct self *me, int new_call)
{
    g->bwd_calls += (size_t)new_call;
    g->bwd_dev_ns = pr_sat_add_i64(g->bwd_dev_ns, me->dev_ns);
    g->bwd_host_ns = pr_sat_add_i64(g->bwd_host_ns, me->host_ns);
}

/* Self FLOPs of node ni, counted once through the nesting (aten::conv2d >
 * convolution > _convolution > cudnn_convolution, aten::linear > addmm):
 * sub[] holds the FLOPs already counted in each subtree, its children
 * first (the walk is post-order).  A node adds what its own estimate holds
 * beyond its children's (the whole estimate where they count none: an
 * aten::empty or a view below an operator counts 0 and hides nothing);
 * -1 when it adds nothing known. */
static double
own_flops(struct ctx *c, uint32_t ni, double *sub, const struct pr_idmap *bwd)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    double f, kids = 0;
    uint32_t k;

    if (sub == NULL)
        return -1; /* no node has an attr (sum_nodes) */
    for (k = 0; k < pr_tree_n_kids(c->tree, nd); k++)
        kids += sub[pr_tree_kids(c->tree, nd)[k]];
    sub[ni] = kids;
    if (fwd_attr(c, ni) == NO_ATTR || nd->ev == PR_TREE_NONE)
        return -1;
    f = flops_of(c->t, c->tree, ni, bwd);
    if (f < 0 || (f <= kids && kids > 0))
        return -1;
    sub[ni] = f;
    return f - kids;
}

/* One operator node into its groups and the totals.  A node is a new
 * call at its location unless its parent operator was at the same one. */
static void
add_node(struct ctx *c, uint32_t ni, double *sub, const struct pr_idmap *bwd,
         struct totals *s)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    uint32_t a = fwd_attr(c, ni), b = bwd_attr(c, ni), p = nd->parent;
    const struct attr *pa = NULL;
    double f = own_flops(c, ni, sub, bwd);
    struct self me = {pr_tree_device_self(c->t, c->tree, nd),
                      pr_tree_host_self(c->t, c->tree, nd)};
    int new_call;

    s->ops++;
    s->op_dev_ns = pr_sat_add_i64(s->op_dev_ns, me.dev_ns);
    s->op_host_ns = pr_sat_add_i64(s->op_host_ns, me.host_ns);
    if (a == NO_ATTR && b == NO_ATTR)
        return;
    if (p != PR_TREE_NONE && c->tree->nodes[p].is_operator)
        pa = node_attr(c, p) != NO_ATTR ? &c->attrs[node_attr(c, p) & ~BWD_ATTR]
                                        : NULL;
    if (a != NO_ATTR) {
        new_call = pa == NULL || pa->loc != c->attrs[a].loc;
        add_forward(&c->locs.v[c->attrs[a].loc], &me, new_call, f);
        add_forward(&c->stacks.v[c->attrs[a].stack], &me, new_call, f);
        s->with_stack++;
        s->dev_ns = pr_sat_add_i64(s->dev_ns, me.dev_ns);
        s->host_ns = pr_sat_add_i64(s->host_ns, me.host_ns);
        return;
    }
    new_call = pa == NULL || pa->loc != c->attrs[b].loc;
    add_backward(&c->locs.v[c->attrs[b].loc], &me, new_call);
    add_backward(&c->stacks.v[c->attrs[b].stack], &me, new_call);
    s->bwd_ops++;
    s->bwd_dev_ns = pr_sat_add_i64(s->bwd_dev_ns, me.dev_ns);
    s->bwd_host_ns = pr_sat_add_i64(s->bwd_host_ns, me.host_ns);
}

/* 0 on out-of-memory. */
static int
sum_nodes(struct ctx *c, struct totals *s)
{
    /* FLOPs are read only for nodes with an attr: without any, no flags */
    double *sub =
        c->node_attr == NULL
            ? NULL
            : calloc(c->tree->n_nodes ? c->tree->n_nodes : 1, sizeof(*sub));
    struct pr_idmap bwd = {0}; /* a conv's output shape (flops_of) */
    struct pr_tree_walk w;
    uint32_t ni;

    memset(s, 0, sizeof(*s));
    if ((sub == NULL && c->node_attr != NULL) ||
        (sub != NULL && !pr_roofline_index_conv_bwd(c->t, &bwd)) ||
        pr_tree_walk_init(&w, c->tree, 0, NULL) != PR_OK) {
        free(sub);
        pr_idmap_free(&bwd);
        return 0;
    }
    while ((ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        if (c->tree->nodes[ni].is_operator &&
            c->tree->nodes[ni].ev != PR_TREE_NONE)
            add_node(c, ni, sub, &bwd, s);
        else
            own_flops(c, ni, sub, &bwd);
    }
    pr_tree_walk_free(&w);
    pr_idmap_free(&bwd);
    free(sub);
    return 1;
}

/* ---- the summary ------------------------------------------------------ */

struct sorter {
    const struct group *g;
    const char *key;
};

/* Forward plus backward device time first: the line that costs most;
 * then host time, then the text, so equal inputs give equal output. */
static int
cmp_rows(const void *a, const void *b)
{
    const struct sorter *x = a, *y = b;
    int64_t dx = pr_sat_add_i64(x->g->dev_ns, x->g->bwd_dev_ns);
    int64_t dy = pr_sat_add_i64(y->g->dev_ns, y->g->bwd_dev_ns);
    int64_t hx = pr_sat_add_i64(x->g->host_ns, x->g->bwd_host_ns);
    int64_t hy = pr_sat_add_i64(y->g->host_ns, y->g->bwd_host_ns);

    if (dx != dy)
        return dx > dy ? -1 : 1;
    if (hx != hy)
        return hx > hy ? -1 : 1;
    return strcmp(x->key, y->key);
}

/* A group's times as a typed row's (rows.def: sources and stacks share
 * them). */
#define GROUP_TIMES(g)                                                         \
    .calls = (int64_t)(g)->calls, .device_self_ns = (g)->dev_ns,               \
    .host_self_ns = (g)->host_ns, .flops = (g)->has_flops ? (g)->flops : NAN,  \
    .backward_calls = (int64_t)(g)->bwd_calls,                                 \
    .backward_device_self_ns = (g)->bwd_dev_ns,                                \
    .backward_host_self_ns = (g)->bwd_host_ns

static void
emit_location(const struct ctx *c, cJSON *arr, const struct group *g, int *ok)
{
    struct pr_row_source r = {
        .location = pr_strtab_get(c->strs, g->key),
        .file = g->path == PR_STR_NONE ? NULL : pr_strtab_get(c->strs, g->path),
        .line = g->path == PR_STR_NONE ? NAN : (double)g->line,
        .function =
            g->func == PR_STR_NONE ? NULL : pr_strtab_get(c->strs, g->func),
        GROUP_TIMES(g)};

    if (*ok && !pr_rows_write(arr, PR_RO_RUNS_SOURCES, &r, 1))
        *ok = 0;
}

static void
emit_stack(const struct ctx *c, cJSON *arr, const struct group *g, int *ok)
{
    struct pr_row_source_stack r = {
        .stack = pr_strtab_get(c->strs, g->key),
        .location = pr_strtab_get(c->strs, c->locs.v[g->loc].key),
        GROUP_TIMES(g)};

    if (*ok && !pr_rows_write(arr, PR_RO_RUNS_SOURCE_STACKS, &r, 1))
        *ok = 0;
}

/* The rows of gs, sorted, at most `limit`; NULL on out-of-memory. */
static cJSON *
rows_json(const struct ctx *c, const struct groups *gs, size_t limit,
          int stacks)
{
    struct sorter *v = malloc((gs->n ? gs->n : 1) * sizeof(*v));
    cJSON *arr = cJSON_CreateArray();
    int ok = v != NULL && arr != NULL;
    size_t i;

    for (i = 0; ok && i < gs->n; i++) {
        v[i].g = &gs->v[i];
        v[i].key = pr_strtab_get(c->strs, gs->v[i].key);
    }
    if (ok && gs->n > 1)
        qsort(v, gs->n, sizeof(*v), cmp_rows);
    for (i = 0; ok && i < gs->n && i < limit; i++) {
        if (stacks)
            emit_stack(c, arr, v[i].g, &ok);
        else
            emit_location(c, arr, v[i].g, &ok);
    }
    free(v);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

static const char *
origin_of(const struct ctx *c)
{
    if (c->from_stack && c->from_python)
        return "call_stack+python_function";
    return c->from_stack ? "call_stack"
                         : (c->from_python ? "python_function" : NULL);
}

/* The frames skipped by each rule (typed rows); NULL when out of memory. */
static cJSON *
skipped_json(const struct ctx *c)
{
    cJSON *arr = cJSON_CreateArray();
    int r, ok = arr != NULL;

    for (r = PR_FRAME_USER + 1; r < PR_FRAME_N_RULES && ok; r++) {
        struct pr_row_skipped_frames row;

        if (c->n_skipped[r] == 0)
            continue;
        row = (struct pr_row_skipped_frames){
            pr_sources_rule_name((enum pr_frame_rule)r),
            (int64_t)c->n_skipped[r],
            pr_strtab_get(c->strs, c->skip_example[r]),
        };
        ok = pr_rows_write(arr, PR_RO_RUNS_SOURCE_VIEW_SKIPPED_FRAMES, &row, 1);
    }
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

/* A run MindSpore ran: its legacy folders, or an msprof export whose
 * tasks carry MindSpore's graph scopes (t->framework). */
static int
by_mindspore(const struct pr_trace *t)
{
    return (t->format != PR_STR_NONE &&
            strcmp(pr_trace_str(t, t->format), "mindspore") == 0) ||
           (t->framework != PR_STR_NONE &&
            strcmp(pr_trace_str(t, t->framework), "mindspore") == 0);
}

static cJSON *
view_json(const struct ctx *c, const struct totals *s)
{
    struct pr_row_source_view v;
    cJSON *skipped = skipped_json(c), *o;

    if (skipped == NULL)
        return NULL;
    memset(&v, 0, sizeof(v));
    v.origin = origin_of(c);
    v.operators = (int64_t)s->ops;
    v.operators_with_stack = (int64_t)s->with_stack;
    v.backward_operators = (int64_t)s->bwd_ops;
    v.operators_device_self_ns = s->op_dev_ns;
    v.operators_host_self_ns = s->op_host_ns;
    v.device_self_ns = s->dev_ns;
    v.host_self_ns = s->host_ns;
    v.backward_device_self_ns = s->bwd_dev_ns;
    v.backward_host_self_ns = s->bwd_host_ns;
    v.skipped_frames = skipped;
    v.note = s->with_stack > 0       ? NULL
             : c->t->memtl != NULL   ? PR_MEMTL_ONLY_ALLOCS
             : by_mindspore(c->t)    ? PR_SOURCES_NO_STACKS_MINDSPORE
             : pr_trace_is_npu(c->t) ? PR_SOURCES_NO_STACKS_NPU
             : c->t->format != PR_STR_NONE &&
                     strcmp(pr_trace_str(c->t, c->t->format), "nsys") == 0
                 ? PR_SOURCES_NO_STACKS_NSYS
                 : PR_SOURCES_NO_STACKS;
    o = pr_rows_row(PR_RO_RUNS_SOURCE_VIEW, &v);
    cJSON_Delete(skipped);
    return o;
}

/* ---- forward and backward pairs --------------------------------------- */

#define BWD_PREFIX "autograd::engine::evaluate_function: "

struct pair {
    uint32_t fwd, bwd; /* trace string ids of the operator names */
    uint32_t loc;      /* forward op's location group; NO_ATTR: none */
    size_t calls;
    int64_t fwd_dev_ns, bwd_dev_ns, fwd_host_ns, bwd_host_ns;
};

struct pairs {
    struct pair *v; /* owned */
    size_t n, cap;
    struct pr_strtab *keys; /* owned: pair keys; id k is v[k - 1] */
};

/* A backward op that no backward op with its sequence number holds:
 * evaluate_function, not the AddmmBackward0 inside it. */
static int
backward_root(const struct ctx *c, const struct pr_tree_node *nd,
              const struct pr_op_info *op)
{
    const struct pr_tree_node *p;
    struct pr_op_info pb;
    const struct pr_op_info *pop;

    if (!is_backward(op))
        return 0;
    if (nd->parent == PR_TREE_NONE)
        return 1;
    p = &c->tree->nodes[nd->parent];
    pop = p->ev == PR_TREE_NONE ? NULL
                                : pr_trace_op(c->t, &c->t->events[p->ev], &pb);
    return !(p->is_operator && is_backward(pop) && pop->seq == op->seq);
}

/* Add backward root b with forward node f to its pair; 0 on OOM. */
static int
add_pair(struct ctx *c, struct pairs *ps, uint32_t f, uint32_t b)
{
    const struct pr_tree_node *fn = &c->tree->nodes[f];
    const struct pr_tree_node *bn = &c->tree->nodes[b];
    uint32_t key[3], id;
    struct pair *p;

    key[0] = pr_tree_name(c->t, c->tree, fn);
    key[1] = pr_tree_name(c->t, c->tree, bn);
    key[2] = fwd_attr(c, f) == NO_ATTR ? NO_ATTR : c->attrs[fwd_attr(c, f)].loc;
    id = pr_strtab_intern(ps->keys, (const char *)key, sizeof(key));
    if (id == PR_STR_NONE || id == 0)
        return 0;
    if ((size_t)id - 1 == ps->n) {
        if (pr_grow((void **)&ps->v, &ps->cap, ps->n + 1, sizeof(*ps->v)) !=
            PR_OK)
            return 0;
        memset(&ps->v[ps->n], 0, sizeof(*ps->v));
        ps->v[ps->n].fwd = key[0];
        ps->v[ps->n].bwd = key[1];
        ps->v[ps->n++].loc = key[2];
    }
    p = &ps->v[id - 1];
    p->calls++;
    p->fwd_dev_ns = pr_sat_add_i64(p->fwd_dev_ns, fn->device_total_ns);
    p->bwd_dev_ns = pr_sat_add_i64(p->bwd_dev_ns, bn->device_total_ns);
    p->fwd_host_ns =
        pr_sat_add_i64(p->fwd_host_ns, pr_tree_host_total(c->t, fn));
    p->bwd_host_ns =
        pr_sat_add_i64(p->bwd_host_ns, pr_tree_host_total(c->t, bn));
    return 1;
}

/* A backward root's sequence number and the forward node it pairs with
 * (NO_ATTR: none yet). */
struct fwd_of {
    int64_t seq;
    uint32_t node;
};

static int
cmp_fwd_of(const void *a, const void *b)
{
    const struct fwd_of *x = a, *y = b;

    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The operator of node ni, copied into *buf; NULL for another node. */
static const struct pr_op_info *
node_op(const struct ctx *c, uint32_t ni, struct pr_op_info *buf)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];

    return nd->is_operator && nd->ev != PR_TREE_NONE
               ? pr_trace_op(c->t, &c->t->events[nd->ev], buf)
               : NULL;
}

/* The backward roots' sequence numbers, sorted, each once (*n of them);
 * NULL on out-of-memory.  A sorted array, not a map of every forward
 * op's number: it is held beside the tree. */
static struct fwd_of *
backward_seqs(const struct ctx *c, size_t *n)
{
    const struct pr_tree *tr = c->tree;
    struct fwd_of *v = malloc(sizeof(*v));
    size_t i, m = 0, cap = 1;
    struct pr_tree_walk w;
    uint32_t ni;

    if (v == NULL || pr_tree_walk_init(&w, tr, 0, NULL) != PR_OK) {
        free(v);
        return NULL;
    }
    while (v != NULL && (ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
        struct pr_op_info ob;
        const struct pr_op_info *op = node_op(c, ni, &ob);

        if (op == NULL || op->seq < 0 || !backward_root(c, &tr->nodes[ni], op))
            continue;
        if (pr_grow((void **)&v, &cap, m + 1, sizeof(*v)) != PR_OK) {
            free(v);
            v = NULL;
            break;
        }
        v[m].seq = op->seq;
        v[m++].node = NO_ATTR;
    }
    pr_tree_walk_free(&w);
    if (v != NULL && m > 1)
        qsort(v, m, sizeof(*v), cmp_fwd_of);
    for (i = 0, *n = 0; v != NULL && i < m; i++)
        if (*n == 0 || v[*n - 1].seq != v[i].seq)
            v[(*n)++] = v[i];
    return v;
}

static struct fwd_of *
find_fwd(struct fwd_of *v, size_t n, int64_t seq)
{
    struct fwd_of key;

    key.seq = seq;
    key.node = NO_ATTR;
    return n == 0 ? NULL : bsearch(&key, v, n, sizeof(*v), cmp_fwd_of);
}

/* What the forward ops of a subtree carry: no number, one, or several. */
#define SEQ_NONE (-2)
#define SEQ_MIXED (-3)

static int64_t
seq_join(int64_t a, int64_t b)
{
    return a == SEQ_NONE ? b : b == SEQ_NONE || a == b ? a : SEQ_MIXED;
}

/* Each backward root with the forward operator of its sequence number:
 * the outermost one that holds no forward op of another number (post-order
 * meets it last).  An op that holds others of other numbers made no node
 * of its own: it took the number of the first node made inside it
 * (aten::einsum's is its aten::unsqueeze's, aten::linear's its aten::t's;
 * Kineto links the op of that number that starts last), and its time is
 * theirs, so pairing it counted it twice (issue #29 review: a CS336
 * export's einsum beside UnsqueezeBackward0 with 33.3 ms forward, its bmm
 * beside BmmBackward0 with the same 33.1 ms).  0 on out-of-memory. */
static int
pair_nodes(struct ctx *c, struct pairs *ps)
{
    const struct pr_tree *tr = c->tree;
    size_t n = 0, i;
    struct fwd_of *v = backward_seqs(c, &n), *f;
    struct pr_tree_walk w;
    uint32_t ni;
    int ok = v != NULL, pass;
    int64_t *held = NULL; /* per node: what its forward ops carry */

    if (ok && n > 0) {
        held = malloc(tr->n_nodes * sizeof(*held));
        ok = held != NULL;
        for (i = 0; ok && i < tr->n_nodes; i++)
            held[i] = SEQ_NONE;
    }

    /* no backward root with a number: no pair, and no walk for them */
    for (pass = 0; pass < 2 && ok && n > 0; pass++) {
        ok = pr_tree_walk_init(&w, tr, 0, NULL) == PR_OK;
        while (ok && (ni = pr_tree_walk_next(&w)) != PR_TREE_NONE) {
            struct pr_op_info ob;
            const struct pr_op_info *op = node_op(c, ni, &ob);

            if (pass == 0) {
                /* post-order: the node's children are in held[ni] */
                int64_t own = op != NULL && op->seq >= 0 && !is_backward(op)
                                  ? op->seq
                                  : SEQ_NONE;
                uint32_t up = tr->nodes[ni].parent;

                held[ni] = seq_join(held[ni], own);
                if (up != PR_TREE_NONE)
                    held[up] = seq_join(held[up], held[ni]);
                if (own >= 0 && held[ni] == own &&
                    (f = find_fwd(v, n, own)) != NULL)
                    f->node = ni;
                continue;
            }
            if (op == NULL || op->seq < 0 ||
                (f = find_fwd(v, n, op->seq)) == NULL)
                continue;
            if (f->node != NO_ATTR && backward_root(c, &tr->nodes[ni], op))
                ok = add_pair(c, ps, f->node, ni);
        }
        pr_tree_walk_free(&w);
    }
    free(held);
    free(v);
    return ok;
}

static int
cmp_pairs(const void *a, const void *b, const struct pr_trace *t)
{
    const struct pair *x = a, *y = b;
    int64_t dx = pr_sat_add_i64(x->fwd_dev_ns, x->bwd_dev_ns);
    int64_t dy = pr_sat_add_i64(y->fwd_dev_ns, y->bwd_dev_ns);
    int d;

    if (dx != dy)
        return dx > dy ? -1 : 1;
    if (x->bwd_host_ns != y->bwd_host_ns)
        return x->bwd_host_ns > y->bwd_host_ns ? -1 : 1;
    d = strcmp(pr_trace_str(t, x->fwd), pr_trace_str(t, y->fwd));
    if (d == 0)
        d = strcmp(pr_trace_str(t, x->bwd), pr_trace_str(t, y->bwd));
    return d != 0 ? d : (x->loc > y->loc) - (x->loc < y->loc);
}

/* The top `limit` pairs, by forward + backward device time: a partial
 * selection sort, as the comparator needs the trace (no qsort_r in C11)
 * and only the top rows are shown. */
static void
sort_pairs(const struct ctx *c, struct pairs *ps, size_t limit)
{
    size_t i, j, best;

    for (i = 0; i < ps->n && i < limit; i++) {
        struct pair tmp;
        for (best = i, j = i + 1; j < ps->n; j++)
            if (cmp_pairs(&ps->v[j], &ps->v[best], c->t) < 0)
                best = j;
        tmp = ps->v[i];
        ps->v[i] = ps->v[best];
        ps->v[best] = tmp;
    }
}

static const char *
bwd_name(const struct pr_trace *t, uint32_t id)
{
    const char *s = pr_trace_str(t, id);

    return strncmp(s, BWD_PREFIX, strlen(BWD_PREFIX)) == 0
               ? s + strlen(BWD_PREFIX)
               : s;
}

/* NULL on out-of-memory. */
static cJSON *
pairs_json(struct ctx *c)
{
    struct pairs ps = {0};
    cJSON *arr = cJSON_CreateArray();
    int ok = arr != NULL && (ps.keys = pr_strtab_new()) != NULL &&
             pair_nodes(c, &ps);
    size_t i;

    if (ok)
        sort_pairs(c, &ps, PR_SOURCES_PAIRS);
    for (i = 0; ok && i < ps.n && i < PR_SOURCES_PAIRS; i++) {
        const struct pair *p = &ps.v[i];
        struct pr_row_fwd_bwd row = {
            .forward = pr_trace_str(c->t, p->fwd),
            .backward = bwd_name(c->t, p->bwd),
            .location = p->loc == NO_ATTR
                            ? NULL
                            : pr_strtab_get(c->strs, c->locs.v[p->loc].key),
            .calls = (int64_t)p->calls,
            .forward_device_ns = p->fwd_dev_ns,
            .backward_device_ns = p->bwd_dev_ns,
            .forward_host_ns = p->fwd_host_ns,
            .backward_host_ns = p->bwd_host_ns,
        };

        ok = pr_rows_write(arr, PR_RO_RUNS_FWD_BWD, &row, 1);
    }
    free(ps.v);
    pr_strtab_free(ps.keys);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

/* ---- the pass --------------------------------------------------------- */

static int
ctx_init(struct ctx *c, const struct pr_trace *t, const struct pr_tree *tree)
{
    int r;

    memset(c, 0, sizeof(*c));
    c->t = t;
    c->tree = tree;
    pr_buf_init(&c->text, 4 * MAX_TEXT);
    for (r = 0; r < PR_FRAME_N_RULES; r++)
        c->skip_example[r] = PR_STR_NONE;
    c->strs = pr_strtab_new();
    c->skipped = pr_strtab_new();
    return c->strs != NULL && c->skipped != NULL;
}

static void
ctx_free(struct ctx *c)
{
    pr_strtab_free(c->strs);
    pr_strtab_free(c->skipped);
    free(c->locs.v);
    pr_idmap_free(&c->locs.by_key);
    free(c->stacks.v);
    pr_idmap_free(&c->stacks.by_key);
    free(c->attrs);
    pr_idmap_free(&c->cache);
    free(c->node_attr);
    free(c->up);
    free(c->fr);
    pr_buf_free(&c->text);
}

static int
put(cJSON *run, const char *key, cJSON *item)
{
    return pr_sput(run, key, item);
}

enum pr_status
pr_sources_fill(const struct pr_trace *t, const struct pr_tree *tree,
                cJSON *run, struct pr_error *err)
{
    struct ctx c;
    struct totals s;
    cJSON *rows = NULL, *stacks = NULL, *view = NULL, *pairs = NULL;
    int ok = ctx_init(&c, t, tree) && link_python(&c) && link_nodes(&c) &&
             sum_nodes(&c, &s);

    if (ok) {
        rows = rows_json(&c, &c.locs, SIZE_MAX, 0);
        stacks = rows_json(&c, &c.stacks, PR_SOURCES_STACKS, 1);
        view = view_json(&c, &s);
        pairs = pairs_json(&c);
    }
    ctx_free(&c);
    ok = rows != NULL && stacks != NULL && view != NULL && pairs != NULL;
    if (ok && put(run, PR_K_SOURCES, rows)) {
        rows = NULL;
        if (put(run, PR_K_SOURCE_STACKS, stacks)) {
            stacks = NULL;
            if (put(run, PR_K_SOURCE_VIEW, view)) {
                view = NULL;
                ok = put(run, PR_K_FWD_BWD, pairs);
                pairs = ok ? NULL : pairs;
            }
        }
    }
    cJSON_Delete(rows);
    cJSON_Delete(stacks);
    cJSON_Delete(view);
    cJSON_Delete(pairs);
    if (!ok || rows != NULL || stacks != NULL || view != NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (sources)");
    return PR_OK;
}
