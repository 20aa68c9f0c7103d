/* modules.c - the module view (modules.h): one row per module instance,
 * keyed by (enclosing row, name, Python module id) so that the same
 * module called from two places is two rows, as in the plugin's
 * hierarchy (14.1), summed over its calls with the module statistics the
 * op tree already holds (tree.c: a module's device self time includes its
 * direct operators, 5.2).  Rows are found in time order (pre-order of the
 * thread trees), which is the order children are listed in. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/checked.h"
#include "profreport/keys.h"
#include "profreport/memtl.h"
#include "profreport/modules.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/strtab.h"
#include "profreport/tree.h"

#include "../internal.h"

#define NO_ROW UINT32_MAX
#define MAX_PATH 4096 /* bytes of a row's path; deeper paths are cut */
#define PREFIX "nn.Module: "

struct mod {
    uint32_t parent; /* row of the enclosing module; NO_ROW at the top */
    uint32_t name;   /* trace string id of the event's name */
    uint32_t depth;
    int64_t module_id;
    size_t occurrences, operators;
    int64_t host_total_ns, host_self_ns, dev_total_ns, dev_self_ns;
};

struct ctx {
    const struct pr_trace *t;   /* borrowed */
    const struct pr_tree *tree; /* borrowed */
    struct mod *v;              /* owned: the rows */
    size_t n, cap;
    struct pr_strtab *keys; /* owned: row keys; id k is row k - 1 */
};

/* A node still to visit, and the row of the nearest module around it.
 * The walk keeps no record per node: it runs beside the tree. */
struct pending {
    uint32_t node, up;
};

/* The name without the "nn.Module: " prefix, as the plugin shows it; a
 * Lightning module's "[pl][module]TYPE: NAME" shows as NAME (3.2). */
static const char *
display(const struct pr_trace *t, uint32_t name)
{
    const char *s = pr_trace_str(t, name), *q;

    if (strncmp(s, PREFIX, strlen(PREFIX)) == 0)
        return s + strlen(PREFIX);
    if (strncmp(s, PR_TREE_PL_MODULE, strlen(PR_TREE_PL_MODULE)) != 0)
        return s;
    s += strlen(PR_TREE_PL_MODULE);
    q = strstr(s, ": ");
    return q != NULL ? q + 2 : s;
}

/* A module's type and its length: a Lightning module's TYPE after its
 * last '.' ("torch.nn.modules.linear.Linear: net.0" -> "Linear"), else
 * the display name without its instance number ("Linear_3" -> "Linear"). */
static const char *
type_of(const struct pr_trace *t, uint32_t name, size_t *len)
{
    const char *s = pr_trace_str(t, name), *q, *d;
    size_t n, k;

    if (strncmp(s, PR_TREE_PL_MODULE, strlen(PR_TREE_PL_MODULE)) == 0) {
        s += strlen(PR_TREE_PL_MODULE);
        q = strstr(s, ": ");
        n = q != NULL ? (size_t)(q - s) : strlen(s);
        for (d = s; (q = memchr(d, '.', n - (size_t)(d - s))) != NULL;)
            d = q + 1;
        *len = n - (size_t)(d - s);
        return *len > 0 ? d : s;
    }
    s = display(t, name);
    n = strlen(s);
    k = n;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    *len = k > 1 && k < n && s[k - 1] == '_' ? k - 1 : n;
    return s;
}

/* The row of module node nd under row `parent`, created on first sight;
 * NO_ROW on out-of-memory. */
static uint32_t
row_for(struct ctx *c, const struct pr_tree_node *nd, uint32_t parent)
{
    const struct pr_py_ids *py = pr_trace_py(c->t, &c->t->events[nd->ev]);
    unsigned char key[16];
    /* a Lightning module has id 0 (14.3), and one row per name */
    int64_t mid = c->t->lightning ? 0 : py != NULL ? py->module : -1;
    uint32_t id, name = pr_tree_name(c->t, c->tree, nd);
    struct mod *m;

    memcpy(key, &parent, 4);
    memcpy(key + 4, &name, 4);
    memcpy(key + 8, &mid, 8);
    id = pr_strtab_intern(c->keys, (const char *)key, sizeof(key));
    if (id == PR_STR_NONE || id == 0)
        return NO_ROW;
    if ((size_t)id - 1 < c->n)
        return id - 1;
    if (pr_grow((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v)) != PR_OK)
        return NO_ROW;
    m = &c->v[c->n];
    memset(m, 0, sizeof(*m));
    m->parent = parent;
    m->name = name;
    m->module_id = mid;
    m->depth = parent == NO_ROW ? 0 : c->v[parent].depth + 1;
    return (uint32_t)c->n++;
}

static void
add_call(struct ctx *c, struct mod *m, const struct pr_tree_node *nd)
{
    uint32_t k;

    m->occurrences++;
    for (k = 0; k < pr_tree_n_kids(c->tree, nd); k++)
        m->operators +=
            c->tree->nodes[pr_tree_kids(c->tree, nd)[k]].is_operator;
    m->host_total_ns =
        pr_sat_add_i64(m->host_total_ns, pr_tree_host_total(c->t, nd));
    m->host_self_ns =
        pr_sat_add_i64(m->host_self_ns, pr_tree_host_self(c->t, c->tree, nd));
    m->dev_total_ns = pr_sat_add_i64(m->dev_total_ns, nd->device_total_ns);
    m->dev_self_ns =
        pr_sat_add_i64(m->dev_self_ns, pr_tree_device_self(c->t, c->tree, nd));
}

/* Node ni, in the module row `up`: its own row if it is a module, else
 * up, into *row; 0 on out-of-memory. */
static int
visit(struct ctx *c, uint32_t ni, uint32_t up, uint32_t *row)
{
    const struct pr_tree_node *nd = &c->tree->nodes[ni];
    uint32_t r;

    *row = up;
    if (nd->type != PR_N_MODULE || nd->ev == PR_TREE_NONE)
        return 1;
    r = row_for(c, nd, c->t->lightning ? NO_ROW : up);
    if (r == NO_ROW)
        return 0;
    *row = r;
    add_call(c, &c->v[r], nd);
    return 1;
}

static int
push(struct pending **stack, size_t *cap, size_t *depth, uint32_t node,
     uint32_t up)
{
    if (pr_grow((void **)stack, cap, *depth + 1, sizeof(**stack)) != PR_OK)
        return 0;
    (*stack)[*depth].node = node;
    (*stack)[(*depth)++].up = up;
    return 1;
}

/* Every thread tree in pre-order, children by start time; 0 on
 * out-of-memory. */
static int
walk(struct ctx *c)
{
    const struct pr_tree *tr = c->tree;
    struct pending *stack = NULL;
    size_t depth = 0, cap = 0, i;
    int ok = 1;

    for (i = tr->n_roots; ok && i > 0; i--)
        ok = push(&stack, &cap, &depth, tr->roots[i - 1], NO_ROW);
    while (ok && depth > 0) {
        struct pending p = stack[--depth];
        const struct pr_tree_node *nd = &tr->nodes[p.node];
        uint32_t k, row;

        ok = visit(c, p.node, p.up, &row);
        for (k = pr_tree_n_kids(tr, nd); ok && k > 0; k--)
            ok = push(&stack, &cap, &depth, pr_tree_kids(tr, nd)[k - 1], row);
    }
    free(stack);
    return ok;
}

/* 14.3: a Lightning module's parent is the module named by its name up
 * to the last '.' ("net.0" under "net"), or the nearest such prefix that
 * has a row; none: a top-level row.  Rows are few (one per name), so the
 * search is a plain scan. */
static uint32_t
row_named(const struct ctx *c, const char *name, size_t len)
{
    size_t r;

    for (r = 0; r < c->n; r++) {
        const char *s = display(c->t, c->v[r].name);
        if (strlen(s) == len && memcmp(s, name, len) == 0)
            return (uint32_t)r;
    }
    return NO_ROW;
}

static void
link_by_name(struct ctx *c)
{
    size_t r, k;

    for (r = 0; r < c->n; r++) {
        const char *s = display(c->t, c->v[r].name);
        const char *dot = strrchr(s, '.');
        uint32_t p = NO_ROW;
        while (dot != NULL && p == NO_ROW) {
            p = row_named(c, s, (size_t)(dot - s));
            while (dot > s && *--dot != '.')
                ;
            if (*dot != '.')
                dot = NULL;
        }
        c->v[r].parent = p == (uint32_t)r ? NO_ROW : p;
    }
    for (r = 0; r < c->n; r++) { /* names nest: at most 64 levels kept */
        uint32_t p = c->v[r].parent;
        for (k = 0; p != NO_ROW && k < 64; k++)
            p = c->v[p].parent;
        c->v[r].depth = (uint32_t)k;
    }
}

/* ---- the summary ------------------------------------------------------ */

/* Top-level rows by name, then module id: the plugin sorts its roots by
 * name (14.1); the id makes the order total. */
static int
cmp_top(const void *a, const void *b, const struct ctx *c)
{
    const struct mod *x = &c->v[*(const uint32_t *)a];
    const struct mod *y = &c->v[*(const uint32_t *)b];
    int d = strcmp(display(c->t, x->name), display(c->t, y->name));

    if (d != 0)
        return d;
    return x->module_id < y->module_id ? -1 : (x->module_id > y->module_id);
}

/* Insertion sort: qsort's comparator cannot see the trace without global
 * state, and top-level modules are few. */
static void
sort_tops(const struct ctx *c, uint32_t *v, size_t n)
{
    size_t i, j;

    for (i = 1; i < n; i++) {
        uint32_t x = v[i];
        for (j = i; j > 0 && cmp_top(&v[j - 1], &x, c) > 0; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* "Net_0/Linear_1": the row's display names from the top, into b. */
static int
path_of(const struct ctx *c, uint32_t r, struct pr_buf *b)
{
    uint32_t chain[64];
    size_t n = 0;

    pr_buf_reset(b);
    if (c->t->lightning) /* "net.0.conv" already names its path */
        return pr_buf_adds(b, display(c->t, c->v[r].name)) == PR_OK &&
               pr_buf_addc(b, '\0') == PR_OK;
    for (; r != NO_ROW && n < 64; r = c->v[r].parent)
        chain[n++] = r;
    while (n > 0) {
        const char *s = display(c->t, c->v[chain[--n]].name);
        if ((b->len > 0 && pr_buf_addc(b, '/') != PR_OK) ||
            (b->len < MAX_PATH && pr_buf_adds(b, s) != PR_OK))
            return 0;
    }
    return pr_buf_addc(b, '\0') == PR_OK;
}

static void
emit_row(const struct ctx *c, cJSON *arr, uint32_t r, struct pr_buf *b, int *ok)
{
    const struct mod *m = &c->v[r];
    int64_t avg = m->dev_total_ns > 0 ? m->dev_total_ns : m->host_total_ns;
    struct pr_row_module row;

    *ok = *ok && path_of(c, r, b);
    row = (struct pr_row_module){display(c->t, m->name),
                                 m->module_id,
                                 *ok ? b->data : "",
                                 m->depth,
                                 (int64_t)m->occurrences,
                                 (int64_t)m->operators,
                                 m->host_total_ns,
                                 m->host_self_ns,
                                 m->dev_total_ns,
                                 m->dev_self_ns,
                                 (double)avg / 1000.0 / (double)m->occurrences};
    *ok = *ok && pr_rows_write(arr, PR_RO_RUNS_MODULES, &row, 1);
}

/* kids[first[r] .. first[r + 1]) are row r's children in the order they
 * were found; tops (n_tops of them) the top-level rows, sorted. */
struct layout {
    uint32_t *first, *kids, *tops, *stack; /* owned */
    size_t n_tops;
};

static int
lay_out(const struct ctx *c, struct layout *l)
{
    size_t n = c->n ? c->n : 1, r;

    l->first = calloc(n + 1, sizeof(*l->first));
    l->kids = malloc(n * sizeof(*l->kids));
    l->tops = malloc(n * sizeof(*l->tops));
    l->stack = malloc(n * sizeof(*l->stack));
    l->n_tops = 0;
    if (!l->first || !l->kids || !l->tops || !l->stack)
        return 0;
    for (r = 0; r < c->n; r++)
        if (c->v[r].parent != NO_ROW)
            l->first[c->v[r].parent + 1]++;
    for (r = 0; r < c->n; r++)
        l->first[r + 1] += l->first[r];
    /* stack as the fill cursor for now */
    memcpy(l->stack, l->first, c->n * sizeof(*l->stack));
    for (r = 0; r < c->n; r++) {
        if (c->v[r].parent == NO_ROW)
            l->tops[l->n_tops++] = (uint32_t)r;
        else
            l->kids[l->stack[c->v[r].parent]++] = (uint32_t)r;
    }
    sort_tops(c, l->tops, l->n_tops);
    return 1;
}

static void
layout_free(struct layout *l)
{
    free(l->first);
    free(l->kids);
    free(l->tops);
    free(l->stack);
}

/* Rows in tree order; NULL on out-of-memory. */
static cJSON *
modules_json(const struct ctx *c)
{
    struct layout l = {0};
    struct pr_buf b;
    cJSON *arr = cJSON_CreateArray();
    int ok = arr != NULL && lay_out(c, &l);
    size_t depth = 0, i;

    pr_buf_init(&b, 2 * MAX_PATH);
    for (i = l.n_tops; ok && i > 0; i--)
        l.stack[depth++] = l.tops[i - 1];
    while (ok && depth > 0) {
        uint32_t r = l.stack[--depth], k;

        emit_row(c, arr, r, &b, &ok);
        /* each row is pushed once, by its parent: depth < n */
        for (k = l.first[r + 1]; k > l.first[r]; k--)
            l.stack[depth++] = l.kids[k - 1];
    }
    pr_buf_free(&b);
    layout_free(&l);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

struct mtype {
    const char *name; /* borrowed from the types table */
    size_t instances, occurrences;
    int64_t host_total_ns, host_self_ns, dev_total_ns, dev_self_ns;
};

static int
cmp_type(const void *a, const void *b)
{
    const struct mtype *x = a, *y = b;

    if (x->dev_self_ns != y->dev_self_ns)
        return x->dev_self_ns > y->dev_self_ns ? -1 : 1;
    if (x->host_self_ns != y->host_self_ns)
        return x->host_self_ns > y->host_self_ns ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void
emit_type(cJSON *arr, const struct mtype *m, int *ok)
{
    struct pr_row_module_type row = {
        .name = m->name,
        .instances = (int64_t)m->instances,
        .calls = (int64_t)m->occurrences,
        .host_total_ns = m->host_total_ns,
        .host_self_ns = m->host_self_ns,
        .device_total_ns = m->dev_total_ns,
        .device_self_ns = m->dev_self_ns,
    };

    if (*ok)
        *ok =
            arr != NULL && pr_rows_write(arr, PR_RO_RUNS_MODULE_TYPES, &row, 1);
}

/* Sum rows into types[] (id k of names is types[k - 1]); 0 on OOM. */
static int
sum_types(const struct ctx *c, struct pr_strtab *names, struct mtype *v)
{
    size_t r;

    for (r = 0; r < c->n; r++) {
        const struct mod *m = &c->v[r];
        size_t len;
        const char *s = type_of(c->t, m->name, &len);
        uint32_t id = pr_strtab_intern(names, s, len);
        struct mtype *ty;

        if (id == PR_STR_NONE || id == 0)
            return 0;
        ty = &v[id - 1];
        ty->instances++;
        ty->occurrences += m->occurrences;
        ty->host_total_ns = pr_sat_add_i64(ty->host_total_ns, m->host_total_ns);
        ty->host_self_ns = pr_sat_add_i64(ty->host_self_ns, m->host_self_ns);
        ty->dev_total_ns = pr_sat_add_i64(ty->dev_total_ns, m->dev_total_ns);
        ty->dev_self_ns = pr_sat_add_i64(ty->dev_self_ns, m->dev_self_ns);
    }
    return 1;
}

/* Rows by module type, by device self time; NULL on out-of-memory.  A
 * type nested in itself (Sequential in Sequential) counts its total
 * times once per level, as the rows do. */
static cJSON *
types_json(const struct ctx *c)
{
    struct pr_strtab *names = pr_strtab_new();
    struct mtype *v = calloc(c->n ? c->n : 1, sizeof(*v));
    cJSON *arr = cJSON_CreateArray();
    int ok =
        names != NULL && v != NULL && arr != NULL && sum_types(c, names, v);
    size_t n = ok ? pr_strtab_count(names) - 1 : 0, i;

    for (i = 0; i < n; i++)
        v[i].name = pr_strtab_get(names, (uint32_t)(i + 1));
    if (n > 1)
        qsort(v, n, sizeof(*v), cmp_type);
    for (i = 0; i < n && ok; i++)
        emit_type(arr, &v[i], &ok);
    free(v);
    pr_strtab_free(names);
    if (!ok) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

/* Whether some operator's call stack names a module: the legacy autograd
 * profiler's export keeps "nn.Module: NAME" frames there but no ranges. */
static int
stacks_name_modules(const struct pr_trace *t)
{
    uint32_t seen = PR_STR_NONE;
    size_t i;

    for (i = 0; i < t->n_ops; i++) {
        uint32_t s = t->ops[i].stack;

        if (s == PR_STR_NONE || s == seen)
            continue;
        seen = s;
        if (strstr(pr_trace_str(t, s), PREFIX) != NULL)
            return 1;
    }
    return 0;
}

static const char *
none_note(const struct pr_trace *t)
{
    if (t->memtl != NULL)
        return PR_MEMTL_ONLY_ALLOCS;
    if (pr_sget_is(pr_run_framework(t), "mindspore"))
        return PR_MODULES_NONE_MINDSPORE;
    if (pr_trace_is_npu(t))
        return PR_MODULES_NONE_NPU;
    if (t->format != PR_STR_NONE &&
        strcmp(pr_trace_str(t, t->format), "nsys") == 0)
        return PR_MODULES_NONE_NSYS;
    return stacks_name_modules(t) ? PR_MODULES_IN_STACKS : PR_MODULES_NONE;
}

static cJSON *
view_json(const struct ctx *c)
{
    struct pr_row_module_view v;
    size_t r;

    memset(&v, 0, sizeof(v));
    for (r = 0; r < c->n; r++)
        v.module_calls += (int64_t)c->v[r].occurrences;
    v.modules = (int64_t)c->n;
    v.origin = c->t->lightning ? "lightning" : "nn.Module";
    v.note = c->n > 0 ? NULL : none_note(c->t);
    return pr_rows_row(PR_RO_RUNS_MODULE_VIEW, &v);
}

static int
ctx_init(struct ctx *c, const struct pr_trace *t, const struct pr_tree *tree)
{
    memset(c, 0, sizeof(*c));
    c->t = t;
    c->tree = tree;
    c->keys = pr_strtab_new();
    return c->keys != NULL;
}

enum pr_status
pr_modules_fill(const struct pr_trace *t, const struct pr_tree *tree,
                cJSON *run, struct pr_error *err)
{
    static const char *const keys[] = {"modules", "module_types",
                                       "module_view"};
    struct ctx c;
    cJSON *items[3] = {NULL, NULL, NULL};
    int ok = ctx_init(&c, t, tree) && walk(&c);

    if (ok && t->lightning)
        link_by_name(&c);

    if (ok) {
        items[0] = modules_json(&c);
        items[1] = types_json(&c);
        items[2] = view_json(&c);
    }
    free(c.v);
    pr_strtab_free(c.keys);
    return pr_emit_put_all(run, keys, items, 3, "modules", err);
}
