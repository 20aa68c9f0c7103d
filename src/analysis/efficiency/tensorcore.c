/* tensorcore.c - which ops are eligible for tensor (NVIDIA) or matrix
 * (AMD) cores, and the reason-and-fix text for eligible ops that missed
 * them.  The plugin's op list is kept verbatim for parity; our additions
 * are reported as heuristic.  Which kernels ran on the matrix units is the
 * kernel table's (kclass.h); aggregation over a run is roofline.c's. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "profreport/shorten.h"
#include "profreport/tensorcore.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

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

int
pr_tensorcore_op_gemv(const char *op_name, const struct pr_op_cost *cost)
{
    if (op_name != NULL && (strcmp(op_name, "aten::mv") == 0 ||
                            strcmp(op_name, "aten::addmv") == 0))
        return 1;
    if (cost == NULL || !(cost->m > 0 && cost->n > 0))
        return 0;
    /* K = 1: an outer product (a rank-1 update), as memory-bound as a
       GEMV: its bytes, not its flops, set its time (issue #29 #2) */
    return (cost->cls == PR_OPC_GEMV && (cost->m == 1 || cost->n == 1)) ||
           (cost->cls == PR_OPC_GEMM && cost->k == 1);
}

int
pr_tensorcore_op_is_conv(const char *op_name)
{
    const char *s;

    if (op_name == NULL)
        return 0;
    if (strncmp(op_name, "aten::", 6) != 0)
        return strstr(op_name, "Conv") != NULL &&
               strstr(op_name, "Backward") != NULL &&
               strstr(op_name, "Convert") == NULL;
    for (s = op_name + 6; *s == '_';)
        s++;
    if (strncmp(s, "convert", 7) == 0)
        return 0; /* aten::_convert_indices_from_coo_to_csr, ... */
    return strncmp(s, "conv", 4) == 0 || strstr(s, "_conv") != NULL;
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

static const char *const reason_ids[] = {
    "unknown",
    "old_gpu",
    "channels",
    "fp32_pre_ampere",
    "tf32_matmul_off",
    "tf32_cudnn_off",
    "fp32_algorithm",
    "fp32_amd",
    "fp64",
    "dtype_gpu",
    "dtype",
    "no_dtype",
    "align",
    "hf32_matmul_off",
    "hf32_conv_off",
    "fp32_mte2_bound",
    "fp32_gemm_kernels",
    "partly_cuda_cores",
};

const char *
pr_tensorcore_reason_id(enum pr_tc_reason r)
{
    return (int)r >= 0 && (size_t)r < N_OF(reason_ids) ? reason_ids[r]
                                                       : "unknown";
}

static int
is_conv(const struct pr_op_cost *cost)
{
    return cost->cls == PR_OPC_CONV || cost->cls == PR_OPC_CONV_BWD;
}

/* A convolution whose input channels (per group) are too few for the
 * tensor-core kernels: a first layer on RGB images, whatever its dtype
 * (TF32 does not help it either). */
static int
channels_reason(const struct pr_op_cost *cost, struct pr_tc_diag *out)
{
    long long g = cost->groups > 0 ? cost->groups : 1;
    long long c = cost->conv_c / g;
    char text[PR_TC_TEXT_SIZE], advice[PR_TC_TEXT_SIZE];

    if (!is_conv(cost) || c <= 0 || c >= 8)
        return 0;
    snprintf(text, sizeof(text),
             "%lld input channel%s: too few for tensor-core convolution "
             "kernels (they need a multiple of 8)",
             c, c == 1 ? "" : "s");
    snprintf(advice, sizeof(advice),
             "pad the input from %lld to 8 channels with zeros (4 can do "
             "for cuDNN's NHWC fp16 kernels) and use channels_last; a "
             "first layer is usually a small share of the step",
             c);
    say(out, PR_TCR_CHANNELS, text, advice);
    return 1;
}

#define AMP_BF16                                                               \
    "use AMP with bf16: torch.autocast(\"cuda\", dtype=torch.bfloat16)"

/* fp32 on NVIDIA Ampere and newer: which switch governs this op, and
 * whether this run shows it on (kernels of the same kind used TF32). */
static void
fp32_nvidia(const struct pr_op_cost *cost, const struct pr_tc_context *ctx,
            struct pr_tc_diag *out)
{
    int conv = is_conv(cost);

    if (!conv && ctx->tf32_conv && !ctx->tf32_matmul) {
        /* cuDNN's TF32 says nothing of the matmul switch (review 13 #1) */
        say(out, PR_TCR_TF32_MATMUL,
            "fp32 matmul with TF32 probably off (the default since PyTorch "
            "1.12): the run's TF32 kernels are cuDNN convolutions, which "
            "torch.backends.cudnn.allow_tf32 governs instead",
            "torch.set_float32_matmul_precision(\"high\") (same as "
            "torch.backends.cuda.matmul.allow_tf32 = True), or " AMP_BF16);
        return;
    }
    if (conv ? ctx->tf32_conv : ctx->tf32_matmul) {
        say(out, PR_TCR_FP32_ALGO,
            conv ? "fp32 convolution on CUDA cores although cuDNN ran "
                   "TF32 kernels elsewhere in this run (TF32 is on): "
                   "cuDNN chose a CUDA-core algorithm for this shape"
                 : "fp32 matmul on CUDA cores although TF32 matmuls ran "
                   "elsewhere in this run (TF32 is on): the library chose "
                   "a CUDA-core kernel for this shape",
            conv ? "try torch.backends.cudnn.benchmark = True and "
                   "channels_last, or " AMP_BF16
                 : "small or odd shapes favour CUDA-core kernels; batch "
                   "them or " AMP_BF16);
        return;
    }
    if (conv)
        say(out, PR_TCR_TF32_CUDNN,
            "fp32 convolution without TF32: torch.backends.cudnn."
            "allow_tf32 is True by default, and no convolution of this "
            "run used TF32, so it was probably set False",
            "keep torch.backends.cudnn.allow_tf32 = True (the default), "
            "or " AMP_BF16);
    else
        say(out, PR_TCR_TF32_MATMUL,
            "fp32 matmul with TF32 off: torch.backends.cuda.matmul."
            "allow_tf32 is False by default (since PyTorch 1.12)",
            "torch.set_float32_matmul_precision(\"high\") (same as "
            "torch.backends.cuda.matmul.allow_tf32 = True), or " AMP_BF16);
}

/* fp32 that missed the MFMA units of an AMD GPU.  CDNA has fp32 matrix
 * instructions but no TF32; MI300's xf32 is not used unless asked for. */
static void
fp32_amd(struct pr_tc_diag *out)
{
    say(out, PR_TCR_FP32_AMD,
        "fp32 on vector ALUs: the kernel has no MFMA (matrix core) path "
        "for this shape; CDNA has no TF32 to fall back on",
        AMP_BF16 " (or float16): CDNA's 16-bit matrix rate is 4-8x its "
                 "fp32 rate");
}

/* The kernel that shows the op ran fp32 on CUDA cores, appended to the
 * reason: "...; its kernel dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>
 * runs on CUDA cores", the name in the shortener's form, as every table
 * shows it (review 25g #8: the demangled signature cut at a byte count,
 * "void cudnn::detail::dgrad_engine<...>(int, int, ..., unsigned long
 * long, i..."). */
static void
cite_kernel(struct pr_tc_diag *out, const char *kernel)
{
    size_t lt = strlen(out->text);
    size_t room = sizeof(out->text) - lt;
    const char *tail = " runs on CUDA cores";
    size_t fixed = strlen("; its kernel ") + strlen(tail) + 1;
    char name[PR_SHORTEN_CAP(80)];

    if (kernel == NULL || room <= fixed + 16)
        return;
    /* the kernel tables' short form, whatever room is left: a whole
       signature ("void flip_filter<float, float>(float*, ...)") says
       nothing more (review 29 #5, once the text grew to 512 bytes) */
    pr_shorten(kernel, room - fixed < 44 ? room - fixed : 44, name,
               sizeof(name));
    snprintf(out->text + lt, room, "; its kernel %s%s", name, tail);
}

static int
fp32_reason(const struct pr_op_cost *cost, const struct pr_tc_context *ctx,
            struct pr_tc_diag *out)
{
    if (ctx->amd) {
        fp32_amd(out);
        return 1;
    }
    if (ctx->cc_major >= 0 && ctx->cc_major < 8) {
        say(out, PR_TCR_FP32,
            "fp32 inputs (no TF32 before compute capability 8.0)",
            "enable AMP: torch.autocast(\"cuda\", dtype=torch.float16) "
            "with a GradScaler");
        cite_kernel(out, ctx->fp32_kernel);
        return 1;
    }
    fp32_nvidia(cost, ctx, out);
    cite_kernel(out, ctx->fp32_kernel);
    return 1;
}

/* 16- and 8-bit types the GPU cannot run on its matrix units. */
static int
low_precision_reason(enum pr_dtype dt, const struct pr_tc_context *ctx,
                     struct pr_tc_diag *out)
{
    int cc = ctx->cc_major * 10 + ctx->cc_minor;
    int known = ctx->cc_major >= 0 && !ctx->amd;

    if (dt == PR_DT_BF16 && known && cc < 80) {
        say(out, PR_TCR_DTYPE_GPU, "bf16 needs compute capability 8.0",
            "use torch.autocast(\"cuda\", dtype=torch.float16) on this GPU");
        return 1;
    }
    if (dt == PR_DT_FP8 && known && cc < 89) {
        say(out, PR_TCR_DTYPE_GPU, "fp8 needs compute capability 8.9",
            "use fp16 or bf16 on this GPU");
        return 1;
    }
    if (dt == PR_DT_FP8 && ctx->amd && ctx->cc_major >= 0 &&
        ctx->cc_major * 10 + ctx->cc_minor < 94) {
        say(out, PR_TCR_DTYPE_GPU, "fp8 matrix cores need CDNA 3 (gfx942)",
            "use bf16 or fp16 on this GPU");
        return 1;
    }
    return 0;
}

/* Reasons that come from the dtype and the GPU, before alignment. */
static int
dtype_reason(const struct pr_op_cost *cost, const struct pr_tc_context *ctx,
             struct pr_tc_diag *out)
{
    switch (cost->dtype) {
    case PR_DT_FP32:
        return fp32_reason(cost, ctx, out);
    case PR_DT_FP64:
        say(out, PR_TCR_FP64, "fp64 inputs",
            "use fp32 with AMP unless the model needs fp64");
        return 1;
    case PR_DT_UNKNOWN:
    case PR_DT_NONE:
        if (ctx->no_types)
            say(out, PR_TCR_NO_DTYPE,
                "input types are not in this export, and the op's kernel "
                "names state none",
                "the Kernels table's math and precision columns show what "
                "its kernels ran; a torch.profiler trace records operator "
                "input types");
        else
            say(out, PR_TCR_NO_DTYPE, "input types not recorded",
                "profile with record_shapes=True to see dtypes and shapes");
        return 1;
    case PR_DT_BF16:
    case PR_DT_FP8:
    case PR_DT_FP16:
    case PR_DT_INT8:
    case PR_DT_UINT8:
        return low_precision_reason(cost->dtype, ctx, out);
    default:
        say(out, PR_TCR_DTYPE, "no tensor-core path for this dtype",
            "cast to fp16/bf16 (AMP) where precision allows");
        return 1;
    }
}

void
pr_tensorcore_diagnose(const struct pr_op_cost *cost,
                       const struct pr_tc_context *ctx, struct pr_tc_diag *out)
{
    static const struct pr_tc_context none = {-1, -1, 0, 0, 0, NULL, 0};
    char text[PR_TC_TEXT_SIZE];

    memset(out, 0, sizeof(*out));
    if (!ctx)
        ctx = &none;
    if (!ctx->amd && ctx->cc_major >= 0 && ctx->cc_major < 7) {
        snprintf(text, sizeof(text),
                 "compute capability %d.%d has no tensor cores", ctx->cc_major,
                 ctx->cc_minor < 0 ? 0 : ctx->cc_minor);
        say(out, PR_TCR_OLD_GPU, text,
            "run on a GPU with compute capability 7.0 or newer");
        return;
    }
    if (channels_reason(cost, out) || dtype_reason(cost, ctx, out) ||
        pr_tensorcore_misaligned(cost, out))
        return;
    say(out, PR_TCR_UNKNOWN,
        "dtype and shapes are eligible but no "
        "tensor-core kernel ran",
        "small shapes may favour non-tensor-core "
        "kernels; for convolutions try torch.backends.cudnn.benchmark = True");
}

#define AMP_NPU "or use bf16: torch.autocast(\"npu\", dtype=torch.bfloat16)"

int
pr_tensorcore_diagnose_hf32(const struct pr_op_cost *cost, int hf32,
                            struct pr_tc_diag *out)
{
    int conv = is_conv(cost);

    memset(out, 0, sizeof(*out));
    if (cost->dtype != PR_DT_FP32 || hf32 == 1 ||
        (!conv && cost->cls != PR_OPC_GEMM))
        return 0;
    if (conv && hf32 == 0) {
        say(out, PR_TCR_HF32_CONV,
            "fp32 convolution without HF32 (HF32 Eligible: NO): "
            "torch.npu.conv.allow_hf32 is True by default, so it was "
            "probably set False",
            "torch.npu.conv.allow_hf32 = True (the default), " AMP_NPU);
        return 1;
    }
    if (conv)
        return 0; /* not recorded: HF32 is on by default for convolutions */
    say(out, PR_TCR_HF32_MATMUL,
        hf32 == 0 ? "fp32 matmul without HF32 (HF32 Eligible: NO): "
                    "torch.npu.matmul.allow_hf32 is False by default"
                  : "fp32 matmul: torch.npu.matmul.allow_hf32 is False by "
                    "default, so it probably ran without HF32 (the trace "
                    "does not record HF32 Eligible)",
        "torch.npu.matmul.allow_hf32 = True (fp32 on the Cube with HF32, "
        "Ascend's TF32), " AMP_NPU);
    return 1;
}

void
pr_tensorcore_hf32_context(struct pr_tc_diag *d, double on_cube_pct,
                           double mte2_ratio, double mte2_bound)
{
    int conv = d->reason == PR_TCR_HF32_CONV;
    const char *kind = conv ? "convolution" : "matmul";
    size_t n = strlen("fp32 ") + strlen(kind);
    char text[PR_TC_TEXT_SIZE];

    if (d->reason != PR_TCR_HF32_MATMUL && !conv)
        return;
    if (mte2_ratio >= mte2_bound) {
        snprintf(text, sizeof(text),
                 "fp32 %s%s without HF32, mte2 bound (aic_mte2_ratio %.2f: "
                 "its tasks wait on loading their inputs from memory, not "
                 "on the Cube's math), so HF32 gains little",
                 kind, on_cube_pct >= 50.0 ? " on the Cube" : "", mte2_ratio);
        say(d, PR_TCR_FP32_MTE2, text,
            "bf16 halves the bytes it loads: torch.autocast(\"npu\", "
            "dtype=torch.bfloat16) (or fp16); HF32 speeds only the math");
        return;
    }
    if (on_cube_pct >= 50.0 && strncmp(d->text, "fp32 ", 5) == 0 &&
        strncmp(d->text + 5, kind, strlen(kind)) == 0) {
        snprintf(text, sizeof(text), "fp32 %s on the Cube%s", kind,
                 d->text + n);
        snprintf(d->text, sizeof(d->text), "%s", text);
    }
}

void
pr_tensorcore_diagnose_kernels(const char *op, const char *kernel, int cc_major,
                               int amd, struct pr_tc_diag *out)
{
    int compiled = op != NULL && (strcmp(op, "CompiledFunction") == 0 ||
                                  strcmp(op, "CompiledFunctionBackward") == 0);

    memset(out, 0, sizeof(*out));
    out->reason = PR_TCR_FP32_KERNEL;
    snprintf(out->text, sizeof(out->text), "%s",
             compiled ? "fp32 GEMMs inside a compiled graph (torch.compile), "
                        "no aten::mm/addmm/bmm above them: their kernels' "
                        "names say fp32 on CUDA cores; the time is theirs"
                      : "fp32 GEMM/conv kernels with no eligible operator "
                        "above them: their names say fp32 on CUDA cores; the "
                        "time is theirs");
    cite_kernel(out, kernel);
    if (amd)
        snprintf(out->advice, sizeof(out->advice), "%s", AMP_BF16);
    else if (cc_major >= 8)
        snprintf(out->advice, sizeof(out->advice),
                 "torch.set_float32_matmul_precision(\"high\") before "
                 "torch.compile (TF32), or %s",
                 AMP_BF16);
    else
        snprintf(out->advice, sizeof(out->advice),
                 "enable AMP around the compiled model: torch.autocast("
                 "\"cuda\", dtype=torch.float16) with a GradScaler (no TF32 "
                 "before compute capability 8.0)");
}

/* A kernel's function name alone: no return type, template arguments or
 * parameters ("void fft2d_r2c_32x32<float, ...>(...)" -> fft2d_r2c_32x32). */
static void
base_name(const char *k, char *out, size_t cap)
{
    size_t n;

    if (strncmp(k, "void ", 5) == 0)
        k += 5;
    n = strcspn(k, "<(");
    snprintf(out, cap, "%.*s", (int)n, k);
}

/* " 2.07 ms of fp32 kernels (a, b)": one kind's time and names, each
 * name once. */
static size_t
part_kind(char *buf, size_t cap, size_t len, const char *what,
          const struct pr_tc_off *k)
{
    char names[PR_TC_OFF_NAMES][96];
    size_t i, j, n = 0;

    if (k == NULL || !(k->us > 0) || len >= cap)
        return len;
    for (i = 0; i < k->n_names && i < PR_TC_OFF_NAMES; i++) {
        char b[96];

        if (k->names[i] == NULL)
            continue;
        base_name(k->names[i], b, sizeof(b));
        for (j = 0; j < n && strcmp(names[j], b) != 0; j++)
            ;
        if (j == n)
            memcpy(names[n++], b, sizeof(b));
    }
    len += (size_t)snprintf(buf + len, cap - len, "%s%.2f ms %s",
                            len > 0 ? "; " : "", k->us / 1000.0, what);
    for (i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s",
                                i == 0 ? " (" : ", ", names[i]);
    if (n > 0 && len < cap)
        len += (size_t)snprintf(buf + len, cap - len, ")");
    return len < cap ? len : cap - 1;
}

void
pr_tensorcore_diagnose_part(double off_us, double self_us,
                            const struct pr_tc_off *simt,
                            const struct pr_tc_off *fft, int conv, int tf32,
                            struct pr_tc_diag *out)
{
    char kinds[PR_TC_TEXT_SIZE];
    size_t len = 0;

    memset(out, 0, sizeof(*out));
    out->reason = PR_TCR_PART_OFF;
    kinds[0] = '\0';
    len = part_kind(kinds, sizeof(kinds), len,
                    conv ? "in fp32 convolution kernels on CUDA cores"
                         : "in fp32 GEMM kernels on CUDA cores",
                    simt);
    (void)part_kind(kinds, sizeof(kinds), len, "in FFT convolution kernels",
                    fft);
    snprintf(out->text, sizeof(out->text),
             "%.2f ms of its %.2f ms (%.0f%%) ran on CUDA cores while its "
             "other kernels used tensor cores%s: %s",
             off_us / 1000.0, self_us / 1000.0,
             self_us > 0 ? 100.0 * off_us / self_us : 0.0,
             tf32 ? " (TF32)" : "", kinds);
    if (conv)
        snprintf(out->advice, sizeof(out->advice),
                 "torch.backends.cudnn.benchmark = True: cuDNN then times "
                 "its algorithms for each shape, the tensor-core ones "
                 "included, instead of taking its heuristic's pick%s; a "
                 "first layer on 3-channel images gets tensor-core kernels "
                 "more readily with its input padded to 4 channels in "
                 "channels_last (memory_format=torch.channels_last)",
                 fft != NULL && fft->us > 0 ? " (here FFT)" : "");
    else
        snprintf(out->advice, sizeof(out->advice),
                 "the library picked CUDA-core kernels for some of its "
                 "shapes: dimensions that are multiples of 8 (16 for "
                 "8-bit types) let it use its tensor-core kernels");
}
