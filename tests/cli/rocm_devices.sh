#!/bin/sh
# rocm_devices.sh - issue #28 items 2-4 on hand-made ROCm traces.
#  #2: an MI210 (gfx90a, 104 CUs) is its own table entry, named and with
#   its datasheet peaks (181.0 TFLOPS FP16, 1638.4 GB/s), not a guess from
#   the MI250's half.
#  #3: MI355X and MI350X (CDNA 4, gfx950, 256 CUs): by name, each its own
#   clock's peaks (2516.6 / 2306.9 TFLOPS BF16, 8 TB/s, 10066.3 MXFP4 on
#   the MI355X); by gcnArchName alone, the gfx950 default (MI355X), a guess.
#  #4: a deviceProperties entry with an empty "name" and a gcnArchName is
#   labelled by its architecture, gets the table's peaks as a guess, and a
#   no_device_name diagnostic says so; a named one has no such row.
#  A nameless gfx942 of 304 CUs is told by its totalGlobalMem: 192 GiB
#   the MI300X (5.3 TB/s), 256 GiB the MI325X (6 TB/s), both guesses.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "rocm devices" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
CIJK = ("Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT64x32x128_MI16x16x1"
        "_SN_LDSB1_AFC1_GRVWA8_GSUAMB_GLS0_ISA%s_IU1_K1")
def trace(props, isa):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 1000, "args": {}},
          {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1,
           "tid": 1, "ts": 1, "dur": 10, "args": {}},
          {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel",
           "pid": 1, "tid": 1, "ts": 2, "dur": 5, "args": {"correlation": 1}},
          {"ph": "X", "cat": "kernel", "name": CIJK % isa, "pid": 0,
           "tid": 7, "ts": 10, "dur": 500,
           "args": {"device": 0, "stream": 7, "correlation": 1}}]
    return {"deviceProperties": [props], "traceEvents": ev}
def dev(name, arch, cus, minor, mem=None):
    p = {"id": 0, "name": name, "computeMajor": 9, "computeMinor": minor,
         "warpSize": 64, "numSms": cus, "maxThreadsPerBlock": 1024}
    if mem:
        p["totalGlobalMem"] = mem
    if arch:
        p["gcnArchName"] = arch + ":sramecc+:xnack-"
    return p
cases = {
    # the MI210 of a public TraceLens trace: no gcnArchName, Tensile ISA90a
    "mi210": (dev("AMD Instinct MI210", None, 104, 0), "90a"),
    "mi355x": (dev("AMD Instinct MI355X", "gfx950", 256, 5), "950"),
    "mi350x": (dev("AMD Instinct MI350X", "gfx950", 256, 5), "950"),
    "noname950": (dev("", "gfx950", 256, 5), "950"),
    "noname942": (dev("", "gfx942", 304, 4), "942"),
    "noname300x": (dev("", "gfx942", 304, 4, 206141652992), "942"),
    "noname325x": (dev("", "gfx942", 304, 4, 274861129728), "942"),
}
for k, (p, isa) in cases.items():
    json.dump(trace(p, isa), open("%s/%s.pt.trace.json" % (d, k), "w"))
PY

for c in mi210 mi355x mi350x noname950 noname942 noname300x noname325x; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json" \
        2> "$T_DIR/err"
    check "$c: summary written (exit $?; $(head -c 200 "$T_DIR/err"))" \
        [ -s "$T_DIR/$c.json" ]
done
# dev.py FILE: label|name|architecture|peak_source|peak_device|bf16|fp4|gbps|diag kinds
cat > "$T_DIR/dev.py" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
d = r["devices"][0]
p = d["peak_tflops"] or {}
print("|".join(str(x) for x in (d["label"], d["name"], d["architecture"],
      d["peak_source"], d["peak_device"], p.get("bf16_tensor"),
      p.get("fp4_tensor"), d["peak_gbps"],
      ",".join(x["kind"] for x in r.get("diagnostics") or []
               if x["kind"] == "no_device_name"))))
PY
row() { python3 "$T_DIR/dev.py" "$T_DIR/$1.json"; }
check "MI210: its own entry, exact, 181.0 BF16 and 1638.4 GB/s ($(row mi210))" \
    test "$(row mi210)" = "AMD Instinct MI210|AMD Instinct MI210|gfx90a|table|AMD Instinct MI210|181|None|1638.4|"
check "MI355X by name: 2516.6 BF16, 10066.3 MXFP4, 8 TB/s ($(row mi355x))" \
    test "$(row mi355x)" = "AMD Instinct MI355X|AMD Instinct MI355X|gfx950|table|AMD Instinct MI355X|2516.6|10066.3|8000|"
check "MI350X by name: its 2.2 GHz peaks, 2306.9 BF16 ($(row mi350x))" \
    test "$(row mi350x)" = "AMD Instinct MI350X|AMD Instinct MI350X|gfx950|table|AMD Instinct MI350X|2306.9|9227.5|8000|"
check "nameless gfx950: labelled by gcnArchName, MI355X peaks as a guess, a no_device_name row ($(row noname950))" \
    test "$(row noname950)" = "GPU 0: AMD gfx950 (no device name in trace)|None|gfx950|guess|AMD Instinct MI355X|2516.6|10066.3|8000|no_device_name"
check "nameless gfx942 (304 CUs): the MI300X's peaks as a guess ($(row noname942))" \
    test "$(row noname942)" = "GPU 0: AMD gfx942 (no device name in trace)|None|gfx942|guess|AMD Instinct MI300X|1307.4|None|5300|no_device_name"
check "nameless gfx942 of 192 GiB: the MI300X ($(row noname300x))" \
    test "$(row noname300x)" = "GPU 0: AMD gfx942 (no device name in trace)|None|gfx942|guess|AMD Instinct MI300X|1307.4|None|5300|no_device_name"
check "nameless gfx942 of 256 GiB: the MI325X, 6 TB/s ($(row noname325x))" \
    test "$(row noname325x)" = "GPU 0: AMD gfx942 (no device name in trace)|None|gfx942|guess|AMD Instinct MI325X|1307.4|None|6000|no_device_name"

echo "1..$T_N"
