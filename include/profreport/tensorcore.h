/* tensorcore.h - is an operator eligible for tensor cores, and if an
 * eligible op ran without them, why and what to change (tb-plugin-semantics
 * §10; flops-and-formats §1.3).  Whether a kernel ran on them is the kernel
 * table's answer (kclass.h).  Pure functions; roofline.c turns the answers
 * into summary rows. */
#ifndef PROFREPORT_TENSORCORE_H
#define PROFREPORT_TENSORCORE_H

#include <stddef.h>

#include "profreport/flops.h"

/* 1 when the operator may run on tensor cores: the plugin's exact list
 * (§10.2) or, with *heuristic set to 1, our additions (attention, fp8/int8
 * GEMMs, convolution_backward, ...).  heuristic may be NULL. */
int pr_tensorcore_op_eligible(const char *op_name, int *heuristic);

/* 1 when the operator is a matrix-vector product: aten::mv, aten::addmv,
 * or a GEMM whose cost (cost may be NULL) has M or N of 1.  cuBLAS runs
 * these as gemv kernels on CUDA cores: no tensor-core path to miss.  Also
 * 1 for a GEMM whose K is 1, an outer product (rank-1 update): it reads
 * M + N values and writes M x N, memory-bound, nothing for tensor cores
 * to gain. */
int pr_tensorcore_op_gemv(const char *op_name, const struct pr_op_cost *cost);

/* 1 when the operator is one of torch's convolutions by its name alone
 * (native_functions.yaml: aten::conv2d, aten::convolution, aten::_convolution,
 * aten::cudnn_convolution*, aten::convolution_backward, aten::mkldnn_/
 * miopen_/slow_/thnn_conv*, ...; derivatives.yaml's autograd nodes
 * ConvolutionBackward0, CudnnConvolutionBackward, SlowConv2DBackward0, ...),
 * for a trace that recorded no shapes: its kernels follow
 * torch.backends.cudnn.allow_tf32, not the matmul switch. */
int pr_tensorcore_op_is_conv(const char *op_name);

/* Why an eligible op ran without tensor cores, in the order they are
 * checked (the first that applies is the one reported). */
enum pr_tc_reason {
    PR_TCR_UNKNOWN = 0, /* shapes and dtype look fine: library's choice */
    PR_TCR_OLD_GPU,     /* NVIDIA compute capability < 7.0 */
    PR_TCR_CHANNELS,    /* a convolution with too few input channels */
    PR_TCR_FP32,        /* fp32 before Ampere: no TF32 at all */
    PR_TCR_TF32_MATMUL, /* fp32 matmul, matmul TF32 off (the default) */
    PR_TCR_TF32_CUDNN,  /* fp32 conv, cuDNN TF32 apparently turned off */
    PR_TCR_FP32_ALGO,   /* fp32, TF32 on in this run, a CUDA-core kernel */
    PR_TCR_FP32_AMD,    /* fp32 on an AMD GPU that missed the MFMA units */
    PR_TCR_FP64,        /* fp64 inputs */
    PR_TCR_DTYPE_GPU,   /* bf16 before 8.0, fp8 before 8.9 / gfx942 */
    PR_TCR_DTYPE,       /* an integer/bool/complex type without a TC path */
    PR_TCR_NO_DTYPE,    /* input types were not recorded */
    PR_TCR_ALIGN,       /* a dimension is not a multiple of 8 (16) */
    PR_TCR_HF32_MATMUL, /* Ascend: fp32 matmul without HF32 (matmul HF32
                           is off by default) */
    PR_TCR_HF32_CONV,   /* Ascend: fp32 convolution without HF32 (on by
                           default, so it was turned off) */
    PR_TCR_FP32_MTE2,   /* Ascend: fp32 on the Cube without HF32, its
                           tasks mte2 bound: fewer bytes, not HF32 */
    PR_TCR_FP32_KERNEL, /* fp32 GEMMs an operator not eligible launched
                           (a compiled graph's), shown by their kernels'
                           names (issue #28) */
    PR_TCR_PART_OFF     /* an operator that used tensor cores for part of
                           its work and CUDA cores (fp32 kernels, FFT) for
                           a large share of the rest (review 28g #7) */
};

#define PR_TC_TEXT_SIZE 512

struct pr_tc_diag {
    enum pr_tc_reason reason;
    char text[PR_TC_TEXT_SIZE];   /* "K=1001 not a multiple of 8" */
    char advice[PR_TC_TEXT_SIZE]; /* "pad K from 1001 to 1008" */
};

/* What the run tells about the GPU and its math modes. */
struct pr_tc_context {
    int cc_major, cc_minor; /* NVIDIA compute capability; -1 unknown */
    int amd;                /* an AMD GPU (CDNA/RDNA): matrix cores, and
                               cc_major/minor are a gfx version, not a CC */
    int tf32_matmul;        /* a GEMM kernel of this run used TF32 */
    int tf32_conv;          /* a convolution kernel of this run used TF32 */
    /* the op's own fp32 GEMM/conv kernel that ran on CUDA cores (FFMA, by
     * the kernel table), named as the finding's evidence; NULL: none */
    const char *fp32_kernel;
    int no_types; /* the format records no input types (an Nsight Systems
                     export): advice cannot be to record them */
};

/* Stable id of a reason ("tf32_matmul_off", "channels", ...), for the
 * summary and for tests. */
const char *pr_tensorcore_reason_id(enum pr_tc_reason r);

/* Explain an eligible op (cost from pr_flops_estimate) that ran without TC
 * kernels.  ctx may be NULL (nothing known).  Never fails; out->text and
 * out->advice are always set. */
void pr_tensorcore_diagnose(const struct pr_op_cost *cost,
                            const struct pr_tc_context *ctx,
                            struct pr_tc_diag *out);

/* Ascend's analog for an fp32 matmul or convolution (cost->dtype fp32,
 * cost->cls a GEMM or convolution): the Cube computes fp32 only as HF32,
 * which torch_npu allows per op kind.  hf32 is what the producer recorded
 * for the op's tasks ("HF32 Eligible"): 1 yes, 0 no, -1 not recorded.
 * Returns 1 and fills out when the op ran (or, unrecorded, by default
 * runs) without HF32; 0 for other ops and for HF32 that was on. */
int pr_tensorcore_diagnose_hf32(const struct pr_op_cost *cost, int hf32,
                                struct pr_tc_diag *out);

/* An HF32 finding (pr_tensorcore_diagnose_hf32) told with what its tasks'
 * counters show: on_cube_pct of their time ran on the Cube (NaN: not
 * known), their time-weighted aic_mte2_ratio (NaN: not recorded).  Tasks
 * on the Cube say so; tasks at mte2_bound or more wait on loading their
 * inputs, so the finding becomes PR_TCR_FP32_MTE2: bf16 halves the bytes,
 * HF32 speeds only the math. */
void pr_tensorcore_hf32_context(struct pr_tc_diag *d, double on_cube_pct,
                                double mte2_ratio, double mte2_bound);

/* The alignment check alone (GEMM M/N/K, conv channels, attention head
 * dim) for ops that may well be on tensor cores already: 1 and the texts
 * filled when a dimension is not a multiple of 8 (16 for int8/fp8), else 0.
 * Only 16-bit and 8-bit dtypes are checked. */
int pr_tensorcore_misaligned(const struct pr_op_cost *cost,
                             struct pr_tc_diag *out);

/* The finding of an operator that is not eligible but launched fp32
 * GEMM/conv kernels on CUDA cores (issue #28): a torch.compile graph's
 * CompiledFunction / CompiledFunctionBackward by name, any other
 * operator in general words, citing kernel (its longest; may be NULL);
 * the fix for the GPU (cc_major: NVIDIA
 * compute capability, -1 unknown; amd: an AMD GPU). */
void pr_tensorcore_diagnose_kernels(const char *op, const char *kernel,
                                    int cc_major, int amd,
                                    struct pr_tc_diag *out);

/* The kernels of one kind (fp32 CUDA-core GEMM/conv, or FFT
 * convolution) an operator ran off tensor cores: their time and up to
 * PR_TC_OFF_NAMES of their names (trace strings, borrowed). */
#define PR_TC_OFF_NAMES 4

struct pr_tc_off {
    double us;
    const char *names[PR_TC_OFF_NAMES];
    size_t n_names;
};

/* An eligible operator that ran part of its work on tensor cores and
 * off_us of its self_us on CUDA cores (review 28g #7: alexnet's
 * aten::cudnn_convolution, 3.26 of 5.08 ms in an fp32 scudnn kernel and
 * an FFT): the time, the kernels (simt: fp32 GEMM/conv; fft: FFT
 * convolution) and, for a convolution (conv), cuDNN's benchmark mode,
 * which times the tensor-core algorithms its heuristic passed over;
 * tf32: the operator's other kernels used TF32. */
void pr_tensorcore_diagnose_part(double off_us, double self_us,
                                 const struct pr_tc_off *simt,
                                 const struct pr_tc_off *fft, int conv,
                                 int tf32, struct pr_tc_diag *out);

#endif
