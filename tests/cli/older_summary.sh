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
    grep -q "written by an older profreport. Keys it did not write read as unknown: synchronization.calls\[\] (direction). Left out of this report and of any diff: temporal_breakdown (they lack a key that cannot be unknown: temporal_breakdown\[\].window)." d1.txt
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
check "  a data-quality note counts both" grep -q "^note 1 2$" re.txt
check "  the HTML shows the note" grep -q "written by an older profreport" re.html
check "  the note names a view the summary does not have" \
    grep -q "Views this version adds are not in it: critical_path. Run profreport on the trace again" re.html

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
    grep -q "Left out of this report and of any diff: the summary's distributed (they lack a key that cannot be unknown: the summary's distributed.workers\[\].split_source)." dd1.txt
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
else
    skip "the PDF's cover" "no pdftotext"
fi

"$PR_BIN" diff damaged.json new.json > /dev/null 2> err
check "a damaged value is still refused (exit 2)" [ $? -eq 2 ]
check "  with its path" grep -q "runs\[0\].synchronization.calls\[0\].count" err
"$PR_BIN" diff nosteps.json new.json > /dev/null 2> err
check "a run without steps is still refused (exit 2)" [ $? -eq 2 ]
check "  naming the key" grep -q 'missing key "steps"' err
echo "1..$T_N"
