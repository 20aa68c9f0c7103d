#!/bin/sh
# job.sh - the report of a whole job (issue #18): summary["job"] holds the
# step time per rank, the slowest and median rank, a bounded rank x step
# heatmap and operator/kernel tables aggregated over ranks, each checked
# here against an independent computation over the runs; the HTML and PDF
# show one job overview and full detail only for --detail-ranks, so they
# stay small however many ranks the job has (a PDF under 44 pages with
# the default three detail ranks, issue #33).
. "$PR_SRCDIR/tests/lib.sh"

W=$T_DIR/w
mkdir -p "$W"
SOURCE_DATE_EPOCH=1
export SOURCE_DATE_EPOCH
have_py() { command -v python3 > /dev/null 2>&1; }

"$PR_GEN" --ranks 6 --steps 4 --blocks 1 --attn 1 -o "$W/run" > /dev/null
"$PR_BIN" -q --input "$W/run" --json "$W/s.json" --html "$W/r.html" \
    --pdf "$W/r.pdf"
check "a 6-rank folder gives the three reports" [ $? -eq 0 ]
# every run whole, to recompute the job from (the default keeps the
# ranks not drawn in full in their rank form, job_summary.sh)
"$PR_BIN" -q --input "$W/run" --json "$W/all.json" --detail-ranks all
check "  and every run whole with --detail-ranks all" [ $? -eq 0 ]

if have_py; then
    python3 - "$W/all.json" "$W/s.json" > "$W/py.out" 2>&1 << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
if s["job"] != json.load(open(sys.argv[2]))["job"]:
    print("the job view differs with rank forms")
    sys.exit(1)
runs, job = s["runs"], s["job"]
means = [r["step_summary"]["mean_us"] for r in runs]
order = sorted(range(len(runs)), key=lambda i: (means[i], i))
fail = []
def want(what, got, exp):
    if abs(got - exp) > 1e-6 * max(1.0, abs(exp)):
        fail.append("%s: %r != %r" % (what, got, exp))
want("ranks", job["ranks"], len(runs))
want("slowest run", job["slowest"]["run"], order[-1])
want("median run", job["median"]["run"], order[(len(order) - 1) // 2])
want("max step", job["step_us"]["max_us"], max(means))
want("min step", job["step_us"]["min_us"], min(means))
med = means[order[(len(order) - 1) // 2]]
want("spread", job["step_us"]["spread_pct"], 100 * (max(means) - min(means)) / med)
# operators: mean / max of device self time over every rank (absent = 0)
for key, arr, val in (("operators", "operators", "device_self_us"),
                      ("kernels", "kernels", "total_us")):
    tot = {}
    for i, r in enumerate(runs):
        for o in r[arr]:
            tot.setdefault(o["name"], [0.0] * len(runs))[i] += o[val]
    rows = job[key]
    want(key + " total", job[key + "_total"], len(tot))
    for row in rows[:20]:
        v = tot[row["name"]]
        want(row["name"] + " mean", row["mean_" + val], sum(v) / len(v))
        want(row["name"] + " max", row["max_" + val], max(v))
        want(row["name"] + " min", row["min_" + val], min(v))
    best = sorted(tot, key=lambda n: (-sum(tot[n]), n))[0]
    if rows[0]["name"] != best:
        fail.append("%s first row %s != %s" % (key, rows[0]["name"], best))
h = job["heatmap"]
if len(h["values_us"]) != len(runs) or len(h["values_us"][0]) != 4:
    fail.append("heatmap is not 6 x 4")
want("heatmap cell", h["values_us"][0][1],
     [r for r in runs if r["rank"] == 0][0]["steps"][1]["duration_us"])
print("\n".join(fail))
sys.exit(1 if fail else 0)
PY
    check "job numbers agree with a recomputation over the runs ($(head -c 300 "$W/py.out"))" \
        [ $? -eq 0 ]
else
    skip "job numbers agree with a recomputation over the runs" "no python3"
fi

check "the HTML has a job overview" grep -q 'id="job"' "$W/r.html"
check "  naming the detail ranks" grep -q 'Full detail below for' "$W/r.html"
"$PR_BIN" -q --input "$W/run" --html "$W/all.html" --detail-ranks all
check "--detail-ranks all exits 0" [ $? -eq 0 ]
parts() { grep -o 'rank[0-9]* (span' "$1" | wc -l; }
check "  and shows more runs in full than the default ($(parts "$W/r.html") < $(parts "$W/all.html"))" \
    [ "$(parts "$W/r.html")" -lt "$(parts "$W/all.html")" ]
"$PR_BIN" -q --input "$W/run" --html "$W/x.html" --detail-ranks slowest,nope 2> "$W/err"
check "a bad --detail-ranks word exits 1" [ $? -eq 1 ]
check "  naming the word" grep -q "'nope'" "$W/err"
check "  and writes nothing" [ ! -e "$W/x.html" ]
"$PR_BIN" -q --input "$W/run" --html "$W/m.html" --detail-ranks 3,99 2> "$W/err"
check "a rank not in the job is said, not fatal" grep -q 'not in this job: rank 99' "$W/m.html"
check "  and warned on stderr, naming the rank and the job's ranks" \
    grep -q "warning: --detail-ranks 3,99: rank 99 is not in the job (it holds ranks 0-5)" "$W/err"
check "  once" [ "$(grep -c 'rank 99 is not' "$W/err")" -eq 1 ]
check "  a rank of the job is not warned" sh -c "! grep -q 'rank 3 is not' '$W/err'"

# the default's rank 0 means "when there is one": two GPUs of one process
# (no rank ids) are not told that rank 0 is missing
NSYS=$PR_SHARED/traces/nsys/mfu_2gpu_after.sqlite
if [ -f "$NSYS" ]; then
    "$PR_BIN" -q --input "$NSYS" --html "$W/n.html"
    check "no ranks: the default names no missing rank" \
        sh -c "grep -q 'Full detail below for 2 of 2' '$W/n.html' && ! grep -q 'not in this job' '$W/n.html'"
else
    skip "no ranks: the default names no missing rank" "no ../shared nsys sample"
fi

"$PR_BIN" -q --input "$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz" \
    --json "$W/one.json" --html "$W/one.html"
check "one process: job is null" grep -q '"job":[[:space:]]*null' "$W/one.json"
check "  and the report has no job overview" sh -c "! grep -q 'id=\"job\"' '$W/one.html'"

# scale: the reports grow with the detail ranks, not the world size
"$PR_GEN" --ranks 256 --steps 3 --blocks 1 --attn 0 -o "$W/big" > /dev/null
"$PR_BIN" -q --input "$W/big" --html "$W/big.html" --pdf "$W/big.pdf"
check "256 ranks: the reports are written" [ $? -eq 0 ]
size=$(wc -c < "$W/big.html")
check "  the HTML stays under 5 MB ($size bytes)" [ "$size" -lt 5000000 ]
# the same job's first 16 ranks: the PDF is the job overview and the
# detail ranks (8 rows a table each), so it has the same pages at 16
# and 256 ranks, under 44 with the default three detail ranks (issue
# #33); a page per rank of the 256 would be hundreds
mkdir -p "$W/small"
for f in $(ls "$W/big" | head -n 16); do ln -s "$W/big/$f" "$W/small/$f"; done
"$PR_BIN" -q --follow-links --input "$W/small" --pdf "$W/small.pdf"
"$PR_BIN" -q --input "$W/big" --pdf "$W/one.pdf" --detail-ranks 0
if command -v pdfinfo > /dev/null 2>&1; then
    pages=$(pdfinfo "$W/big.pdf" | sed -n 's/^Pages: *//p')
    p16=$(pdfinfo "$W/small.pdf" | sed -n 's/^Pages: *//p')
    p1=$(pdfinfo "$W/one.pdf" | sed -n 's/^Pages: *//p')
    # (39 pages before a name cell held three lines, review 26g #7: 40)
    check "  the PDF stays under 44 pages ($pages)" [ "${pages:-999}" -lt 44 ]
    near() { [ "${pages:-999}" -le $((${p16:-0} + 1)) ] && [ "${pages:-0}" -ge $((${p16:-0} - 1)) ]; }
    check "  and has the pages of 16 ranks of the job, give or take one ($p16)" near
    fewer() { [ "${p1:-999}" -lt "${pages:-0}" ] && [ "${p1:-999}" -le 20 ]; }
    check "  one detail rank: fewer pages ($p1), at most 20" fewer
else
    skip "  the PDF stays under 44 pages" "no pdfinfo"
fi

echo "1..$T_N"
