#!/bin/sh
# host_copy_roofline.sh - review 20 finding 9 (issue #29): copies between
# the host and a device are no point of the device-memory roofline.  On
# tb_resnet50 the rows whose device time is all the input's host-to-device
# copies (aten::copy_, and aten::to above it) say roofline_mark host_copy,
# with the bytes of the trace's own HtoD Memcpy records (each byte once)
# and no roofline_pct; on npu_db1 aten::to's 38.5 MB input copy, of which
# the trace holds no device task, is not divided by other calls' 2.58 us
# (14.9 TB/s, 933% of HBM, marked cache_resident on main).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "host copies in the roofline" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi
if ! have_shared; then
    skip "host copies in the roofline" "no $PR_SHARED/traces (../shared is absent)"
    echo "1..$T_N"
    exit 0
fi
S=$PR_SHARED/traces

tb=$S/tb_plugin/resnet50_num_workers_0
if "$PR_BIN" --quiet --input "$tb" --json "$T_DIR/tb.json" 2> "$T_DIR/err" &&
   python3 - "$T_DIR/tb.json" "$tb" > "$T_DIR/why" <<'PY'
import glob, gzip, json, os, sys
s = json.load(open(sys.argv[1]))
bad = []
for run in s["runs"]:
    # the worker's trace file: its HtoD copies' bytes, from the records
    f = [p for p in glob.glob(os.path.join(sys.argv[2], "*.json.gz"))
         if run["span"] in p]
    ev = json.load(gzip.open(f[0]))["traceEvents"] if len(f) == 1 else []
    htod = sum(e.get("args", {}).get("bytes", 0) for e in ev
               if e.get("cat") in ("gpu_memcpy", "Memcpy")
               and "HtoD" in e.get("name", ""))
    if not htod:
        bad.append("%s %s: no HtoD copies found" % (run["worker"], run["span"]))
        continue
    rows = {o["name"]: o for o in run["operators"]}
    for name in ("aten::copy_", "aten::to"):
        o = rows.get(name, {})
        if (o.get("roofline_mark"), o.get("roofline_pct"), o.get("bytes")) != \
                ("host_copy", None, htod):
            bad.append("%s %s: %s mark %s pct %s bytes %s, want host_copy, "
                       "null, %d" % (run["worker"], run["span"], name,
                                     o.get("roofline_mark"),
                                     o.get("roofline_pct"), o.get("bytes"),
                                     htod))
    for o in run["operators"] + run["operators_by_shape"]:
        if o.get("roofline_mark") == "host_copy" and \
                o.get("roofline_pct") is not None:
            bad.append("%s: a host copy at %s%% of a roof" % (o["name"],
                                                             o["roofline_pct"]))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "tb_resnet50: the input's host copies are host_copy rows, with their records' bytes"
else not_ok "tb_resnet50: $(cat "$T_DIR/why") $(head -c 200 "$T_DIR/err")"; fi

if "$PR_BIN" --quiet --input "$S/torch_npu/db_level1" --json "$T_DIR/db1.json" \
        2> "$T_DIR/err" &&
   python3 - "$T_DIR/db1.json" > "$T_DIR/why" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
bad = []
for run in s["runs"]:
    shapes = [o for o in run["operators_by_shape"] if o["name"] == "aten::to"]
    dev = sum(o["bytes"] for o in shapes if (o["device_total_us"] or 0) > 0)
    o = [x for x in run["operators"] if x["name"] == "aten::to"][0]
    # the name's bytes are those of its calls that ran on the device
    if o["bytes"] != dev or not (o["roofline_pct"] or 0) <= 100 or \
            o["roofline_mark"] is not None:
        bad.append("%s: aten::to bytes %s (of its shapes on the device: %s), "
                   "%s%% %s" % (run["worker"], o["bytes"], dev,
                                o["roofline_pct"], o["roofline_mark"]))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "npu_db1: aten::to's input copy is not divided by other calls' device time"
else not_ok "npu_db1: $(cat "$T_DIR/why") $(head -c 200 "$T_DIR/err")"; fi

echo "1..$T_N"
