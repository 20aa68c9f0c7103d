#!/bin/sh
# merge_many.sh - a job of 64 generated rank summaries merged (issue #17):
# the merge keeps only a lite form of each run and reads the whole runs
# again when it writes them, so check that every run comes out as its rank
# wrote it (--detail-ranks all: the default keeps the ranks not drawn in
# full in their rank form, issue #33) and that the job figures are the
# ones the ranks' own numbers give.
. "$PR_SRCDIR/tests/lib.sh"

SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
cd "$T_DIR" || exit 1
N=64

"$PR_BIN" -q --input "$PR_SRCDIR"/examples/ddp_run/rank0.*.pt.trace.json.gz \
    --json base.json 2> err
check "one rank's summary (exit $?: $(head -c 200 err))" [ -s base.json ]
python3 "$PR_SRCDIR/bench/gen_rank_summaries.py" base.json $N ranks 2> err
check "$N rank summaries generated ($(head -c 200 err))" \
    [ -s ranks/rank0063.summary.json ]
"$PR_BIN" -q --input ranks/rank*.summary.json --json md.json --html m.html \
    --pdf m.pdf 2> err
check "they merge (exit $?: $(head -c 200 err))" [ -s md.json ]
check "  into an HTML and a PDF report" sh -c '[ -s m.html ] && [ -s m.pdf ]'
"$PR_BIN" -q --input ranks/rank*.summary.json --json m.json \
    --detail-ranks all 2> err
check "  and with every run whole (exit $?: $(head -c 200 err))" [ -s m.json ]
check "  the same job either way" python3 -c "
import json, sys
a, b = json.load(open('m.json')), json.load(open('md.json'))
sys.exit(a['job'] != b['job'] or a['distributed'] != b['distributed'] or
         b['rank_form']['rank_form_runs'] != $N - 3)"

# expect.py: what the job must say, from the rank files alone
cat > expect.py <<'PY'
import glob, json, sys
ranks = [json.load(open(p)) for p in sorted(glob.glob("ranks/*.json"))]
m = json.load(open("m.json"))
runs = [r["runs"][0] for r in ranks]
bad = []
def same(a, b):
    # cJSON prints a number with 15 digits where they read back within an
    # epsilon, so the merged numbers may differ from Python's in the last bit
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) \
            and abs(a - b) <= 1e-12 * max(abs(a), abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b
def want(what, got, exp):
    if not same(got, exp):
        bad.append("%s: got %.300r, expected %.300r" % (what, got, exp))
want("runs, each whole as its rank wrote it", m["runs"], runs)
want("inputs", m["inputs"], [r["inputs"][0] for r in ranks])
job = m["job"]
want("job ranks", job["ranks"], len(runs))
means = sorted((r["step_summary"]["mean_us"], i) for i, r in enumerate(runs))
want("slowest", (job["slowest"]["worker"], job["slowest"]["mean_us"]),
     (runs[means[-1][1]]["worker"], means[-1][0]))
med = means[(len(means) - 1) // 2]
want("median", (job["median"]["worker"], job["median"]["mean_us"]),
     (runs[med[1]]["worker"], med[0]))
want("step_us min/max", (job["step_us"]["min_us"], job["step_us"]["max_us"]),
     (means[0][0], means[-1][0]))
want("per_rank workers", [p["worker"] for p in job["per_rank"]],
     [r["worker"] for r in runs])
op = runs[0]["operators"][0]["name"]
row = [o for o in job["operators"] if o["name"] == op]
want("operator %s on every rank" % op, row and row[0]["ranks"], len(runs))
d = m["distributed"]
want("world size", d["world_size"], len(runs))
want("distributed workers", [w["worker"] for w in d["workers"]],
     [r["worker"] for r in runs])
calls = {}
for r in runs:
    for c in (r.get("communication") or {}).get("ops") or []:
        calls[c["name"]] = calls.get(c["name"], 0) + c["calls"]
want("collective calls summed over ranks",
     {c["name"]: c["calls"] for c in d["comm_ops"]}, calls)
want("some collectives", len(calls) > 0, True)
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
python3 expect.py > bad 2>&1
check "  the job figures are the ranks' ($(head -c 600 bad))" [ ! -s bad ]

# the same job, reports only: the runs drawn in full are read again
"$PR_BIN" -q --input ranks/rank*.summary.json --html h.html --pdf h.pdf 2> err
check "  the reports do not depend on --json being written" \
    cmp -s m.html h.html
check "  (the PDF too)" cmp -s m.pdf h.pdf

# table over the rank summaries: each run's rows are read again from its
# file (the lite runs lack them), one file at a time; the same table as
# from the merged summary, whose runs are whole
for k in operators kernels steps memory layers; do
    "$PR_BIN" table -q --input ranks/rank*.summary.json --kind $k --csv \
        > t1.csv 2> err
    "$PR_BIN" table -q --input m.json --kind $k --csv > t2.csv 2>> err
    check "table --kind $k over the ranks is the merged summary's ($(head -c 200 err))" \
        cmp -s t1.csv t2.csv
done
"$PR_BIN" table -q --input ranks/rank*.summary.json --kind operators \
    --group-by shape --json-out > t1.json 2> err
"$PR_BIN" table -q --input m.json --kind operators --group-by shape \
    --json-out > t2.json 2>> err
check "  and by shape ($(head -c 200 err))" cmp -s t1.json t2.json
W=$(grep -o '"worker":.*"rank[0-9]*"' t1.json | sort -u | wc -l)
check "  (rows of every rank: $W workers)" [ "$W" -eq $N ]

# diff of two jobs of rank summaries: each pair of runs and each run's
# tables are read again from the files, one at a time; the same diff as
# between the merged summaries, whose runs are whole
"$PR_BIN" -q --input "$PR_SRCDIR"/examples/ddp_run/rank1.*.pt.trace.json.gz \
    --json base1.json 2> err &&
    python3 "$PR_SRCDIR/bench/gen_rank_summaries.py" base1.json $N ranks1 2>> err &&
    "$PR_BIN" -q --input ranks1/rank*.summary.json --json m1.json \
        --detail-ranks all 2>> err
check "a second job of $N ranks ($(head -c 200 err))" [ -s m1.json ]
# shellcheck disable=SC2046
"$PR_BIN" diff -q $(ls ranks/*.json | sed 's/^/--baseline /') \
    $(ls ranks1/*.json | sed 's/^/--input /') --fail-on 'op:*>+1%' \
    --json d1.json > /dev/null 2> err
"$PR_BIN" diff -q --baseline m.json --input m1.json --fail-on 'op:*>+1%' \
    --json d2.json > /dev/null 2>> err
# (m.json's numbers may differ from the ranks' in the last bit: cJSON
# prints 15 digits where they read back within an epsilon)
check "diff of the rank summaries is that of the merged ones" python3 -c "
import json, sys
a, b = json.load(open('d1.json')), json.load(open('d2.json'))
def same(x, y):
    if isinstance(x, float) or isinstance(y, float):
        return isinstance(x, (int, float)) and isinstance(y, (int, float)) \\
            and abs(x - y) <= 1e-12 * max(abs(x), abs(y))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(same(p, q) for p, q in zip(x, y))
    return x == y
for d in (a, b):
    for side in ('baseline', 'current'):
        d[side].pop('label')
sys.exit(not same(a, b) or len(a['runs']) != $N or
         not a['operators_by_shape'] or not a['kernels'])"

# summaries of several runs each, whose runs interleave in the job's
# order (even and odd ranks), each written whole: the same runs and job
ls ranks/*.json | awk 'NR % 2 == 1' > even && ls ranks/*.json | awk 'NR % 2 == 0' > odd
# shellcheck disable=SC2046
"$PR_BIN" -q $(sed 's/^/--input /' even) --json even.json \
    --detail-ranks all 2> err &&
    # shellcheck disable=SC2046
    "$PR_BIN" -q $(sed 's/^/--input /' odd) --json odd.json \
        --detail-ranks all 2>> err &&
    "$PR_BIN" -q --input even.json --input odd.json --json eo.json \
        --detail-ranks all 2>> err
check "even and odd ranks merged apart, then together (exit $?: $(head -c 200 err))" [ -s eo.json ]
check "  give the same runs, distributed view and slowest rank" python3 -c "
import json, sys
a, b = json.load(open('m.json')), json.load(open('eo.json'))
sys.exit(a['runs'] != b['runs'] or a['distributed'] != b['distributed'] or
         a['job']['slowest']['worker'] != b['job']['slowest']['worker'] or
         b['job']['ranks'] != $N)"
# halves written with their rank forms cannot be: their tables lack rows
# shellcheck disable=SC2046
"$PR_BIN" -q $(sed 's/^/--input /' even) --json evenf.json 2> err
"$PR_BIN" -q --input evenf.json --input odd.json --json x.json 2> err
check "  not from halves in rank form: exit 2 (got $?), saying how" \
    grep -q "evenf.json: a job's summary.*--detail-ranks all" err

echo "1..$T_N"
