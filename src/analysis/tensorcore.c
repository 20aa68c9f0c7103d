/* tensorcore.c - tensor-core detection by kernel name, op eligibility, and
 * the reason-and-fix text for eligible ops that missed tensor cores.  The
 * plugin's lists are kept verbatim for parity; our additions are reported
 * as heuristic.  Aggregation over a run is roofline.c's job. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "profreport/tensorcore.h"

/* tb-plugin-semantics §10.1, verbatim (case-sensitive substrings). */
static const char *const plugin_kernel_patterns[] = {
    "h884",
    "s884",
    "h1688",
    "s1688",
    "hmma",
    "i8816",
    "16816",
    "dgrad_1x1_stride_2x2",
    "first_layer_wgrad_kernel",
    "conv1x1",
    "conv2d_c1_k1",
    "direct_group",
    "xmma_implicit_gemm",
    "xmma_sparse_conv",
    "xmma_warp_specialized_implicit_gemm",
    "xmma_gemm",
    "xmma_sparse_gemm",
    "c1688",
};

/* flops-and-formats §1.3 [profreport ext]: Ampere/Hopper-era names the
 * plugin list misses (CUTLASS tensorop, cuBLASLt nvjet, Hopper wgmma,
 * FlashAttention, int8 imma). */
static const char *const ext_kernel_patterns[] = {
    "wgmma",     "gmma",      "sm90_xmma", "sm80_xmma", "tensorop",
    "s16816",    "h16816",    "bf16816",   "imma",      "nvjet",
    "flash_fwd", "flash_bwd", "fmha",      "xmma",
};

/* tb-plugin-semantics §10.2, verbatim (exact names). */
static const char *const plugin_ops[] = {
    "aten::_convolution",
    "aten::conv1d",
    "aten::conv2d",
    "aten::conv3d",
    "aten::conv_tbc",
    "aten::conv_transpose1d",
    "aten::conv_transpose2d",
    "aten::conv_transpose3d",
    "aten::convolution",
    "aten::cudnn_convolution",
    "aten::cudnn_convolution_transpose",
    "aten::prelu",
    "aten::addmm",
    "aten::addmv",
    "aten::addr",
    "aten::matmul",
    "aten::mm",
    "aten::mv",
    "aten::linear",
    "aten::addbmm",
    "aten::baddbmm",
    "aten::bmm",
    "aten::chain_matmul",
    "aten::linalg_multi_dot",
    "aten::_thnn_fused_lstm_cell",
    "aten::_thnn_fused_gru_cell",
    "aten::lstm_cell",
    "aten::gru_cell",
    "aten::rnn_tanh_cell",
    "aten::rnn_relu_cell",
    "CudnnConvolutionBackward",
    "BmmBackward0",
    "aten::cudnn_convolution_transpose_backward",
    "CudnnConvolutionTransposeBackward",
    "MmBackward",
    "aten::cudnn_convolution_backward_weight",
    "aten::addmm_",
    "AddmvBackward",
    "MvBackward",
    "aten::cudnn_convolution_transpose_backward_weight",
    "aten::cudnn_convolution_transpose_backward_input",
    "AddmmBackward",
    "aten::cudnn_convolution_backward_input",
    "AddbmmBackward",
    "aten::cudnn_convolution_backward",
};

/* [profreport ext] ops that reach cuBLAS/cuDNN/attention kernels in
 * current PyTorch but are not on the plugin's (2021) list. */
static const char *const ext_ops[] = {
    "aten::convolution_backward",
    "aten::scaled_dot_product_attention",
    "aten::_scaled_dot_product_flash_attention",
    "aten::_scaled_dot_product_efficient_attention",
    "aten::_scaled_dot_product_cudnn_attention",
    "aten::_scaled_dot_product_flash_attention_backward",
    "aten::_scaled_dot_product_efficient_attention_backward",
    "aten::_scaled_dot_product_cudnn_attention_backward",
    "aten::_flash_attention_forward",
    "aten::_flash_attention_backward",
    "aten::_efficient_attention_forward",
    "aten::_efficient_attention_backward",
    "aten::_addmm_activation",
    "aten::_scaled_mm",
    "aten::_int_mm",
    "aten::cudnn_convolution_relu",
    "aten::cudnn_convolution_add_relu",
    "aten::bmm_",
    "aten::baddbmm_",
    "aten::mm_",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static int
has_any(const char *s, const char *const *pats, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (strstr(s, pats[i]))
            return 1;
    }
    return 0;
}

/* xmma/sm80_xmma kernels also come in plain-fp32 SIMT flavours
 * ("..._f32f32_f32f32_f32_...") that run on CUDA cores when TF32 is off. */
static int
is_fp32_simt(const char *name)
{
    return strstr(name, "f32f32_f32f32") && !strstr(name, "tf32");
}

enum pr_tc_source
pr_tensorcore_kernel(const char *kernel_name)
{
    if (!kernel_name)
        return PR_TC_NONE;
    if (has_any(kernel_name, plugin_kernel_patterns,
                N_OF(plugin_kernel_patterns)))
        return PR_TC_PLUGIN;
    if (has_any(kernel_name, ext_kernel_patterns, N_OF(ext_kernel_patterns)) &&
        !is_fp32_simt(kernel_name))
        return PR_TC_HEURISTIC;
    return PR_TC_NONE;
}

static int
in_list(const char *s, const char *const *names, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (strcmp(s, names[i]) == 0)
            return 1;
    }
    return 0;
}

int
pr_tensorcore_op_eligible(const char *op_name, int *heuristic)
{
    if (heuristic)
        *heuristic = 0;
    if (!op_name)
        return 0;
    if (in_list(op_name, plugin_ops, N_OF(plugin_ops)))
        return 1;
    if (!in_list(op_name, ext_ops, N_OF(ext_ops)))
        return 0;
    if (heuristic)
        *heuristic = 1;
    return 1;
}

/* ------------------------------------------------------------ explanations */

static void
say(struct pr_tc_diag *out, enum pr_tc_reason r, const char *text,
    const char *advice)
{
    out->reason = r;
    snprintf(out->text, sizeof(out->text), "%s", text);
    snprintf(out->advice, sizeof(out->advice), "%s", advice);
}

/* Appends "X=v" to the reason and "pad X from v to v'" to the advice when v
 * is not a multiple of `mult`. */
static int
check_dim(struct pr_tc_diag *out, const char *what, long long v, int mult,
          int n_bad)
{
    size_t lt = strlen(out->text), la = strlen(out->advice);
    long long up;

    if (v <= 0 || v % mult == 0)
        return n_bad;
    up = (v + mult - 1) / mult * mult;
    snprintf(out->text + lt, sizeof(out->text) - lt, "%s%s=%lld",
             n_bad ? ", " : "", what, v);
    snprintf(out->advice + la, sizeof(out->advice) - la,
             "%spad %s from %lld to %lld", n_bad ? "; " : "", what, v, up);
    return n_bad + 1;
}

static int
align_mult(enum pr_dtype dt)
{
    switch (dt) {
    case PR_DT_FP16:
    case PR_DT_BF16:
        return 8;
    case PR_DT_INT8:
    case PR_DT_UINT8:
    case PR_DT_FP8:
        return 16;
    default:
        return 0;
    }
}

int
pr_tensorcore_misaligned(const struct pr_op_cost *cost, struct pr_tc_diag *out)
{
    int mult = align_mult(cost->dtype), n = 0;
    long long g = cost->groups > 0 ? cost->groups : 1;
    size_t lt;

    memset(out, 0, sizeof(*out));
    if (!mult)
        return 0;
    if (cost->cls == PR_OPC_GEMM) {
        n = check_dim(out, "M", cost->m, mult, n);
        n = check_dim(out, "N", cost->n, mult, n);
        n = check_dim(out, "K", cost->k, mult, n);
    } else if (cost->cls == PR_OPC_CONV || cost->cls == PR_OPC_CONV_BWD) {
        n = check_dim(out, "C", cost->conv_c / g, mult, n);
        n = check_dim(out, "K", cost->conv_k / g, mult, n);
    } else if (cost->cls == PR_OPC_ATTENTION) {
        n = check_dim(out, "head_dim", cost->k, mult, n);
    }
    if (!n)
        return 0;
    out->reason = PR_TCR_ALIGN;
    lt = strlen(out->text);
    snprintf(out->text + lt, sizeof(out->text) - lt, " not %s of %d",
             n > 1 ? "multiples" : "a multiple", mult);
    if (cost->cls == PR_OPC_CONV || cost->cls == PR_OPC_CONV_BWD) {
        lt = strlen(out->advice);
        snprintf(out->advice + lt, sizeof(out->advice) - lt,
                 " (channels; and use channels_last memory format)");
    }
    return 1;
}

/* Reasons that come from the dtype and the GPU, before alignment. */
static int
dtype_reason(enum pr_dtype dt, int major, int minor, struct pr_tc_diag *out)
{
    int cc = major * 10 + minor, known = major >= 0;

    switch (dt) {
    case PR_DT_FP32:
        if (known && major < 8)
            say(out, PR_TCR_FP32,
                "fp32 inputs (no TF32 before compute "
                "capability 8.0)",
                "enable AMP: torch.autocast(\"cuda\", "
                "dtype=torch.float16) with a GradScaler");
        else
            say(out, PR_TCR_FP32, "fp32 inputs and TF32 disabled",
                "enable AMP (torch.autocast) or set "
                "torch.backends.cuda.matmul.allow_tf32 = True");
        return 1;
    case PR_DT_FP64:
        say(out, PR_TCR_FP64, "fp64 inputs",
            "use fp32 with AMP unless the model needs fp64");
        return 1;
    case PR_DT_BF16:
        if (!known || cc >= 80)
            return 0;
        say(out, PR_TCR_DTYPE_GPU, "bf16 needs compute capability 8.0",
            "use torch.autocast(\"cuda\", dtype=torch.float16) on this GPU");
        return 1;
    case PR_DT_FP8:
        if (!known || cc >= 89)
            return 0;
        say(out, PR_TCR_DTYPE_GPU, "fp8 needs compute capability 8.9",
            "use fp16 or bf16 on this GPU");
        return 1;
    case PR_DT_UNKNOWN:
    case PR_DT_NONE:
        say(out, PR_TCR_NO_DTYPE, "input types not recorded",
            "profile with record_shapes=True to see dtypes and shapes");
        return 1;
    case PR_DT_FP16:
    case PR_DT_INT8:
    case PR_DT_UINT8:
        return 0;
    default:
        say(out, PR_TCR_DTYPE, "no tensor-core path for this dtype",
            "cast to fp16/bf16 (AMP) where precision allows");
        return 1;
    }
}

void
pr_tensorcore_diagnose(const struct pr_op_cost *cost, int cc_major,
                       int cc_minor, struct pr_tc_diag *out)
{
    char text[PR_TC_TEXT_SIZE];

    memset(out, 0, sizeof(*out));
    if (cc_major >= 0 && cc_major < 7) {
        snprintf(text, sizeof(text),
                 "compute capability %d.%d has no "
                 "tensor cores",
                 cc_major, cc_minor < 0 ? 0 : cc_minor);
        say(out, PR_TCR_OLD_GPU, text,
            "run on a GPU with compute capability 7.0 or newer");
        return;
    }
    if (dtype_reason(cost->dtype, cc_major, cc_minor, out))
        return;
    if (pr_tensorcore_misaligned(cost, out))
        return;
    say(out, PR_TCR_UNKNOWN,
        "dtype and shapes are eligible but no "
        "tensor-core kernel ran",
        "small shapes may favour non-tensor-core "
        "kernels; for convolutions try torch.backends.cudnn.benchmark = True");
}
