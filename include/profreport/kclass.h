/* kclass.h - kernel classes as data (issue #28): one table of rules from
 * kernel-name patterns to what a kernel is (family: gemm, attention,
 * collective ...), which library made it, what units it computes on
 * (math: tensor cores, MFMA, CUDA cores ...) and, where the name tells,
 * in what precision.  Every judgement that rests on a kernel's name (the
 * tensor-core share, TF32, communication time, findings) reads this one
 * table, so a new library is a new row of data/kernels.json, not code.
 *
 * The table ships as data/kernels.json, compiled in; the installed copy
 * (PR_DATADIR/kernels.json) is read instead when present, so a site can
 * edit it, and a user's file (--kernel-rules FILE or the environment's
 * PROFREPORT_KERNEL_RULES) comes before both.  Rule strings are borrowed
 * from the table and live as long as it does. */
#ifndef PROFREPORT_KCLASS_H
#define PROFREPORT_KCLASS_H

#include <stddef.h>

#include "profreport/error.h"

/* What a kernel does.  UNKNOWN: no rule matched its name. */
enum pr_kfamily {
    PR_KF_UNKNOWN = 0,
    PR_KF_GEMM,
    PR_KF_CONV,
    PR_KF_ATTENTION,
    PR_KF_COLLECTIVE, /* communication: counts as such everywhere */
    PR_KF_COPY,
    PR_KF_ELEMENTWISE,
    PR_KF_REDUCTION,
    PR_KF_NORM,
    PR_KF_OTHER,
    PR_KF_INPUT,     /* the device waiting for the input pipeline (a framework's
                        data-queue tasks): the step's data-loader share */
    PR_KF_EMBEDDING, /* embedding lookups and their gradients: row gathers
                        from a table, scatter-adds into it (memory-bound,
                        never on tensor cores or the Cube) */
    PR_KF_COUNT
};

/* The units a kernel's math runs on.  MATRIX and SIMT are for libraries
 * that run on several vendors' GPUs (Triton, PyTorch's own kernels): the
 * vendor's matrix units, or its scalar/vector lanes, resolved with
 * pr_kclass_math_on() once the device is known. */
enum pr_kmath {
    PR_KM_UNKNOWN = 0,
    PR_KM_TENSOR_CORE, /* NVIDIA tensor cores (HMMA, GMMA, UMMA ...) */
    PR_KM_MFMA,        /* AMD matrix cores (MFMA, WMMA) */
    PR_KM_CUBE,        /* Ascend's Cube unit */
    PR_KM_MATRIX,      /* whichever of the three the device has */
    PR_KM_CUDA_CORE,   /* NVIDIA FFMA / SIMT lanes */
    PR_KM_VECTOR,      /* AMD VALU, Ascend Vector unit */
    PR_KM_SIMT,        /* whichever of the two the device has */
    PR_KM_COUNT
};

/* The precision a kernel's name states (none: it does not say). */
enum pr_kprec {
    PR_KP_NONE = 0,
    PR_KP_FP64,
    PR_KP_FP32,
    PR_KP_TF32,
    PR_KP_FP16,
    PR_KP_BF16,
    PR_KP_FP8_E4M3,
    PR_KP_FP8_E5M2,
    PR_KP_FP8, /* 8-bit float, the variant not named */
    PR_KP_MXFP8,
    PR_KP_MXFP4,
    PR_KP_NVFP4,
    PR_KP_FP4, /* 4-bit float, the scaling not named */
    PR_KP_INT8,
    PR_KP_INT4,
    PR_KP_HF32, /* Ascend: fp32 inputs the Cube ran in HF32 (the producer
                   says so; no kernel name does) */
    PR_KP_COUNT
};

/* How one kernel name was classified; strings borrowed from the table. */
struct pr_kclass {
    const char *rule;         /* the rule's id; NULL: unknown kernel */
    const char *library;      /* "cuBLAS", "NCCL" ...; NULL when unknown */
    const char *source;       /* the public file or doc of the naming */
    const char *collective;   /* collective rules that fix it: "all_to_all",
                                 "all_reduce" ...; NULL: read the name */
    const char *pattern;      /* the pattern of the rule that matched */
    const char *prec_pattern; /* the precision pattern that matched; NULL
                                 when the rule fixes the precision */
    enum pr_kfamily family;
    enum pr_kmath math;
    enum pr_kprec precision;
    enum pr_kprec mma_precision; /* the precision the matrix instruction
                                    ran in: where the name names a wider
                                    operand than precision (bf16 or fp8
                                    activations with fp4 weights), that
                                    one (the table's "mma_precisions"),
                                    else precision */
    int index;      /* the rule's position in the table; -1 unknown */
    int plugin_tc;  /* the TensorBoard plugin's list (10.1) says tensor
                       cores too: tensor_cores_source "plugin" */
    int no_mma;     /* the rule's "no_matrix_math": a kernel of a matrix
                       family (attention's preprocess, dQ convert, split-KV
                       combine) that does no matrix math on any unit */
    int host_polls; /* the rule's "host_polls": the library's host code,
                       after launching the kernel, spins on a counter the
                       kernel writes to mapped host memory, with no
                       runtime call to record that wait */
};

/* A parsed table.  Opaque; free with pr_kclass_table_free(). */
struct pr_kclass_table;

/* The compiled-in copy of data/kernels.json (generated at build time). */
extern const unsigned char pr_kclass_builtin_json[];
extern const size_t pr_kclass_builtin_json_len;

/* Parse a table from JSON text: {"rules": [...], "precisions": [...],
 * "plugin_tensor_core": {...}} as in data/kernels.json (a user's file may
 * hold "rules" and "precisions" only).  NULL with PR_E_FORMAT (the message
 * names the rule and what is wrong with it) or PR_E_NOMEM. */
struct pr_kclass_table *pr_kclass_table_parse(const char *json, size_t len,
                                              struct pr_error *err);

/* Read and parse a table file (at most 1 MiB).  PR_E_IO when it cannot be
 * read; errors are prefixed with the path. */
struct pr_kclass_table *pr_kclass_table_load(const char *path,
                                             struct pr_error *err);

/* The compiled-in table.  PR_E_NOMEM only. */
struct pr_kclass_table *pr_kclass_table_builtin(struct pr_error *err);

/* The table a run uses: user_path's rules (when not NULL) first, then the
 * installed PR_DATADIR/kernels.json when it can be read, else the
 * compiled-in one. */
struct pr_kclass_table *pr_kclass_table_open(const char *user_path,
                                             struct pr_error *err);

void pr_kclass_table_free(struct pr_kclass_table *t); /* accepts NULL */
size_t pr_kclass_table_count(const struct pr_kclass_table *t);

/* Classify one kernel name: the first rule (in table order) that matches
 * it; an unmatched or NULL name gives family UNKNOWN and rule NULL.
 * Cannot fail. */
void pr_kclass_lookup(const struct pr_kclass_table *t, const char *name,
                      struct pr_kclass *out);

/* The first rule after index `after` that names the kernel (-1: from the
 * first, as pr_kclass_lookup but not remembered): the next candidate
 * when a caller cannot take the rule a lookup gave. */
void pr_kclass_lookup_after(const struct pr_kclass_table *t, const char *name,
                            int after, struct pr_kclass *out);

/* The rule at index i (0 <= i < count) as lookup gives it, without the
 * name-dependent fields (precision by name, patterns).  0 out of range. */
int pr_kclass_rule(const struct pr_kclass_table *t, int i,
                   struct pr_kclass *out);

/* 1 for math on a matrix unit (tensor core, MFMA, Cube or MATRIX). */
int pr_kclass_is_matrix(enum pr_kmath m);
/* 1 for math known to run off the matrix units (CUDA core, vector,
 * SIMT). */
int pr_kclass_is_simt(enum pr_kmath m);

/* MATRIX / SIMT made concrete for a device vendor ("nvidia", "amd",
 * "huawei"; NULL or other: left as they are). */
enum pr_kmath pr_kclass_math_on(enum pr_kmath m, const char *vendor);

/* Names as the summary writes them ("gemm", "tensor_core", "fp8_e4m3");
 * NULL for UNKNOWN / NONE / out of range. */
const char *pr_kclass_family_name(enum pr_kfamily f);
const char *pr_kclass_math_name(enum pr_kmath m);
const char *pr_kclass_prec_name(enum pr_kprec p);
/* The reverse; UNKNOWN / NONE for names not in the list. */
enum pr_kfamily pr_kclass_family_of(const char *name);

/* 1 when pattern matches the whole of name: '*' any run of characters,
 * '?' one character, '#' one or more digits (as many as there are),
 * '\' takes the next character literally; case-insensitive unless
 * exact_case.  Exposed for tests. */
int pr_kclass_glob(const char *pattern, const char *name, int exact_case);

#endif
