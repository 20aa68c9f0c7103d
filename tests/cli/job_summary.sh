#!/bin/sh
# job_summary.sh - a job's summary keeps the detail ranks whole and every
# other rank in its rank form (issue #33, docs/summary-json.md): the rank
# forms keep the larger rows and an "(other)" row whose sums keep the
# tables' totals, the job views do not change, the same job merged from
# its ranks' summaries is the same bytes, a job's summary re-renders the
# same reports but is not merged into a larger job, and the memory of a
# job read directly grows with its ranks by its rows, not its runs.
. "$PR_SRCDIR/tests/lib.sh"

W=$T_DIR/w
mkdir -p "$W"
SOURCE_DATE_EPOCH=1
export SOURCE_DATE_EPOCH
cd "$W" || exit 1

"$PR_GEN" --ranks 8 --steps 3 --blocks 2 --attn 1 --gzip -o run > /dev/null
"$PR_BIN" -q --input run --json j.json --html j.html --pdf j.pdf 2> err
check "8 ranks: the job's reports (exit $?: $(head -c 200 err))" [ -s j.json ]
"$PR_BIN" -q --input run --json all.json --detail-ranks all 2> err
check "  and with every run whole" [ -s all.json ]

if command -v python3 > /dev/null 2>&1; then
    python3 - j.json all.json > py.out 2>&1 << 'PY'
import json, sys
j, a = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
fail = []
def say(*m):
    fail.append(" ".join(str(x) for x in m))
full = [i for i, r in enumerate(j["runs"]) if r.get("form") != "rank"]
forms = [i for i, r in enumerate(j["runs"]) if r.get("form") == "rank"]
rf = j.get("rank_form")
if not rf or rf["full_runs"] != full or rf["rank_form_runs"] != len(forms):
    say("rank_form", rf, "whole", full)
if len(full) != 3 or len(forms) != 5:
    say("whole runs", full, "rank forms", forms)
if "rank_form" in a or any(r.get("form") for r in a["runs"]):
    say("--detail-ranks all has rank forms")
for k in ("job", "distributed", "inputs"):
    if j[k] != a[k]:
        say(k, "differs from the whole runs' summary")
for i in full:
    if j["runs"][i] != a["runs"][i]:
        say("run", i, "is not whole")
slowest = j["job"]["slowest"]["run"]
if slowest not in full:
    say("the slowest run", slowest, "is not whole")
cols = {"operators": ("calls", "device_self_us", "host_self_us", "flops"),
        "operators_by_shape": ("calls", "device_self_us", "host_self_us"),
        "kernels": ("calls", "total_us")}
others = 0
for i in forms:
    f, w = j["runs"][i], a["runs"][i]
    for k in ("steps", "step_summary", "communication", "gpu_metrics"):
        if f[k] != w[k]:
            say("run", i, k, "not whole")
    for k in ("timeline", "layers"):
        if f.get(k) is not None:
            say("run", i, k, "not null")
    for t, cs in cols.items():
        rows, whole = f[t], w[t]
        other = [r for r in rows if r["name"] == "(other)"]
        kept = [r for r in rows if r["name"] != "(other)"]
        others += len(other)
        if other and other[0]["other_rows"] + len(kept) != len(whole):
            say("run", i, t, "rows", len(kept), "+", other[0]["other_rows"],
                "!=", len(whole))
        for c in cs:
            s1 = sum(r.get(c) or 0 for r in rows)
            s2 = sum(r.get(c) or 0 for r in whole)
            if abs(s1 - s2) > 1e-9 * max(1, abs(s2)):
                say("run", i, t, c, "total", s1, "!=", s2)
        by = "total_us" if t == "kernels" else "device_self_us"
        tot = sum(max(r.get(by) or 0, 0) for r in whole)
        for r in kept:
            host = t == "operators" and (r.get("host_self_us") or 0) >= \
                0.01 * sum(max(x.get("host_self_us") or 0, 0) for x in whole)
            if not host and (r.get(by) or 0) < 0.01 * tot:
                say("run", i, t, r["name"], "kept below 1%")
if others == 0:
    say("no (other) row in any rank form")
if len(json.dumps(j)) * 2 > len(json.dumps(a)):
    say("rank forms did not halve the summary", len(json.dumps(j)),
        len(json.dumps(a)))
print("\n".join(fail))
sys.exit(1 if fail else 0)
PY
    check "rank forms: 3 whole runs, 5 forms, totals and job views kept ($(head -c 400 py.out))" \
        [ $? -eq 0 ]
else
    skip "rank forms: 3 whole runs, 5 forms, totals and job views kept" "no python3"
fi

# the same job merged from its ranks' summaries: the same bytes
mkdir -p sums
for t in run/*.pt.trace.json.gz; do
    b=$(basename "$t" .pt.trace.json.gz)
    "$PR_BIN" -q --input "$t" --json "sums/$b.summary.json" 2> err || break
done
set --
for s in sums/*.summary.json; do set -- "$@" --input "$s"; done
"$PR_BIN" -q "$@" --json m.json --html m.html --pdf m.pdf 2> err
check "merged from 8 rank summaries (exit $?: $(head -c 200 err))" [ -s m.json ]
for k in json html pdf; do
    check "  the merged $k is the direct one's" cmp -s "j.$k" "m.$k"
done

# a job's summary alone re-renders the job's reports
"$PR_BIN" -q --input j.json --html r.html --pdf r.pdf --json r.json 2> err
check "the job's summary re-rendered (exit $?: $(head -c 200 err))" [ -s r.html ]
check "  gives the same HTML" cmp -s j.html r.html
check "  and PDF" cmp -s j.pdf r.pdf
check "  and JSON" cmp -s j.json r.json
# but is not merged into a larger job: its tables lack the smaller rows
"$PR_BIN" -q --input j.json --input sums/rank0.*.summary.json --json x.json 2> err
check "a job's summary merged with another: exit 2 (got $?)" [ $? -eq 2 ]
check "  naming the file and the rank form" grep -q "j.json: .*rank form" err
check "  and writing nothing" [ ! -e x.json ]

# memory: the job's rows per rank, not its runs (each whole run was held
# before: 680 KB a rank of these, 182 MB at 256 ranks)
if grep -qa __asan_init "$PR_BIN"; then
    skip "peak RSS grows by the job's rows" \
        "a sanitizer build (ASan's redzones and quarantine grow with the work)"
elif [ -x /usr/bin/time ]; then
    "$PR_GEN" --ranks 256 --steps 3 --blocks 1 --attn 0 -o big > /dev/null
    mkdir -p part
    for f in $(ls big | head -n 64); do ln -s "$W/big/$f" "part/$f"; done
    /usr/bin/time -f %M -o t64 "$PR_BIN" -q --follow-links --input part \
        --json p.json --html p.html --pdf p.pdf
    /usr/bin/time -f %M -o t256 "$PR_BIN" -q --input big --json b.json \
        --html b.html --pdf b.pdf
    k64=$(tail -n 1 t64)
    k256=$(tail -n 1 t256)
    per=$(((k256 - k64) / 192))
    check "peak RSS grows by ${per} KB a rank from 64 to 256 ranks ($k64 to $k256 KB): under 250" \
        [ "$per" -lt 250 ]
else
    skip "peak RSS grows by the job's rows" "no /usr/bin/time"
fi

echo "1..$T_N"
