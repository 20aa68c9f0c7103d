/* test_flops.c - FLOP and byte formulas (flops-and-formats §1.2/§1.4), one
 * case per family and dtype, with the arithmetic in the comments.  Inputs
 * are written as the trace records them and parsed as the model does
 * (shapes.h; its parsers are tested in tests/model/test_shapes.c). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/flops.h"

static void
near(double got, double want)
{
    double tol = 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);

    if (fabs(got - want) > tol) {
        print_error("got %.17g, want %.17g\n", got, want);
        fail();
    }
}

/* The estimate of one call whose inputs the trace recorded as these texts
 * (NULL: not recorded). */
static enum pr_status
est_st(const char *name, const char *shapes, const char *types,
       const char *concrete, double trace_flops, struct pr_op_cost *out)
{
    static struct pr_op_inputs in;
    struct pr_op_call c = {name, &in, trace_flops};
    struct pr_error err = {PR_OK, ""};

    pr_shapes_get_text(NULL, shapes, types, concrete, &in);
    return pr_flops_estimate(&c, out, &err);
}

static struct pr_op_cost
est(const char *name, const char *shapes, const char *types,
    const char *concrete)
{
    struct pr_op_cost out;

    assert_int_equal(est_st(name, shapes, types, concrete, -1.0, &out), PR_OK);
    return out;
}

static void
test_gemm(void **state)
{
    struct pr_op_cost c;

    (void)state;
    /* mm [64,512]x[512,1000] fp32: 2*64*1000*512 = 65,536,000 FLOPs;
     * 4*(64*1000 + 64*512 + 1000*512) = 4*(64000+32768+512000) = 2,435,072 */
    c = est("aten::mm", "[[64, 512], [512, 1000]]", "[float, float]", NULL);
    near(c.flops, 65536000.0);
    near(c.bytes, 2435072.0);
    assert_int_equal(c.cls, PR_OPC_GEMM);
    assert_int_equal(c.m, 64);
    assert_int_equal(c.n, 1000);
    assert_int_equal(c.k, 512);
    assert_int_equal(c.dtype, PR_DT_FP32);
    /* addmm(bias[1000], [32,2048], [2048,1000]) fp16 (quoted types):
     * 2*32*1000*2048 = 131,072,000; 2*(32000 + 65536 + 2048000) = 4,291,072 */
    c = est("aten::addmm", "[[1000], [32, 2048], [2048, 1000], [], []]",
            "['c10::Half', 'c10::Half', 'c10::Half', 'Scalar', 'Scalar']",
            NULL);
    near(c.flops, 131072000.0);
    near(c.bytes, 4291072.0);
    assert_int_equal(c.dtype, PR_DT_FP16);
    /* bmm [8,64,32]x[8,32,16] bf16: 2*8*64*16*32 = 524,288;
     * 2*8*(64*16 + 64*32 + 16*32) = 16*(1024+2048+512) = 57,344 */
    c = est("aten::bmm", "[[8, 64, 32], [8, 32, 16]]",
            "[c10::BFloat16, c10::BFloat16]", NULL);
    near(c.flops, 524288.0);
    near(c.bytes, 57344.0);
    assert_int_equal(c.dtype, PR_DT_BF16);
    /* baddbmm: operands are inputs 1 and 2 */
    c = est("aten::baddbmm", "[[8, 64, 16], [8, 64, 32], [8, 32, 16], [], []]",
            "[float, float, float, Scalar, Scalar]", NULL);
    near(c.flops, 524288.0);
    /* matmul [4,8,16]x[16,32] (broadcast batch 4) fp64: 2*4*8*32*16 =
     * 32,768; 8*(512 + 512 + 4*8*32) = 8*2048 = 16,384 */
    c = est("aten::matmul", "[[4, 8, 16], [16, 32]]", "[double, double]", NULL);
    near(c.flops, 32768.0);
    near(c.bytes, 16384.0);
    assert_int_equal(c.batch, 4);
    /* linear x[2,3,1001], W[1000,1001], b[1000] fp16: M=6, N=1000, K=1001:
     * 2*6*1000*1001 = 12,012,000; 2*(6000 + 6006 + 1,001,000) = 2,026,012 */
    c = est("aten::linear", "[[2, 3, 1001], [1000, 1001], [1000]]",
            "[c10::Half, c10::Half, c10::Half]", NULL);
    near(c.flops, 12012000.0);
    near(c.bytes, 2026012.0);
    assert_int_equal(c.m, 6);
    assert_int_equal(c.k, 1001);
    /* mv [100,50]x[50] int8: 2*100*50 = 10,000; 1*(5000+50+100) = 5150 */
    c = est("aten::mv", "[[100, 50], [50]]", "[signed char, signed char]",
            NULL);
    near(c.flops, 10000.0);
    near(c.bytes, 5150.0);
    assert_int_equal(c.cls, PR_OPC_GEMV);
}

static void
test_conv_forward(void **state)
{
    struct pr_op_cost c;

    (void)state;
    /* conv2d x[32,3,224,224] w[64,3,7,7] stride 2 pad 3 dil 1 g 1:
     * P = (224 + 6 - 6 - 1)/2 + 1 = 112; FLOPs 2*32*64*112*112*3*49 =
     * 2*32*64*12544*147 = 7,552,892,928; bytes 4*(32*3*224*224 + 64*3*49
     * + 32*64*112*112) = 4*(4,816,896 + 9,408 + 25,690,112) = 122,065,664 */
    c = est("aten::conv2d",
            "[[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], "
            "[], []]",
            "[float, float, , ScalarList, ScalarList, ScalarList, "
            "Int]",
            "[\"\", \"\", \"\", \"[2, 2]\", \"[3, 3]\", \"[1, 1]\", "
            "\"1\"]");
    near(c.flops, 7552892928.0);
    near(c.bytes, 122065664.0);
    assert_int_equal(c.cls, PR_OPC_CONV);
    assert_int_equal(c.conv_c, 3);
    assert_int_equal(c.conv_k, 64);
    /* the same without Concrete Inputs: stride unknown, so unknown (never a
     * guess), but channels are known for the tensor-core findings */
    c = est("aten::cudnn_convolution",
            "[[32, 3, 224, 224], [64, 3, 7, 7], "
            "[], [], [], [], [], [], []]",
            "['float', 'float', 'GenericList', "
            "'GenericList', 'GenericList', 'Int', 'Bool', 'Bool', 'Bool']",
            NULL);
    near(c.flops, -1.0);
    near(c.bytes, -1.0);
    assert_int_equal(c.conv_k, 64);
    assert_int_equal(c.groups, 1); /* exact from weight [K, C/g]: 3/3 */
    /* cudnn_convolution (1.8+: padding before stride), depthwise g=32:
     * x[1,32,10,10] w[32,1,3,3] pad 1 stride 1: P = 10; FLOPs
     * 2*1*32*100*1*9 = 57,600 */
    c = est("aten::cudnn_convolution",
            "[[1, 32, 10, 10], [32, 1, 3, 3], [], "
            "[], [], [], [], [], []]",
            NULL,
            "[\"\", \"\", \"[1, 1]\", "
            "\"[1, 1]\", \"[1, 1]\", \"32\", \"False\", \"False\", \"True\"]");
    near(c.flops, 57600.0);
    assert_int_equal(c.groups, 32);
    /* convolution(..., transposed=True): weight [Cin=16, Cout=8, 2, 2] on
     * x[1,16,5,5]: FlopCounterMode uses the input size:
     * 2*1*25*4*16*8 = 25,600 */
    c = est("aten::convolution",
            "[[1, 16, 5, 5], [16, 8, 2, 2], [], [], [], "
            "[], [], [], []]",
            "[float, float]",
            "[\"\", \"\", \"\", "
            "\"[2, 2]\", \"[0, 0]\", \"[1, 1]\", \"True\", \"[0, 0]\", \"1\"]");
    near(c.flops, 25600.0);
    /* conv1d x[4,8,100] w[16,8,5] stride 1 pad 0: P = 96;
     * 2*4*16*96*8*5 = 491,520 */
    c = est("aten::conv1d", "[[4, 8, 100], [16, 8, 5], [], [], [], [], []]",
            "[float, float]",
            "[\"\", \"\", \"\", \"[1]\", \"[0]\", \"[1]\", "
            "\"1\"]");
    near(c.flops, 491520.0);
}

static void
test_conv_backward(void **state)
{
    struct pr_op_cost c;

    (void)state;
    /* cudnn_convolution_backward_input(size, go[32,2048,7,7],
     * w[2048,512,1,1]): one forward pass 2*32*2048*49*512*1 =
     * 3,288,334,336; bytes need input_size (not recorded) */
    c = est("aten::cudnn_convolution_backward_input",
            "[[], [32, 2048, 7, 7],"
            " [2048, 512, 1, 1], [], [], [], [], [], [], []]",
            "['GenericList', 'float', 'float']", NULL);
    near(c.flops, 3288334336.0);
    near(c.bytes, -1.0);
    /* with input_size: bytes 4*(32*2048*49 + 2048*512 + 32*512*49) =
     * 4*(3,211,264 + 1,048,576 + 802,816) = 20,250,624 */
    c = est("aten::cudnn_convolution_backward_input",
            "[[], [32, 2048, 7, 7],"
            " [2048, 512, 1, 1]]",
            "['GenericList', 'float', 'float']",
            "[\"[32, 512, 7, 7]\", \"\", \"\"]");
    near(c.bytes, 20250624.0);
    /* cudnn_convolution_backward(x, go, w, ...) with no mask recorded:
     * grad input + grad weight = 2 passes = 6,576,668,672; bytes
     * 4*(go + x + w + x + w) = 4*(3,211,264 + 2*802,816 + 2*1,048,576) =
     * 27,656,192 */
    c = est("aten::cudnn_convolution_backward",
            "[[32, 512, 7, 7], [32, 2048, "
            "7, 7], [2048, 512, 1, 1]]",
            "[float, float, float]", NULL);
    near(c.flops, 6576668672.0);
    near(c.bytes, 27656192.0);
    /* the first layer's mask [False, True]: weight grad only */
    c = est("aten::cudnn_convolution_backward",
            "[[32, 512, 7, 7], [32, 2048, "
            "7, 7], [2048, 512, 1, 1], []]",
            "[float, float, float, "
            "GenericList]",
            "[\"\", \"\", \"\", \"[False, True]\"]");
    near(c.flops, 3288334336.0);
    /* backward_weight needs weight_size from Concrete Inputs */
    c = est("aten::cudnn_convolution_backward_weight",
            "[[], [32, 2048, 7, 7],"
            " [32, 512, 7, 7]]",
            "[GenericList, float, float]", NULL);
    near(c.flops, -1.0);
    c = est("aten::cudnn_convolution_backward_weight",
            "[[], [32, 2048, 7, 7],"
            " [32, 512, 7, 7]]",
            "[GenericList, float, float]",
            "[\"[2048, 512, 1, 1]\", \"\", \"\"]");
    near(c.flops, 3288334336.0);
}

static void
test_attention(void **state)
{
    struct pr_op_cost c;

    (void)state;
    /* SDPA q,k,v [2,8,128,64] fp16: rows B*H*Sq = 2048;
     * 2*2048*128*(64+64) = 67,108,864; bytes 2*(3*131072 + 2048*64) =
     * 2*524,288 = 1,048,576 */
    c = est("aten::scaled_dot_product_attention",
            "[[2, 8, 128, 64], [2, 8, "
            "128, 64], [2, 8, 128, 64], [], [], []]",
            "[c10::Half, c10::Half, c10::Half, , Double, Bool]", NULL);
    near(c.flops, 67108864.0);
    near(c.bytes, 1048576.0);
    assert_int_equal(c.cls, PR_OPC_ATTENTION);
    /* _flash_attention_forward [B,S,H,D] = [2,128,8,64]: same FLOPs */
    c = est("aten::_flash_attention_forward",
            "[[2, 128, 8, 64], [2, 128, 8, "
            "64], [2, 128, 8, 64]]",
            "[c10::BFloat16, c10::BFloat16, "
            "c10::BFloat16]",
            NULL);
    near(c.flops, 67108864.0);
    /* backward: 2*2048*128*(3*64 + 2*64) = 167,772,160 (2.5x forward);
     * bytes 2*(2*(3*131072) + 2*131072) = 2*1,048,576 = 2,097,152 */
    c = est("aten::_scaled_dot_product_flash_attention_backward",
            "[[2, 8, 128, 64], [2, 8, 128, 64], [2, 8, 128, 64], "
            "[2, 8, 128, 64], [2, 8, 128, 64]]",
            "[c10::Half, c10::Half, c10::Half, c10::Half, c10::Half]", NULL);
    near(c.flops, 167772160.0);
    near(c.bytes, 2097152.0);
}

static void
test_pointwise(void **state)
{
    struct pr_op_cost c;

    (void)state;
    /* relu_ [32,64,112,112] fp32: numel 25,690,112; bytes 2*4*numel */
    c = est("aten::relu_", "[[32, 64, 112, 112]]", "[float]", NULL);
    near(c.flops, 25690112.0);
    near(c.bytes, 205520896.0);
    /* exp fp16 [1000]: 20*1000 FLOPs, 2*2*1000 bytes */
    c = est("aten::exp", "[[1000]]", "[c10::Half]", NULL);
    near(c.flops, 20000.0);
    near(c.bytes, 4000.0);
    /* add_ [10,1] + [1,20] broadcast -> 200 elements; bytes 40 + 80 + 800 */
    c = est("aten::add_", "[[10, 1], [1, 20], []]", "[float, float, Int]",
            NULL);
    near(c.flops, 200.0);
    near(c.bytes, 920.0);
    /* mul with a Python scalar: only the tensor counts; 2*4*100 */
    c = est("aten::mul", "[[100], []]", "[float, Scalar]", NULL);
    near(c.flops, 100.0);
    near(c.bytes, 800.0);
    /* comparison: bool output, 1 byte: 400 + 400 + 100 */
    c = est("aten::lt", "[[100], [100]]", "[float, float]", NULL);
    near(c.bytes, 900.0);
    /* addcmul_ three [50] fp32 tensors: 3*50 FLOPs, 4*(3*50 + 50) bytes */
    c = est("aten::addcmul_", "[[50], [50], [50], []]",
            "[float, float, float, Scalar]", NULL);
    near(c.flops, 150.0);
    near(c.bytes, 800.0);
    /* threshold_backward: numel, 3*bytes */
    c = est("aten::threshold_backward",
            "[[32, 2048, 7, 7], [32, 2048, 7, 7],"
            " []]",
            "[float, float, Int]", NULL);
    near(c.flops, 3211264.0);
    near(c.bytes, 38535168.0);
    /* pow: 20*numel(out) */
    c = est("aten::pow", "[[10], []]", "[double, Scalar]", NULL);
    near(c.flops, 200.0);
    near(c.bytes, 160.0);
}

static void
test_norm_softmax_reduce(void **state)
{
    struct pr_op_cost c;

    (void)state;
    /* training cudnn_batch_norm x[32,64,112,112] fp32: 8*numel =
     * 205,520,896 FLOPs; the kernels read x twice and write y once:
     * 3*102,760,448 = 308,281,344, plus weight, bias, running mean and
     * variance, 4*64*4 = 1,024: 308,282,368 bytes (PyProf's 4x would be
     * 411,041,792 and put a fully memory-bound op above 100%) */
    c = est("aten::cudnn_batch_norm",
            "[[32, 64, 112, 112], [64], [64], [64],"
            " [64], [], [], []]",
            "[float, float, float, float, float, Bool, "
            "Double, Double]",
            NULL);
    near(c.flops, 205520896.0);
    near(c.bytes, 308282368.0);
    /* inference: one read, one write: 2*102,760,448 + 1,024 */
    c = est("aten::_native_batch_norm_legit_no_training",
            "[[32, 64, 112, 112], [64], [64], [64], [64], [], []]",
            "[float, float, float, float, float, Double, Double]", NULL);
    near(c.bytes, 205521920.0);
    /* bf16 input with fp32 parameters: 3*(32*64*56*56*2) + 4*64*4 */
    c = est("aten::native_batch_norm",
            "[[32, 64, 56, 56], [64], [64], [64], [64], [], [], []]",
            "[c10::BFloat16, float, float, float, float, Bool, Double, "
            "Double]",
            NULL);
    near(c.bytes, 3.0 * 32 * 64 * 56 * 56 * 2 + 1024.0);
    /* backward: 5*bytes */
    c = est("aten::native_batch_norm_backward", "[[8, 16]]", "[float]", NULL);
    near(c.bytes, 2560.0);
    /* layer_norm x[4,1024] bf16 + weight/bias [1024]: 8*4096 FLOPs;
     * one read and one write of x, 2*8192, + 2048 + 2048 = 20,480 bytes */
    c = est("aten::layer_norm", "[[4, 1024], [], [1024], [1024], [], []]",
            "[c10::BFloat16, GenericList, c10::BFloat16, c10::BFloat16, "
            "Double, Bool]",
            NULL);
    near(c.flops, 32768.0);
    near(c.bytes, 20480.0);
    /* softmax 40*numel, 3*bytes; log_softmax 21*numel; backward 5*bytes */
    c = est("aten::_softmax", "[[32, 1000], [], []]", "[float, Int, Bool]",
            NULL);
    near(c.flops, 1280000.0);
    near(c.bytes, 384000.0);
    c = est("aten::_log_softmax_backward_data",
            "[[32, 1000], [32, 1000], [],"
            " [32, 1000]]",
            "[float, float, Int, float]", NULL);
    near(c.flops, 672000.0);
    near(c.bytes, 640000.0);
    /* sum numel / bytes; mean numel+1 / bytes+size; norm 2*numel+1 */
    c = est("aten::sum", "[[32, 1000], [], [], []]", "[float]", NULL);
    near(c.flops, 32000.0);
    near(c.bytes, 128000.0);
    c = est("aten::mean", "[[32, 2048, 7, 7], [], [], []]", "[float]", NULL);
    near(c.flops, 3211265.0);
    near(c.bytes, 12845060.0);
    c = est("aten::norm", "[[10]]", "[float]", NULL);
    near(c.flops, 21.0);
    near(c.bytes, 40.0);
}

static void
test_pool_embed_loss(void **state)
{
    struct pr_op_cost c;

    (void)state;
    /* max_pool2d_with_indices x[32,64,112,112] k3 s2 p1: out 56;
     * FLOPs 32*64*56*56*9 = 57,802,752; bytes 4*(25,690,112 + 6,422,528) +
     * 8*6,422,528 = 128,450,560 + 51,380,224 = 179,830,784 */
    c = est("aten::max_pool2d_with_indices",
            "[[32, 64, 112, 112], [], [], "
            "[], [], []]",
            "[float]",
            "[\"\", \"[3, 3]\", \"[2, 2]\", "
            "\"[1, 1]\", \"[1, 1]\", \"False\"]");
    near(c.flops, 57802752.0);
    near(c.bytes, 179830784.0);
    /* unknown kernel size: unknown */
    c = est("aten::max_pool2d", "[[1, 1, 4, 4], [], [], [], [], []]", "[float]",
            NULL);
    near(c.flops, -1.0);
    /* embedding table [50000,512] fp16, indices [8,128] int64:
     * bytes 8*1024 + 2*1024*512*2 = 8192 + 2,097,152 = 2,105,344 */
    c = est("aten::embedding", "[[50000, 512], [8, 128], [], [], []]",
            "[c10::Half, long int, Int, Bool, Bool]", NULL);
    near(c.flops, 0.0);
    near(c.bytes, 2105344.0);
    /* dropout 5*numel, 2*bytes */
    c = est("aten::native_dropout", "[[100], [], []]", "[float]", NULL);
    near(c.flops, 500.0);
    near(c.bytes, 800.0);
    /* mse_loss reduction mean (1): e = 2*numel = 200; FLOPs 2e+1 = 401;
     * bytes e*size = 800 */
    c = est("aten::mse_loss", "[[100], [100], []]", "[float, float, Int]",
            "[\"\", \"\", \"1\"]");
    near(c.flops, 401.0);
    near(c.bytes, 800.0);
    /* nll_loss_forward [32,1000] + target [32] int64: FLOPs 32; bytes
     * 8*32 + 2*32*4 = 512 */
    c = est("aten::nll_loss_forward", "[[32, 1000], [32], [], [], []]",
            "[float, long int, , Int, Int]", NULL);
    near(c.flops, 32.0);
    near(c.bytes, 512.0);
}

static void
test_memory_ops(void **state)
{
    struct pr_op_cost c;

    (void)state;
    /* copy_ uint8 -> fp32 [3,224,224]: 150,528*(1+4) = 752,640 */
    c = est("aten::copy_", "[[3, 224, 224], [3, 224, 224], []]",
            "[float, unsigned char, Bool]", NULL);
    near(c.flops, 0.0);
    near(c.bytes, 752640.0);
    /* clone 2*bytes; fill_ bytes(out) */
    c = est("aten::clone", "[[10, 10], []]", "[double]", NULL);
    near(c.bytes, 1600.0);
    c = est("aten::fill_", "[[64, 3, 7, 7], []]", "[float, Int]", NULL);
    near(c.bytes, 37632.0);
    /* cat of a TensorList [[2,3],[4,3]]: Kineto types it "TensorList", so
     * the element size and the bytes are unknown; _foreach_add_ over two
     * lists of 10 + 20 elements: 30 FLOPs */
    c = est("aten::cat", "[[[2, 3], [4, 3]], []]", "[TensorList, Int]", NULL);
    near(c.bytes, -1.0); /* no element type recorded for the list */
    c = est("aten::_foreach_add_", "[[[10], [20]], [[10], [20]], []]",
            "[TensorList, TensorList, float]", NULL);
    near(c.flops, 30.0);
    /* views move nothing */
    c = est("aten::view", "[[32, 2048, 1, 1], []]", "[float]", NULL);
    near(c.flops, 0.0);
    near(c.bytes, 0.0);
    /* no formula: unknown, and the trace's own flops arg is the fallback */
    c = est("aten::some_custom_op", "[[1]]", "[float]", NULL);
    near(c.flops, -1.0);
    assert_int_equal(
        est_st("aten::some_custom_op", "[[1]]", NULL, NULL, 123.0, &c), PR_OK);
    near(c.flops, 123.0);
    assert_true(c.flops_from_trace);
}

/* A malformed recorded text is reported, not guessed; nothing recorded is
 * unknown. */
static void
test_malformed_inputs(void **state)
{
    struct pr_op_cost c;
    struct pr_op_call none = {"aten::mm", NULL, -1.0};
    struct pr_error err = {PR_OK, ""};

    (void)state;
    assert_int_equal(est_st("aten::mm", "[[1, 2], [2", NULL, NULL, -1, &c),
                     PR_E_FORMAT);
    near(c.flops, -1.0);
    assert_int_equal(
        est_st("aten::mm", "[[1, 2], [2, 3]]", "[float", NULL, 5.0, &c),
        PR_E_FORMAT);
    near(c.flops, -1.0);
    assert_false(c.flops_from_trace);
    assert_int_equal(pr_flops_estimate(&none, &c, &err), PR_OK);
    near(c.flops, -1.0);
    assert_string_equal(c.family, "gemm");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm),
        cmocka_unit_test(test_conv_forward),
        cmocka_unit_test(test_conv_backward),
        cmocka_unit_test(test_attention),
        cmocka_unit_test(test_pointwise),
        cmocka_unit_test(test_norm_softmax_reduce),
        cmocka_unit_test(test_pool_embed_loss),
        cmocka_unit_test(test_memory_ops),
        cmocka_unit_test(test_malformed_inputs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
