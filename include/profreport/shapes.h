/* shapes.h - the inputs of an operator call as the model keeps them: the
 * shapes ("Input Dims"), element types ("Input type") and concrete values
 * ("Concrete Inputs") a producer recorded.  Ingest hands each distinct
 * text to pr_shapes_note() once; it is parsed then and kept compactly in
 * the trace (int64 dims, one byte per dtype), keyed by the text's string
 * id.  Analyses (flops.c) expand a call's inputs into the fixed-size lists
 * below.  The texts stay in the trace as well: the summary shows them as
 * recorded ("[[32, 3], []]", "[float, c10::Half]").
 *
 * The text grammar is Kineto's as the model stores it: Python or JSON
 * nested lists of non-negative integers for shapes (a TensorList is a list
 * of lists), a list of type names (quoted or bare) for types, a JSON array
 * of strings for concrete inputs.  Producers whose shapes are no text
 * (SQLite columns, ";"-separated Ascend strings) build the canonical text
 * and note it the same way. */
#ifndef PROFREPORT_SHAPES_H
#define PROFREPORT_SHAPES_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/dtype.h"
#include "profreport/error.h"
#include "profreport/trace.h"

#define PR_SHAPE_MAX_ARGS 64 /* inputs per op */
#define PR_SHAPE_MAX_DIMS 8  /* dims per tensor (and ints per concrete list) */

/* One entry of "Input Dims". */
struct pr_shape_arg {
    int ndim;      /* dims of a tensor; 0 for [] (scalar or non-tensor) */
    int is_list;   /* a TensorList: [[..], [..]] */
    int n_members; /* tensors in a TensorList */
    int64_t dims[PR_SHAPE_MAX_DIMS]; /* tensor dims (first member of a list) */
    int64_t numel; /* product of dims (1 for []); sum over list members */
};

struct pr_shape_list {
    size_t n;
    struct pr_shape_arg arg[PR_SHAPE_MAX_ARGS];
};

/* One dtype per entry of "Input type". */
struct pr_dtype_list {
    size_t n;
    enum pr_dtype t[PR_SHAPE_MAX_ARGS];
};

/* One entry of "Concrete Inputs" (strings such as "", "1", "[2, 2]",
 * "False", "0.5"). */
enum pr_concrete_kind {
    PR_CI_NONE = 0, /* "" (a tensor) or text we do not read */
    PR_CI_INT,      /* v[0] */
    PR_CI_FLOAT,    /* f */
    PR_CI_BOOL,     /* v[0] is 0 or 1 */
    PR_CI_LIST      /* v[0..n-1]; True/False read as 1/0 (is_bool set) */
};

struct pr_concrete_arg {
    enum pr_concrete_kind kind;
    int n;
    int is_bool;
    int64_t v[PR_SHAPE_MAX_DIMS];
    double f;
};

struct pr_concrete_list {
    size_t n;
    struct pr_concrete_arg arg[PR_SHAPE_MAX_ARGS];
};

/* One call's inputs, expanded for the formulas. */
struct pr_op_inputs {
    enum pr_status st; /* PR_OK, or PR_E_FORMAT / PR_E_LIMIT for the first
                          recorded text (dims, types, concrete) that did not
                          parse; the lists are then not to be used */
    int has_shapes, has_types, has_concrete; /* the text was recorded */
    int has_strides; /* pr_shapes_get_strides() read "Input Strides" */
    struct pr_shape_list shapes;
    struct pr_dtype_list types;
    struct pr_concrete_list concrete;
    struct pr_shape_list strides; /* one entry per input, as shapes
                                     (an entry's numel means nothing) */
};

/* Which text a string id is, for pr_shapes_note(). */
enum pr_shapes_what {
    PR_SHAPES_DIMS,
    PR_SHAPES_TYPES,
    PR_SHAPES_CONCRETE,
    PR_SHAPES_N_WHAT
};

/* Parse the three texts.  Depth of shapes is capped at 3 ([args
 * [tensor-list [dims]]]), dims at PR_SHAPE_MAX_DIMS, entries at
 * PR_SHAPE_MAX_ARGS, and products are overflow-checked.  PR_E_FORMAT for
 * malformed text, PR_E_LIMIT past a cap. */
PR_NODISCARD enum pr_status pr_shapes_parse_dims(const char *text,
                                                 struct pr_shape_list *out,
                                                 struct pr_error *err);
PR_NODISCARD enum pr_status pr_shapes_parse_types(const char *text,
                                                  struct pr_dtype_list *out,
                                                  struct pr_error *err);
PR_NODISCARD enum pr_status
pr_shapes_parse_concrete(const char *text, struct pr_concrete_list *out,
                         struct pr_error *err);

/* Ingest: parse the text of string id `text` as `what` and keep it, once
 * per distinct (what, text); PR_STR_NONE is ignored.  A text that does not
 * parse is kept with its status.  Fails only with PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_shapes_note(struct pr_trace *t, enum pr_shapes_what what, uint32_t text);
/* Whether ingest noted (what, text); for tests. */
int pr_shapes_noted(const struct pr_trace *t, enum pr_shapes_what what,
                    uint32_t text);

/* Analyses: the inputs of a call from its string ids (PR_STR_NONE: not
 * recorded).  A text no one noted is parsed on the spot.  Cannot fail;
 * out->st says whether the texts parsed. */
void pr_shapes_get(const struct pr_trace *t, uint32_t dims, uint32_t types,
                   uint32_t concrete, struct pr_op_inputs *out);
/* The same from texts (NULL: not recorded), as a summary holds them: the
 * trace's parsed form when t (may be NULL) holds the text, else parsed
 * now (a summary read without its trace). */
void pr_shapes_get_text(const struct pr_trace *t, const char *dims,
                        const char *types, const char *concrete,
                        struct pr_op_inputs *out);

/* Add a call's "Input Strides" text (NULL: not recorded) to out, after
 * pr_shapes_get() or pr_shapes_get_text(): it has the grammar of shapes
 * and is parsed as one (at ingest when noted).  A text that does not
 * parse leaves has_strides 0: strides only refine the bytes. */
void pr_shapes_get_strides(const struct pr_trace *t, const char *text,
                           struct pr_op_inputs *out);

/* The trace's table (model-internal; pr_trace_free() calls it). */
void pr_shapes_table_free(struct pr_shapes_table *s);

#endif
