/* names.c - classifies interned names once per distinct string id instead
 * of once per event: a trace repeats a few thousand names millions of
 * times, and the kernel table (kclass.c) is a hundred rules of patterns.
 * The operator predicates themselves live in tree.c and tensorcore.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profreport/comm.h"
#include "profreport/kclass.h"
#include "profreport/syncs.h"
#include "profreport/tensorcore.h"
#include "profreport/tree.h"

#include "internal.h"

#define DONE 0x80000000u

void
pr_names_init(struct pr_names *nc, const struct pr_trace *t)
{
    struct pr_error ignored = {PR_OK, ""};

    if (t->names != NULL && t->names->t == t) {
        *nc = *t->names;
        nc->borrowed = 1;
        return;
    }
    memset(nc, 0, sizeof(*nc));
    nc->t = t;
    nc->npu = pr_trace_is_npu(t);
    nc->kc = t->kclass;
    /* a trace the pipeline did not give a table (tests, fuzzing): the
       compiled-in one; without memory for it names stay unclassified */
    if (nc->kc == NULL)
        nc->kc = nc->own = pr_kclass_table_builtin(&ignored);
    nc->n = pr_strtab_count(t->strs);
    /* Without the cache every lookup classifies afresh: slower, same
     * answers, so an allocation failure here is not an error. */
    nc->bits = calloc(nc->n ? nc->n : 1, sizeof(*nc->bits));
    if (nc->bits == NULL)
        nc->n = 0;
}

void
pr_names_free(struct pr_names *nc)
{
    if (nc->borrowed) {
        memset(nc, 0, sizeof(*nc));
        return;
    }
    free(nc->bits);
    pr_idmap_free(&nc->rules);
    pr_kclass_table_free(nc->own);
    memset(nc, 0, sizeof(*nc));
}

static int
starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* 5.4's exclusions of an operator row, by name. */
static int
is_non_operator(const char *name)
{
    return strcmp(name, "DataParallel.forward") == 0 ||
           strcmp(name, "DistributedDataParallel.forward") == 0 ||
           starts_with(name, "Optimizer.");
}

/* Case-insensitive substring ("fft2d_r2c", "winogradForwardData4x4"). */
static int
has_ci(const char *s, const char *pat)
{
    size_t n = strlen(pat);

    for (; *s; s++) {
        if (strncasecmp(s, pat, n) == 0)
            return 1;
    }
    return 0;
}

/* The kernel table's answer as PR_NAME_* bits. */
unsigned
pr_names_kclass_bits(const struct pr_kclass *k)
{
    int matrix = pr_kclass_is_matrix(k->math);
    int math_op = k->family == PR_KF_GEMM || k->family == PR_KF_CONV ||
                  k->family == PR_KF_ATTENTION;
    int gemm = k->family == PR_KF_GEMM || k->family == PR_KF_CONV;
    unsigned bits = 0;

    bits |= matrix && k->plugin_tc ? PR_NAME_TC_PLUGIN : 0;
    bits |= matrix && !k->plugin_tc ? PR_NAME_TC_HEUR : 0;
    bits |= matrix && k->precision == PR_KP_TF32 ? PR_NAME_TF32 : 0;
    bits |= k->family == PR_KF_COLLECTIVE ? PR_NAME_COMM_KERNEL : 0;
    bits |= k->family == PR_KF_INPUT ? PR_NAME_INPUT_KERNEL : 0;
    bits |= k->rule != NULL ? PR_NAME_KNOWN : 0;
    /* a kernel that does no matrix math (FlashAttention's dQ convert)
       says nothing of the precision its operator's matrix math ran in */
    bits |= math_op && !k->no_mma && pr_kclass_is_simt(k->math) &&
                    (k->precision == PR_KP_FP32 || k->precision == PR_KP_NONE)
                ? PR_NAME_SIMT_MATH
                : 0;
    /* gemv (cublas.gemv) is memory bound: tensor cores would not speed
       it, whatever its precision */
    bits |= gemm && pr_kclass_is_simt(k->math) && k->precision == PR_KP_FP32 &&
                    !(k->rule != NULL && strcmp(k->rule, "cublas.gemv") == 0)
                ? PR_NAME_GEMM_FP32_SIMT
                : 0;
    bits |= gemm && matrix ? PR_NAME_GEMM_MATRIX : 0;
    return bits;
}

/* The PR_NAME_* bits of string id, with DONE; `store`: remember the
 * kernel rule it matched (a cache of one's own). */
static unsigned
classify(struct pr_names *nc, uint32_t id, int store)
{
    const char *name = pr_trace_str(nc->t, id);
    struct pr_kclass k;
    unsigned bits = DONE;

    pr_names_lookup(nc, name, &k);
    bits |= pr_names_kclass_bits(&k);
    /* the rule of a kernel name, for the few callers that name it (a
       map: most names are no kernel's) */
    if (store && k.index >= 0 && id < nc->n &&
        pr_idmap_put(&nc->rules, id, (size_t)k.index, NULL) != PR_OK)
        nc->rules_lost = 1;
    bits |= has_ci(name, "winograd") ? PR_NAME_WINOGRAD : 0;
    bits |= has_ci(name, "fft") || has_ci(name, "gcgemm") ? PR_NAME_FFT : 0;
    bits |= pr_tc_op_eligible(name) ? PR_NAME_TC_OP : 0;
    bits |= pr_tree_is_step(name) ? PR_NAME_STEP : 0;
    bits |= pr_tree_is_dataloader(name) ? PR_NAME_DATALOADER : 0;
    bits |= pr_tree_is_comm(name) ? PR_NAME_COMM : 0;
    bits |=
        pr_comm_host_collective(name) && pr_comm_on_host(pr_comm_backend(name))
            ? PR_NAME_COMM_HOST
            : 0;
    bits |= starts_with(name, "Optimizer.step") ? PR_NAME_OPTIMIZER : 0;
    bits |= is_non_operator(name) ? PR_NAME_NOT_OPERATOR : 0;
    bits |= ((unsigned)pr_sync_call_kind(name) << PR_NAME_SYNC_SHIFT) &
            PR_NAME_SYNC_MASK;
    return bits;
}

unsigned
pr_names_get(struct pr_names *nc, uint32_t id)
{
    if (id >= nc->n)
        return classify(nc, id, !nc->borrowed) & ~DONE;
    if (!(nc->bits[id] & DONE)) {
        if (nc->borrowed) /* shared between threads: read only */
            return classify(nc, id, 0) & ~DONE;
        nc->bits[id] = (uint32_t)classify(nc, id, 1);
    }
    return nc->bits[id] & ~DONE;
}

enum pr_sync_kind
pr_names_sync_kind(struct pr_names *nc, uint32_t id)
{
    return (enum pr_sync_kind)((pr_names_get(nc, id) & PR_NAME_SYNC_MASK) >>
                               PR_NAME_SYNC_SHIFT);
}

void
pr_names_fill(struct pr_names *nc, const struct pr_trace *t)
{
    size_t i;

    pr_names_init(nc, t);
    for (i = 0; i < t->n_events && nc->n > 0; i++)
        (void)pr_names_get(nc, t->events[i].name);
}

int
pr_names_rule(struct pr_names *nc, uint32_t id, struct pr_kclass *out)
{
    size_t i;

    if ((pr_names_get(nc, id) & PR_NAME_KNOWN) == 0)
        return pr_kclass_rule(nc->kc, -1, out);
    i = pr_idmap_get(&nc->rules, id);
    if (i != PR_NONE && !nc->rules_lost)
        return pr_kclass_rule(nc->kc, (int)i, out);
    pr_names_lookup(nc, pr_trace_str(nc->t, id), out);
    return out->index >= 0;
}

/* The libraries whose rules name an Ascend run's tasks. */
static int
ascend_library(const char *lib)
{
    static const char *const own[] = {"CANN", "HCCL", "MindSpore"};
    size_t i;

    for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
        if (strcmp(lib, own[i]) == 0)
            return 1;
    return 0;
}

void
pr_names_lookup(const struct pr_names *nc, const char *name,
                struct pr_kclass *out)
{
    pr_kclass_lookup(nc->kc, name, out);
    while (nc->npu && out->index >= 0 && out->library != NULL &&
           !ascend_library(out->library))
        pr_kclass_lookup_after(nc->kc, name, out->index, out);
}

const char *
pr_task_op_shapes(const struct pr_trace *t, uint32_t name)
{
    return pr_task_op_types(t, name, NULL);
}

const char *
pr_task_op_types(const struct pr_trace *t, uint32_t name, const char **types)
{
    int64_t corr = PR_NO_ID, ext = PR_NO_ID;
    size_t i;

    if (types != NULL)
        *types = NULL;

    for (i = 0; i < t->n_events && corr == PR_NO_ID; i++)
        if (t->events[i].kind == PR_KIND_DEVICE_TASK &&
            t->events[i].name == name)
            corr = pr_event_correlation(t, &t->events[i]);
    for (i = 0; i < t->n_events && corr != PR_NO_ID && ext == PR_NO_ID; i++)
        if (t->events[i].kind == PR_KIND_RUNTIME_CALL &&
            pr_event_correlation(t, &t->events[i]) == corr)
            ext = pr_event_external_id(t, &t->events[i]);
    for (i = 0; i < t->n_events && ext != PR_NO_ID; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_op_info ob;

        if (e->kind != PR_KIND_HOST_OP || pr_event_external_id(t, e) != ext ||
            pr_trace_op(t, e, &ob) == NULL)
            continue;
        if (types != NULL)
            *types = ob.input_types != PR_STR_NONE
                         ? pr_trace_str(t, ob.input_types)
                         : NULL;
        return ob.input_dims != PR_STR_NONE &&
                       pr_trace_str(t, ob.input_dims)[0] != '\0'
                   ? pr_trace_str(t, ob.input_dims)
                   : NULL;
    }
    return NULL;
}
