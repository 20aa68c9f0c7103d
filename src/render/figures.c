/* figures.c - the figure model of figures.h: parts and blocks with their
 * ownership, the one cell formatter every layout uses, the column
 * catalogues shared by the reports and `profreport table`, and the driver
 * that builds a section per run.  What each section shows is sections.c's
 * business; how it looks, the layouts'. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/sget.h"

#define DASH "\xE2\x80\x93" /* en dash: a value that is null */
#define DEFAULT_TOP 50

/* ---- columns ---------------------------------------------------------- */

#define BD(k) PR_K_BREAKDOWN_US "." k

const struct pr_col pr_fig_cols_operators[] = {
    {"name", PR_K_NAME, "Operator", PR_FMT_NAME, 2.6, NULL, PR_COL_BOTH},
    {"shape", PR_K_INPUT_SHAPES, "Input shapes", PR_FMT_NAME, 2.2, NULL, 0},
    {"types", PR_K_INPUT_TYPES, "Input types", PR_FMT_NAME, 1.6, NULL, 0},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.7, NULL, PR_COL_BOTH},
    {"device_self", PR_K_DEVICE_SELF_US, "Device self", PR_FMT_US, 1,
     "Device time of kernels launched by this operator itself", PR_COL_BOTH},
    {"device_total", PR_K_DEVICE_TOTAL_US, "Device total", PR_FMT_US, 1,
     "Device time including child operators", PR_COL_BOTH},
    {"host_self", PR_K_HOST_SELF_US, "Host self", PR_FMT_US, 1, NULL,
     PR_COL_BOTH},
    {"host_total", PR_K_HOST_TOTAL_US, "Host total", PR_FMT_US, 1, NULL,
     PR_COL_BOTH},
    {"tc_eligible", PR_K_TC_ELIGIBLE, "TC eligible", PR_FMT_BOOL, 0.8,
     "Could run on tensor cores", PR_COL_REPORT},
    {"tc_self", PR_K_TC_SELF_PCT, "TC self", PR_FMT_PCT, 0.7,
     "Share of device self time on tensor-core kernels", PR_COL_BOTH},
    {"tc_total", PR_K_TC_TOTAL_PCT, "TC total", PR_FMT_PCT, 0.7, NULL, 0},
    {"flops", PR_K_FLOPS, "FLOPs", PR_FMT_FLOPS, 1.4, NULL, 0},
    {"bytes", PR_K_BYTES, "Bytes", PR_FMT_BYTES, 1.15, NULL, 0},
    {"intensity", PR_K_ARITHMETIC_INTENSITY, "Intensity", PR_FMT_AI, 1.45,
     "FLOPs per byte moved", 0},
    {"tflops", PR_K_ACHIEVED_TFLOPS, "Achieved", PR_FMT_TFLOPS, 1.75, NULL, 0},
    {"gbps", PR_K_ACHIEVED_GBPS, "Bandwidth", PR_FMT_GBPS, 1.6, NULL, 0},
    {"bound", PR_K_BOUND, "Bound", PR_FMT_TEXT, 1.3, NULL, 0},
    {"roofline", PR_K_ROOFLINE_PCT, "Of roofline", PR_FMT_PCT, 1.2,
     "Achieved / attainable at this intensity", 0},
    {"mark", PR_K_ROOFLINE_MARK, "Mark", PR_FMT_TEXT, 2.1,
     "Why a point can pass its roof: winograd/fft (fewer FLOPs ran than "
     "counted), cache_resident (data in the last-level cache), "
     "broadcast_input (more bytes counted than moved: an input is a "
     "broadcast, expanded view; no % of roof; record with PyTorch >= 2.1 "
     "for strides), "
     "model_overcount (the FLOP/byte model counts more than ran)",
     0},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

const struct pr_col pr_fig_cols_kernels[] = {
    {"name", PR_K_NAME, "Kernel", PR_FMT_NAME, 2.35, NULL, PR_COL_BOTH},
    {"op", PR_K_OPERATOR, "Operator", PR_FMT_NAME, 1.4, NULL, PR_COL_REPORT},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"total", PR_K_TOTAL_US, "Total", PR_FMT_US, 0.9, NULL, PR_COL_BOTH},
    {"mean", PR_K_MEAN_US, "Mean", PR_FMT_US, 0.8, NULL, PR_COL_BOTH},
    /* the reports' table has room for the kernel table's class: Min and
       TC are the terminal's, the Math column says tensor_core where TC
       would say yes; the PDF's page leaves out the wide ones (its 12
       columns cut the numbers and wrapped the rules letter by letter) */
    {"min", PR_K_MIN_US, "Min", PR_FMT_US, 0.8, NULL, 0},
    {"max", PR_K_MAX_US, "Max", PR_FMT_US, 0.8, NULL, PR_COL_BOTH},
    {"blocks_per_sm", PR_K_MEAN_BLOCKS_PER_SM, "Blocks/SM", PR_FMT_NUM, 0.8,
     NULL, PR_COL_REPORT | PR_COL_WIDE},
    {"occupancy", PR_K_MEAN_EST_ACHIEVED_OCCUPANCY_PCT, "Est. occupancy",
     PR_FMT_PCT, 1.1, NULL, PR_COL_BOTH},
    {"tc", PR_K_TENSOR_CORES_USED, "TC", PR_FMT_BOOL, 0.5,
     "Ran on tensor cores", PR_COL_TERM},
    /* the kernel table's class (data/kernels.json); "-" where no rule
       names the kernel */
    /* wide enough for the longest family word ("elementwise", review
       30g #11: the PDF broke it "elementwis / e") */
    {"family", PR_K_KFAMILY, "Family", PR_FMT_WRAP, 1.3,
     "What the kernel does, by the kernel table's rule (- : no rule names "
     "it)",
     PR_COL_BOTH},
    {"math", PR_K_KMATH, "Math", PR_FMT_WRAP, 1,
     "Where its math ran: tensor_core, mfma, cube (matrix units) or "
     "cuda_core, vector; ai_cpu or dsa where its producer names that "
     "engine (an AI CPU or DSA task)",
     PR_COL_BOTH},
    {"precision", PR_K_KPRECISION, "Precision", PR_FMT_TEXT, 0.8,
     "The precision the kernel's name states, else (Ascend) the one its "
     "producer states of every call's inputs (Input Data Types; hf32: fp32 "
     "inputs marked HF32 Eligible YES); (mixed): its calls state several, "
     "this one of most of its time",
     PR_COL_REPORT | PR_COL_WIDE},
    {"rule", PR_K_KRULE, "Rule", PR_FMT_WRAP, 1.2,
     "The kernel-table rule that matched (profreport table --kind kernels "
     "--why NAME)",
     PR_COL_BOTH | PR_COL_WIDE},
    {"library", PR_K_KLIBRARY, "Library", PR_FMT_TEXT, 1, NULL, 0},
    {"tc_rule", PR_K_TENSOR_CORES_RULE, "TC rule", PR_FMT_TEXT, 1, NULL, 0},
    /* Ascend's PMU counters only: the reports add it where a kernel has
       them (sections.c) */
    {"pmu", PR_K_PMU_HINT, "PMU bound", PR_FMT_WRAP, 1.3,
     "The busiest pipe of the AI Core / AI Vector core (PMU counters) and "
     "its mean busy ratio: bound by it from 0.5",
     0},
    /* msprof's cube_utilization(%) is aicore_time / Duration x Block Dim
       / the chip's AI Cores on every task (kd_910B_v2): how many of the
       AI Cores the task kept running, not how busy the Cube was, which
       the PMU's aic_mac_ratio says (FlashAttentionScoreGrad: 99% and 0.45;
       review25a #2) */
    {"cube_util", PR_K_CUBE_UTILIZATION_PCT, "AI Core use", PR_FMT_PCT, 0.8,
     "msprof's cube_utilization(%): the task's AI Core time over its "
     "duration x Block Dim / the chip's AI Cores, duration-weighted over the "
     "calls; not the Cube pipe's busy share, which is Cube busy "
     "(aic_mac_ratio)",
     PR_COL_WIDE},
    {"cube_busy", PR_K_PMU ".aic_mac_ratio", "Cube busy", PR_FMT_NUM, 0.6,
     "The PMU's aic_mac_ratio: the share of the task's AI Core cycles the "
     "Cube (MAC) pipe was busy, duration-weighted over the calls (1: always)",
     0},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

const struct pr_col pr_fig_cols_steps[] = {
    {"name", PR_K_NAME, "Step", PR_FMT_TEXT, 1.6, NULL, PR_COL_BOTH},
    {"duration", PR_K_DURATION_US, "Duration", PR_FMT_US, 1,
     "On the steps' basis (step summary): device, host, producer or capture",
     PR_COL_BOTH},
    {"host", PR_K_HOST_DURATION_US, "Host", PR_FMT_US, 1,
     "The ProfilerStep interval itself (host basis)", PR_COL_BOTH},
    {"kernel", BD(PR_K_KERNEL), "Kernel", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"memcpy", BD(PR_K_MEMCPY), "Memcpy", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"memset", BD(PR_K_MEMSET), "Memset", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"communication", BD(PR_K_COMMUNICATION), "Communication", PR_FMT_US, 1,
     NULL, PR_COL_BOTH},
    {"runtime", BD(PR_K_RUNTIME), "Runtime", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {"dataloader", BD(PR_K_DATALOADER), "DataLoader", PR_FMT_US, 1, NULL,
     PR_COL_BOTH},
    {"cpu_exec", BD(PR_K_CPU_EXEC), "CPU exec", PR_FMT_US, 1, NULL,
     PR_COL_BOTH},
    {"other", BD(PR_K_OTHER), "Other", PR_FMT_US, 1, NULL, PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

const struct pr_col pr_fig_cols_memory[] = {
    {"device", PR_K_DEVICE, "Device", PR_FMT_TEXT, 0.7, NULL, PR_COL_BOTH},
    {"name", PR_K_NAME, "Operator", PR_FMT_NAME, 2.4, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"size_increase", PR_K_SIZE_INCREASE_BYTES, "Size increase", PR_FMT_BYTES,
     1, NULL, PR_COL_BOTH},
    {"self_size_increase", PR_K_SELF_SIZE_INCREASE_BYTES, "Self increase",
     PR_FMT_BYTES, 1, NULL, PR_COL_BOTH},
    {"allocations", PR_K_ALLOCATION_COUNT, "Allocs", PR_FMT_COUNT, 0.7, NULL,
     PR_COL_BOTH},
    {"self_allocations", PR_K_SELF_ALLOCATION_COUNT, "Self allocs",
     PR_FMT_COUNT, 0.7, NULL, PR_COL_BOTH},
    {"allocation_size", PR_K_ALLOCATION_SIZE_BYTES, "Alloc size", PR_FMT_BYTES,
     0.9, NULL, PR_COL_BOTH},
    {"self_allocation_size", PR_K_SELF_ALLOCATION_SIZE_BYTES, "Self alloc size",
     PR_FMT_BYTES, 1, NULL, PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* The module tree (runs[].modules, a parent before its children): the
 * report's table and `table --kind modules`. */
const struct pr_col pr_fig_cols_modules[] = {
    {"name", PR_K_NAME, "Module", PR_FMT_NAME, 2.8,
     "Indented under the module that called it", PR_COL_BOTH},
    {"path", PR_K_PATH, "Path", PR_FMT_TEXT, 2.8, NULL, 0},
    {"depth", PR_K_DEPTH, "Depth", PR_FMT_COUNT, 0.5, NULL, 0},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_COUNT, 0.6, NULL, PR_COL_BOTH},
    {"operators", PR_K_OPERATORS, "Operators", PR_FMT_COUNT, 0.8,
     "Operators called directly, not through a submodule", PR_COL_BOTH},
    {"host_total", PR_K_HOST_TOTAL_US, "Host total", PR_FMT_US, 0.9, NULL,
     PR_COL_BOTH},
    {"host_self", PR_K_HOST_SELF_US, "Host self", PR_FMT_US, 0.9, NULL, 0},
    {"device_total", PR_K_DEVICE_TOTAL_US, "Device total", PR_FMT_US, 0.9, NULL,
     PR_COL_BOTH},
    {"device_self", PR_K_DEVICE_SELF_US, "Device self", PR_FMT_US, 0.9,
     "Device time of its own operators, submodules excluded", PR_COL_BOTH},
    {"avg", PR_K_AVG_DURATION_US, "Avg", PR_FMT_US, 0.9, NULL, 0},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

int
pr_col_numeric(enum pr_fmt f)
{
    return f != PR_FMT_TEXT && f != PR_FMT_NAME && f != PR_FMT_WRAP &&
           f != PR_FMT_FILE && f != PR_FMT_BOOL && f != PR_FMT_VERDICT;
}

/* Three significant digits with an SI prefix: 980 GFLOP, 1.23 TFLOP. */
static void
fmt_si(double v, const char *unit, char *buf, size_t n)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    size_t i = 0;

    while (fabs(v) >= 1000.0 && i + 1 < sizeof(prefix) / sizeof(*prefix)) {
        v /= 1000.0;
        i++;
    }
    if (fabs(v) >= 1000) { /* past the largest prefix */
        snprintf(buf, n, "%.2e %s%s", v, prefix[i], unit);
        return;
    }
    snprintf(buf, n, "%.*f %s%s",
             fabs(v) >= 100  ? 0
             : fabs(v) >= 10 ? 1
                             : 2,
             v, prefix[i], unit);
}

char *
pr_fig_format(double v, enum pr_fmt f, char *buf, size_t n)
{
    return pr_fig_format_x(v, f, 0, buf, n);
}

char *
pr_fig_format_x(double v, enum pr_fmt f, int extra, char *buf, size_t n)
{
    static const enum pr_axis_unit units[] = {
        [PR_FMT_COUNT] = PR_UNIT_COUNT,
        [PR_FMT_RECORDS] = PR_UNIT_COUNT,
        [PR_FMT_US] = PR_UNIT_US,
        [PR_FMT_PCT] = PR_UNIT_PCT,
        [PR_FMT_BYTES] = PR_UNIT_BYTES,
        [PR_FMT_TFLOPS] = PR_UNIT_TFLOPS,
        [PR_FMT_AI] = PR_UNIT_FLOP_PER_BYTE,
    };

    if (!isfinite(v)) {
        snprintf(buf, n, "%s", DASH);
        return buf;
    }
    switch (f) {
    case PR_FMT_COUNT:
    case PR_FMT_RECORDS:
    case PR_FMT_US:
    case PR_FMT_PCT:
    case PR_FMT_BYTES:
    case PR_FMT_TFLOPS:
    case PR_FMT_AI:
        return pr_chart_format_x(v, units[f], extra, buf, n);
    case PR_FMT_FLOPS:
        fmt_si(v, "FLOP", buf, n);
        break;
    case PR_FMT_GBPS:       /* decimal, as bandwidths are quoted */
        if (fabs(v) >= 1e9) /* no 300-digit numbers */
            snprintf(buf, n, "%.2e TB/s", v / 1000);
        else if (fabs(v) >= 1000)
            snprintf(buf, n, "%.2f TB/s", v / 1000);
        else if (fabs(v) >= 1 || v == 0)
            snprintf(buf, n, "%.1f GB/s", v);
        else /* a slow link is not 0.0 GB/s: three digits in MB/s */
            snprintf(buf, n,
                     fabs(v) >= 0.1    ? "%.0f MB/s"
                     : fabs(v) >= 0.01 ? "%.1f MB/s"
                                       : "%.2f MB/s",
                     v * 1000);
        break;
    default:
        snprintf(buf, n, fabs(v) >= 1e9 ? "%.2e" : "%.2f", v);
        break;
    }
    return buf;
}

int
pr_fig_extra_digits(const double *v, size_t n, enum pr_fmt f)
{
    char a[64], b[64];
    int extra;
    size_t i;

    for (extra = 0; extra < PR_CHART_EXTRA_MAX; extra++) {
        for (i = 1; i < n; i++) {
            if (!isfinite(v[i - 1]) || !isfinite(v[i]) || v[i - 1] == v[i])
                continue;
            pr_fig_format_x(v[i - 1], f, extra, a, sizeof(a));
            if (strcmp(a, pr_fig_format_x(v[i], f, extra, b, sizeof(b))) == 0)
                break;
        }
        if (i >= n)
            break; /* every neighbour that differs reads apart */
    }
    return extra;
}

void
pr_fig_format_pair(double x, double y, enum pr_fmt f, char *bx, char *by,
                   size_t n)
{
    const double v[2] = {x, y};
    int extra = pr_fig_extra_digits(v, 2, f);

    pr_fig_format_x(x, f, extra, bx, n);
    pr_fig_format_x(y, f, extra, by, n);
}

char *
pr_fig_format_change(double v, enum pr_fmt f, char *buf, size_t n)
{
    char mag[64];

    if (!isfinite(v)) {
        snprintf(buf, n, "%s", DASH);
        return buf;
    }
    pr_fig_format(fabs(v), f, mag, sizeof(mag));
    /* a change that rounds to zero has no sign ("-0" is "0"): the HTML
       colours a change by it */
    if (strpbrk(mag, "123456789") == NULL)
        snprintf(buf, n, "%s", mag);
    else
        snprintf(buf, n, "%s%s", v > 0 ? "+" : "-", mag);
    return buf;
}

char *
pr_fig_format_pp(double pp, char *buf, size_t n)
{
    char pct[64], *sign;

    pr_fig_format_change(pp, PR_FMT_PCT, pct, sizeof(pct));
    sign = strrchr(pct, '%');
    if (sign != NULL)
        snprintf(sign, sizeof(pct) - (size_t)(sign - pct), " pp");
    snprintf(buf, n, "%s", pct);
    return buf;
}

static const char *
base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

int
pr_fig_change_dir(const cJSON *row, const char *text)
{
    const char *dir = pr_sget_str(row, PR_FIG_CHANGE_DIR);

    if (dir != NULL)
        return strcmp(dir, "worse") == 0    ? 1
               : strcmp(dir, "better") == 0 ? -1
                                            : 0;
    return text[0] == '+' ? 1 : text[0] == '-' ? -1 : 0;
}

const char *
pr_fig_cell(const cJSON *row, const struct pr_col *c, char *buf, size_t n)
{
    const cJSON *v = pr_sget_path(row, c->key);

    if (c->fmt == PR_FMT_BOOL)
        return cJSON_IsTrue(v) ? "yes" : cJSON_IsFalse(v) ? "no" : DASH;
    /* a diagnostic's count 0 is its sentinel, "about the whole input"
       (summary-json.md), not "seen 0 times" (review22g item 13) */
    if (c->fmt == PR_FMT_RECORDS && cJSON_IsNumber(v) && v->valuedouble == 0)
        return "whole input";
    /* a gain's basis as what it compares: the same batch (a step, or the
       capture of a run without steps, shorter) or twice the batch (a
       step's worth of samples); never "step" on a capture (review 26g #6) */
    if (strcmp(c->key, PR_K_GAIN_BASIS) == 0 && cJSON_IsString(v))
        return pr_sget_is(v->valuestring, PR_GAIN_PER_SAMPLES) ? "2x batch"
               : pr_sget_is(v->valuestring, PR_GAIN_PER_STEP)  ? "same batch"
               : pr_sget_is(v->valuestring, PR_GAIN_ONE_TIME)  ? "one-time"
                                                               : v->valuestring;
    /* a kernel whose calls state several precisions: the one of most of
       its time, marked (review30a #9) */
    if (strcmp(c->key, PR_K_KPRECISION) == 0 && cJSON_IsString(v) &&
        pr_sget_is(pr_sget_str(row, PR_K_KPRECISION_SOURCE),
                   "producer_mixed")) {
        snprintf(buf, n, "%s (mixed)", v->valuestring);
        return buf;
    }
    if (!pr_col_numeric(c->fmt) || c->fmt >= PR_FMT_FIGURE) {
        if (cJSON_IsString(v))
            return c->fmt == PR_FMT_FILE ? base_name(v->valuestring)
                                         : v->valuestring;
        if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
            double x = v->valuedouble;

            if (x != 0 && fabs(x) < 1e-4) {
                /* a plain decimal, never "2e-05" (review 25u #13: nsys_mock's
                   20 ns sync in a column of ms) */
                size_t len;

                snprintf(buf, n, "%.9f", x);
                len = strlen(buf);
                while (len > 1 && buf[len - 1] == '0')
                    buf[--len] = '\0';
                return buf;
            }
            snprintf(buf, n, "%.15g", x);
            return buf;
        }
        return DASH;
    }
    return pr_fig_format(
        cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN,
        c->fmt, buf, n);
}

/* ---- tables ----------------------------------------------------------- */

/* An NPU's words for the CUDA-worded columns of the catalogues, by their
 * label; a NULL label: the column is left out (issue #30). */
static const struct pr_col npu_cols[] = {
    {"tc_eligible", PR_K_TC_ELIGIBLE, "Cube eligible", PR_FMT_BOOL, 0.8,
     "Could run on the AI Core's Cube unit (a matrix operator)", 0},
    {"tc_self", PR_K_TC_SELF_PCT, "Cube self", PR_FMT_PCT, 0.7,
     "Share of device self time in tasks on the Cube", 0},
    {"tc_total", PR_K_TC_TOTAL_PCT, "Cube total", PR_FMT_PCT, 0.7, NULL, 0},
    {"tc", PR_K_TENSOR_CORES_USED, "Cube", PR_FMT_BOOL, 0.5,
     "Ran on the AI Core's Cube unit", 0},
    {"tc_rule", PR_K_TENSOR_CORES_RULE, "Cube rule", PR_FMT_TEXT, 1, NULL, 0},
    {"fp16", PR_K_PEAK_TFLOPS "." PR_K_FP16_TENSOR, "FP16 Cube peak",
     PR_FMT_TFLOPS, 1.1, NULL, 0},
    {"reason", PR_K_REASON, "Finding", PR_FMT_WRAP, 2, NULL, 0},
    {"math", PR_K_KMATH, "Math", PR_FMT_WRAP, 1.4,
     "Where its math ran: cube (the AI Core's matrix unit) or vector; "
     "ai_cpu or dsa where its producer names that engine (Task Type "
     "AI_CPU, DSA_SQE)",
     PR_COL_BOTH},
    {"basis", PR_K_BASIS, "Basis", PR_FMT_TEXT, 1,
     "device: from the end of the previous step's device work to the end of "
     "its own; host: the host's step ranges (prof.step()); producer: the "
     "producer's own steps (step_trace_time); npu_device: torch_npu's device "
     "step, from its first launch's first task to its last launch's last "
     "task end or its host end, whichever is later; capture: no steps, the "
     "whole capture",
     PR_COL_BOTH},
    {"host_mean", PR_K_HOST_MEAN_US, "Host mean", PR_FMT_US, 1,
     "Mean of the host's step ranges themselves", PR_COL_BOTH},
    {"host", PR_K_HOST_DURATION_US, "Host", PR_FMT_US, 1,
     "The host's step range itself (host basis)", PR_COL_BOTH},
    /* hunt31 #7: no CUDA/ROCm example in an NPU report's tooltip */
    {"arch", PR_K_ARCHITECTURE, "Arch", PR_FMT_TEXT, 0.6,
     "Architecture (Ascend910B, Ascend310P)", PR_COL_BOTH},
    /* HTA reads no NPU trace: the temporal breakdown's and queue's
       tooltips define their NPU figures without its names (issue #30) */
    {"span", PR_K_SPAN_US, "Window", PR_FMT_US, 0.9,
     "The steps with NPU tasks (the window of the utilization figure); "
     "without steps, first to last task on the NPU",
     PR_COL_BOTH},
    {"host_wait", PR_K_IDLE_HOST_WAIT_US, "Idle: host", PR_FMT_US, 0.9,
     "The next task's launch call began after the NPU ran dry", PR_COL_BOTH},
    {"kernel_wait", PR_K_IDLE_KERNEL_WAIT_US, "Idle: gaps", PR_FMT_US, 0.9,
     "Gaps under 30 \xC2\xB5s between back-to-back tasks", PR_COL_BOTH},
    {"other", PR_K_IDLE_OTHER_US, "Idle: other", PR_FMT_US, 1.0,
     "Tasks already queued did not start: an event wait, another stream, "
     "work not in the trace",
     PR_COL_BOTH},
    {"max", PR_K_MAX, "Max queue", PR_FMT_COUNT, 0.8,
     "Tasks launched and not yet started, at most", PR_COL_BOTH},
};

static const char *const npu_cols_of[] = {"TC eligible",
                                          "TC self",
                                          "TC total",
                                          "TC",
                                          "TC rule",
                                          "FP16 TC peak",
                                          "Why not on tensor cores",
                                          "Math",
                                          "Basis",
                                          "Host mean",
                                          "Host",
                                          "Arch",
                                          "Window",
                                          "Idle: host",
                                          "Idle: gaps",
                                          "Idle: other",
                                          "Max queue"};

static const char *const npu_cols_out[] = {"Blocks/SM", "Est. occupancy", "SMs",
                                           "Est. SM efficiency",
                                           "Est. achieved occupancy"};

_Static_assert(sizeof(npu_cols) / sizeof(npu_cols[0]) ==
                   sizeof(npu_cols_of) / sizeof(npu_cols_of[0]),
               "one NPU column per CUDA-worded label");

const struct pr_col *
pr_fig_col_npu(const struct pr_col *c)
{
    size_t i;

    if (c == NULL || c->label == NULL)
        return c;
    for (i = 0; i < sizeof(npu_cols_out) / sizeof(npu_cols_out[0]); i++)
        if (strcmp(c->label, npu_cols_out[i]) == 0)
            return NULL;
    for (i = 0; i < sizeof(npu_cols_of) / sizeof(npu_cols_of[0]); i++)
        if (strcmp(c->label, npu_cols_of[i]) == 0 &&
            strcmp(c->key, npu_cols[i].key) == 0)
            return &npu_cols[i];
    return c;
}

/* AMD's words for the CUDA-worded columns (review 28h #12): its matrix
 * cores run MFMA instructions, a compute unit (CU) is its SM. */
static const struct pr_col amd_cols[] = {
    {"tc_eligible", PR_K_TC_ELIGIBLE, "MFMA eligible", PR_FMT_BOOL, 0.8,
     "Could run on the matrix cores (MFMA)", PR_COL_REPORT},
    {"tc_self", PR_K_TC_SELF_PCT, "MFMA self", PR_FMT_PCT, 0.7,
     "Share of device self time on matrix-core (MFMA) kernels", PR_COL_BOTH},
    {"tc_total", PR_K_TC_TOTAL_PCT, "MFMA total", PR_FMT_PCT, 0.7, NULL, 0},
    {"tc", PR_K_TENSOR_CORES_USED, "MFMA", PR_FMT_BOOL, 0.5,
     "Ran on the matrix cores (MFMA)", PR_COL_TERM},
    {"tc_rule", PR_K_TENSOR_CORES_RULE, "MFMA rule", PR_FMT_TEXT, 1, NULL, 0},
    {"fp16", PR_K_PEAK_TFLOPS "." PR_K_FP16_TENSOR, "FP16 matrix peak",
     PR_FMT_TFLOPS, 1.1, NULL, PR_COL_BOTH},
    {"reason", PR_K_REASON, "Why not on matrix cores", PR_FMT_WRAP, 2, NULL,
     PR_COL_BOTH},
    {"sms", PR_K_NUM_SMS, "CUs", PR_FMT_COUNT, 0.5, NULL, PR_COL_BOTH},
    {"sm", PR_K_EST_SM_EFFICIENCY_PCT, "Est. CU efficiency", PR_FMT_PCT, 1.2,
     "CUs busy over the steps, the device's idle time counted as none busy "
     "(TensorBoard's Est. SM Efficiency, with a CU for an SM: kernels' "
     "blocks per CU, capped at 1, weighted by their time, over the steps' "
     "time)",
     PR_COL_BOTH},
    {"blocks_per_sm", PR_K_MEAN_BLOCKS_PER_SM, "Blocks/CU", PR_FMT_NUM, 0.8,
     NULL, PR_COL_REPORT | PR_COL_WIDE},
};

static const char *const amd_cols_of[] = {"TC eligible",
                                          "TC self",
                                          "TC total",
                                          "TC",
                                          "TC rule",
                                          "FP16 TC peak",
                                          "Why not on tensor cores",
                                          "SMs",
                                          "Est. SM efficiency",
                                          "Blocks/SM"};

_Static_assert(sizeof(amd_cols) / sizeof(amd_cols[0]) ==
                   sizeof(amd_cols_of) / sizeof(amd_cols_of[0]),
               "one AMD column per CUDA-worded label");

/* MTIA's trace names no unit and has no SMs: these columns go. */
static const char *const mtia_cols_out[] = {"TC eligible",
                                            "TC self",
                                            "TC total",
                                            "TC",
                                            "TC rule",
                                            "FP16 TC peak",
                                            "Why not on tensor cores",
                                            "Blocks/SM",
                                            "Est. occupancy",
                                            "SMs",
                                            "Est. SM efficiency",
                                            "Est. achieved occupancy"};

const struct pr_col *
pr_fig_col_units(const struct pr_col *c, enum pr_fig_units u)
{
    size_t i;

    if (c == NULL || c->label == NULL || u == PR_UNITS_CUDA)
        return c;
    if (u == PR_UNITS_MTIA) {
        static const struct pr_col util = {"util",
                                           PR_K_UTILIZATION_PCT,
                                           "MTIA utilization",
                                           PR_FMT_PCT,
                                           1.2,
                                           "Time with any kernel running",
                                           PR_COL_BOTH};

        for (i = 0; i < sizeof(mtia_cols_out) / sizeof(mtia_cols_out[0]); i++)
            if (strcmp(c->label, mtia_cols_out[i]) == 0)
                return NULL;
        if (strcmp(c->label, "GPU utilization") == 0 &&
            strcmp(c->key, util.key) == 0)
            return &util;
        return c;
    }
    for (i = 0; i < sizeof(amd_cols_of) / sizeof(amd_cols_of[0]); i++)
        if (strcmp(c->label, amd_cols_of[i]) == 0 &&
            strcmp(c->key, amd_cols[i].key) == 0) {
            /* amd_cols keep each column's id, width and where it
               shows: only the words change */
            return &amd_cols[i];
        }
    return c;
}

const struct pr_fig_words *
pr_fig_words(enum pr_fig_units u)
{
    static const struct pr_fig_words w[] = {
        {"Tensor cores", "tensor cores", "tensor-core", "Tensor cores",
         "CUDA cores", "SM", "CUDA graphs", "CUDA-graph", "GPU", "warps"},
        {"Matrix cores (MFMA)", "matrix cores (MFMA)", "matrix-core",
         "Matrix cores (MFMA)", "Vector ALUs", "CU", "HIP graphs", "HIP-graph",
         "GPU", "wavefronts"},
        {"Matrix units", "matrix units", "matrix-unit", "Matrix units",
         "Unit not recorded", "core", "graphs", "graph", "MTIA", "warps"},
    };

    return &w[(unsigned)u <= PR_UNITS_MTIA ? u : PR_UNITS_CUDA];
}

enum pr_fig_units
pr_fig_run_units(const cJSON *run)
{
    const cJSON *d;
    int amd = 0, meta = 0, other = 0;

    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DEVICES))
    {
        const char *v = pr_sget_str_or(d, PR_K_VENDOR, "");

        if (strcmp(v, "amd") == 0)
            amd = 1;
        else if (strcmp(v, "meta") == 0)
            meta = 1;
        else
            other = 1;
    }
    if (other || amd + meta != 1)
        return PR_UNITS_CUDA;
    return amd ? PR_UNITS_AMD : PR_UNITS_MTIA;
}

enum pr_fig_units
pr_fig_summary_units(const cJSON *summary)
{
    const cJSON *run;
    int any = 0;
    enum pr_fig_units u = PR_UNITS_CUDA;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        enum pr_fig_units r = pr_fig_run_units(run);

        if (any && r != u)
            return PR_UNITS_CUDA;
        u = r;
        any = 1;
    }
    return u;
}

/* MindSpore's words: its step trace calls the time between one step's
 * end and the next one's start, spent waiting for the data queue
 * (GetNext), the step interval (iteration_interval; MindInsight's "Step
 * Interval"), not a DataLoader. */
#define MS_INTERVAL "Step interval"
#define MS_INTERVAL_TIP                                                        \
    "MindSpore's step interval (its step trace's iteration_interval): the "    \
    "device waiting for the data queue (GetNext) between steps"

static const struct pr_col ms_cols[] = {
    {"dataloader", PR_K_BREAKDOWN_US "." PR_K_DATALOADER, MS_INTERVAL,
     PR_FMT_US, 1, MS_INTERVAL_TIP, PR_COL_BOTH},
    {"dataloader", PR_K_BY_KIND_US "." PR_K_DATALOADER, MS_INTERVAL, PR_FMT_US,
     0.8, MS_INTERVAL_TIP, PR_COL_BOTH},
};

const struct pr_col *
pr_fig_col_mindspore(const struct pr_col *c)
{
    size_t i;

    for (i = 0; c != NULL && c->key != NULL &&
                i < sizeof(ms_cols) / sizeof(ms_cols[0]);
         i++) {
        if (strcmp(c->key, ms_cols[i].key) == 0 &&
            strcmp(c->id, ms_cols[i].id) == 0)
            return &ms_cols[i];
    }
    return c;
}

const char *
pr_fig_label_mindspore(const char *key, const char *label)
{
    return key != NULL && strcmp(key, PR_K_DATALOADER) == 0 ? MS_INTERVAL
                                                            : label;
}

int
pr_fig_run_is_mindspore(const cJSON *run)
{
    return pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "mindspore");
}

int
pr_fig_run_is_nsys(const cJSON *summary, const cJSON *run)
{
    const char *w = pr_sget_str(run, PR_K_WORKER);
    const cJSON *in;

    cJSON_ArrayForEach(in, pr_sget(summary, PR_K_INPUTS))
    {
        if (w != NULL && pr_sget_is(pr_sget_str(in, PR_K_WORKER), w) &&
            pr_sget_is(pr_sget_str(in, PR_K_FORMAT), "nsys"))
            return 1;
    }
    return 0;
}

int
pr_fig_summary_is_mindspore(const cJSON *summary)
{
    const cJSON *run;
    int any = 0;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (!pr_fig_run_is_mindspore(run))
            return 0;
        any = 1;
    }
    return any;
}

/* Where the run was stepped by a Step Id column whose steps' bounds the
 * file does not give (analysis.c's no_steps row): that row's words up to
 * the column ("every task row is in step 19") into buf, and 1; else 0
 * (review23a #5: "no step marks" beside "every row is in step 19"). */
int
pr_fig_row_step_words(const cJSON *run, char *buf, size_t size)
{
    const cJSON *d;

    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DIAGNOSTICS))
    {
        const char *text = pr_sget_str(d, PR_K_TEXT);
        const char *end;

        if (!pr_sget_is(pr_sget_str(d, PR_K_KIND), "no_steps") ||
            text == NULL || strstr(text, "Step Id column") == NULL ||
            (end = strstr(text, " (")) == NULL)
            continue;
        snprintf(buf, size, "%.*s", (int)(end - text), text);
        return buf[0] != '\0';
    }
    return 0;
}

int
pr_fig_run_is_npu(const cJSON *run)
{
    const cJSON *d;

    /* the run's own kind, where a device without events is not listed */
    if (strcmp(pr_sget_str_or(run, PR_K_DEVICE_KIND, ""), "npu") == 0)
        return 1;
    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DEVICES))
    {
        if (strcmp(pr_sget_str_or(d, PR_K_KIND, ""), "npu") == 0)
            return 1;
    }
    return 0;
}

int
pr_fig_run_no_tasks(const cJSON *run)
{
    const cJSON *d;

    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DIAGNOSTICS))
    {
        if (pr_sget_is(pr_sget_str(d, PR_K_KIND), "no_tasks"))
            return 1;
    }
    return 0;
}

const char *
pr_fig_id_npu(const char *id, char *buf, size_t size)
{
    const char *g = id != NULL ? strstr(id, "gpu") : NULL;

    if (g == NULL || size == 0)
        return id;
    snprintf(buf, size, "%.*snpu%s", (int)(g - id), id, g + 3);
    return buf;
}

int
pr_fig_summary_is_npu(const cJSON *summary)
{
    const cJSON *run;
    int any = 0;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (!pr_fig_run_is_npu(run))
            return 0;
        any = 1;
    }
    return any;
}

/* The i-th column of t before `hide`. */
static const struct pr_col *
nth_col(const struct pr_fig_table *t, size_t i)
{
    const struct pr_col *c;
    size_t k;

    if (t->view != NULL) {
        for (k = 0; k < i && t->view[k] != NULL; k++)
            ;
        if (t->view[k] == NULL)
            return NULL;
        for (c = t->cols; c->id != NULL; c++)
            if (strcmp(c->id, t->view[k]) == 0)
                return c;
        return NULL;
    }
    if (t->n_cols > 0)
        return i < t->n_cols ? &t->cols[i] : NULL;
    for (c = t->cols; c->id != NULL; c++) {
        if ((c->show & PR_COL_REPORT) && i-- == 0)
            return c;
    }
    return NULL;
}

int
pr_fig_rows_have(const cJSON *rows, const char *key)
{
    const cJSON *r, *v;

    cJSON_ArrayForEach(r, rows)
    {
        v = pr_sget_path(r, key);
        if (v != NULL && !cJSON_IsNull(v))
            return 1;
    }
    return 0;
}

int
pr_fig_rows_all_zero(const cJSON *rows, const char *key)
{
    const cJSON *r, *v;

    if (cJSON_IsObject(rows))
        return !(cJSON_IsNumber(v = pr_sget_path(rows, key)) &&
                 v->valuedouble != 0);
    cJSON_ArrayForEach(r, rows)
    {
        v = pr_sget_path(r, key);
        if (cJSON_IsNumber(v) && v->valuedouble != 0)
            return 0;
    }
    return 1;
}

/* A run without steps: its one window is the capture, so the findings'
 * and replays' "/ step" columns say so (review 20 #8). */
static const struct pr_col capture_cols[] = {
    {"saves", PR_K_SAVES, "Saves", PR_FMT_FIGURE, 1.5,
     "What the graph of the capture replayed with the change applied (or a "
     "stated model) predicts it saves; \xe2\x89\xa4 marks an upper bound",
     PR_COL_BOTH},
    {"saves", PR_K_SAVES, "At most", PR_FMT_FIGURE, 1.5,
     "The most its change could save of the capture, where known: an upper "
     "bound, not an estimate",
     PR_COL_BOTH},
    {"of_step", PR_K_OF_STEP, "Of capture", PR_FMT_FIGURE, 0.75,
     "The saving's share of the capture (the run has no steps)", PR_COL_BOTH},
    {"pct", PR_K_OF_STEP, "Of capture", PR_FMT_FIGURE, 0.7, NULL, PR_COL_BOTH},
    {"step", PR_K_STEP_US, "Capture after", PR_FMT_US, 0.9,
     "The capture with the change: its recorded part replayed, the time "
     "before its first and after its last recorded event as measured",
     PR_COL_BOTH},
    {"gain", PR_K_GAIN_US, "Gain", PR_FMT_US, 0.8,
     "The estimated gain alone (empty for a bound alone)", 0},
    {"bound", PR_K_BOUND_US, "At most", PR_FMT_US, 0.8,
     "The most the change can save, where known", 0},
    {"gain_pct", PR_K_GAIN_PCT, "Gain %", PR_FMT_PCT, 0.6,
     "The replayed gain's share of the capture (empty for a bound)", 0},
    {"bound_pct", PR_K_BOUND_PCT, "At most %", PR_FMT_PCT, 0.6,
     "The bound's share of the capture (empty where none)", 0},
    /* from here on a column stands for the one of its width too: the
       tables' widths stay */
    {"step", PR_K_STEP, "Window", PR_FMT_TEXT, 1.4,
     "The run's one window: the capture (no steps)", PR_COL_BOTH},
    {"step", PR_K_STEP, "Window", PR_FMT_TEXT, 0.7,
     "The run's one window: the capture (no steps)", PR_COL_BOTH},
    {"count", PR_K_COUNT, "Calls in the window", PR_FMT_COUNT, 0.9, NULL,
     PR_COL_BOTH},
    {"outside", PR_K_OUTSIDE_STEPS_COUNT, "Outside the window", PR_FMT_COUNT,
     0.9, "Before or after the capture's window (start-up, shutdown)",
     PR_COL_BOTH},
    {"host", PR_K_HOST_US, "Host blocked", PR_FMT_US, 1.0,
     "Host time inside the call, inside the capture's window", PR_COL_BOTH},
    {"gain", PR_K_SAVES, "Saves", PR_FMT_FIGURE, 0.8,
     "What the replay saves of the capture; \xe2\x89\xa4 where the replay "
     "takes off all the time the change could, a ceiling (bound_us)",
     PR_COL_BOTH},
    {"length", PR_K_LENGTH_US, "Path", PR_FMT_US, 0.9,
     "The critical path: the capture as the graph replays it", PR_COL_BOTH},
    {"length", PR_K_LENGTH_US, "Path, ms", PR_FMT_FIGURE, 0.65,
     "The critical path: the capture as the graph replays it", PR_COL_BOTH},
    {"evidence", PR_K_EVIDENCE, "Evidence", PR_FMT_WRAP, 2.05,
     "The nodes of the critical path the change shortens most and what it "
     "takes off each over the capture (the path itself in Critical path "
     "below); for a finding whose calls lie beside the path (a host blocked "
     "in syncs) those calls, and where no gain is claimed, why",
     PR_COL_BOTH | PR_COL_LINK},
    {"error", PR_K_REPLAY_ERROR_PCT, "Replay error", PR_FMT_PCT, 0.8,
     "How far the replay is from the measured capture", PR_COL_BOTH},
    {"error", PR_K_REPLAY_ERROR_PCT, "Replay error", PR_FMT_PCT, 0.7,
     "How far the replay is from the measured capture", PR_COL_BOTH},
    /* the job's ranks (sec_job.c) and jobs (job_views.c) */
    {"mean", PR_K_MEAN_US, "Capture", PR_FMT_US, 1,
     "The rank's capture, its one window (no steps)", PR_COL_BOTH},
    {"vs_median", PR_K_VS_MEDIAN_PCT, "vs median rank", PR_FMT_PCT, 0.9,
     "capture time against the median rank's", PR_COL_BOTH},
    {"comm", PR_K_COMMUNICATION_PCT, "Communication", PR_FMT_PCT, 0.9,
     "communication-only time, share of the capture", PR_COL_BOTH},
    {"step", PR_K_STEP_US, "Capture", PR_FMT_US, 0.8,
     "Mean capture time over the job's runs (they have no steps)", PR_COL_BOTH},
};
/* the first of capture_cols[] matched by width too */
#define CAPTURE_COLS_BY_WIDTH 9
/* the labels capture_cols[i] stands for, in order */
static const char *const capture_cols_of[] = {
    "Saves / step",     "At most / step", "Of step",        "Of step",
    "Step after",       "Gain / step",    "At most / step", "Gain % / step",
    "At most % / step", "Step",           "Step",           "Calls in steps",
    "Outside steps",    "Host blocked",   "Saves",          "Path",
    "Path, ms",         "Evidence",       "Replay error",   "Replay error",
    "Mean step",        "vs median rank", "Communication",  "Mean step"};

/* one label for each of capture_cols (a column added to one and not the
   other read past the labels' end) */
_Static_assert(sizeof(capture_cols_of) / sizeof(capture_cols_of[0]) ==
                   sizeof(capture_cols) / sizeof(capture_cols[0]),
               "capture_cols_of: one label per capture_cols entry");

/* The column of cols (n of them) that c stands for: the one whose label
 * in of[] is c's, with c's key and id, and from by_width on c's width too;
 * c itself when none is. */
static const struct pr_col *
col_swap(const struct pr_col *c, const struct pr_col *cols,
         const char *const *of, size_t n, size_t by_width)
{
    size_t i;

    for (i = 0; c != NULL && c->label != NULL && i < n; i++)
        if (strcmp(c->label, of[i]) == 0 && strcmp(c->key, cols[i].key) == 0 &&
            strcmp(c->id, cols[i].id) == 0 &&
            (i < by_width || c->width == cols[i].width))
            return &cols[i];
    return c;
}

const struct pr_col *
pr_fig_col_capture(const struct pr_col *c)
{
    return col_swap(c, capture_cols, capture_cols_of,
                    sizeof(capture_cols) / sizeof(capture_cols[0]),
                    CAPTURE_COLS_BY_WIDTH);
}

/* the host step's columns: the verdict's Of step, the what-if table's
   Step after and Of step (sec_verdict.c, sec_critpath.c) */
static const struct pr_col host_step_cols[] = {
    {"of_step", PR_K_OF_STEP, "Of host step", PR_FMT_FIGURE, 0.75,
     "The saving's share of the mean host step (from each step's host "
     "start, torch_npu's Preparing included, as the critical path runs); "
     "\xe2\x89\xa4 for a bound alone; from the estimate's share to the "
     "bound's for both",
     PR_COL_BOTH},
    {"step", PR_K_STEP_US, "Host step after", PR_FMT_US, 0.9,
     "The host step's path (from its host start, torch_npu's Preparing "
     "included) replayed with the change (mean over the replayed steps), "
     "its time the trace records nothing for as measured; for twice the "
     "batch and gradient accumulation, the step that does twice the "
     "samples",
     PR_COL_BOTH},
    {"pct", PR_K_OF_STEP, "Of host step", PR_FMT_FIGURE, 0.7,
     "The saving's share of the mean host step (from each step's host "
     "start, torch_npu's Preparing included)",
     PR_COL_BOTH},
};
/* the labels host_step_cols[i] stands for */
static const char *const host_step_cols_of[] = {"Of step", "Step after",
                                                "Of step"};
/* one label for each of host_step_cols, as capture_cols_of */
_Static_assert(sizeof(host_step_cols_of) / sizeof(host_step_cols_of[0]) ==
                   sizeof(host_step_cols) / sizeof(host_step_cols[0]),
               "host_step_cols_of: one label per host_step_cols entry");

int
pr_fig_run_host_step(const cJSON *run)
{
    const cJSON *ss = pr_sget(run, PR_K_STEP_SUMMARY);

    return pr_sget_is(pr_sget_str(ss, PR_K_BASIS), "npu_device") &&
           pr_sget_num(ss, PR_K_HOST_MEAN_US) > pr_sget_num(ss, PR_K_MEAN_US);
}

const struct pr_col *
pr_fig_col_host_step(const struct pr_col *c)
{
    /* each by its width too */
    return col_swap(c, host_step_cols, host_step_cols_of,
                    sizeof(host_step_cols) / sizeof(host_step_cols[0]), 0);
}

int
pr_fig_summary_is_host_step(const cJSON *summary)
{
    const cJSON *run;
    int any = 0;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (!pr_fig_run_host_step(run))
            return 0;
        any = 1;
    }
    return any;
}

const char *
pr_fig_other_stages(const cJSON *dist)
{
    return pr_sget_len(pr_sget(pr_sget(dist, PR_K_PIPELINE), PR_K_STAGES)) == 2
               ? "the other stage waits"
               : "the other stages wait";
}

int
pr_fig_summary_is_capture(const cJSON *summary)
{
    const cJSON *run;
    int any = 0;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (!pr_sget_run_is_capture(run))
            return 0;
        any = 1;
    }
    return any;
}

int
pr_fig_summary_is_mixed(const cJSON *summary)
{
    const cJSON *run;
    int capture = 0, steps = 0;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (pr_sget_run_is_capture(run))
            capture = 1;
        else
            steps = 1;
    }
    return capture && steps;
}

static int
hidden(const struct pr_fig_table *t, const struct pr_col *c)
{
    size_t k;

    for (k = 0; t->hide != NULL && t->hide[k] != NULL; k++)
        if (strcmp(t->hide[k], c->id) == 0)
            return 1;
    for (k = 0; t->hide_zero != NULL && t->hide_zero[k] != NULL; k++)
        if (strcmp(t->hide_zero[k], c->id) == 0)
            return pr_fig_rows_all_zero(t->rows, c->key);
    return 0;
}

const struct pr_col *
pr_fig_table_col(const struct pr_fig_table *t, size_t i)
{
    const struct pr_col *c;
    size_t k;

    for (k = 0; (c = nth_col(t, k)) != NULL; k++) {
        const struct pr_col *shown =
            t->npu ? pr_fig_col_npu(c)
                   : pr_fig_col_units(c, (enum pr_fig_units)t->units);

        if (t->mindspore && shown != NULL)
            shown = pr_fig_col_mindspore(shown);
        if (t->capture && shown != NULL)
            shown = pr_fig_col_capture(shown);
        if (t->host_step && shown != NULL)
            shown = pr_fig_col_host_step(shown);

        if (shown != NULL && !hidden(t, c) && i-- == 0)
            return shown;
    }
    return NULL;
}

static int
row_wanted(const struct pr_fig_table *t, const cJSON *row)
{
    return cJSON_IsObject(row) &&
           (t->require == NULL || !isnan(pr_sget_num(row, t->require)));
}

void
pr_fig_table_count(const struct pr_fig_table *t, size_t top, size_t *shown,
                   size_t *total)
{
    const cJSON *row;
    size_t limit = t->limit ? t->limit : top ? top : DEFAULT_TOP;

    *total = 0;
    if (cJSON_IsObject(t->rows)) {
        *total = 1;
    } else {
        cJSON_ArrayForEach(row, t->rows)
        {
            *total += (size_t)row_wanted(t, row);
        }
    }
    *shown = *total < limit ? *total : limit;
}

void
pr_fig_table_caption(const struct pr_fig_table *t, size_t top, char *buf,
                     size_t n)
{
    size_t shown, total;

    pr_fig_table_count(t, top, &shown, &total);
    if (shown < total && t->order != NULL)
        snprintf(buf, n, "Top %zu of %zu, by %s.", shown, total, t->order);
    else if (shown < total)
        snprintf(buf, n, "First %zu of %zu.", shown, total);
    else if (t->order != NULL && total > 1)
        snprintf(buf, n, "By %s.", t->order);
    else
        snprintf(buf, n, "%s", "");
}

/* ---- parts and blocks ------------------------------------------------- */

void
pr_figs_init(struct pr_figs *f, size_t top)
{
    memset(f, 0, sizeof(*f));
    f->top = top ? top : DEFAULT_TOP;
}

void
pr_figs_nomem(struct pr_figs *f)
{
    f->failed = 1;
}

void
pr_fig_chart_free(struct pr_fig_chart *ch)
{
    size_t i;

    if (ch == NULL)
        return;
    for (i = 0; i < sizeof(ch->own) / sizeof(ch->own[0]); i++)
        free(ch->own[i]);
    free(ch);
}

static void
block_free(struct pr_block *b)
{
    size_t i;

    free(b->text);
    free(b->kpis);
    for (i = 0; i < b->n && b->kind == PR_BLOCK_CHARTS; i++)
        pr_fig_chart_free(b->charts[i]);
    cJSON_Delete(b->own);
}

void
pr_figs_free(struct pr_figs *f)
{
    size_t p, b;

    for (p = 0; p < f->n_parts; p++) {
        for (b = 0; b < f->parts[p].n_blocks; b++)
            block_free(&f->parts[p].blocks[b]);
        free(f->parts[p].blocks);
    }
    free(f->parts);
    f->parts = NULL;
    f->n_parts = f->cap = 0;
}

void
pr_figs_part(struct pr_figs *f, const char *label, const char *sub)
{
    void *parts = f->parts;
    struct pr_part *p;

    if (f->failed)
        return;
    if (pr_grow(&parts, &f->cap, f->n_parts + 1, sizeof(*f->parts)) != PR_OK) {
        f->failed = 1;
        return;
    }
    f->parts = parts;
    p = &f->parts[f->n_parts++];
    memset(p, 0, sizeof(*p));
    snprintf(p->label, sizeof(p->label), "%s", label ? label : "");
    snprintf(p->sub, sizeof(p->sub), "%s", sub ? sub : "");
}

/* A new zeroed block at the end of the current part; NULL after
 * out-of-memory. */
static struct pr_block *
add_block(struct pr_figs *f, enum pr_block_kind kind)
{
    struct pr_part *p;
    void *blocks;
    struct pr_block *b;

    if (f->n_parts == 0)
        pr_figs_part(f, NULL, NULL);
    if (f->failed)
        return NULL;
    p = &f->parts[f->n_parts - 1];
    blocks = p->blocks;
    if (pr_grow(&blocks, &p->cap, p->n_blocks + 1, sizeof(*p->blocks)) !=
        PR_OK) {
        f->failed = 1;
        return NULL;
    }
    p->blocks = blocks;
    b = &p->blocks[p->n_blocks++];
    memset(b, 0, sizeof(*b));
    b->kind = kind;
    return b;
}

/* The last block of the current part, or NULL. */
static struct pr_block *
last_block(struct pr_figs *f)
{
    struct pr_part *p;

    if (f->failed || f->n_parts == 0)
        return NULL;
    p = &f->parts[f->n_parts - 1];
    return p->n_blocks ? &p->blocks[p->n_blocks - 1] : NULL;
}

static void
add_text(struct pr_figs *f, enum pr_block_kind kind, const char *text)
{
    struct pr_block *b = add_block(f, kind);

    if (b == NULL)
        return;
    b->text = strdup(text ? text : "");
    if (b->text == NULL)
        f->failed = 1;
}

void
pr_figs_heading(struct pr_figs *f, const char *text)
{
    add_text(f, PR_BLOCK_HEADING, text);
}

void
pr_figs_note(struct pr_figs *f, const char *text)
{
    add_text(f, PR_BLOCK_NOTE, text);
}

void
pr_figs_text(struct pr_figs *f, const char *text)
{
    add_text(f, PR_BLOCK_TEXT, text);
}

void
pr_figs_kpi(struct pr_figs *f, const char *label, double v, enum pr_fmt fmt,
            const char *sub)
{
    struct pr_block *b = last_block(f);
    struct pr_kpi *k;

    if (b == NULL || b->kind != PR_BLOCK_KPIS || b->n == PR_FIG_MAX_KPIS) {
        b = add_block(f, PR_BLOCK_KPIS);
        if (b == NULL)
            return;
        b->kpis = calloc(PR_FIG_MAX_KPIS, sizeof(*b->kpis));
        if (b->kpis == NULL) {
            f->failed = 1;
            return;
        }
    }
    k = &b->kpis[b->n++];
    snprintf(k->label, sizeof(k->label), "%s", label);
    /* a key figure of no time keeps its unit: "0 µs", not a bare "0"
       (review26a #4: npu_trace_view's median launch delay) */
    if (fmt == PR_FMT_US && v == 0)
        snprintf(k->value, sizeof(k->value), "0 µs");
    else
        pr_fig_format(v, fmt, k->value, sizeof(k->value));
    snprintf(k->sub, sizeof(k->sub), "%s", sub ? sub : "");
    k->na = isnan(v);
}

/* One line a chart: the spec's type is the drawer's, so only the
 * pointer's type changes (chart.h stays typed). */
#define FIG_DRAW(name, chart_fn)                                               \
    void name(struct pr_canvas *c, const struct pr_chart_box *b,               \
              const void *spec)                                                \
    {                                                                          \
        chart_fn(c, b, spec);                                                  \
    }
FIG_DRAW(pr_fig_draw_stacked, pr_chart_stacked_bars)
FIG_DRAW(pr_fig_draw_donut, pr_chart_donut)
FIG_DRAW(pr_fig_draw_lines, pr_chart_line)
FIG_DRAW(pr_fig_draw_roofline, pr_chart_roofline)
FIG_DRAW(pr_fig_draw_hbars, pr_chart_hbars)
FIG_DRAW(pr_fig_draw_timeline, pr_chart_timeline)
#undef FIG_DRAW

struct pr_fig_chart *
pr_fig_chart_new(pr_fig_draw_fn draw, const char *label, double w, double h,
                 double pdf_h)
{
    struct pr_fig_chart *ch = calloc(1, sizeof(*ch));

    if (ch == NULL)
        return NULL;
    ch->draw = draw;
    ch->spec = &ch->u;
    snprintf(ch->label, sizeof(ch->label), "%s", label);
    ch->w = w;
    ch->h = h;
    ch->pdf_h = pdf_h;
    return ch;
}

void
pr_figs_chart(struct pr_figs *f, struct pr_fig_chart *ch, int side)
{
    struct pr_block *b = last_block(f);

    if (ch == NULL || f->failed) {
        f->failed = 1;
        pr_fig_chart_free(ch);
        return;
    }
    if (!side || b == NULL || b->kind != PR_BLOCK_CHARTS || b->n == 2)
        b = add_block(f, PR_BLOCK_CHARTS);
    if (b == NULL) {
        pr_fig_chart_free(ch);
        return;
    }
    b->charts[b->n++] = ch;
}

static int
has_rows(const struct pr_fig_table *t)
{
    size_t shown, total;

    pr_fig_table_count(t, 1, &shown, &total);
    return total > 0;
}

void
pr_figs_table(struct pr_figs *f, const char *heading,
              const struct pr_fig_table *t, const char *empty)
{
    struct pr_block *b;

    if (!has_rows(t)) {
        if (empty != NULL)
            pr_figs_note(f, empty);
        return;
    }
    if (heading != NULL)
        pr_figs_heading(f, heading);
    b = add_block(f, PR_BLOCK_TABLE);
    if (b != NULL) {
        b->table = *t;
        b->table.npu |= f->npu;
        b->table.mindspore |= f->mindspore;
        if (b->table.units == PR_UNITS_CUDA)
            b->table.units = f->units;
    }
}

void
pr_figs_table_own(struct pr_figs *f, const struct pr_fig_table *t, cJSON *rows,
                  const char *empty)
{
    struct pr_fig_table copy = *t;
    struct pr_block *b;

    if (rows == NULL || f->failed) {
        f->failed = 1;
        cJSON_Delete(rows);
        return;
    }
    copy.rows = rows;
    if (!has_rows(&copy)) {
        cJSON_Delete(rows);
        if (empty != NULL)
            pr_figs_note(f, empty);
        return;
    }
    b = add_block(f, PR_BLOCK_TABLE);
    if (b == NULL) {
        cJSON_Delete(rows);
        return;
    }
    b->table = copy;
    b->table.npu |= f->npu;
    b->table.mindspore |= f->mindspore;
    if (b->table.units == PR_UNITS_CUDA)
        b->table.units = f->units;
    b->own = rows;
}

void
pr_figs_items(struct pr_figs *f, cJSON *items)
{
    struct pr_block *b;

    if (items == NULL) {
        f->failed = 1;
        return;
    }
    b = add_block(f, PR_BLOCK_ITEMS);
    if (b == NULL) {
        cJSON_Delete(items);
        return;
    }
    b->own = items;
}

/* ---- sections --------------------------------------------------------- */

char *
pr_fig_run_label(const cJSON *run, char *buf, size_t n)
{
    const char *worker = pr_sget_str_or(run, PR_K_WORKER, "?");
    const char *span = pr_sget_str(run, PR_K_SPAN);
    double rank = pr_sget_num(run, PR_K_RANK);
    char extra[96] = "";

    if (span != NULL && span[0] != '\0' && !isnan(rank))
        snprintf(extra, sizeof(extra), " (span %s, rank %.0f)", span, rank);
    else if (span != NULL && span[0] != '\0')
        snprintf(extra, sizeof(extra), " (span %s)", span);
    else if (!isnan(rank))
        snprintf(extra, sizeof(extra), " (rank %.0f)", rank);
    snprintf(buf, n, "%s%s", worker, extra);
    return buf;
}

int
pr_fig_run_host_only(const cJSON *run)
{
    return pr_sget_true(run, PR_K_HOST_ONLY);
}

int
pr_fig_job_without_view(const cJSON *summary, char *buf, size_t n)
{
    const cJSON *run, *other;
    double ws = 0;
    int ranks = 0, floor = 0;

    if (cJSON_IsObject(pr_sget(summary, PR_K_DISTRIBUTED)))
        return 0;
    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        const cJSON *r = pr_sget(run, PR_K_RANK);
        int seen = 0;

        if (pr_sget_num(run, PR_K_WORLD_SIZE) > ws) {
            ws = pr_sget_num(run, PR_K_WORLD_SIZE);
            floor = pr_sget_run_world_floor(run);
        }
        if (!cJSON_IsNumber(r))
            continue;
        for (other = pr_sget(summary, PR_K_RUNS)->child; other != run;
             other = other->next)
            seen |= cJSON_IsNumber(pr_sget(other, PR_K_RANK)) &&
                    pr_sget_num(other, PR_K_RANK) == r->valuedouble;
        ranks += !seen;
    }
    if (ws > 1) /* the groups' ranks: a lower bound (issue #30) */
        snprintf(buf, n, "world size %s%.0f", floor ? "at least " : "", ws);
    else if (ranks > 1)
        snprintf(buf, n, "%d ranks", ranks);
    else
        return 0;
    return 1;
}

int
pr_fig_summary_older(const cJSON *summary)
{
    const cJSON *run;

    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (pr_sget_older_note(run) != NULL)
            return 1;
    }
    return 0;
}

int
pr_fig_world_unknown(const cJSON *summary)
{
    const cJSON *run;

    if (cJSON_IsObject(pr_sget(summary, PR_K_DISTRIBUTED)))
        return 0;
    cJSON_ArrayForEach(run, pr_sget(summary, PR_K_RUNS))
    {
        if (pr_sget_older_note(run) != NULL && pr_fig_run_is_npu(run) &&
            cJSON_GetObjectItemCaseSensitive(run, PR_K_WORLD_SIZE_SOURCE) ==
                NULL &&
            !cJSON_IsNumber(pr_sget(run, PR_K_WORLD_SIZE)))
            return 1;
    }
    return 0;
}

void
pr_fig_older_note(struct pr_figs *f, const cJSON *run)
{
    const char *note = pr_sget_older_note(run);

    if (note != NULL)
        pr_figs_note(f, note);
}

int
pr_fig_host_only(const cJSON *summary)
{
    const cJSON *run, *runs = pr_sget(summary, PR_K_RUNS);

    if (pr_sget_len(runs) == 0)
        return 0;
    cJSON_ArrayForEach(run, runs)
    {
        if (!pr_fig_run_host_only(run))
            return 0;
    }
    return 1;
}

int
pr_fig_has_device(const cJSON *summary)
{
    return !pr_fig_host_only(summary);
}

struct keyed {
    double v;
    const char *name;
    cJSON *row;
    size_t at; /* position in the summary: the last tie-break */
};

static int
cmp_keyed(const void *pa, const void *pb)
{
    const struct keyed *a = pa, *b = pb;
    int c;

    if (a->v != b->v)
        return a->v > b->v ? -1 : 1;
    c = strcmp(a->name, b->name);
    return c != 0 ? c : (a->at < b->at ? -1 : a->at > b->at);
}

cJSON *
pr_fig_rows_by(const cJSON *rows, const char *key)
{
    size_t n = pr_sget_len(rows), i = 0;
    struct keyed *k = calloc(n ? n : 1, sizeof(*k));
    cJSON *copy = cJSON_Duplicate(rows, 1), *out = cJSON_CreateArray(), *r;

    if (k == NULL || copy == NULL || out == NULL) {
        free(k);
        cJSON_Delete(copy);
        cJSON_Delete(out);
        return NULL;
    }
    for (r = copy->child; r != NULL && i < n; r = r->next, i++) {
        double v = pr_sget_num(r, key);

        k[i].v = isnan(v) ? -INFINITY : v;
        k[i].name = pr_sget_str_or(r, PR_K_NAME, "");
        k[i].row = r;
        k[i].at = i;
    }
    qsort(k, i, sizeof(*k), cmp_keyed);
    for (n = 0; n < i; n++)
        cJSON_AddItemToArray(out, cJSON_DetachItemViaPointer(copy, k[n].row));
    free(k);
    cJSON_Delete(copy);
    return out;
}

/* A section's paragraph in MindSpore's words (its frames, its Cells),
 * where the generic one speaks of PyTorch's; NULL: the generic one. */
static const char *
mindspore_lede(const char *id)
{
    if (strcmp(id, "source") == 0)
        return "Operator time by the line of your code that called it: the "
               "innermost frame outside mindspore, site-packages and the "
               "standard library.";
    if (strcmp(id, "modules") == 0)
        return "Time per network Cell, as the tree of Cells that called each "
               "other (a Cell indented under its caller), and per Cell type.";
    return NULL;
}

/* A section's paragraph when every run is a capture without steps
 * (step_summary.basis "capture"): it speaks of the capture, never of "the
 * step" (issue #29); NULL: the section's own. */
static const char *
capture_lede(const char *id)
{
    if (strcmp(id, "verdict") == 0)
        return "What bounds the capture (the trace has no steps) and what "
               "each fix would save over it, largest first (\xe2\x89\xa4: the "
               "most a change could save, where no estimate is possible).";
    if (strcmp(id, "job") == 0)
        return "The whole job at a glance: each rank's capture time (no rank "
               "has steps), where the ranks differ, and the operators and "
               "kernels aggregated over ranks.";
    if (strcmp(id, "host-device") == 0)
        return "How each device spent the capture (the trace has no steps: "
               "its span from first to last work) in compute, communication, "
               "copies and idle, and why it was idle, where the host blocked "
               "on the device, how data moved between them, and how long "
               "kernels waited after their launch.";
    if (strcmp(id, "critical-path") == 0)
        return "What bounds the capture (the trace has no steps): the chain "
               "of host work, launches, device tasks and waits that sets "
               "when the capture's work ends, found by replaying its "
               "dependency graph (host calls in thread order, launch to "
               "task, stream order, syncs and stream waits). Shortening "
               "anything off this path does not shorten the capture.";
    return NULL;
}

/* A section's paragraph when some runs have steps and others do not
 * (pr_fig_summary_is_mixed): words that fit both, each run's own part
 * below in its own words (issue #29); NULL: the section's own. */
static const char *
mixed_lede(const char *id)
{
    if (strcmp(id, "verdict") == 0)
        return "What bounds each run's steps (a run without steps: its "
               "capture, its one window) and what each fix would save, "
               "largest first (\xe2\x89\xa4: the most a change could save, "
               "where no estimate is possible).";
    if (strcmp(id, "job") == 0)
        return "The whole job at a glance: each rank's step time (a rank "
               "without steps: its capture), where the ranks differ, and the "
               "operators and kernels aggregated over ranks.";
    if (strcmp(id, "critical-path") == 0)
        return "What bounds each step (a run without steps: its capture): "
               "the chain of host work, launches, device tasks and waits "
               "that sets when it ends, found by replaying its dependency "
               "graph (host calls in thread order, launch to task, stream "
               "order, syncs and stream waits). Shortening anything off this "
               "path does not shorten the step (or the capture).";
    return NULL;
}

/* Whether every run (one at least) ran under MindSpore. */
static int
all_mindspore(const cJSON *runs)
{
    const cJSON *run;
    int any = 0;

    cJSON_ArrayForEach(run, runs)
    {
        if (!pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "mindspore"))
            return 0;
        any = 1;
    }
    return any;
}

void
pr_figs_section(struct pr_figs *f, const struct pr_section *s,
                const cJSON *summary)
{
    const cJSON *runs = pr_sget(summary, PR_K_RUNS), *run;
    size_t n = pr_sget_len(runs);
    char label[256];
    const char *lede = s->host_lede != NULL && pr_fig_host_only(summary)
                           ? s->host_lede
                           : s->lede;

    if (pr_fig_summary_is_capture(summary) && capture_lede(s->id) != NULL)
        lede = capture_lede(s->id);
    else if (pr_fig_summary_is_mixed(summary) && mixed_lede(s->id) != NULL)
        lede = mixed_lede(s->id);
    if (all_mindspore(runs) && mindspore_lede(s->id) != NULL)
        lede = mindspore_lede(s->id);

    if (lede != NULL)
        pr_figs_text(f, lede);
    if (!s->per_run) {
        f->npu = pr_fig_summary_is_npu(summary);
        f->mindspore = pr_fig_summary_is_mindspore(summary);
        f->units = pr_fig_summary_units(summary);
        s->build(f, summary, NULL);
        f->npu = 0;
        f->mindspore = 0;
        f->units = 0;
        return;
    }
    if (n == 0)
        pr_figs_note(f, "No runs in this summary: the inputs held no trace "
                        "events.");
    cJSON_ArrayForEach(run, runs)
    {
        const cJSON *dev = pr_sget_first(run, PR_K_DEVICES);
        if (n > 1)
            pr_figs_part(f, pr_fig_run_label(run, label, sizeof(label)),
                         pr_fig_device_name(dev));
        f->npu = pr_fig_run_is_npu(run);
        f->mindspore = pr_fig_run_is_mindspore(run);
        f->units = pr_fig_run_units(run);
        s->build(f, summary, run);
        f->npu = 0;
        f->mindspore = 0;
        f->units = 0;
    }
}

const char *
pr_fig_device_name(const cJSON *dev)
{
    const char *label = pr_sget_str(dev, PR_K_LABEL);

    return label != NULL ? label : pr_sget_str(dev, PR_K_NAME);
}
