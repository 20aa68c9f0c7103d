#!/bin/sh
# no_device_work.sh - review22g item 9: a Kineto trace whose
# deviceProperties name two GPUs but which records none of their work (only
# cpu_op events, as HTA's distributed_info_not_found with its 8 A100s) is
# read as rank_non_gpu is: the device views are left out (no Kernels,
# Roofline, Timeline of empty GPU activity) and the verdict says the
# trace records no device work; but its GPUs stay listed and named
# ("2x NVIDIA A100-SXM4-80GB (no device work recorded)"), never "no GPU",
# "CPU only" or "the trace does not name its device"; its operators, which
# ran on the CPU, are held to no GPU's roof.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "no device work" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR/t.pt.trace.json" <<'PY'
import json, sys
def X(cat, name, ts, dur):
    return {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1,
            "ts": ts, "dur": dur, "args": {}}
props = [{"id": i, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85e9,
          "computeMajor": 8, "computeMinor": 0, "numSms": 108}
         for i in range(2)]
mm = X("cpu_op", "aten::mm", 10, 600)
mm["args"] = {"Input Dims": [[64, 512], [512, 1000]],
              "Input type": ["float", "float"]}
ev = [X("user_annotation", "ProfilerStep#1", 0, 1000), mm,
      X("cpu_op", "aten::add", 700, 200)]
json.dump({"deviceProperties": props, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
if ! "$PR_BIN" --quiet --input "$T_DIR/t.pt.trace.json" --json "$T_DIR/s.json" \
        --html "$T_DIR/r.html" > "$T_DIR/term" 2> "$T_DIR/err"; then
    not_ok "run: $(head -c 200 "$T_DIR/err")"
    echo "1..$T_N"
    exit 0
fi
if python3 - "$T_DIR/s.json" > "$T_DIR/why" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
v = r["verdict"]["text"] if isinstance(r.get("verdict"), dict) else ""
bad = []
if r.get("host_only") is not True:
    bad.append("host_only %s" % r.get("host_only"))
if [d["name"] for d in r["devices"]] != ["NVIDIA A100-SXM4-80GB"] * 2:
    bad.append("devices %s" % [d.get("name") for d in r["devices"]])
if not v.startswith("The device side was not recorded (1 step, mean step "
                    "1.0 ms): the trace names 2 GPUs (NVIDIA A100-SXM4-80GB) "
                    "but records no device activity"):
    bad.append("verdict %s" % v[:200])
# review23g item 3: the host's time may hold waits on the unseen GPUs, so
# no bound is named
if r["verdict"].get("bound") != "unexplained" or "Bound by" in v:
    bad.append("bound %s: %s" % (r["verdict"].get("bound"), v[:300]))
# the operators ran on the CPU: held to no GPU roof (main gave aten::mm
# the A100's "memory" bound, as dist_unavail's)
held = [(o["name"], o.get("bound")) for o in r["operators"]
        if o.get("bound") not in (None, "unknown")]
if held:
    bad.append("held to a GPU roof: %s" % held)
if not any(o["name"] == "aten::mm" and (o.get("flops") or 0) > 0
           for o in r["operators"]):
    bad.append("aten::mm has no FLOPs: the roof check tests nothing")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "summary: host_only, both GPUs listed, verdict 'device side was not recorded' with no bound, no operator on a GPU roof"
else not_ok "summary: $(cat "$T_DIR/why")"; fi
if grep -q "2x NVIDIA A100-SXM4-80GB (no device work recorded)" "$T_DIR/r.html"
then ok "HTML header: the GPUs named, no device work recorded"
else not_ok "HTML header: $(grep -o '"devices": *"[^"]*"' "$T_DIR/r.html" | head -1)"; fi
if grep -q "no GPU\|CPU only\|CPU-only\|does not name its device" \
        "$T_DIR/r.html" "$T_DIR/term"; then
    not_ok "words: $(grep -o 'no GPU\|CPU only\|CPU-only\|does not name its device' "$T_DIR/r.html" "$T_DIR/term" | head -3)"
else ok "no 'no GPU', 'CPU only' or 'does not name its device'"; fi
if grep -q 'id="kernels"\|id="roofline"\|No GPU activity to show' "$T_DIR/r.html"
then not_ok "HTML: an empty device view is shown"
else ok "HTML: the empty device views are left out"; fi
echo "1..$T_N"
