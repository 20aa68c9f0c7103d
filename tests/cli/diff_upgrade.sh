#!/bin/sh
# diff_upgrade.sh - a nightly gate survives an upgrade of profreport
# (review 18 #1-#3, review 19 #1, #2, #5-#8): step figures measured on different windows
# (step_summary.basis differs, or an older summary without a basis against
# a whole capture) are not compared, so the default gate is skipped
# (INCONCLUSIVE, exit 4) instead of tripping; the summary records the
# build that wrote it (tool.build) and the diff warns when the two sides'
# builds differ; a side that names no device is "unknown", a note, not
# "devices differ"; a side an older profreport wrote is named on stderr
# and in the JUnit output.  Two summaries of one build with one basis
# compare as before.
. "$PR_SRCDIR/tests/lib.sh"

. "$PR_SRCDIR/tests/data/diff/kineto.sh"

cd "$T_DIR" || exit 1
if ! command -v python3 > /dev/null 2>&1; then
    skip "upgrade diffs" "no python3"
    echo "1..$T_N"
    exit 0
fi

gen steps.pt.trace.json "1 2 3 4 5 6" aten::mm ampere_sgemm_128x64_nn
gen capture.pt.trace.json "- - - - - -" aten::mm ampere_sgemm_128x64_nn
"$PR_BIN" -q --input steps.pt.trace.json --json steps.json
"$PR_BIN" -q --input capture.pt.trace.json --json capture.json
python3 - > made.txt <<'PY'
import json
s = json.load(open("steps.json"))
c = json.load(open("capture.json"))
print("build", s["tool"].get("build") not in (None, ""))
print("bases", s["runs"][0]["step_summary"].get("basis"),
      c["runs"][0]["step_summary"].get("basis"))
# the same steps on another basis, three times as long: compared, this
# would be a +200% regression
h = json.loads(json.dumps(s))
h["runs"][0]["step_summary"]["basis"] = "host"
for st in h["runs"][0]["steps"]:
    st["duration_us"] *= 3
h["runs"][0]["step_summary"]["mean_us"] *= 3
json.dump(h, open("host.json", "w"))
# an older summary of the whole capture: no basis, no build, its one
# window cut from the first event to the last, a third of the capture
o = json.loads(json.dumps(c))
del o["tool"]["build"]
o["tool"].pop("definitions", None)
del o["runs"][0]["step_summary"]["basis"]
st = o["runs"][0]["steps"][0]
st["start_us"] = st["duration_us"] * 2 / 3
st["duration_us"] /= 3
o["runs"][0]["step_summary"]["mean_us"] = st["duration_us"]
# its utilization over a third of the window: three times as high
for g in o["runs"][0].get("gpu_metrics") or []:
    g["utilization_pct"] = min(100.0, 3 * (g.get("utilization_pct") or 0))
json.dump(o, open("old_capture.json", "w"))
print("utilization", (c["runs"][0].get("gpu_metrics") or [{}])[0].get("utilization_pct"))
# an Ascend run's Cube share: an older summary (definitions 1) counted no
# fp32 Cube matmul; the same trace today reads 30 pp higher
a = json.loads(json.dumps(s))
a["runs"][0]["device_kind"] = "npu"
a["runs"][0]["tensor_cores"] = dict(a["runs"][0].get("tensor_cores") or {},
                                   tc_kernel_time_pct=40.0)
json.dump(a, open("ascend.json", "w"))
ao = json.loads(json.dumps(a))
del ao["tool"]["build"]
ao["tool"].pop("definitions", None)
del ao["runs"][0]["step_summary"]["basis"]  # written before the basis too
ao["runs"][0]["tensor_cores"]["tc_kernel_time_pct"] = 10.0
json.dump(ao, open("ascend_old.json", "w"))
# the same steps by their host step events, on a CPU-only run
h0 = json.loads(json.dumps(h))
h0["runs"][0]["kernels"] = []
h0["runs"][0]["devices"] = []
h0["runs"][0]["gpu_metrics"] = []
json.dump(h0, open("cpu_host.json", "w"))
# two ranks, the second's steps on another basis: one of two compared
two = json.loads(json.dumps(s))
r1 = json.loads(json.dumps(two["runs"][0]))
two["runs"][0]["rank"], r1["rank"] = 0, 1
two["runs"].append(r1)
json.dump(two, open("two.json", "w"))
two["runs"][1]["step_summary"]["basis"] = "host"
json.dump(two, open("two_host.json", "w"))
# three ranks, the third paired with none either way (review 21 #2)
three = json.load(open("two.json"))
r2 = json.loads(json.dumps(three["runs"][0]))
r2["rank"] = 2
three["runs"].append(r2)
json.dump(three, open("three.json", "w"))
# another build of the same steps; one whose device is not named
b = json.loads(json.dumps(s))
b["tool"]["build"] = "0000000"
json.dump(b, open("other_build.json", "w"))
d = json.loads(json.dumps(s))
for dev in d["runs"][0]["devices"]:
    dev["name"] = None
    dev["name_source"] = "none"
json.dump(d, open("unnamed.json", "w"))
# a device listed without a kernel against no device at all
n = json.loads(json.dumps(s))
n["runs"][0]["kernels"] = []
json.dump(n, open("listed.json", "w"))
n["runs"][0]["devices"] = []
json.dump(n, open("nodevice.json", "w"))
# an older summary: no build, a part that lacks a key (contract.c)
q = json.loads(json.dumps(s))
del q["tool"]["build"]
q["tool"].pop("definitions", None)
for w in q["runs"][0].get("temporal_breakdown") or []:
    del w["window"]
json.dump(q, open("older.json", "w"))
# review 20 #3: an Ascend run whose Cube share is null on both sides
# (MindSpore's ranks): a changed definition of a figure neither side has
for name, src in (("ascend_null", a), ("ascend_null_old", ao)):
    x = json.loads(json.dumps(src))
    x["runs"][0]["tensor_cores"]["tc_kernel_time_pct"] = None
    json.dump(x, open(name + ".json", "w"))
# review 20 #4: written after the step basis came and before
# tool.definitions: an Ascend summary's Cube share cannot be told (the
# Ascend definitions came hours after the basis), a GPU summary's can (2)
ab = json.loads(json.dumps(a))
del ab["tool"]["build"]
ab["tool"].pop("definitions", None)
ab["runs"][0]["tensor_cores"]["tc_kernel_time_pct"] = 12.0
json.dump(ab, open("ascend_basis.json", "w"))
gb = json.loads(json.dumps(s))
del gb["tool"]["build"]
gb["tool"].pop("definitions", None)
json.dump(gb, open("gpu_basis.json", "w"))
PY
check "the summary names its build (tool.build)" grep -q "^build True$" made.txt
check "  steps on the device basis, the capture on its own" \
    grep -q "^bases device capture$" made.txt

# --- two bases: not compared, inconclusive
"$PR_BIN" diff host.json steps.json --json hd.json > hd.txt 2> hd.err
check "a host basis against a device basis: inconclusive (exit 4)" \
    [ $? -eq 4 ]
check "  the reason names both windows" \
    grep -q "different windows: baseline: 6 steps measured by their host step events; current: 6 steps measured on the device" hd.err
check "  step.mean is not compared" \
    grep -q '"not_comparable":[[:space:]]*"run .*different windows' hd.json

# --- an older whole capture against today's: not compared
"$PR_BIN" diff old_capture.json capture.json > oc.txt 2> oc.err
check "an older summary's window against a whole capture: inconclusive (exit 4)" \
    [ $? -eq 4 ]
check "  the reason says the older build cut it first to last event" \
    grep -q "baseline: one window cut by an older profreport from its first event to its last (.* to .*); current: the profiler's whole capture as one window (0 to " oc.err
check "  the definitions differ, a note" \
    grep -q "the summaries follow different definitions of the figures (baseline: version 1, build an older one that records no" oc.txt
check "  and in the headline" grep -q "may not be comparable" oc.txt
check "  a baseline without a basis is version 1" \
    grep -q "baseline: version 1, build" oc.txt
check "  the reason gives the remedy" \
    grep -q "regenerate the baseline's summary with this profreport (.profreport --input <baseline traces> --json baseline.json.)" oc.err
check "  the table says not compared, not a change" \
    grep -q "step.mean .*not compared (different windows)" oc.txt
"$PR_BIN" diff -q capture.json steps.json --markdown cs.md --html cs.html \
    --json cs.json
"$PR_BIN" diff capture.json steps.json > cs.txt 2> cs.err
check "a whole capture against steps: the operator's -83% is in no top list" \
    sh -c '! grep -q "^aten::mm " cs.txt'
check "  nor the kernel's" sh -c '! grep -q "^ampere_sgemm" cs.txt'
check "  the top improvements say one row was left out, and why" \
    grep -q "^1 row not compared (steps against a whole capture) left out of this list" cs.txt
check "  Markdown: not listed, the same note" \
    sh -c '! grep -q "^| .aten::mm" cs.md && grep -q "^_1 row not compared (steps against a whole capture) left out" cs.md'
check "  HTML: not listed, the same note" \
    sh -c '! grep -q ">aten::mm<" cs.html && grep -q "1 row not compared (steps against a whole capture) left out" cs.html'
check "  the JSON keeps the row, marked" \
    python3 -c 'import json,sys; d=json.load(open("cs.json")); r=[o for o in d["operators"] if o["name"]=="aten::mm"]; sys.exit(not r or r[0].get("comparable") is not False)'
check "  and shows no percentage for step.mean" \
    sh -c '! grep "^step.mean " oc.txt | grep -q "%"'

# --- a per-window figure over different windows: not gated (review 19 #1)
check "the hand-made utilization is above 1% (made: $(cat made.txt))" \
    awk '/^utilization/ { exit !($2 > 1) }' made.txt
"$PR_BIN" diff --no-default-gate --fail-on 'gpu.utilization<-1pp' \
    old_capture.json capture.json --json ou.json > ou.txt 2> ou.err
check "gpu.utilization over different windows: inconclusive (exit 4, not 3)" \
    [ $? -eq 4 ]
check "  its row is not comparable" \
    python3 -c 'import json,sys; d=json.load(open("ou.json")); r=[m for p in d["runs"] for m in p["metrics"] if m["metric"]=="gpu.utilization"]; sys.exit(not r or any(m.get("comparable") is not False for m in r))'

# --- a figure whose definition changed: not gated (review 19 #2)
"$PR_BIN" diff --no-default-gate --fail-on 'tc.share>+5pp' \
    ascend_old.json ascend.json --junit as.xml > as.txt 2> as.err
check "an Ascend Cube share of definitions 1 against 2: inconclusive (exit 4)" \
    [ $? -eq 4 ]
check "  the reason names the changed definition" \
    grep -q "tc.share is not compared: its definition changed between the summaries (baseline: definitions 1, .*fp32 Cube matmuls" as.err
check "  the JUnit output carries the warning" \
    grep -q '<property name="comparability" value="tc.share is not compared' as.xml
"$PR_BIN" diff -q --no-default-gate --fail-on 'tc.share>+5pp' \
    ascend.json ascend.json > aa.txt 2> aa.err
check "  one definitions version: compared (exit 0)" [ $? -eq 0 ]
# review 20 #3: no value on either side, no warning
"$PR_BIN" diff ascend_null_old.json ascend_null.json > an.txt 2> an.err
check "a redefined Cube share null on both sides: no regression (exit 0)" \
    [ $? -eq 0 ]
check "  no tc.share warning" sh -c '! grep -q "tc.share is not compared" an.txt an.err'
check "  the headline is not marked" sh -c '! grep -q "may not be comparable" an.txt'
check "  the definitions still differ, a note" \
    grep -q "^Note: the summaries follow different definitions" an.txt
# review 20 #4: a basis but no tool.definitions
"$PR_BIN" diff --no-default-gate --fail-on 'tc.share>+5pp' \
    ascend_basis.json ascend.json > ab.txt 2> ab.err
check "an Ascend summary with a basis, no definitions: tc.share skipped (exit 4)" \
    [ $? -eq 4 ]
"$PR_BIN" diff -q --no-default-gate --fail-on 'tc.share>+5pp' --json ab.json \
    ascend_basis.json ascend.json
check "  its version is unknown, not guessed" \
    python3 -c 'import json,sys; d=json.load(open("ab.json")); n=[x for x in d["comparability"]["notes"] if "baseline: version unknown (the summary records none, and its step basis does not tell)" in x]; sys.exit(not n or "whole capture" in n[0] or "fp32 Cube" not in n[0])'
check "  tc.share may have changed" \
    grep -q "tc.share is not compared: its definition may have changed between the summaries (baseline: definitions unknown" ab.err
check "  the JSON's baseline definitions are null" \
    python3 -c 'import json,sys; d=json.load(open("ab.json")); sys.exit(d["comparability"]["builds"]["baseline_definitions"] is not None)'
"$PR_BIN" diff gpu_basis.json steps.json > gb.txt 2> gb.err
check "a GPU summary with a basis, no definitions: version 2 (exit 0)" [ $? -eq 0 ]
check "  the same definitions (version 2), a note" \
    grep -q "with the same definitions of the figures (version 2)" gb.txt

# --- a CPU-only run against a device run: the device leads (review 19 #6)
"$PR_BIN" diff cpu_host.json steps.json > ch.txt 2> ch.err
check "a CPU-only host basis against a device run: inconclusive (exit 4)" \
    [ $? -eq 4 ]
check "  the reason leads with the device" \
    grep -q "the baseline run is CPU-only; the current run ran on NVIDIA" ch.err

# --- a partial comparison says so (review 19 #6)
"$PR_BIN" diff two_host.json two.json --junit tw.xml > tw.txt 2> tw.err
check "one of two ranks on another basis: the other still gated (exit 0)" \
    [ $? -eq 0 ]
check "  the gate line says 1 of 2 runs compared" \
    grep -q "^diff: pass step.mean>+5%: .*(1 of 2 runs compared: run .*different windows" tw.err
"$PR_BIN" diff two_host.json two.json > tw.txt 2> /dev/null
check "  and the headline (review 20 #2)" \
    grep -q "^profreport diff: no regression (0 of 1 gate tripped in 1 of 2 runs compared, 1 not compared: different windows; the runs may" tw.txt
check "  the JUnit output carries that verdict" \
    grep -q '<property name="verdict" value="no regression (0 of 1 gate tripped in 1 of 2 runs compared, 1 not compared: different windows' tw.xml
"$PR_BIN" diff -q two_host.json two.json --markdown tw.md --html tw.html
check "  Markdown and HTML headlines too" \
    sh -c 'grep -q "^## profreport diff: no regression (0 of 1 gate tripped in 1 of 2 runs compared" tw.md && grep -q "gate tripped in 1 of 2 runs compared, 1 not compared: different windows" tw.html'
check "  the JUnit output carries the window warning" \
    grep -q '<property name="comparability" value="run .*different windows' tw.xml

# --- runs paired with none count in the headline (review 21 #2)
"$PR_BIN" diff two.json three.json > th.txt 2> /dev/null
check "a new rank without a baseline: the gate passes (exit 0)" [ $? -eq 0 ]
check "  the headline counts it: 2 of 3 runs compared, 1 new" \
    grep -q "^profreport diff: no regression (0 of 1 gate tripped in 2 of 3 runs compared; 1 new, no baseline)" th.txt
"$PR_BIN" diff -q two.json three.json --junit th.xml --markdown th.md \
    --html th.html --pdf th.pdf
check "  Markdown, HTML and JUnit say the same" \
    sh -c 'grep -q "^## profreport diff: no regression (0 of 1 gate tripped in 2 of 3 runs compared; 1 new, no baseline)" th.md && grep -q "gate tripped in 2 of 3 runs compared; 1 new, no baseline" th.html && grep -q "<property name=\"verdict\" value=\"no regression (0 of 1 gate tripped in 2 of 3 runs compared; 1 new, no baseline)" th.xml'
if command -v pdftotext > /dev/null 2>&1; then
    check "  and the PDF's Runs line" \
        sh -c 'pdftotext th.pdf - | grep -q "2 of 3 runs compared; 1 new, no baseline"'
else
    skip "  and the PDF's Runs line" "no pdftotext"
fi
"$PR_BIN" diff three.json two.json > tg.txt 2> /dev/null
check "a rank gone from the current side: 1 gone" \
    grep -q "^profreport diff: [^(]*(0 of 1 gate tripped in 2 of 3 runs compared; 1 gone" tg.txt

# --- the nightly case: one build, one basis, as before
"$PR_BIN" diff steps.json steps.json --json ss.json > ss.txt 2> ss.err
check "one build, one basis: no regression (exit 0)" [ $? -eq 0 ]
check "  step.mean compared" grep -q "step.mean \[.*\] 0.0%" ss.err
check "  no warning" sh -c '! grep -q "warning" ss.err'
check "  every run compared: no runs clause" sh -c '! grep -q "runs compared" ss.txt'
"$PR_BIN" diff capture.json capture.json > cc.txt 2> cc.err
# no steps: the capture's length is the profiler's window, not a speed
# (review 22g #1): the step gate compares nothing, a per-call rule does
check "two whole captures of one build: no step time to gate (exit 4)" \
    [ $? -eq 4 ]
check "  the step gate says why" \
    grep -q "skipped step.mean.*no steps: each run is one capture" cc.err
"$PR_BIN" diff -q capture.json capture.json --fail-on 'kernel:*>+5%' \
    > /dev/null 2>&1
check "  a kernel rule compares them per call: no regression (exit 0)" \
    [ $? -eq 0 ]

# --- another build, the same definitions: a note, not a warning (#7)
"$PR_BIN" diff other_build.json steps.json > ob.txt 2> ob.err
check "another build of the same steps: still gated (exit 0)" [ $? -eq 0 ]
check "  the builds are named in a note" \
    grep -q "different builds of profreport (baseline: 0000000; current: " ob.txt
check "  no warning" sh -c '! grep -q "warning" ob.err'
check "  the same definitions" grep -q "with the" ob.txt
check "  the headline is not marked" sh -c '! grep -q "may not be comparable" ob.txt'

# --- a side without a device name: unknown, a note
"$PR_BIN" diff unnamed.json steps.json > un.txt 2> un.err
check "an unnamed device: no regression (exit 0)" [ $? -eq 0 ]
check "  not 'devices differ'" sh -c '! grep -q "devices differ" un.err un.txt'
check "  a note: the device is unknown" grep -q "device unknown: the current run names NVIDIA .*, the baseline.s summary names none" un.txt

"$PR_BIN" diff nodevice.json listed.json > nd.txt 2> nd.err
check "a listed device without kernels against none: no regression (exit 0: $(head -c 300 nd.err))" [ $? -eq 0 ]
check "  not 'a CPU-only run compared with a device run'" \
    sh -c '! grep -q "CPU-only run compared" nd.err'

# --- an older summary: named on stderr and in the JUnit output
"$PR_BIN" diff older.json steps.json --junit o.xml > ol.txt 2> ol.err
check "an older baseline diffs (exit 0: $(head -c 300 ol.err))" [ $? -eq 0 ]
check "  one stderr line names it and its parts" \
    grep -q "warning: older.json (baseline) was written by an older profreport: .*Left out of this report and of any diff: Host and device (temporal breakdown)" ol.err
check "  the JUnit output has it as a property" \
    grep -q '<property name="older_summary" value="older.json (baseline) was written by an older profreport' o.xml
check "  and the builds" grep -q '<property name="build.baseline" value="none recorded"/>' o.xml

# --- on a shared trace: MindSpore's fixtures, an older summary of them
# (no build, definitions or basis; rank0-gpu's one window cut from its
# first event to its last, as the older build did: 304 us of 4.47 s)
if have_shared && shared_summary msf mindspore/fixtures; then
    python3 - <<'PY'
import json
d = json.load(open("msf.json"))
o = json.loads(json.dumps(d))
o["tool"].pop("build", None)
o["tool"].pop("definitions", None)
for r in o["runs"]:
    r["step_summary"].pop("basis", None)
    if r.get("worker") == "rank0-gpu":
        r["steps"][0]["duration_us"] = 303.84
        r["step_summary"]["mean_us"] = 303.84
json.dump(o, open("msf_old.json", "w"))
PY
    "$PR_BIN" diff msf_old.json msf.json > msf.txt 2> msf.err
    check "MindSpore fixtures, older vs current: no regression (exit 0)" \
        [ $? -eq 0 ]
    check "  no tc.share warning: its Ascend ranks have no Cube share either side" \
        sh -c '! grep -q "tc.share is not compared" msf.txt msf.err'
    check "  the headline: 3 of 4 runs compared, rank0-gpu's windows differ" \
        grep -q "^profreport diff: no regression (0 of 1 gate tripped in 3 of 4 runs compared, 1 not compared: different windows; the runs may not be comparable: 1 warning)" msf.txt
else
    skip "MindSpore fixtures, older vs current" "no ../shared mindspore/fixtures"
fi

echo "1..$T_N"
