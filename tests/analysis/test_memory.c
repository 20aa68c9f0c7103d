/* test_memory.c - the memory view (spec/tb-plugin-semantics.md §12 and the
 * differences in docs/differences.md) on hand-made traces read from inline
 * JSON: attribution to the deepest operator of the same thread (12.2),
 * self and total statistics (12.4), calls, row order, peaks, curves and
 * the curve's downsampling.  Expected numbers are worked out in comments;
 * times are µs, sizes bytes. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profreport/memory.h"
#include "profreport/reader.h"
#include "profreport/steps.h"
#include "profreport/tree.h"

#include "testjson.h"
#include "testtrace.h"

/* A host duration event and a [memory] record; every event ends with a
 * comma, so a trace ends with END (a metadata event, ignored). */
#define HOST(cat, name, tid, ts, dur)                                          \
    "{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":1,"       \
    "\"tid\":" tid ",\"ts\":" ts ",\"dur\":" dur "},\n"
#define OP(name, tid, ts, dur) HOST("cpu_op", name, tid, ts, dur)
#define MEM(tid, ts, args)                                                     \
    "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":" tid   \
    ",\"ts\":" ts ",\"args\":{" args "}},\n"
#define END                                                                    \
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,"             \
    "\"args\":{\"name\":\"x\"}}"
#define TRACE(events) "{\"traceEvents\":[\n" events END "]}"

/* Run the real path: reader, tree, steps, pr_memory_fill into a run object
 * whose "memory" is null, as summary.c makes it. */
static cJSON *
memory_of(const char *json)
{
    struct pr_trace *t = NULL;
    struct pr_tree tree;
    struct pr_steps steps;
    struct pr_error err;
    cJSON *run = cJSON_CreateObject();

    pr_error_clear(&err);
    assert_non_null(run);
    assert_non_null(cJSON_AddNullToObject(run, "memory"));
    if (pr_reader_load_mem("m.json", json, strlen(json), NULL, &t, &err) !=
        PR_OK)
        fail_msg("load failed: %s", err.msg);
    assert_int_equal(pr_tree_build(t, &tree, &err), PR_OK);
    assert_int_equal(pr_steps_compute(t, &tree, &steps, &err), PR_OK);
    assert_int_equal(pr_memory_fill(t, &tree, &steps, run, &err), PR_OK);
    pr_steps_free(&steps);
    pr_tree_free(&tree);
    pr_trace_free(t); /* the run copies every string it keeps */
    return run;
}

static double
item(const cJSON *arr, int i)
{
    const cJSON *v = cJSON_GetArrayItem(arr, i);

    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static const cJSON *
device(const cJSON *mem, int i, const char *name)
{
    const cJSON *d = cJSON_GetArrayItem(get(mem, "devices"), i);

    assert_non_null(d);
    assert_string_equal(str(d, "device"), name);
    return d;
}

/* One operators[] row: device, name, calls, then the six metrics in the
 * order size_increase, self_size_increase, allocation_count,
 * self_allocation_count, allocation_size, self_allocation_size. */
static void
expect_row(const cJSON *mem, int i, const char *dev, const char *name,
           double calls, double inc, double self_inc, double count,
           double self_count, double size, double self_size)
{
    const cJSON *r = cJSON_GetArrayItem(get(mem, "operators"), i);

    if (r == NULL)
        fail_msg("no operators[%d] (%s %s)", i, dev, name);
    assert_string_equal(str(r, "device"), dev);
    assert_string_equal(str(r, "name"), name);
    tt_near(num(r, "calls"), calls);
    tt_near(num(r, "size_increase_bytes"), inc);
    tt_near(num(r, "self_size_increase_bytes"), self_inc);
    tt_near(num(r, "allocation_count"), count);
    tt_near(num(r, "self_allocation_count"), self_count);
    tt_near(num(r, "allocation_size_bytes"), size);
    tt_near(num(r, "self_allocation_size_bytes"), self_size);
}

#define GPU(bytes, addr, total, reserved)                                      \
    "\"Device Type\":1,\"Device Id\":0,\"Bytes\":" bytes ",\"Addr\":" addr     \
    ",\"Total Allocated\":" total ",\"Total Reserved\":" reserved

/* Thread 1:  ProfilerStep#1 [100,200) (user annotation: not an operator)
 *              aten::linear [110,150)
 *                aten::addmm [115,140)
 *                  aten::empty [118,120)
 *              aten::relu [160,170)
 *              aten::view [171,174)
 *              my_region [175,185)        (user annotation)
 *              aten::relu [186,190)
 *              aten::zeros [192,198)
 *                aten::empty [193,195)    (no record inside aten::zeros)
 * Thread 2:  aten::copy_ [120,130)
 *
 * Records (GPU0 unless said; "TA" = Total Allocated, TR = Total Reserved):
 *   r1   90 tid1 +64    addr 1  TA 64   TR 2048  before the root: staled
 *   r2  112 tid1 +1000  addr 2  TA 1064 TR 2048  aten::linear
 *   r3  116 tid1 +200   addr 3  TA 1264 TR 2048  aten::addmm
 *   r4  119 tid1 +4000  addr 4  TA 5264 TR 8192  aten::empty
 *   r5  125 tid2 +300   addr 5  TA 5564 TR 8192  aten::copy_ (thread 2,
 *                                                 not thread 1's addmm)
 *   r6  126 tid9 +10    no totals                thread 9 has no tree:
 *                                                 staled
 *   r7  130 tid1 -4000  addr 4  TA 1564 TR 8192  aten::addmm (free)
 *   r8  145 tid1 -200   addr 3  TA 1364 TR 8192  aten::linear (free)
 *   r9  148 tid1 CPU +300 addr 8 TA 300 TR 512   aten::linear on CPU
 *   r10 165 tid1 +500   addr 6  TA 1864 TR 8192  aten::relu
 *   r11 170 tid1 Device Type 5                    unknown device
 *   r12 172 tid1 Bytes 0, no address, no totals  aten::view: all-zero row
 *   r13 180 tid1 +700   addr 7  TA 2564 TR 8192  my_region: staled
 *   r14 187 tid1 -999   addr 99 TA 1565 TR 8192  aten::relu #2, a free of
 *                                                 an address never
 *                                                 allocated
 *
 * GPU0 statistics (12.4):
 *   aten::empty   self 4000 / 4000 / 1            total the same
 *   aten::addmm   self +200 -4000 = -3800, size 200, count 1
 *                 total -3800 + 4000 = 200, size 4200, count 2
 *   aten::linear  self +1000 -200 = 800, size 1000, count 1
 *                 total 800 + 200 = 1000, size 1000 + 4200 = 5200,
 *                 count 1 + 2 = 3
 *   aten::copy_   300 / 300 / 1 self and total
 *   aten::relu    node 1: 500/500/1, node 2: -999/0/0
 *                 -> -499, size 500, count 1, self and total; calls 2
 *   aten::view    all zero: no row
 * CPU: aten::linear 300 / 300 / 1 self and total.
 * Calls: nodes the 12.4 walk reaches (children of a root or of a visited
 * node): aten::empty 1 (the one under the never-visited aten::zeros is not
 * reached), aten::relu 2, every other op 1.
 * Rows sorted by size increase desc, then device, then name:
 *   empty 4000, GPU0 linear 1000, CPU linear 300, GPU0 copy_ 300
 *   (tie: "CPU" < "GPU0"), addmm 200, relu -499. */
static const char attribution_trace[] = TRACE(
    HOST("user_annotation", "ProfilerStep#1", "1", "100", "100") OP(
        "aten::linear", "1", "110",
        "40") OP("aten::addmm", "1", "115",
                 "25") OP("aten::empty", "1", "118",
                          "2") OP("aten::copy_", "2", "120",
                                  "10") OP("aten::relu", "1", "160", "10")
        OP("aten::view", "1", "171", "3") HOST(
            "user_annotation",
            "my_region",
            "1",
            "175", "10") OP("aten::relu", "1", "186", "4")
            OP("aten::zeros", "1", "192", "6") OP(
                "aten::empty",
                "1", "193",
                "2") MEM("1", "90", GPU("64", "1", "64", "2048"))
                MEM("1", "112", GPU("1000", "2", "1064", "2048"))
                    MEM("1", "116", GPU("200", "3", "1264", "2048")) MEM(
                        "1", "119",
                        GPU("4000", "4", "5264", "8192"))
                        MEM("2", "125", GPU("300", "5", "5564", "8192")) MEM(
                            "9", "126",
                            "\"Device Type\":1,\"Device Id\":0,\"Bytes\":10")
                            MEM("1", "130",
                                GPU("-4000", "4",
                                    "1564", "8192")) MEM("1", "145",
                                                         GPU("-200", "3",
                                                             "1364", "8192"))
                                MEM("1", "148",
                                    "\"Device Type\":0,\"Device "
                                    "Id\":-1,\"Bytes\":300,"
                                    "\"Addr\":8,\"Total Allocated\":300,"
                                    "\"Total Reserved\":512")
                                    MEM("1", "165",
                                        GPU("500", "6", "1864", "8192"))
                                        MEM("1", "170",
                                            "\"Device Type\":5,\"Device "
                                            "Id\":0,\"Bytes\":4096,"
                                            "\"Addr\":77")
                                            MEM("1", "172",
                                                "\"Device Type\":1,\"Device "
                                                "Id\":0,\"Bytes\":0")
                                                MEM("1", "180",
                                                    GPU("700", "7", "2564",
                                                        "8192"))
                                                    MEM("1", "187",
                                                        GPU("-999", "99",
                                                            "1565", "8192")));

static void
test_operator_rows(void **state)
{
    cJSON *run = memory_of(attribution_trace);
    const cJSON *mem = get(run, "memory");

    (void)state;
    assert_int_equal(cJSON_GetArraySize(get(mem, "operators")), 6);
    expect_row(mem, 0, "GPU0", "aten::empty", 1, 4000, 4000, 1, 1, 4000, 4000);
    expect_row(mem, 1, "GPU0", "aten::linear", 1, 1000, 800, 3, 1, 5200, 1000);
    expect_row(mem, 2, "CPU", "aten::linear", 1, 300, 300, 1, 1, 300, 300);
    expect_row(mem, 3, "GPU0", "aten::copy_", 1, 300, 300, 1, 1, 300, 300);
    expect_row(mem, 4, "GPU0", "aten::addmm", 1, 200, -3800, 2, 1, 4200, 200);
    expect_row(mem, 5, "GPU0", "aten::relu", 2, -499, -499, 1, 1, 500, 500);
    tt_near(num(mem, "unknown_device_records"), 1);
    cJSON_Delete(run);
}

/* Per device (sorted: CPU, GPU0).
 * GPU0: allocations r1 r2 r3 r4 r5 r6 r10 r13 = 8; frees r7 r8 r12 r14 = 4;
 *   unattributed allocations r1 (before the root), r6 (thread without a
 *   tree), r13 (inside a user annotation) = 3; unmatched frees: r14
 *   (addr 99); r12 has no address so it is matched against nothing.
 *   Peak TA 5564 at r5 (125 - 90 = 35 µs after the first event), peak TR
 *   8192.  Bytes since the first record: 64 1064 1264 5264 5564 5574(r6)
 *   1574 1374 1874 1874(r12) 2574 1575 -> peak_increase 5574.
 *   Curve: the ten records with totals (r6 and r12 have none), t from r1:
 *   0 22 26 29 35 40 55 75 90 97; allocated as TA.
 *   Peak step: r5 at 125 lies in ProfilerStep#1 [100,200).  Live at the
 *   peak record r5 (issue #11: tensors live then, not every allocation
 *   of the step): r1 64 (no operator), r2 1000 linear, r3 200 addmm, r4
 *   4000 empty (named by its caller addmm, 12.8), r5 300 copy_; relu's
 *   500 (r10) comes after the peak and is not among them.  Live 5564 =
 *   the peak's Total Allocated, so nothing is untraced.
 * CPU: one record, TA 300 TR 512, peak at 148 - 90 = 58 µs; linear 300. */
static void
test_devices(void **state)
{
    cJSON *run = memory_of(attribution_trace);
    const cJSON *mem = get(run, "memory");
    const cJSON *cpu = device(mem, 0, "CPU");
    const cJSON *gpu = device(mem, 1, "GPU0");
    const cJSON *curve = get(gpu, "curve");
    const cJSON *top = get(gpu, "top_allocators_at_peak");
    static const double t_us[] = {0, 22, 26, 29, 35, 40, 55, 75, 90, 97};
    static const double ta[] = {64,   1064, 1264, 5264, 5564,
                                1564, 1364, 1864, 2564, 1565};
    static const char *const tops[] = {"aten::addmm (aten::empty)",
                                       "aten::linear", "aten::copy_",
                                       "aten::addmm"};
    static const double top_bytes[] = {4000, 1000, 300, 200};
    int i;

    (void)state;
    assert_int_equal(cJSON_GetArraySize(get(mem, "devices")), 2);
    tt_near(num(gpu, "peak_allocated_bytes"), 5564);
    tt_near(num(gpu, "peak_reserved_bytes"), 8192);
    tt_near(num(gpu, "peak_increase_bytes"), 5574);
    tt_near(num(gpu, "peak_at_us"), 35);
    assert_string_equal(str(gpu, "curve_basis"), "total_allocated");
    tt_near(num(gpu, "allocations"), 8);
    tt_near(num(gpu, "frees"), 4);
    tt_near(num(gpu, "unattributed_allocations"), 3);
    tt_near(num(gpu, "unmatched_frees"), 1);
    assert_string_equal(str(gpu, "peak_step"), "ProfilerStep#1");
    assert_int_equal(cJSON_GetArraySize(get(curve, "t_us")), 10);
    assert_int_equal(cJSON_GetArraySize(get(curve, "allocated_bytes")), 10);
    assert_int_equal(cJSON_GetArraySize(get(curve, "reserved_bytes")), 10);
    for (i = 0; i < 10; i++) {
        tt_near(item(get(curve, "t_us"), i), t_us[i]);
        tt_near(item(get(curve, "allocated_bytes"), i), ta[i]);
    }
    tt_near(item(get(curve, "reserved_bytes"), 0), 2048);
    tt_near(item(get(curve, "reserved_bytes"), 9), 8192);
    assert_int_equal(cJSON_GetArraySize(top), 4);
    for (i = 0; i < 4; i++) {
        const cJSON *r = cJSON_GetArrayItem(top, i);
        assert_string_equal(str(r, "name"), tops[i]);
        tt_near(num(r, "self_allocation_size_bytes"), top_bytes[i]);
        tt_near(num(r, "live_bytes"), top_bytes[i]);
        tt_near(num(r, "tensors"), 1);
    }
    tt_near(num(gpu, "live_at_peak_bytes"), 5564);
    tt_near(num(gpu, "live_at_peak_outside_operators_bytes"), 64);
    tt_near(num(gpu, "live_at_peak_untraced_bytes"), 0);
    assert_true(cJSON_IsNull(get(gpu, "top_allocators_note")));

    tt_near(num(cpu, "peak_allocated_bytes"), 300);
    tt_near(num(cpu, "peak_reserved_bytes"), 512);
    tt_near(num(cpu, "peak_at_us"), 58);
    tt_near(num(cpu, "allocations"), 1);
    tt_near(num(cpu, "frees"), 0);
    tt_near(num(cpu, "unattributed_allocations"), 0);
    tt_near(num(cpu, "unmatched_frees"), 0);
    assert_string_equal(str(cpu, "peak_step"), "ProfilerStep#1");
    assert_int_equal(cJSON_GetArraySize(get(cpu, "top_allocators_at_peak")), 1);
    cJSON_Delete(run);
}

/* Live at the peak, not allocated in its step (issue #11): aten::a's
 * tensor is freed before the peak, aten::d's comes after it; at the peak
 * (TA 700) aten::b holds 500 and aten::c 200; 1000 of the 1700 total were
 * allocated before the trace. */
static void
test_live_at_peak(void **state)
{
    static const char json[] = TRACE(
        OP("aten::a", "1", "0", "10") OP("aten::b", "1", "10", "10")
            OP("aten::c", "1", "30", "10") OP("aten::d", "1", "50", "10")
                MEM("1", "5", GPU("100", "1", "1100", "2048"))
                    MEM("1", "15", GPU("500", "2", "1600", "2048"))
                        MEM("1", "25", GPU("-100", "1", "1500", "2048"))
                            MEM("1", "35", GPU("200", "3", "1700", "2048"))
                                MEM("1", "45", GPU("-500", "2", "1200", "2048"))
                                    MEM("1", "55",
                                        GPU("300", "4", "1500", "2048")));
    cJSON *run = memory_of(json);
    const cJSON *gpu = device(get(run, "memory"), 0, "GPU0");
    const cJSON *top = get(gpu, "top_allocators_at_peak");

    (void)state;
    tt_near(num(gpu, "peak_allocated_bytes"), 1700);
    assert_int_equal(cJSON_GetArraySize(top), 2);
    assert_string_equal(str(cJSON_GetArrayItem(top, 0), "name"), "aten::b");
    tt_near(num(cJSON_GetArrayItem(top, 0), "live_bytes"), 500);
    assert_string_equal(str(cJSON_GetArrayItem(top, 1), "name"), "aten::c");
    tt_near(num(cJSON_GetArrayItem(top, 1), "live_bytes"), 200);
    tt_near(num(gpu, "live_at_peak_bytes"), 700);
    tt_near(num(gpu, "live_at_peak_untraced_bytes"), 1000);
    cJSON_Delete(run);
}

/* Without Total Allocated anywhere (traces before PyTorch 1.10): peaks are
 * null, the curve is Bytes summed since the first record.
 *   aten::mm [0,100) on thread 1; records +100 @10 (addr 1), +300 @20
 *   (addr 2), -250 @30 (addr 2, a free of 300 bytes reported as 250 is
 *   still matched by address), +50 @40 (no address).
 *   Running sum 100 400 150 200: peak_increase 400 at 20 µs (the first
 *   event is the op at 0).  No step events: the no-step fallback step "0"
 *   [0,100) holds the peak but has no name, so peak_step is null.  Live
 *   at the peak (the second record): aten::mm's two tensors, 100 + 300 =
 *   400; the 50 without an address comes later, so no note.
 *   aten::mm: 200 / 200 / 3 / 3 / 450 / 450. */
static void
test_no_totals(void **state)
{
    static const char json[] =
        TRACE(OP("aten::mm", "1", "0", "100") MEM(
            "1", "10",
            "\"Device Type\":1,\"Device Id\":0,\"Bytes\":100,"
            "\"Addr\":1") MEM("1", "20",
                              "\"Device Type\":1,\"Device Id\":0,\"Bytes\":300,"
                              "\"Addr\":2")
                  MEM("1", "30",
                      "\"Device Type\":1,\"Device Id\":0,\"Bytes\":-250,"
                      "\"Addr\":2")
                      MEM("1", "40",
                          "\"Device Type\":1,\"Device Id\":0,\"Bytes\":50"));
    static const double t_us[] = {10, 20, 30, 40};
    static const double run_sum[] = {100, 400, 150, 200};
    cJSON *run = memory_of(json);
    const cJSON *mem = get(run, "memory");
    const cJSON *gpu = device(mem, 0, "GPU0");
    const cJSON *curve = get(gpu, "curve");
    int i;

    (void)state;
    assert_true(cJSON_IsNull(get(gpu, "peak_allocated_bytes")));
    assert_true(cJSON_IsNull(get(gpu, "peak_reserved_bytes")));
    assert_string_equal(str(gpu, "curve_basis"), "bytes_since_first_record");
    tt_near(num(gpu, "peak_increase_bytes"), 400);
    tt_near(num(gpu, "peak_at_us"), 20);
    tt_near(num(gpu, "allocations"), 3);
    tt_near(num(gpu, "frees"), 1);
    tt_near(num(gpu, "unmatched_frees"), 0);
    tt_near(num(gpu, "unattributed_allocations"), 0);
    assert_true(cJSON_IsNull(get(gpu, "peak_step")));
    assert_int_equal(cJSON_GetArraySize(get(gpu, "top_allocators_at_peak")), 1);
    tt_near(num(cJSON_GetArrayItem(get(gpu, "top_allocators_at_peak"), 0),
                "self_allocation_size_bytes"),
            400);
    tt_near(num(cJSON_GetArrayItem(get(gpu, "top_allocators_at_peak"), 0),
                "tensors"),
            2);
    assert_true(cJSON_IsNull(get(gpu, "live_at_peak_untraced_bytes")));
    assert_true(cJSON_IsNull(get(gpu, "top_allocators_note")));
    assert_int_equal(cJSON_GetArraySize(get(curve, "t_us")), 4);
    for (i = 0; i < 4; i++) {
        tt_near(item(get(curve, "t_us"), i), t_us[i]);
        tt_near(item(get(curve, "allocated_bytes"), i), run_sum[i]);
        assert_true(
            cJSON_IsNull(cJSON_GetArrayItem(get(curve, "reserved_bytes"), i)));
    }
    assert_int_equal(cJSON_GetArraySize(get(mem, "operators")), 1);
    expect_row(mem, 0, "GPU0", "aten::mm", 1, 200, 200, 3, 3, 450, 450);
    cJSON_Delete(run);
}

/* No [memory] record: "memory" stays null. */
static void
test_no_records(void **state)
{
    static const char json[] = TRACE(OP("aten::mm", "1", "0", "100"));
    cJSON *run = memory_of(json);

    (void)state;
    assert_true(cJSON_IsNull(get(run, "memory")));
    cJSON_Delete(run);
}

/* Same-name recursion counts the inner records twice in the totals (the
 * 12.4 note, kept): outer aten::add [0,100) holds inner aten::add [10,20)
 * with +8 @15 and a sibling aten::mul [30,40) with +16 @35; outer has
 * +4 @50 of its own.
 *   inner add: 8/8/1, total 8/8/1; mul: 16/16/1.
 *   outer add: self 4/4/1, total 4 + 8 + 16 = 28, count 3, size 28.
 *   add row: total 28 + 8 = 36, size 36, count 3 + 1 = 4; self 4 + 8 = 12,
 *   self count 2; calls 2.  (The outer add does not absorb the inner one:
 *   5.1.5 only collapses an only child.) */
static void
test_recursion(void **state)
{
    static const char json[] = TRACE(
        OP("aten::add", "1", "0", "100") OP("aten::add", "1", "10", "10")
            OP("aten::mul", "1", "30", "10") MEM(
                "1", "15", "\"Device Type\":1,\"Device Id\":0,\"Bytes\":8")
                MEM("1", "35", "\"Device Type\":1,\"Device Id\":0,\"Bytes\":16")
                    MEM("1", "50",
                        "\"Device Type\":1,\"Device Id\":0,\"Bytes\":4"));
    cJSON *run = memory_of(json);
    const cJSON *mem = get(run, "memory");

    (void)state;
    assert_int_equal(cJSON_GetArraySize(get(mem, "operators")), 2);
    expect_row(mem, 0, "GPU0", "aten::add", 2, 36, 12, 4, 2, 36, 12);
    expect_row(mem, 1, "GPU0", "aten::mul", 1, 16, 16, 1, 1, 16, 16);
    cJSON_Delete(run);
}

/* Check a downsampling result: time order, at most max points, the first,
 * the last and (the first of) the maxima kept. */
static void
check_downsample(const double *y, size_t n, size_t max)
{
    size_t *out = malloc((n > max ? max : n) * sizeof(*out));
    size_t k, i, imax = 0;
    int has_max = 0;

    assert_non_null(out);
    for (i = 1; i < n; i++)
        if (y[i] > y[imax])
            imax = i;
    k = pr_memory_downsample(y, n, max, out);
    if (n <= max) {
        assert_int_equal(k, n);
        for (i = 0; i < n; i++)
            assert_int_equal(out[i], i);
        free(out);
        return;
    }
    if (k > max)
        fail_msg("n %zu max %zu: %zu points kept", n, max, k);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[k - 1], n - 1);
    for (i = 0; i < k; i++) {
        if (i > 0 && out[i] <= out[i - 1])
            fail_msg("n %zu max %zu: out[%zu] = %zu after %zu", n, max, i,
                     out[i], out[i - 1]);
        has_max |= y[out[i]] == y[imax];
    }
    if (!has_max)
        fail_msg("n %zu max %zu: maximum %g at %zu lost", n, max, y[imax],
                 imax);
    free(out);
}

/* n <= max keeps every point; n > max keeps <= max points in time order
 * with the global maximum and the last point, wherever they lie. */
static void
test_downsample(void **state)
{
    static const size_t ns[] = {1, 4, 5, 7, 10, 100, 1000, 4999, 10001};
    static const size_t maxes[] = {4, 5, 6, 7, 10, 64, 2000};
    double *y = malloc(10001 * sizeof(*y));
    size_t a, b, i, spike;
    unsigned seed = 12345;

    (void)state;
    assert_non_null(y);
    for (a = 0; a < sizeof(ns) / sizeof(ns[0]); a++) {
        for (b = 0; b < sizeof(maxes) / sizeof(maxes[0]); b++) {
            size_t n = ns[a], max = maxes[b];
            /* noise, then one spike at every tenth position in turn, the
               last point included */
            for (spike = 0; spike < n; spike += n / 10 + 1) {
                for (i = 0; i < n; i++) {
                    seed = seed * 1103515245u + 12345u;
                    y[i] = (double)((seed >> 16) % 1000);
                }
                y[spike] = 5000;
                check_downsample(y, n, max);
            }
            y[n - 1] = 9000; /* the maximum is the last point */
            check_downsample(y, n, max);
        }
    }

    /* 10 points into 4: one bucket [0, 9) keeps first, min, max, then 9.
       y: 5 1 2 3 9 4 0 6 7 8 -> 0, 4 (max 9), 6 (min 0), 9. */
    {
        static const double v[] = {5, 1, 2, 3, 9, 4, 0, 6, 7, 8};
        size_t out[4];
        assert_int_equal(pr_memory_downsample(v, 10, 4, out), 4);
        assert_int_equal(out[0], 0);
        assert_int_equal(out[1], 4);
        assert_int_equal(out[2], 6);
        assert_int_equal(out[3], 9);
    }
    free(y);
}

/* 2500 records with totals: the curve is downsampled to <= 2000 points
 * (PR_MEMORY_MAX_POINTS) and keeps the peak (record 1234, 10^9 bytes) and
 * the last record. */
static void
test_curve_downsampled(void **state)
{
    size_t n = 2500, i, cap = 400 + n * 320, len = 0;
    size_t idx[PR_MEMORY_MAX_POINTS];
    char *json = malloc(cap);
    double *y = malloc(n * sizeof(*y));
    cJSON *run, *curve, *alloc, *t_us;
    int k, j, found = 0;

    (void)state;
    assert_non_null(json);
    assert_non_null(y);
    len += (size_t)snprintf(
        json + len, cap - len,
        "{\"traceEvents\":[\n" OP("aten::mm", "1", "0", "100000"));
    for (i = 0; i < n; i++)
        len += (size_t)snprintf(json + len, cap - len,
                                MEM("1", "%zu",
                                    "\"Device Type\":1,\"Device Id\":0,"
                                    "\"Bytes\":1,\"Addr\":%zu,"
                                    "\"Total Allocated\":%zu,"
                                    "\"Total Reserved\":2000000000"),
                                i + 1, i + 1,
                                i == 1234 ? (size_t)1000000000 : 1000 + i % 7);
    len += (size_t)snprintf(json + len, cap - len, END "]}");
    assert_true(len < cap);
    run = memory_of(json);
    free(json);
    curve = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(get(get(run, "memory"), "devices"), 0), "curve");
    alloc = cJSON_GetObjectItemCaseSensitive(curve, "allocated_bytes");
    t_us = cJSON_GetObjectItemCaseSensitive(curve, "t_us");
    k = cJSON_GetArraySize(alloc);
    assert_true(k <= PR_MEMORY_MAX_POINTS && k > 1000);
    assert_int_equal(cJSON_GetArraySize(t_us), k);
    for (j = 0; j < k; j++) {
        found |= item(alloc, j) == 1e9 && item(t_us, j) == 1235;
        if (j > 0 && item(t_us, j) <= item(t_us, j - 1))
            fail_msg("curve times out of order at %d", j);
    }
    assert_true(found);
    /* the pass downsamples as the points come: the same points as
     * downsampling the whole curve */
    for (i = 0; i < n; i++)
        y[i] = i == 1234 ? 1e9 : (double)(1000 + i % 7);
    assert_int_equal(pr_memory_downsample(y, n, PR_MEMORY_MAX_POINTS, idx), k);
    for (j = 0; j < k; j++) {
        tt_near(item(t_us, j), (double)idx[j] + 1);
        tt_near(item(alloc, j), y[idx[j]]);
    }
    tt_near(item(t_us, k - 1), 2500);
    tt_near(num(cJSON_GetArrayItem(get(get(run, "memory"), "devices"), 0),
                "peak_allocated_bytes"),
            1e9);
    cJSON_Delete(run);
    free(y);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operator_rows),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_live_at_peak),
        cmocka_unit_test(test_no_totals),
        cmocka_unit_test(test_no_records),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_downsample),
        cmocka_unit_test(test_curve_downsampled),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
