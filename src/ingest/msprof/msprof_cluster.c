/* msprof_cluster.c - the output of msprof-analyze's "cluster" command
 * (cluster_step_trace_time.csv, cluster_communication.json,
 * cluster_communication_matrix.json, communication_group.json): tables
 * msprof-analyze derived from every rank's profile.  The spec
 * (other-producers.md §2.4) names them only as a reference to check
 * against; they hold no device task and no time line, so they are
 * recognised and turned away with a message naming the file and what to
 * give instead, rather than called "not a format profreport reads".
 * MindSpore's parallel strategy (parallel_strategy_<rank>.json: operator
 * sharding, no timings) and its profiler metadata (profiler_info_<rank>.json)
 * are turned away the same way: "no traceEvents", a Chrome trace's reason,
 * is nothing an Ascend user can act on (review 22a #13).  So is a rank's
 * own communication.json or communication_matrix.json given alone
 * (torch_npu's ASCEND_PROFILER_OUTPUT/, msprof's analyze/): HCCL summaries
 * per step and operation, no device task; its run is read from the folder
 * that holds it (issue #30). */
#include "config.h"

#include <string.h>

#include "../internal.h"
#include "profreport/formats.h"

/* The first key of a JSON object in the head; 0 when there is none. */
static int
first_key_is(const char *s, size_t n, const char *key)
{
    size_t i = 1, m = strlen(key);

    while (i < n &&
           (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
        i++;
    return i + m + 2 <= n && s[i] == '"' && memcmp(s + i + 1, key, m) == 0 &&
           s[i + 1 + m] == '"';
}

/* The first key of a JSON object in the head is "step" and digits or
 * nothing ("step50"; "step" where no schedule numbered the steps). */
static int
first_key_is_step(const char *s, size_t n)
{
    size_t i = 1;

    while (i < n &&
           (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
        i++;
    if (i + 6 > n || s[i] != '"' || memcmp(s + i + 1, "step", 4) != 0)
        return 0;
    for (i += 5; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        ;
    return i < n && s[i] == '"';
}

/* The head holds `"key"` somewhere: a strong enough mark with the first
 * key (the files above are not Chrome traces, and a run folder that
 * holds them is claimed whole by the mindspore format). */
static int
has_key(const char *s, size_t n, const char *key)
{
    size_t m = strlen(key), i;

    for (i = 0; i + m + 2 <= n; i++)
        if (s[i] == '"' && memcmp(s + i + 1, key, m) == 0 &&
            s[i + 1 + m] == '"')
            return 1;
    return 0;
}

/* What a MindSpore side file is, in its own words; NULL for others. */
static const char *
mindspore_side(const char *s, size_t n)
{
    if (n < 2 || s[0] != '{' || has_key(s, n, "traceEvents"))
        return NULL;
    if (first_key_is(s, n, "config") && has_key(s, n, "parallelType"))
        return "MindSpore parallel strategy (the operators' sharding, no "
               "timings)";
    if ((first_key_is(s, n, "context_mode") || has_key(s, n, "rank_size")) &&
        has_key(s, n, "parallel_mode") && has_key(s, n, "rank_id"))
        return "MindSpore profiler metadata (rank, parallel mode, no "
               "timings)";
    return NULL;
}

/* What a rank's own HCCL summary is, in words; NULL for others: an
 * object keyed by its steps, each keyed by "p2p" and "collective" (the
 * same layout msprof-analyze's communication reader takes), whose
 * operations hold "Communication Time Info" (communication.json) or,
 * per link "src-dst", "Transport Type" (communication_matrix.json). */
static const char *
rank_comm(const char *s, size_t n)
{
    if (n < 2 || s[0] != '{' || !first_key_is_step(s, n) ||
        has_key(s, n, "traceEvents") ||
        (!has_key(s, n, "collective") && !has_key(s, n, "p2p")))
        return NULL;
    if (has_key(s, n, "Communication Time Info"))
        return "a rank's communication.json (HCCL time and bandwidth per "
               "operation and step, no device tasks)";
    if (has_key(s, n, "Transport Type"))
        return "a rank's communication_matrix.json (HCCL bytes per link "
               "between ranks, per operation and step, no device tasks)";
    return NULL;
}

/* cluster_step_trace_time.csv starts "Step,Type,Index,"; the JSON files
 * are objects keyed by "p2p" and "collective" first (a rank's own
 * communication.json is keyed by its steps). */
static enum pr_claim
sniff(const struct pr_probe *p)
{
    const char *s;
    size_t n;

    if (p->is_dir)
        return PR_CLAIM_NO;
    pr_probe_text(p, &s, &n);
    if (s == NULL || n < 2)
        return PR_CLAIM_NO;
    if (n >= 16 && memcmp(s, "Step,Type,Index,", 16) == 0)
        return PR_CLAIM_SURE;
    if (s[0] == '{' &&
        (first_key_is(s, n, "p2p") || first_key_is(s, n, "collective")))
        return PR_CLAIM_SURE;
    if (mindspore_side(s, n) != NULL || rank_comm(s, n) != NULL)
        return PR_CLAIM_SURE;
    return PR_CLAIM_NO;
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    char head[4096];
    size_t n = 0;
    int whole = 0;
    const char *side, *comm;
    struct pr_error herr; /* a head that cannot be read: the plain message */

    (void)o;
    *out = NULL;
    pr_error_clear(&herr);
    if (pr_source_head(path, head, sizeof(head), &n, &whole, &herr) != PR_OK)
        n = 0;
    side = n > 0 ? mindspore_side(head, n) : NULL;
    comm = n > 0 ? rank_comm(head, n) : NULL;
    if (comm != NULL)
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "%s: %s: not read alone; give the folder it "
                            "belongs to (the rank's *_ascend_pt or its "
                            "ASCEND_PROFILER_OUTPUT/, or a PROF_* folder)",
                            path, comm);
    if (side != NULL)
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "%s: %s: not read; give the profiler's output "
                            "folder (profiler/, its PROF_* or *_ascend_ms "
                            "folders) instead",
                            path, side);
    return pr_error_set(err, PR_E_NOT_FORMAT,
                        "%s: msprof-analyze cluster output (tables derived "
                        "from the ranks' profiles, no device tasks): not "
                        "read; give the ranks' PROF_* or *_ascend_pt "
                        "folders instead",
                        path);
}

const struct pr_format pr_format_msprof_cluster = {"msprof_cluster", sniff,
                                                   load, 0, ""};
