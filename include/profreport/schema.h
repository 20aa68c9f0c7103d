/* schema.h - the summary JSON as one table (issue #34): every object of
 * the tree and every key of each, with its type, unit, flags and a
 * one-line doc, in the order the summary writes them.  The rows live in
 * src/summary/schema.def (an X-macro file); this header gives them to C
 * code as data.  From the table come the loader's check of a saved summary
 * (contract.h: the rows flagged PR_SF_REQ), and the test that every key the
 * tool writes, every key of keys.h and every key docs/summary-json.md and the
 * shared spec name are rows of it (tests/cli/schema.sh). */
#ifndef PROFREPORT_SCHEMA_H
#define PROFREPORT_SCHEMA_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* A value's JSON types (a set: a figure that may be unknown is
 * PR_ST_NUM | PR_ST_NULL). */
enum pr_schema_type {
    PR_ST_NUM = 1,
    PR_ST_STR = 2,
    PR_ST_NULL = 4,
    PR_ST_BOOL = 8,
    PR_ST_OBJ = 16,
    PR_ST_ARR = 32
};

/* What a number counts, as its key's suffix says (spec: "Units"). */
enum pr_schema_unit {
    PR_SU_NONE,
    PR_SU_US,     /* microseconds, from the run's first event */
    PR_SU_MS,     /* milliseconds */
    PR_SU_PCT,    /* a share, 0-100 */
    PR_SU_BYTES,  /* bytes */
    PR_SU_COUNT,  /* a count of calls, events, steps, rows */
    PR_SU_FLOP,   /* floating-point operations */
    PR_SU_GBPS,   /* 10^9 bytes/s */
    PR_SU_TFLOPS, /* 10^12 FLOP/s */
    PR_SU_ID      /* an ordinal: a rank, a device, an index */
};

enum pr_schema_flag {
    PR_SF_SPEC = 1,    /* named by the shared spec (spec/summary-json.md) */
    PR_SF_REQ = 2,     /* checked when a saved summary is read: present,
                          of its types (contract.h) */
    PR_SF_NONNEG = 4,  /* with PR_SF_REQ: a number never below 0 */
    PR_SF_LITE = 8,    /* kept in a merge's lite run (merge.c) */
    PR_SF_MAP = 16,    /* the row's key is "*": the object's keys are data
                          (names, families), each value of the row's types */
    PR_SF_ALWAYS = 32, /* written on every run: null where no pass wrote it
                          (the run's row, rows.def) */
    PR_SF_RANK = 64,   /* kept in a job's rank form (rank_form.h): a run's
                          member, whole or its table cut; a table's column,
                          which the "(other)" row folds by its unit */
    PR_SF_EVERY = 128, /* a run's part written on every run this version
                          analyses (null where it has nothing to say): a
                          run that lacks it was written by an older
                          profreport, before the part existed (contract.c);
                          also a run's key written on every run whose
                          absence loses a view (world_size_source) */
    PR_SF_WHERE = 256  /* a run's part written only where it applies (a
                          producer's file, a host CPU track): its absence
                          says nothing of the writer's age; every part of a
                          run is EVERY or WHERE (test_schema.c) */
};

/* The objects of the tree.  PR_SO_TOP is the summary itself. */
enum pr_schema_object {
#define PR_SCHEMA_OBJECT(id, parent, path, doc) PR_SO_##id,
#define PR_SCHEMA_KEY(obj, key, types, unit, flags, child, doc)
#include "../../src/summary/schema.def"
#undef PR_SCHEMA_OBJECT
#undef PR_SCHEMA_KEY
    PR_SO_N,
    PR_SO_NONE = PR_SO_N /* a row whose value is no object of the table */
};

/* Each row's index: PR_SR_<object>_<key constant>, e.g.
 * PR_SR_RUNS_STEPS_PR_K_DURATION_US. */
enum pr_schema_rowid {
#define PR_SCHEMA_OBJECT(id, parent, path, doc)
#define PR_SCHEMA_KEY(obj, key, types, unit, flags, child, doc)                \
    PR_SR_##obj##_##key,
#include "../../src/summary/schema.def"
#undef PR_SCHEMA_OBJECT
#undef PR_SCHEMA_KEY
    PR_SR_N
};

/* The key of a PR_SF_MAP row: the object's keys are data. */
#define PR_K_ANY "*"

struct pr_schema_row {
    enum pr_schema_object object; /* the object the key is a member of */
    const char *key;              /* its JSON key; "*" with PR_SF_MAP */
    unsigned types;               /* enum pr_schema_type bits */
    enum pr_schema_unit unit;
    unsigned flags;              /* enum pr_schema_flag bits */
    enum pr_schema_object child; /* an object, or an array's elements */
    const char *doc;             /* one line */
};

struct pr_schema_objinfo {
    enum pr_schema_object parent; /* PR_SO_NONE for the top */
    const char *path;             /* "runs[].steps[]"; "" for the top */
    const char *doc;
    size_t first, n; /* its rows: pr_schema_rows[first .. first+n) */
};

/* Every row, grouped by object in the order of enum pr_schema_object and,
 * within an object, in the order the summary writes its keys. */
extern const struct pr_schema_row pr_schema_rows[PR_SR_N];

/* An object's parent, path, doc and rows. */
struct pr_schema_objinfo pr_schema_object(enum pr_schema_object object);

/* Whether a row of object has every flag of `flags` (enum pr_schema_flag
 * bits): PR_SF_REQ, the contract checks it; PR_SF_LITE, a merge keeps
 * some of it. */
int pr_schema_has_flag(enum pr_schema_object object, unsigned flags);

/* The row of key in object, or NULL. */
const struct pr_schema_row *pr_schema_find(enum pr_schema_object object,
                                           const char *key);

#endif
