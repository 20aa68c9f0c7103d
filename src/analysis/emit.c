/* emit.c - sticky-error cJSON builders for the analyses, and the tensor
 * core name lists (spec 10.1, 10.2) that several analyses share. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "internal.h"

static void
add(cJSON *o, const char *key, cJSON *item, int *ok)
{
    if (item == NULL) {
        *ok = 0;
        return;
    }
    if (key == NULL ? !cJSON_AddItemToArray(o, item)
                    : !cJSON_AddItemToObject(o, key, item)) {
        cJSON_Delete(item);
        *ok = 0;
    }
}

void
pr_emit_num(cJSON *o, const char *key, double v, int *ok)
{
    if (*ok)
        add(o, key, cJSON_CreateNumber(v), ok);
}

void
pr_emit_us(cJSON *o, const char *key, int64_t ns, int *ok)
{
    pr_emit_num(o, key, (double)ns / 1000.0, ok);
}

void
pr_emit_str(cJSON *o, const char *key, const char *s, int *ok)
{
    if (*ok)
        add(o, key, s ? cJSON_CreateString(s) : cJSON_CreateNull(), ok);
}

void
pr_emit_null(cJSON *o, const char *key, int *ok)
{
    if (*ok)
        add(o, key, cJSON_CreateNull(), ok);
}

void
pr_emit_bool(cJSON *o, const char *key, int b, int *ok)
{
    if (*ok)
        add(o, key, cJSON_CreateBool(b), ok);
}

void
pr_emit_num_or_null(cJSON *o, const char *key, double v, int *ok)
{
    if (isnan(v))
        pr_emit_null(o, key, ok);
    else
        pr_emit_num(o, key, v, ok);
}

static cJSON *
add_container(cJSON *parent, const char *key, cJSON *c, int *ok)
{
    if (!*ok) {
        cJSON_Delete(c);
        return NULL;
    }
    add(parent, key, c, ok);
    return *ok ? c : NULL;
}

cJSON *
pr_emit_obj(cJSON *parent, const char *key, int *ok)
{
    return add_container(parent, key, cJSON_CreateObject(), ok);
}

cJSON *
pr_emit_arr(cJSON *parent, const char *key, int *ok)
{
    return add_container(parent, key, cJSON_CreateArray(), ok);
}

/* 10.2: operators whose math can run on tensor cores (exact names). */
static const char *const tc_ops[] = {
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

/* 10.1: substrings of kernel names that run on tensor cores. */
static const char *const tc_kernels[] = {
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

int
pr_tc_op_eligible(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(tc_ops) / sizeof(tc_ops[0]); i++) {
        if (strcmp(name, tc_ops[i]) == 0)
            return 1;
    }
    return 0;
}

int
pr_tc_kernel_uses(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(tc_kernels) / sizeof(tc_kernels[0]); i++) {
        if (strstr(name, tc_kernels[i]) != NULL)
            return 1;
    }
    return 0;
}
