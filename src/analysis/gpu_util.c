/* src/analysis/gpu_util.c - placeholder until its module lands. */
#include "config.h"
typedef int pr_placeholder_gpu_util;
