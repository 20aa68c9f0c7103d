#!/bin/sh
# older_summary.sh - a summary saved by an older profreport (a nightly
# baseline kept across an upgrade) still diffs and renders: a key its
# writer did not write that may be null reads as unknown (null: the sync
# calls' direction), a part that lacks a key that cannot be (the temporal
# breakdown's window) is left out, and a note names both, on the report's
# first screen, in its data quality and in the diff; a damaged value, or a
# key the contract asks of every run, is still refused with its path
# (exit 2).
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
cd "$T_DIR" || exit 1
if ! command -v python3 > /dev/null 2>&1; then
    skip "older summaries" "no python3"
    echo "1..$T_N"
    exit 0
fi

"$PR_BIN" -q --input "$IN" --json new.json
check "the trace gives a summary" [ -s new.json ]
# an older writer: no "direction" on the sync calls, no "window" on the
# temporal breakdown's rows
python3 - <<'PY'
import json
s = json.load(open("new.json"))
r = s["runs"][0]
assert r["synchronization"]["calls"] and r["temporal_breakdown"]
for c in r["synchronization"]["calls"]:
    del c["direction"]
for w in r["temporal_breakdown"]:
    del w["window"]
del r["critical_path"]
json.dump(s, open("old.json", "w"))
s2 = json.load(open("new.json"))
s2["runs"][0]["synchronization"]["calls"][0]["count"] = "many"
json.dump(s2, open("damaged.json", "w"))
s3 = json.loads(json.dumps(s))
del s3["runs"][0]["steps"]
json.dump(s3, open("nosteps.json", "w"))
PY
check "the older summary is made" [ -s old.json ]

"$PR_BIN" diff old.json new.json > d.txt 2> err
check "an older baseline diffs (exit 0: $(head -c 300 err))" [ $? -eq 0 ]
tr '\n' ' ' < d.txt > d1.txt
check "  the diff says what the baseline lacks" \
    grep -q "written by an older profreport. It was written before these views existed, so they are not in it: Critical path. Left out of this report and of any diff: Host and device (temporal breakdown); they lack a key that cannot be unknown (temporal_breakdown\[\].window). Keys it did not write read as unknown: synchronization.calls\[\] (direction). Run profreport on the traces again" d1.txt
check "  its step figures are compared" grep -q "^step.mean" d.txt

"$PR_BIN" -q --input old.json --json re.json --html re.html 2> err
check "an older summary renders (exit 0: $(head -c 300 err))" [ $? -eq 0 ]
python3 - > re.txt <<'PY'
import json
r = json.load(open("re.json"))["runs"][0]
d = [x for x in r["diagnostics"] if x["kind"] == "older_summary"]
print("parts", "synchronization" in r, "temporal_breakdown" in r,
      "copies" in r, "steps" in r)
print("direction", [c["direction"] for c in r["synchronization"]["calls"]][:2])
print("note", len(d), d[0]["count"] if d else None)
PY
check "  the part lacking a key that cannot be null is left out, the rest kept" \
    grep -q "^parts True False True True$" re.txt
check "  the key that may be null reads as unknown" \
    grep -q "^direction \[None, None\]$" re.txt
check "  a data-quality note counts the three" grep -q "^note 1 3$" re.txt
check "  the HTML shows the note" grep -q "written by an older profreport" re.html
check "  the note names a view the summary does not have" \
    grep -q "so they are not in it: Critical path. Left out" re.html

# a job's distributed view from before workers[].split_source: null,
# named on the first run's note; the runs still diff
"$PR_BIN" -q --input "$PR_SRCDIR/examples/ddp_run" --json ddp.json
python3 - <<'PY'
import json
s = json.load(open("ddp.json"))
assert s["distributed"]["workers"]
for w in s["distributed"]["workers"]:
    del w["split_source"]
json.dump(s, open("ddp_old.json", "w"))
PY
"$PR_BIN" diff ddp_old.json ddp.json > dd.txt 2> err
check "an older job diffs (exit 0: $(head -c 300 err))" [ $? -eq 0 ]
tr '\n' ' ' < dd.txt > dd1.txt
check "  the diff says the summary's distributed view is left out" \
    grep -q "Left out of this report and of any diff: Distributed; they lack a key that cannot be unknown (the summary's distributed.workers\[\].split_source)." dd1.txt
"$PR_BIN" -q --input ddp_old.json --json ddp_re.json 2> err
python3 -c 'import json,sys; s=json.load(open("ddp_re.json")); print(s["distributed"] is None, s["job"] is not None)' > dre.txt
check "  distributed is null, the job view kept" grep -q "^True True$" dre.txt
"$PR_BIN" -q --input ddp_old.json --html ddp_re.html --pdf ddp_re.pdf 2> err
check "  its report does not call the job one process" \
    sh -c '! grep -q "Single process" ddp_re.html'
check "  it says the view is not in the summary" \
    grep -q "No distributed view in this summary, though its runs are ranks of a job" ddp_re.html
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -l 1 ddp_re.pdf ddp_re.txt
    check "  the PDF's cover: distributed, no view" \
        grep -q "yes (world size 2): no distributed view in this summary" ddp_re.txt
    tr '\n' ' ' < ddp_re.txt > ddp_re1.txt
    check "  the PDF's cover: the note, before the workers (review 19 #10)" \
        grep -q "Summary *written by an older profreport *The summary was written by an older profreport\..*Run profreport on the traces again for the whole report\. .*Workers and devices" ddp_re1.txt
else
    skip "the PDF's cover" "no pdftotext"
fi

# an older summary that lacks no key the contract asks for (08619121's
# ms_run3: no tool.definitions, 17 parts this version writes on every run
# missing; review 19 #4): older by its definitions alone, its note names
# the views it lacks as views (on a GPU run, none only an Ascend run has)
# and what to do; a current summary gets no note and is read as written
python3 - <<'PY'
import json
s = json.load(open("new.json"))
del s["tool"]["definitions"], s["tool"]["build"]
r = s["runs"][0]
for k in ("verdict", "critical_path", "kernel_classes", "host_coverage",
          "layers", "layer_view", "step_phases", "step_trace", "op_compile",
          "npu_memory", "hccl", "late_peer", "framework", "device_kind",
          "world_size_source", "host_only"):
    r.pop(k, None)
del r["step_summary"]["basis"]  # it came with version 2
json.dump(s, open("v1.json", "w"))
# MindSpore's GPU run as 08619121 wrote it (ms_fixtures' rank0-gpu): no
# device name, its device's kind says gpu
r["devices"][0]["name"] = None
r["devices"][0]["kind"] = "gpu"
for i in s["inputs"]:
    i["format"] = "mindspore"
json.dump(s, open("v1_msgpu.json", "w"))
s = json.load(open("new.json"))
del s["tool"]["definitions"], s["runs"][0]["step_summary"]["basis"]
json.dump(s, open("v1_whole.json", "w"))
PY
"$PR_BIN" --input v1.json > v1.txt 2> v1.err
check "a version-1 summary lacking no contract key renders (exit $?)" [ -s v1.txt ]
check "  its note on stderr names the views it lacks, as views" \
    grep -q "The summary was written by an older profreport. It was written before these views existed, so they are not in it: Verdict, Critical path, Kernels (kernel classes), Host and device (host coverage), Layers\." v1.err
check "  none an Ascend run alone has (NPU memory, HCCL)" \
    sh -c '! grep -q "NPU memory\|HCCL" v1.err'
check "  its definitions and what to do" \
    grep -q "Its figures follow version 1 of their definitions (this build: [0-9]*): .*Run profreport on the traces again for the whole report." v1.err
"$PR_BIN" -q --input v1_msgpu.json --json v1g.json 2> err
check "  a MindSpore GPU run's: none either (its device's kind), but MindSpore's step trace" \
    sh -c 'grep -q "Overview (MindSpore.s step trace)" v1g.json && ! grep -q "NPU memory\|HCCL" v1g.json'
"$PR_BIN" -q --input v1_whole.json --json v1w.json 2> err
check "a version-1 summary lacking no view: a note on its definitions alone" \
    sh -c 'grep -q "The summary was written by an older profreport. It may lack more of what this version writes only where a trace has it, which the file cannot tell: [^.]*Memory timeline. Its figures follow version 1 of their definitions" v1w.json &&
        ! grep -q "so they are not in it" v1w.json'
"$PR_BIN" --input new.json --json re_new.json > new.txt 2> new.err
check "a current summary re-rendered gets no note" \
    sh -c '! grep -q "older_summary" re_new.json && ! grep -q "older profreport" new.err'
"$PR_BIN" -q --input new.json --json re_new2.json 2> err
check "  and is written as it was read" cmp -s re_new.json re_new2.json

# an Ascend run's (torch_npu's, not MindSpore's) older summary: its note
# names the Ascend views too, not MindSpore's step trace
if have_shared && shared_summary npu0 torch_npu/text_level0; then
    python3 - <<'PY'
import json
s = json.load(open("npu0.json"))
del s["tool"]["definitions"]
for r in s["runs"]:
    r["step_summary"].pop("basis", None)
    for k in ("verdict", "step_phases", "step_trace", "npu_memory", "hccl"):
        r.pop(k, None)
json.dump(s, open("npu0_v1.json", "w"))
PY
    "$PR_BIN" -q --input npu0_v1.json --json npu0_re.json 2> err
    check "an Ascend run's older summary: its note names the NPU views" \
        grep -q "so they are not in it: Verdict, Overview (step phases), Memory (NPU memory), Distributed (HCCL's communication)\." npu0_re.json
else
    skip "an Ascend run's older summary" "no $PR_SHARED/traces/torch_npu/text_level0"
fi

# review 21 #3: a MindSpore run as 08619121 wrote it (ms_run3: no
# device listed, no device kind, no world size): its report speaks of the
# device its note infers (an Ascend NPU), in MindSpore's words, and does
# not call it one process, as the file cannot tell
python3 - <<'PY'
import json
s = json.load(open("new.json"))
del s["tool"]["definitions"], s["tool"]["build"]
for i in s["inputs"]:
    i["format"] = "mindspore"
r = s["runs"][0]
r["step_summary"].pop("basis", None)
for k in ("device_kind", "framework", "world_size_source", "late_peer"):
    r.pop(k, None)
r["devices"] = []
r["world_size"] = None
assert s["distributed"] is None
assert any(st["name"].startswith("ProfilerStep#") for st in r["steps"])
json.dump(s, open("ms_old.json", "w"))
PY
"$PR_BIN" --input ms_old.json --json ms_re.json --html ms_re.html \
    --pdf ms_re.pdf > ms_re.txt 2> ms_re.err
check "an older MindSpore run with no device renders (exit $?)" [ -s ms_re.html ]
check "  its note says its device kind is inferred" \
    grep -q "It records no device kind: read as an Ascend NPU, from its producer's files\." ms_re.err
python3 - > ms_re.py.txt <<'PY'
import json
r = json.load(open("ms_re.json"))["runs"][0]
print("kind", r["device_kind"], r["framework"])
print("steps", all(st["name"].startswith("Step ") for st in r["steps"]))
PY
check "  read as an NPU run of MindSpore" grep -q "^kind npu mindspore$" ms_re.py.txt
check "  its steps named as an NPU run's (Step N)" grep -q "^steps True$" ms_re.py.txt
for w in "GPU utilization" "SM efficiency" "Tensor-core share" "No GPU" \
    "torch.profiler" "ProfilerStep" "Single process"; do
    check "  no \"$w\" in its HTML or terminal" \
        sh -c "! grep -q '$w' ms_re.html ms_re.txt"
done
check "  Distributed: not known, not one process" \
    grep -q "Not known whether this was one process of a job: the summary, written by an older profreport, records no world size" ms_re.html
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext ms_re.pdf ms_re.pdf.txt
    tr '\n' ' ' < ms_re.pdf.txt > ms_re1.txt
    check "  the PDF's cover: Distributed not known" \
        grep -q "Distributed *not known (the summary records no world size)" ms_re1.txt
    check "  no GPU or torch.profiler words in the PDF" \
        sh -c '! grep -q "GPU utilization\|SM efficiency\|Tensor-core share\|torch.profiler\|ProfilerStep" ms_re.pdf.txt'
else
    skip "the PDF's cover" "no pdftotext"
fi

# review 21 #8: a job's older summary without the late rank nor the
# world size's source: its note names them, by the schema's flags; a
# world size of its own (distributedInfo's) is no view it lacks
python3 - <<'PY'
import json
s = json.load(open("ddp.json"))
del s["tool"]["definitions"]
for r in s["runs"]:
    r["step_summary"].pop("basis", None)
    r.pop("late_peer", None)
    r.pop("world_size_source", None)
json.dump(s, open("ddp_late.json", "w"))
for r in s["runs"]:
    r["world_size"] = None
json.dump(s, open("ddp_late_ws.json", "w"))
PY
"$PR_BIN" -q --input ddp_late.json --json ddp_late_re.json 2> err
check "a job's older summary: its note names the late rank" \
    sh -c 'grep -q "so they are not in it: [^.]*Distributed (late rank)" ddp_late_re.json && ! grep -q "Distributed (world size" ddp_late_re.json'
"$PR_BIN" -q --input ddp_late_ws.json --json ddp_late_ws_re.json 2> err
check "  and the world size where its runs record none" \
    grep -q "so they are not in it: [^.]*Distributed (late rank, world size)" ddp_late_ws_re.json
check "  a single process's older summary names neither" \
    sh -c '! grep -q "late rank\|world size" v1.err'
if have_shared && shared_summary npu1 torch_npu/text_level1; then
    python3 - <<'PY'
import json
s = json.load(open("npu1.json"))
# the view it loses: the late rank (rank 5) this build finds
assert any(r.get("late_peer") for r in s["runs"]), "no late rank"
del s["tool"]["definitions"]
for r in s["runs"]:
    r["step_summary"].pop("basis", None)
    for k in ("late_peer", "world_size_source", "device_kind", "framework"):
        r.pop(k, None)
    r["world_size"] = None
json.dump(s, open("npu1_old.json", "w"))
PY
    "$PR_BIN" --input npu1_old.json > /dev/null 2> npu1_old.err
    check "npu_text1's older summary: its note names the late rank it loses" \
        grep -q "Distributed (late rank, world size)" npu1_old.err
else
    skip "npu_text1's older summary" "no $PR_SHARED/traces/torch_npu/text_level1"
fi

# two runs with the same note: said once on stderr (review 18 #4)
python3 -c '
import json
s = json.load(open("ddp.json"))
del s["tool"]["definitions"]
for r in s["runs"]:
    r["step_summary"].pop("basis", None)
json.dump(s, open("ddp_v1.json", "w"))'
"$PR_BIN" --input ddp_v1.json > /dev/null 2> ddp_v1.err
check "runs with the same note: said once on stderr, the others named" \
    sh -c '[ "$(grep -c "The summary was written by an older profreport" ddp_v1.err)" -eq 1 ] &&
        grep -q "^profreport: warning: run .*: the same note as run " ddp_v1.err'

"$PR_BIN" diff damaged.json new.json > /dev/null 2> err
check "a damaged value is still refused (exit 2)" [ $? -eq 2 ]
check "  with its path" grep -q "runs\[0\].synchronization.calls\[0\].count" err
"$PR_BIN" diff nosteps.json new.json > /dev/null 2> err
check "a run without steps is still refused (exit 2)" [ $? -eq 2 ]
check "  naming the key" grep -q 'missing key "steps"' err
echo "1..$T_N"
