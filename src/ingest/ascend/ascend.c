/* ascend.c - one rank's torch_npu *_ascend_pt (or MindSpore >= 2.4
 * *_ascend_ms) folder: profiler_info_{rank}.json names the rank, and
 * ASCEND_PROFILER_OUTPUT/ holds the text export (spec §2.1).  The folder
 * is claimed when that export is there, so several rank folders under one
 * input are the ranks of one job; a folder holding only the SQLite export
 * (ascend_pytorch_profiler_{rank}.db) is claimed too and read by the
 * database's reader, so that profiler_info_{rank}.json and the other
 * members of the folder are the run's, not strays warned about one by
 * one.  trace_view.json gives the timeline;
 * the other files add what it lacks (ascend_*.c), and each file read or
 * not is accounted for: the ones not read are listed as skipped. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../internal.h"
#include "ascend.h"
#include "ascend_common.h"
#include "ascend_trace.h"
#include "profreport/formats.h"

#define OUT_DIR "ASCEND_PROFILER_OUTPUT"

/* The reader of the SQLite export (ascend_db.c), for a run folder that
 * holds only that. */
extern const struct pr_format pr_format_ascend_db;
#define PATH_CAP 4096

/* The files of the text export this reader takes; a folder is a run when
 * one of them is there. */
static const char *const read_here[] = {
    "trace_view.json",           "kernel_details.csv",  "operator_details.csv",
    "op_statistic.csv",          "step_trace_time.csv", "communication.json",
    "communication_matrix.json",
};

static int
is_kind(const char *path, int dir)
{
    struct stat st;

    if (stat(path, &st) != 0)
        return 0;
    return dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

static int
join(char *buf, size_t cap, const char *dir, const char *name)
{
    int k = snprintf(buf, cap, "%s/%s", dir, name);

    return k >= 0 && (size_t)k < cap;
}

static const char *
base_of(const char *path)
{
    const char *s = strrchr(path, '/');

    return s ? s + 1 : path;
}

/* The output folder of run folder `dir` (or `dir` itself when it is
 * one, given directly); 0 when there is none. */
static int
out_dir(const char *dir, char *out, size_t cap)
{
    if (join(out, cap, dir, OUT_DIR) && is_kind(out, 1))
        return 1;
    if (strcmp(base_of(dir), OUT_DIR) != 0)
        return 0;
    return snprintf(out, cap, "%s", dir) < (int)cap;
}

int
pr_asc_path(const struct pr_asc *a, const char *name, char *buf, size_t cap)
{
    if (a->file != NULL)
        return strcmp(name, a->role) == 0 &&
               snprintf(buf, cap, "%s", a->file) < (int)cap && is_kind(buf, 0);
    return join(buf, cap, a->out, name) && is_kind(buf, 0);
}

static int
has_export(const char *out)
{
    struct pr_asc a;
    char path[PATH_CAP];
    size_t i;

    memset(&a, 0, sizeof(a));
    a.out = out;
    for (i = 0; i < sizeof(read_here) / sizeof(read_here[0]); i++)
        if (pr_asc_path(&a, read_here[i], path, sizeof(path)))
            return 1;
    return 0;
}

/* The framework's database in output folder `out` (torch_npu's
 * ascend_pytorch_profiler_{rank}.db, MindSpore's
 * ascend_mindspore_profiler_{rank}.db), the first by name, in `path`;
 * 0 when there is none. */
static int
find_db(const char *out, char *path, size_t cap)
{
    DIR *d = opendir(out);
    struct dirent *de;
    char best[256] = "";

    if (d == NULL)
        return 0;
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);

        if ((strncmp(de->d_name, "ascend_pytorch_profiler", 23) == 0 ||
             strncmp(de->d_name, "ascend_mindspore_profiler", 25) == 0) &&
            n > 3 && strcmp(de->d_name + n - 3, ".db") == 0 &&
            n < sizeof(best) &&
            (best[0] == '\0' || strcmp(de->d_name, best) < 0))
            snprintf(best, sizeof(best), "%s", de->d_name);
    }
    closedir(d);
    return best[0] != '\0' && join(path, cap, out, best) && is_kind(path, 0);
}

/* Whether h[0..n) holds the literal `lit`. */
static int
holds(const char *h, size_t n, const char *lit)
{
    size_t k = strlen(lit), i;

    for (i = 0; k <= n && i <= n - k; i++)
        if (memcmp(h + i, lit, k) == 0)
            return 1;
    return 0;
}

/* The first line of a table only torch_npu (and MindSpore >= 2.4)
 * writes, given alone: the export member it is, or NULL.  Its columns
 * are the producer's (kernel_details: Step Id, ..., Name, Type, [OP
 * State,] Accelerator Core, Start Time(us), Duration(us), whatever the
 * file is called: kernel_details_910B_v1.csv is the same table, renamed;
 * step_trace_time: Step, Computing, Communication(Not Overlapped),
 * Overlapped, by its own name only, since msprof-analyze's
 * cluster_step_trace_time.csv has those columns and is not a rank's). */
static const char *
table_role(const struct pr_probe *p)
{
    const char *h = p->head, *nl;
    size_t n;
    size_t len = p->base != NULL ? strlen(p->base) : 0;

    /* a CSV by name: the header decides which table it is (review 20
       #5: kernel_details_910B_v1.csv was "CSV text of no known table") */
    if (p->is_dir || h == NULL || len < 4 ||
        strcmp(p->base + len - 4, ".csv") != 0)
        return NULL;
    n = p->n_head;
    if (n >= 3 && memcmp(h, "\xEF\xBB\xBF", 3) == 0) {
        h += 3;
        n -= 3;
    }
    nl = memchr(h, '\n', n);
    if (nl == NULL && !p->whole)
        return NULL; /* the header line is longer than the head */
    n = nl != NULL ? (size_t)(nl - h) : n;
    /* CANN 8.3 leads with Device_id */
    if ((holds(h, n, ",Step,") || (n > 5 && memcmp(h, "Step,", 5) == 0)) &&
        holds(h, n, "Computing,Communication(Not Overlapped),Overlapped") &&
        strcmp(p->base, "step_trace_time.csv") == 0)
        return "step_trace_time.csv";
    if (holds(h, n, "Name,Type,") && holds(h, n, "Accelerator Core") &&
        holds(h, n, "Start Time(us),Duration(us)"))
        return "kernel_details.csv";
    return NULL;
}

static enum pr_claim
sniff(const struct pr_probe *p)
{
    char out[PATH_CAP], db[PATH_CAP];

    if (table_role(p) != NULL)
        return PR_CLAIM_SURE;
    if (!p->is_dir || !out_dir(p->path, out, sizeof(out)))
        return PR_CLAIM_NO;
    return has_export(out) || find_db(out, db, sizeof(db)) ? PR_CLAIM_SURE
                                                           : PR_CLAIM_NO;
}

/* ------------------------------------------------------------ the rank */

static int
is_info_name(const char *name)
{
    size_t n = strlen(name);

    return strncmp(name, "profiler_info", 13) == 0 && n > 18 &&
           strcmp(name + n - 5, ".json") == 0;
}

/* profiler_info[_{rank}].json in `dir`: the first by name, so the
 * result does not hang on the order readdir gives.  0 when none. */
static int
find_info(const char *dir, char *path, size_t cap)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char best[256] = "";

    if (d == NULL)
        return 0;
    while ((de = readdir(d)) != NULL)
        if (is_info_name(de->d_name) && strlen(de->d_name) < sizeof(best) &&
            (best[0] == '\0' || strcmp(de->d_name, best) < 0))
            snprintf(best, sizeof(best), "%s", de->d_name);
    closedir(d);
    return best[0] != '\0' && join(path, cap, dir, best);
}

/* The world size from profiler_metadata.json beside profiler_info at
 * `info` (its parallel_group_info: the world's group), where profiler_info
 * has none.  Nothing else in the folder names it: communication.json and
 * its matrix hold ranks within each group, and the largest group a rank
 * is in need not be the world (old2023's two ranks see 9 and 10). */
static enum pr_status
world_from_metadata(struct pr_trace *t, const char *info, struct pr_error *err)
{
    const char *b = base_of(info);
    char path[PATH_CAP];
    int64_t w;
    enum pr_status st;

    if (b == info || snprintf(path, sizeof(path), "%.*s/profiler_metadata.json",
                              (int)(b - info - 1), info) >= (int)sizeof(path))
        return PR_OK;
    st = pr_ascend_metadata_world(path, t->rank, &w, err);
    if (st == PR_OK && w > 0) {
        t->world_size = w;
        t->world_source = "parallel_group_info";
    }
    return st;
}

/* The run's rank and name from profiler_info: "rank3".  Without the file
 * the run keeps the name of its folder. */
static enum pr_status
name_run(struct pr_trace *t, const char *dir, const char *out,
         struct pr_error *err)
{
    struct pr_ascend_info info;
    char path[PATH_CAP], parent[PATH_CAP], name[32];
    enum pr_status st;

    if (!find_info(dir, path, sizeof(path))) {
        if (strcmp(dir, out) != 0 || strrchr(dir, '/') == NULL)
            return PR_OK;
        snprintf(parent, sizeof(parent), "%.*s", (int)(base_of(dir) - dir - 1),
                 dir); /* output folder given */
        if (!find_info(parent, path, sizeof(path)))
            return PR_OK;
    }
    st = pr_ascend_info_read(path, &info, err);
    if (st == PR_OK && info.profiler_level[0] != '\0' &&
        (t->profiler_level = pr_strtab_intern(t->strs, info.profiler_level,
                                              strlen(info.profiler_level))) ==
            PR_STR_NONE)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st != PR_OK || info.rank < 0)
        return st;
    t->rank = info.rank;
    if (info.world_size > 0) {
        t->world_size = info.world_size;
        t->world_source = "profiler_info";
    } else if ((st = world_from_metadata(t, path, err)) != PR_OK) {
        return st;
    }
    snprintf(name, sizeof(name), "rank%lld", (long long)info.rank);
    t->worker = pr_strtab_intern(t->strs, name, strlen(name));
    return t->worker == PR_STR_NONE
               ? pr_error_set(err, PR_E_NOMEM, "out of memory")
               : PR_OK;
}

/* ------------------------------------------------------------ the files */

static enum pr_status
read_timeline(struct pr_asc *a, struct pr_error *err)
{
    struct pr_tv tv;
    char path[PATH_CAP];
    enum pr_status st;

    if (!pr_asc_path(a, "trace_view.json", path, sizeof(path)))
        return PR_OK;
    memset(&tv, 0, sizeof(tv));
    tv.t = a->t;
    st = pr_tv_read(path, a->max, &tv, err);
    if (st == PR_OK)
        st = pr_tv_build(&tv, err);
    a->device = tv.device;
    a->device_known = tv.device_known;
    pr_tv_free(&tv);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    a->has_tv = st == PR_OK;
    return st;
}

static int
was_read(const struct pr_asc *a, const char *name)
{
    if (strcmp(name, "trace_view.json") == 0)
        return a->has_tv;
    if (strcmp(name, "kernel_details.csv") == 0)
        return a->has_kernels;
    /* with the timeline, the tables of its operators, by call and by
       type, and of its APIs hold nothing it does not */
    if (strcmp(name, "op_statistic.csv") == 0)
        return a->has_op_types || a->has_tv;
    if (strcmp(name, "operator_details.csv") == 0)
        return a->has_op_details || a->has_tv;
    if (strcmp(name, "api_statistic.csv") == 0)
        return a->has_kernels || a->has_tv;
    if (strcmp(name, "communication.json") == 0)
        return a->has_comm;
    if (strcmp(name, "communication_matrix.json") == 0)
        return a->has_matrix;
    if (strcmp(name, "operator_memory.csv") == 0)
        return a->has_memory;
    if (strcmp(name, "memory_record.csv") == 0)
        return a->has_mem_record;
    return strcmp(name, "step_trace_time.csv") == 0;
}

static int second_table(const char *dir, const char *base, const char *role,
                        char *why, size_t cap);
static const char *file_role(const char *path);

/* Every other member of the output folder and of the run folder, as
 * skipped: the user sees what the report leaves out. */
static enum pr_status
note_skipped(struct pr_asc *a, const char *dir, int top, struct pr_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[PATH_CAP];
    enum pr_status st = PR_OK;

    if (d == NULL)
        return PR_OK;
    while (st == PR_OK && (de = readdir(d)) != NULL) {
        const char *why = "a file of the Ascend export profreport does not "
                          "read";
        char second[300];

        if (de->d_name[0] == '.' || !join(path, sizeof(path), dir, de->d_name))
            continue;
        if (top &&
            (strcmp(de->d_name, OUT_DIR) == 0 || is_info_name(de->d_name)))
            continue;
        if (!top && was_read(a, de->d_name))
            continue;
        if (is_kind(path, 1))
            why = "raw or intermediate data; profreport reads the export "
                  "in " OUT_DIR;
        else if (!top && second_table(dir, de->d_name, file_role(path), second,
                                      sizeof(second)))
            why = second;
        if (pr_trace_add_skip(a->t, path, why) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    closedir(d);
    return st;
}

/* What trace_view.json would have said: one Ascend NPU, its chip not
 * named (no file of the text export names it; the reports say so). */
static enum pr_status
device_meta(struct pr_asc *a)
{
    struct pr_device *d = pr_trace_add_device(a->t);
    size_t i;

    if (d == NULL)
        return PR_E_NOMEM;
    for (i = 0; i < a->t->n_gpu && !a->device_known; i++)
        if (a->t->gpu[i].device >= 0) { /* kernel_details' Device_id */
            a->device = a->t->gpu[i].device;
            a->device_known = 1;
        }
    d->id = a->device;
    d->id_unknown = !a->device_known;
    d->name = PR_STR_NONE;
    a->t->vendor = pr_strtab_intern(a->t->strs, "huawei", 6);
    a->t->device_kind = pr_strtab_intern(a->t->strs, "npu", 3);
    return PR_OK;
}

/* A run from the CSV tables alone: its device, and what it lacks. */
static enum pr_status
csv_only(struct pr_asc *a)
{
    const char *file =
        a->has_op_details ? "operator_details.csv" : "op_statistic.csv";
    char text[400];

    if (!a->has_kernels && !a->has_op_details && !a->has_op_types)
        return pr_trace_add_gap(a->t, "no_tasks", 0,
                                "neither trace_view.json nor "
                                "kernel_details.csv: no task, operator or "
                                "kernel of this rank is in its files, only "
                                "the steps and communication its producer "
                                "summed (step_trace_time.csv, "
                                "communication.json)");
    if (!a->has_op_details && !a->has_op_types)
        return pr_trace_add_gap(a->t, "no_operators", 0,
                                "no trace_view.json: the kernels of "
                                "kernel_details.csv have no launching "
                                "operator and there are no host operators "
                                "(torch_npu writes it with "
                                "export_type=text)");
    snprintf(text, sizeof(text),
             "no trace_view.json: the operator tables are the totals of "
             "%s, a summary-level table without timestamps; no operator "
             "is on the timeline, and the kernels have no launching "
             "operator (torch_npu writes trace_view.json with "
             "export_type=text)",
             file);
    return pr_trace_add_gap(a->t, "operators_summary_only", 0, text);
}

/* Without the timeline: the kernels and the operator tables.  A folder
 * of only the step and communication tables (a rank of a job whose
 * kernels were not exported) is a run of those. */
static enum pr_status
read_tables(struct pr_asc *a, struct pr_error *err)
{
    char path[PATH_CAP];
    enum pr_status st = pr_asc_kernels(a, err);

    if (st == PR_OK && !a->has_tv)
        st = pr_asc_op_details(a, err);
    if (st == PR_OK && !a->has_tv)
        st = pr_asc_op_types(a, err);
    if (st != PR_OK || a->has_tv)
        return st;
    if (!a->has_kernels && !a->has_op_details && !a->has_op_types &&
        !pr_asc_path(a, "step_trace_time.csv", path, sizeof(path)) &&
        !pr_asc_path(a, "communication.json", path, sizeof(path)))
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: neither trace_view.json, "
                            "kernel_details.csv, an operator table, "
                            "step_trace_time.csv nor communication.json",
                            a->out);
    return csv_only(a) == PR_OK
               ? PR_OK
               : pr_error_set(err, PR_E_NOMEM, "out of memory");
}

static enum pr_status
read_run(struct pr_asc *a, const char *dir, struct pr_error *err)
{
    enum pr_status st = read_timeline(a, err);

    if (st == PR_OK && !a->has_tv && !a->device_known)
        pr_asc_memory_device(a); /* before the kernels take a->device */
    if (st == PR_OK)
        st = read_tables(a, err);
    if (st == PR_OK)
        st = pr_asc_matrix(a, err); /* before the operations: group sizes */
    if (st == PR_OK)
        st = pr_asc_comm(a, err);
    if (st == PR_OK)
        st = pr_asc_memory(a, err);
    if (st == PR_OK)
        st = pr_asc_memory_record(a, err);
    if (st == PR_OK)
        st = pr_asc_steps(a, err);
    if (st == PR_OK && !a->has_tv && device_meta(a) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK)
        st = name_run(a->t, dir, a->out, err);
    if (st == PR_OK && a->t->world_size < 0)
        st = pr_ascend_world_from_links(a->t, err);
    if (a->file != NULL) /* one table given: the folder is not the run */
        return st;
    if (st == PR_OK)
        st = note_skipped(a, a->out, 0, err);
    if (st == PR_OK && strcmp(dir, a->out) != 0)
        st = note_skipped(a, dir, 1, err);
    return st;
}

/* ------------------------------------------------------- the database */

/* Why a member of a database-only folder is not read. */
static const char *
db_member_why(const char *name, const char *db)
{
    size_t n = strlen(db);

    if (strncmp(name, db, n) == 0 &&
        (strcmp(name + n, "-wal") == 0 || strcmp(name + n, "-shm") == 0 ||
         strcmp(name + n, "-journal") == 0))
        return NULL; /* SQLite's own files of the database read */
    if (strcmp(name, "analysis.db") == 0)
        return NULL; /* read: the producer's step and HCCL tables */
    return "a file of the Ascend export profreport does not read";
}

/* The members of a database-only run folder other than the database,
 * as skipped (SQLite's journal files and profiler_info silently). */
static enum pr_status
note_db_skipped(struct pr_trace *t, const char *out, const char *db,
                struct pr_error *err)
{
    DIR *d = opendir(out);
    struct dirent *de;
    char path[PATH_CAP];
    const char *why;
    enum pr_status st = PR_OK;

    while (d != NULL && st == PR_OK && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || strcmp(de->d_name, db) == 0 ||
            (why = db_member_why(de->d_name, db)) == NULL ||
            !join(path, sizeof(path), out, de->d_name))
            continue;
        if (pr_trace_add_skip(t, path, why) != PR_OK)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    if (d != NULL)
        closedir(d);
    return st;
}

/* A run folder holding only the SQLite export: the database's reader
 * reads it; the folder's other members are listed as skipped. */
static enum pr_status
load_db(const char *path, const char *od, const struct pr_read_opts *o,
        struct pr_trace **out, struct pr_error *err)
{
    char db[PATH_CAP], an[PATH_CAP];
    enum pr_status st;

    if (!find_db(od, db, sizeof(db)))
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "%s: neither the text export nor a database in "
                            "%s",
                            path, od);
    st = pr_format_ascend_db.load(db, o, out, err);
    /* torch_npu's analysis.db: its step_trace_time and communication
       tables (ascend_analysis.c) */
    if (st == PR_OK && join(an, sizeof(an), od, "analysis.db") &&
        is_kind(an, 0))
        st = pr_asc_analysis_db(*out, an,
                                o && o->max_input_bytes ? o->max_input_bytes
                                                        : PR_READ_DEFAULT_MAX,
                                err);
    if (st == PR_OK)
        st = note_db_skipped(*out, od, base_of(db), err);
    if (st == PR_OK && strcmp(path, od) != 0) {
        struct pr_asc a;

        memset(&a, 0, sizeof(a));
        a.t = *out;
        a.out = od;
        st = note_skipped(&a, path, 1, err); /* profiler_info: the run's */
    }
    if (st != PR_OK) {
        pr_trace_free(*out);
        *out = NULL;
    }
    return st;
}

/* A kernel_details table not named kernel_details.csv beside one that is
 * (folder dir): torch_npu writes one a run, under that name, so the other
 * is another capture's table or a copy of it; read beside it, its tasks
 * would be counted as a second run's (review 20 #5).  Its reason, into
 * why (cap bytes), and 1; 0 otherwise. */
static int
second_table(const char *dir, const char *base, const char *role, char *why,
             size_t cap)
{
    char sib[PATH_CAP];

    if (role == NULL || strcmp(role, "kernel_details.csv") != 0 ||
        strcmp(base, "kernel_details.csv") == 0 ||
        !join(sib, sizeof(sib), dir, "kernel_details.csv") || !is_kind(sib, 0))
        return 0;
    snprintf(why, cap,
             "a second kernel_details table beside kernel_details.csv, the "
             "run's own by torch_npu's name: another capture's table or a "
             "copy, not read, so that no task is counted twice (give it "
             "alone with --input to read it as a run of its own)");
    return 1;
}

/* The data-quality row of the kernel_details tables beside the run's
 * kernel_details.csv in folder dir that second_table keeps out (a
 * "kernel_details_other" gap naming up to three): the reports say what
 * was left out and why.  PR_E_NOMEM. */
static enum pr_status
note_other_tables(struct pr_asc *a, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[PATH_CAP], why[300], text[1200];
    char first[3][256] = {"", "", ""}; /* the first three by name */
    size_t n = 0, k;

    if (d == NULL)
        return PR_OK;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' ||
            !join(path, sizeof(path), dir, de->d_name) || !is_kind(path, 0) ||
            !second_table(dir, de->d_name, file_role(path), why, sizeof(why)))
            continue;
        n++;
        /* insert in name order (readdir's order is the file system's) */
        for (k = 3; k > 0 && (first[k - 1][0] == '\0' ||
                              strcmp(de->d_name, first[k - 1]) < 0);
             k--)
            if (k < 3)
                memcpy(first[k], first[k - 1], sizeof(first[k]));
        if (k < 3)
            snprintf(first[k], sizeof(first[k]), "%s", de->d_name);
    }
    closedir(d);
    if (n == 0)
        return PR_OK;
    snprintf(text, sizeof(text),
             "%zu other kernel_details table%s beside kernel_details.csv "
             "(%s%s%s%s%s%s), not read: torch_npu writes one a run under "
             "that name, so %s another capture's or a copy, and %s tasks "
             "would be counted twice; give %s alone with --input to read it "
             "as a run of its own",
             n, n == 1 ? "" : "s", first[0], n > 1 ? ", " : "", first[1],
             n > 2 ? ", " : "", first[2], n > 3 ? ", ..." : "",
             n == 1 ? "it is" : "they are", n == 1 ? "its" : "their",
             n == 1 ? "it" : "one");
    return pr_trace_add_gap(a->t, "kernel_details_other", n, text);
}

/* The export member a file given alone is (table_role), from its first
 * bytes; NULL when it is none or cannot be read. */
static const char *
file_role(const char *path)
{
    char head[8192];
    struct pr_probe p;
    FILE *f = fopen(path, "rb");
    size_t n;

    if (f == NULL)
        return NULL;
    n = fread(head, 1, sizeof(head), f);
    memset(&p, 0, sizeof(p));
    p.path = path;
    p.base = base_of(path);
    p.head = head;
    p.n_head = n;
    p.whole = n < sizeof(head) && feof(f);
    fclose(f);
    return table_role(&p);
}

static enum pr_status
load(const char *path, const struct pr_read_opts *o, struct pr_trace **out,
     struct pr_error *err)
{
    char od[PATH_CAP];
    struct pr_asc a;
    enum pr_status st;

    *out = NULL;
    memset(&a, 0, sizeof(a));
    if (is_kind(path, 0)) {
        /* one table alone: read as its folder's only member, the rank
           from a profiler_info beside the folder */
        const char *b = base_of(path);

        char why[300];

        a.role = file_role(path);
        if (a.role == NULL)
            return pr_error_set(err, PR_E_NOT_FORMAT,
                                "%s: neither kernel_details.csv nor "
                                "step_trace_time.csv (by its header line)",
                                path);
        a.file = path;
        if (b == path)
            snprintf(od, sizeof(od), ".");
        else if (b == path + 1)
            snprintf(od, sizeof(od), "/");
        else if (snprintf(od, sizeof(od), "%.*s", (int)(b - path - 1), path) >=
                 (int)sizeof(od))
            return pr_error_set(err, PR_E_IO, "%s: path too long", path);
        /* found in a folder beside the run's own kernel_details.csv: not
           a run (a file the user named is read) */
        if (o != NULL && o->member &&
            second_table(od, b, a.role, why, sizeof(why)))
            return pr_error_set(err, PR_E_NOT_FORMAT, "%s: %s", path, why);
    } else if (!out_dir(path, od, sizeof(od))) {
        return pr_error_set(err, PR_E_NOT_FORMAT, "%s: no " OUT_DIR " folder",
                            path);
    } else if (!has_export(od)) {
        return load_db(path, od, o, out, err);
    }
    a.out = od;
    a.max = o && o->max_input_bytes ? o->max_input_bytes : PR_READ_DEFAULT_MAX;
    a.t = pr_trace_new();
    if (a.t == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = read_run(&a, a.file != NULL ? od : path, err);
    /* the run's folder, or the folder its kernel_details.csv was found
       in (not one the user named alone) */
    if (st == PR_OK && (a.file == NULL || (o != NULL && o->member)) &&
        note_other_tables(&a, od) != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st == PR_OK) {
        a.t->format = pr_strtab_intern(a.t->strs, "ascend", 6);
        /* MindSpore >= 2.4 writes the same export in *_ascend_ms */
        if (strstr(path, "_ascend_ms") != NULL)
            a.t->framework = pr_strtab_intern(a.t->strs, "mindspore", 9);
        pr_trace_finish(a.t);
        *out = a.t;
        return PR_OK;
    }
    pr_trace_free(a.t);
    return st;
}

/* A folder format: never a stream. */
const struct pr_format pr_format_ascend = {
    "ascend", sniff, load, 0, "Ascend PyTorch or MindSpore profiler folder"};
