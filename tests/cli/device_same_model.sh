#!/bin/sh
# device_same_model.sh - review 28h #3 (issue #28's ROCm device item): a
# process whose kernels carry a device id deviceProperties does not list
# (HIP_VISIBLE_DEVICES renumbers the GPUs) is named from deviceProperties
# when every entry there is the same model, and the data quality says so;
# entries of different models name nothing, and the label does not claim
# the trace has no deviceProperties.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "devices named by model" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
mi = {"name": "AMD Instinct MI300X", "totalGlobalMem": 206141652992,
      "computeMajor": 9, "computeMinor": 4, "warpSize": 64, "numSms": 304}
def trace(path, props, devs):
    ev = []
    for i, dev in enumerate(devs):
        corr = 100 + i
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel",
                   "pid": 1, "tid": 1, "ts": 10 + 5 * i, "dur": 2,
                   "args": {"correlation": corr, "External id": corr}})
        ev.append({"ph": "X", "cat": "kernel",
                   "name": "Cijk_Alik_Bljk_BBS_BH_MT64x16x128_MI16x16x1_SN",
                   "pid": dev, "tid": 7, "ts": 50 + 200 * i, "dur": 150,
                   "args": {"device": dev, "stream": 7, "correlation": corr,
                            "External id": corr}})
    json.dump({"schemaVersion": 1, "deviceProperties": props,
               "traceEvents": ev}, open(path, "w"))
trace(d + "/alike.json", [dict(mi, id=0), dict(mi, id=1)], [5, 5])
trace(d + "/one.json", [dict(mi, id=0)], [2, 3])
trace(d + "/differ.json",
      [dict(mi, id=0), {"id": 1, "name": "AMD Instinct MI250X",
                        "totalGlobalMem": 68702699520, "computeMajor": 9,
                        "computeMinor": 0, "warpSize": 64, "numSms": 110}],
      [5])
PY

for t in alike one differ; do
    "$PR_BIN" -q --input "$T_DIR/$t.json" --json "$T_DIR/$t.out.json" \
        --html "$T_DIR/$t.html" 2> "$T_DIR/err"
    check "$t: report written (exit $?; $(head -c 200 "$T_DIR/err"))" \
        [ -s "$T_DIR/$t.out.json" ]
done

python3 - "$T_DIR" > "$T_DIR/why" <<'PY'
import json, sys
d = sys.argv[1]
bad = []
def run(t):
    return json.load(open("%s/%s.out.json" % (d, t)))["runs"][0]
def notes(r):
    return [n["text"] for n in r["diagnostics"] if n["kind"] == "device_ids"]
r = run("alike")
dev = r["devices"]
if [(x["id"], x["name"], x["peak_source"], x["peak_tflops"]["bf16_tensor"],
     x["architecture"]) for x in dev] != \
        [(5, "AMD Instinct MI300X", "table", 1307.4, "gfx942")]:
    bad.append("alike devices %s" % dev)
want = ("the kernels ran on device 5, which deviceProperties does not list "
        "(ids 0-1, all AMD Instinct MI300X): named from them, with its peaks")
if notes(r) != [want]:
    bad.append("alike note %s" % notes(r))
r = run("one")
if [(x["id"], x["name"]) for x in r["devices"]] != \
        [(2, "AMD Instinct MI300X"), (3, "AMD Instinct MI300X")]:
    bad.append("one devices %s" % r["devices"])
if len(notes(r)) != 2 or "its one entry, id 0, is an AMD Instinct MI300X" \
        not in notes(r)[0]:
    bad.append("one note %s" % notes(r))
r = run("differ")
x = r["devices"][0]
if (x["id"], x["name"], x["label"], x["peak_source"]) != \
        (5, None, "GPU 5 (not in deviceProperties)", "unknown"):
    bad.append("differ device %s" % x)
if notes(r):
    bad.append("differ note %s" % notes(r))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
check "named by model, said so; differing models name nothing ($(cat "$T_DIR/why"))" \
    [ $? -eq 0 ]
check "HTML never says 'no deviceProperties' when it has entries" \
    sh -c "! grep -q 'no deviceProperties' '$T_DIR/alike.html' '$T_DIR/differ.html'"
check "HTML names the MI300X" grep -q "AMD Instinct MI300X" "$T_DIR/alike.html"

echo "1..$T_N"
