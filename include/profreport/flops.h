/* flops.h - FLOP and DRAM-byte estimates for one operator call, from the
 * shapes, dtypes and concrete inputs the profiler recorded
 * (spec/flops-and-formats.md §1.2 and §1.4).  Pure functions over text: no
 * allocation, no global state.  Rates and peaks are roofline.h's job.
 *
 * Conventions: one fused multiply-add is 2 FLOPs; "bytes" is the DRAM
 * traffic the op needs with ideal caching; -1 means "not known" (no formula,
 * no shapes, or a value such as a stride that was not recorded) - a number
 * is never guessed. */
#ifndef PROFREPORT_FLOPS_H
#define PROFREPORT_FLOPS_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"

/* Element types, normalised from Kineto's "Input type" strings. */
enum pr_dtype {
    PR_DT_UNKNOWN = 0, /* a type name we do not know */
    PR_DT_NONE,        /* not a tensor: "", Scalar, Int, GenericList, ... */
    PR_DT_FP64,
    PR_DT_FP32,
    PR_DT_TF32, /* never in a trace; roofline uses it for fp32 on TC */
    PR_DT_FP16,
    PR_DT_BF16,
    PR_DT_FP8,
    PR_DT_INT8,
    PR_DT_UINT8,
    PR_DT_INT16,
    PR_DT_INT32,
    PR_DT_INT64,
    PR_DT_BOOL,
    PR_DT_C64,
    PR_DT_C128,
    PR_DT_COUNT
};

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

/* What kind of op the estimate describes; GEMM and conv carry dims for the
 * tensor-core alignment findings (tensorcore.h). */
enum pr_op_class {
    PR_OPC_OTHER = 0,
    PR_OPC_GEMM,      /* output M x N, reduction K (torch convention) */
    PR_OPC_GEMV,      /* mv / addmv / dot: no alignment finding */
    PR_OPC_CONV,      /* forward convolution */
    PR_OPC_CONV_BWD,  /* convolution backward (input and/or weight grad) */
    PR_OPC_ATTENTION, /* scaled dot-product attention, fwd or bwd */
    PR_OPC_MEMORY     /* copies, fills, cat: FLOPs 0 by definition */
};

/* One call, as the trace recorded it.  All strings are borrowed and may be
 * NULL (not recorded). */
struct pr_op_call {
    const char *name;            /* "aten::mm" */
    const char *input_shapes;    /* "[[64, 512], [512, 1000]]" */
    const char *input_types;     /* "[float, float]" or "['float', 'float']" */
    const char *concrete_inputs; /* JSON text: ["", "", "[1, 1]", "1"] */
    double trace_flops;          /* the trace's own "flops" arg; < 0 absent */
};

/* Estimate for one call. */
struct pr_op_cost {
    double flops;        /* per call; -1 unknown */
    double bytes;        /* per call; -1 unknown */
    enum pr_dtype dtype; /* dtype of the first tensor input */
    enum pr_op_class cls;
    const char *family;     /* static text: "gemm", "conv", "softmax", ...;
                               NULL when no formula matched the name */
    int flops_from_trace;   /* flops came from the trace's "flops" arg */
    int64_t m, n, k, batch; /* GEMM: out M x N, reduction K; 0 unknown */
    int64_t conv_n, conv_c, conv_k, groups; /* conv: batch, in/out channels */
};

/* Parse "Input Dims" text (Python or JSON nested lists of ints).  Depth is
 * capped at 3 ([args [tensor-list [dims]]]), dims at PR_SHAPE_MAX_DIMS, args
 * at PR_SHAPE_MAX_ARGS and products are overflow-checked.  PR_E_FORMAT for
 * malformed text, PR_E_LIMIT past a cap. */
PR_NODISCARD enum pr_status pr_flops_parse_shapes(const char *text,
                                                  struct pr_shape_list *out,
                                                  struct pr_error *err);

/* Parse "Input type" text: "[float, c10::Half]" or "['float', '']" or JSON.
 * Fills types[0..*n-1].  PR_E_FORMAT / PR_E_LIMIT as above. */
PR_NODISCARD enum pr_status pr_flops_parse_types(const char *text,
                                                 enum pr_dtype *types,
                                                 size_t cap, size_t *n,
                                                 struct pr_error *err);

/* Parse "Concrete Inputs" JSON text (an array of strings). */
PR_NODISCARD enum pr_status
pr_flops_parse_concrete(const char *text, struct pr_concrete_list *out,
                        struct pr_error *err);

/* One Kineto type name (not NUL-terminated) to a dtype. */
enum pr_dtype pr_flops_dtype_of(const char *s, size_t len);
/* Bytes per element; 0 for PR_DT_NONE / PR_DT_UNKNOWN. */
int pr_flops_dtype_size(enum pr_dtype dt);
/* "fp32", "fp16", "bf16", "tf32", "fp8", "int8", "fp64", ... ; never NULL
 * ("unknown" / "none"). */
const char *pr_flops_dtype_name(enum pr_dtype dt);

/* Estimate one call.  PR_OK with flops/bytes -1 when no formula applies;
 * PR_E_FORMAT / PR_E_LIMIT when the recorded text is malformed (the caller
 * may treat that as unknown).  Never allocates. */
PR_NODISCARD enum pr_status pr_flops_estimate(const struct pr_op_call *call,
                                              struct pr_op_cost *out,
                                              struct pr_error *err);

#endif
