#!/bin/sh
# schema.sh - issue #34: src/summary/schema.def is the summary's one table.
# Every keys.h constant is a row's key; every key docs/summary-json.md and
# the shared spec name in their annotated trees is a row, and every row is
# named there; every key the tool writes is a row of its object, with a
# value of the row's types, in the order of the rows, and every run has
# each part flagged EVERY (a rank form, those it keeps): checked here on
# generated jobs (read whole, with rank forms, merged from the ranks'
# summaries, several jobs) and the examples, and by golden_shared.sh on
# every shared trace.  The checker finds what it should: a doctored
# summary fails it.
. "$PR_SRCDIR/tests/lib.sh"

PY=$PR_SRCDIR/tests/golden/schema.py
DEF=$PR_SRCDIR/src/summary/schema.def
KEYS=$PR_SRCDIR/include/profreport/keys.h
if ! command -v python3 > /dev/null 2>&1; then
    skip "the summary follows schema.def" "no python3"
    echo "1..$T_N"
    exit 0
fi

out=$(python3 "$PY" keys "$DEF" "$KEYS" 2>&1)
check "every keys.h constant is the key of a row (${out:-all are})" [ -z "$out" ]

SPEC=$PR_SHARED/spec/summary-json.md
if [ -f "$SPEC" ]; then
    out=$(python3 "$PY" docs "$DEF" "$KEYS" "$PR_SRCDIR/docs/summary-json.md" \
        "$SPEC" 2>&1)
    check "docs/summary-json.md and the spec name every row, and only rows (${out:-all do})" \
        [ -z "$out" ]
else
    skip "docs and the spec name every row" "no $SPEC"
fi

W=$T_DIR/w
mkdir -p "$W/sums"
cd "$W" || exit 1
SOURCE_DATE_EPOCH=1
export SOURCE_DATE_EPOCH
"$PR_GEN" --ranks 4 --steps 3 --blocks 2 --attn 1 -o run > /dev/null
"$PR_BIN" -q --input run --json job.json --detail-ranks 0 2> err
check "a 4-rank job with rank forms (exit $?)" [ -s job.json ]
for f in run/*; do
    "$PR_BIN" -q --input "$f" --json "sums/${f#run/}.json" 2>> err
done
"$PR_BIN" -q --input sums/*.json --json merged.json 2>> err
check "  merged from its ranks' summaries" [ -s merged.json ]
"$PR_BIN" -q --input run --input "$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz" \
    --input "$PR_SRCDIR/examples/ddp_run" \
    --input "$PR_SRCDIR/examples/legacy_2021.pt.trace.json.gz" \
    --json jobs.json 2>> err
check "  several jobs and the examples" [ -s jobs.json ]
grep -q '"form":[[:space:]]*"rank"' job.json
check "  (the job has rank forms)" [ $? -eq 0 ]
grep -q '"jobs"' jobs.json
check "  (and the last summary several jobs)" [ $? -eq 0 ]

out=$(python3 "$PY" json "$DEF" "$KEYS" job.json merged.json jobs.json 2>&1)
check "every key written is a row of its object, of the row's types (${out:-all are})" \
    [ -z "$out" ]

# the checker is no rubber stamp: an unknown key, a wrong type
python3 - jobs.json bad.json << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["runs"][0]["steps"][0]["no_such_key"] = 1
s["runs"][0]["steps"][0]["duration_us"] = "12"
r = s["runs"][0]
r["steps"] = r.pop("steps")  # now after every other key of the run
del r["verdict"]  # a part every run has (EVERY): an older writer's run
json.dump(s, open(sys.argv[2], "w"))
PY
out=$(python3 "$PY" json "$DEF" "$KEYS" bad.json 2>&1)
check "a doctored summary fails: $(echo "$out" | tr '\n' ';' | head -c 300)" \
    sh -c 'echo "$1" | grep -q "runs\[\].steps\[\].no_such_key: no row" &&
           echo "$1" | grep -q "runs\[\].steps\[\].duration_us: a string" &&
           echo "$1" | grep -q "runs\[\]: \"steps\" is written after" &&
           echo "$1" | grep -q "runs\[\]: no \"verdict\", a part schema.def flags EVERY"' _ "$out"
echo "1..$T_N"
