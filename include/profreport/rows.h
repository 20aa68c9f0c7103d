/* rows.h - the summary's table objects as typed rows (issue #34): the
 * structs of src/summary/rows.def, one writer that serialises them in
 * schema.def's row order and one reader that fills them back from a saved
 * summary, checking every value against its row's types. */
#ifndef PROFREPORT_ROWS_H
#define PROFREPORT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/error.h"
#include "profreport/schema.h"

/* A PR_RT_US field's null (a time not measured), where its schema row
 * allows null. */
#define PR_ROWS_US_NULL INT64_MIN

/* How a field holds its value. */
enum pr_rows_type {
    PR_RT_STR,       /* const char *: the writer copies it; read, it points
                        into the cJSON tree it came from */
    PR_RT_NUM,       /* double */
    PR_RT_NUM_NULL,  /* double; NAN is null */
    PR_RT_I64,       /* int64_t, written as a JSON number */
    PR_RT_US,        /* int64_t nanoseconds, written as microseconds (ns /
                        1000, as pr_emit_us); read back rounded to the ns;
                        PR_ROWS_US_NULL is null where the schema row
                        allows null */
    PR_RT_BOOL_NULL, /* int: 1 true, 0 false, -1 null */
    PR_RT_BOOL,      /* int: nonzero true, 0 false; never null */
    PR_RT_SUB,       /* a sub-object of fixed keys, itself typed: the
                        struct of its rows.def object (PR_ROWS_SUB) */
    PR_RT_JSON       /* const cJSON *: an object whose keys are data (a
                        kernel's PMU counters) or a sub-object; the writer
                        copies it, NULL is null; read, it points into the
                        cJSON tree it came from */
};

struct pr_rows_field {
    enum pr_schema_rowid row; /* its schema.def row: key, types, flags */
    enum pr_rows_type type;
    size_t offset; /* in the struct */
    int sub;       /* PR_RT_SUB: its object (enum pr_rows_object) */
};

/* The typed objects, in rows.def's order. */
enum pr_rows_object {
#define PR_ROWS_OBJECT(obj, st) PR_RO_##obj,
#define PR_ROWS_FIELD(obj, key, type, member)
#define PR_ROWS_SUB(obj, key, sub, member)
#define PR_ROWS_ABSENT(obj, member)
#define PR_ROWS_END(obj)
#include "../../src/summary/rows.def"
#undef PR_ROWS_OBJECT
#undef PR_ROWS_FIELD
#undef PR_ROWS_SUB
#undef PR_ROWS_ABSENT
#undef PR_ROWS_END
    PR_RO_N
};

/* The structs: one member per field, of its type's C type. */
#define PR_ROWS_C_STR const char *
#define PR_ROWS_C_NUM double
#define PR_ROWS_C_NUM_NULL double
#define PR_ROWS_C_I64 int64_t
#define PR_ROWS_C_US int64_t
#define PR_ROWS_C_BOOL_NULL int
#define PR_ROWS_C_BOOL int
#define PR_ROWS_C_JSON const cJSON *
#define PR_ROWS_OBJECT(obj, st) typedef struct st pr_rows_struct_##obj;
#define PR_ROWS_FIELD(obj, key, type, member)
#define PR_ROWS_SUB(obj, key, sub, member)
#define PR_ROWS_ABSENT(obj, member)
#define PR_ROWS_END(obj)
#include "../../src/summary/rows.def"
#undef PR_ROWS_OBJECT
#undef PR_ROWS_FIELD
#undef PR_ROWS_SUB
#undef PR_ROWS_ABSENT
#undef PR_ROWS_END
#define PR_ROWS_OBJECT(obj, st) struct st {
#define PR_ROWS_FIELD(obj, key, type, member) PR_ROWS_C_##type member;
#define PR_ROWS_SUB(obj, key, sub, member) pr_rows_struct_##sub member;
#define PR_ROWS_ABSENT(obj, member) uint64_t member;
#define PR_ROWS_END(obj)                                                       \
    }                                                                          \
    ;
#include "../../src/summary/rows.def"
#undef PR_ROWS_OBJECT
#undef PR_ROWS_FIELD
#undef PR_ROWS_SUB
#undef PR_ROWS_ABSENT
#undef PR_ROWS_END

struct pr_rows_objinfo {
    enum pr_schema_object object; /* schema.def's */
    size_t size;                  /* of its struct */
    const struct pr_rows_field *fields;
    size_t n_fields;
    size_t absent; /* offset of its PR_ROWS_ABSENT mask; SIZE_MAX: none,
                      every field is written and read */
};

/* A typed object's struct, schema object and fields. */
const struct pr_rows_objinfo *pr_rows_object(enum pr_rows_object ro);

/* Where an object has a PR_ROWS_ABSENT mask: leave the field of schema
 * row `row` out of the written row (pr_rows_omit; 0 when the object has
 * no mask or no such field), or whether the row read has it
 * (pr_rows_has: 1 for a field of an object without a mask). */
int pr_rows_omit(enum pr_rows_object ro, void *row, enum pr_schema_rowid id);
int pr_rows_has(enum pr_rows_object ro, const void *row,
                enum pr_schema_rowid id);

/* Append n rows (an array of ro's struct) to arr as objects whose keys
 * come in schema.def's row order.  Returns 0 (and stops) when out of
 * memory, else 1. */
int pr_rows_write(cJSON *arr, enum pr_rows_object ro, const void *rows,
                  size_t n);

/* The same for one row, returned as an object (NULL when out of memory)
 * that the caller may add keys of no row to before adding it. */
cJSON *pr_rows_row(enum pr_rows_object ro, const void *row);

/* The one row written from a work object the analyses filled (a run,
 * which they are handed as a cJSON object and write their parts into with
 * pr_emit_put): in field order, each JSON field's value is work's member
 * under its key, moved in (not copied), else the row's own; so is a field
 * the row leaves out (its mask bit set: a run's operators_source, which
 * one analysis writes), and it stays out where work has no member for it;
 * every other field is the row's (work's member under its key, a copy
 * the analyses read, dropped).  work's members of no field follow, in its
 * order.  work is left empty; NULL when out of memory (the members moved
 * so far are freed, the rest left in work). */
cJSON *pr_rows_row_from(enum pr_rows_object ro, const void *row, cJSON *work);

/* Fill rows (room for cap structs of ro) from arr, the array at path (for
 * messages: "runs[0].memory.operators"): each element an object whose
 * fields are present, of their row's types (a NONNEG row never below 0,
 * an I64 field a whole number); of an object with a PR_ROWS_ABSENT mask,
 * a field whose row is not REQ may be missing (its bit set).  *n: the rows
 * filled.  PR_E_FORMAT with the element's path, the key and what was wrong;
 * PR_E_LIMIT when arr has more than cap elements. */
enum pr_status pr_rows_read(const cJSON *arr, const char *path,
                            enum pr_rows_object ro, void *rows, size_t cap,
                            size_t *n, struct pr_error *err);

/* One single object (a run's attribution) into row, as pr_rows_read reads
 * an element: obj at path ("runs[0].attribution"), an object of its
 * fields.  PR_E_FORMAT with the path, the key and what was wrong. */
enum pr_status pr_rows_read_one(const cJSON *obj, const char *path,
                                enum pr_rows_object ro, void *row,
                                struct pr_error *err);

/* pr_rows_read into rows it allocates (*rows, owned; free()): every
 * element of arr, none where arr is absent or null (a run without the
 * table).  PR_E_NOMEM, or pr_rows_read's faults. */
enum pr_status pr_rows_load(const cJSON *arr, const char *path,
                            enum pr_rows_object ro, void **rows, size_t *n,
                            struct pr_error *err);

/* The number a row holds under `key` (a NUM, NUM_NULL or I64 field as it
 * is, a US field in µs as written): NAN where the row's object has no
 * such field, or the row leaves it out, or it is null.  For readers that
 * pick a column by its key (diff's breakdown categories). */
double pr_rows_num(enum pr_rows_object ro, const void *row, const char *key);

/* Set the NUM, NUM_NULL, I64 or US field under `key` of a row to v (a US
 * field's v in µs), and where the object has a mask, mark it written:
 * for writers whose columns come by key (the data-quality counts the
 * passes note).  0 where the object has no such numeric field. */
int pr_rows_set_num(enum pr_rows_object ro, void *row, const char *key,
                    double v);

/* Read every typed table and single object of a summary (each run's, each
 * job's: wherever its schema path leads; the top itself, its faults named
 * from the top: "job", "inputs[0].bytes") as pr_rows_read and
 * pr_rows_read_one do, keeping nothing: a saved summary's tables and
 * objects are whole and of their rows' types, or the first fault is in err
 * (PR_E_FORMAT, with its path).  The top's and a run's keys may be
 * missing here: which they must hold is the contract's (contract.c). */
enum pr_status pr_rows_check(const cJSON *doc, struct pr_error *err);

/* pr_rows_check for the tables and objects whose schema path is under (or
 * is) `under` ("runs[].copies"); NULL: all. */
enum pr_status pr_rows_check_under(const cJSON *doc, const char *under,
                                   struct pr_error *err);

#endif
