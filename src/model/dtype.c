/* dtype.c - producers' element type names to enum pr_dtype, and the size
 * and display name of each. */
#include "config.h"

#include <string.h>

#include "profreport/dtype.h"

struct dtype_name {
    const char *name;
    enum pr_dtype dt;
};

/* Kineto "Input type" strings (spec §1.1); anything else not a tensor
 * element type is PR_DT_NONE when listed here, PR_DT_UNKNOWN otherwise. */
static const struct dtype_name dtype_names[] = {
    {"float", PR_DT_FP32},
    {"double", PR_DT_FP64},
    {"c10::Half", PR_DT_FP16},
    {"c10::BFloat16", PR_DT_BF16},
    {"Half", PR_DT_FP16},
    {"BFloat16", PR_DT_BF16},
    {"long int", PR_DT_INT64},
    {"long", PR_DT_INT64},
    {"long long int", PR_DT_INT64},
    {"int64_t", PR_DT_INT64},
    {"int", PR_DT_INT32},
    {"short int", PR_DT_INT16},
    {"short", PR_DT_INT16},
    {"signed char", PR_DT_INT8},
    {"unsigned char", PR_DT_UINT8},
    {"bool", PR_DT_BOOL},
    {"c10::complex<float>", PR_DT_C64},
    {"c10::complex<double>", PR_DT_C128},
    {"", PR_DT_NONE},
    {"Scalar", PR_DT_NONE},
    {"ScalarList", PR_DT_NONE},
    {"TensorList", PR_DT_NONE},
    {"GenericList", PR_DT_NONE},
    {"Int", PR_DT_NONE},
    {"Bool", PR_DT_NONE},
    {"Double", PR_DT_NONE},
    {"String", PR_DT_NONE},
    {"Device", PR_DT_NONE},
    {"None", PR_DT_NONE},
    {"Layout", PR_DT_NONE},
    {"ScalarType", PR_DT_NONE},
    {"MemoryFormat", PR_DT_NONE},
};

enum pr_dtype
pr_dtype_of(const char *s, size_t len)
{
    size_t i;

    /* fp8 has several spellings (e4m3fn, e5m2, ...fnuz): match the stem */
    if (len >= 11 && strncmp(s, "c10::Float8", 11) == 0)
        return PR_DT_FP8;
    for (i = 0; i < sizeof(dtype_names) / sizeof(dtype_names[0]); i++) {
        if (strlen(dtype_names[i].name) == len &&
            strncmp(dtype_names[i].name, s, len) == 0)
            return dtype_names[i].dt;
    }
    return PR_DT_UNKNOWN;
}

int
pr_dtype_size(enum pr_dtype dt)
{
    static const int sizes[PR_DT_COUNT] = {
        [PR_DT_FP64] = 8,  [PR_DT_FP32] = 4,  [PR_DT_TF32] = 4,
        [PR_DT_FP16] = 2,  [PR_DT_BF16] = 2,  [PR_DT_FP8] = 1,
        [PR_DT_INT8] = 1,  [PR_DT_UINT8] = 1, [PR_DT_INT16] = 2,
        [PR_DT_INT32] = 4, [PR_DT_INT64] = 8, [PR_DT_BOOL] = 1,
        [PR_DT_C64] = 8,   [PR_DT_C128] = 16,
    };

    if ((int)dt < 0 || dt >= PR_DT_COUNT)
        return 0;
    return sizes[dt];
}

const char *
pr_dtype_name(enum pr_dtype dt)
{
    static const char *const names[PR_DT_COUNT] = {
        "unknown", "none", "fp64",      "fp32",       "tf32",  "fp16",
        "bf16",    "fp8",  "int8",      "uint8",      "int16", "int32",
        "int64",   "bool", "complex64", "complex128",
    };

    if ((int)dt < 0 || dt >= PR_DT_COUNT)
        return "unknown";
    return names[dt];
}
