/* dtype.h - element types as profreport knows them, whatever a producer
 * calls them: Kineto's "float" and "c10::Half", Ascend's "FLOAT16" and
 * "DT_BF16" all map here.  Plain data and pure functions; none can fail. */
#ifndef PROFREPORT_DTYPE_H
#define PROFREPORT_DTYPE_H

#include <stddef.h>

/* Values are stable (the model stores them in a byte). */
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

/* A producer's type name (not NUL-terminated) to a dtype: Kineto's "Input
 * type" strings (spec/flops-and-formats.md §1.1); PR_DT_UNKNOWN for names
 * we do not know. */
enum pr_dtype pr_dtype_of(const char *s, size_t len);
/* Bytes per element; 0 for PR_DT_NONE / PR_DT_UNKNOWN. */
int pr_dtype_size(enum pr_dtype dt);
/* "fp32", "fp16", "bf16", "tf32", "fp8", "int8", "fp64", ...; never NULL
 * ("unknown" / "none"). */
const char *pr_dtype_name(enum pr_dtype dt);

#endif
