#!/bin/sh
# gate_matrix.sh - the CI-gate matrix of issue #32: every verdict and exit
# status of `diff` and `trend` a nightly job can meet, pinned.  diff: the
# default gate with and without rules, rules that match nothing, --strict,
# --threshold beside --no-default-gate, mismatched runs.  trend: a
# crossing last night, a slow creep that only the first night shows, a
# missing and a corrupt night, too few nights, --strict, --junit.
. "$PR_SRCDIR/tests/lib.sh"
. "$PR_SRCDIR/tests/data/diff/kineto.sh"
D=$PR_SRCDIR/tests/data/diff

# verdict FILE: the "verdict" of a diff or trend JSON
verdict() {
    sed -n 's/^[[:space:]]*"verdict":[[:space:]]*"\([a-z]*\)".*/\1/p' "$1" |
        tail -n 1
}

# row NAME WANT_EXIT WANT_VERDICT CMD...: run CMD with --json $T_DIR/m.json
row() {
    name=$1
    want=$2
    wantv=$3
    shift 3
    rm -f "$T_DIR/m.json"
    "$@" --json "$T_DIR/m.json" > "$T_DIR/m.out" 2> "$T_DIR/m.err"
    rc=$?
    check "$name: exit $want (got $rc)" [ "$rc" -eq "$want" ]
    if [ "$wantv" = "-" ]; then
        check "  no report written" [ ! -e "$T_DIR/m.json" ]
    else
        got=$(verdict "$T_DIR/m.json")
        check "  verdict $wantv (got ${got:-none})" [ "$got" = "$wantv" ]
    fi
}

P=$PR_BIN
NONE1='op:aten::no_such_op>+10%'
NONE2='kernel:no_such_kernel*>+10%'
NONE3='shape:no_such_op>+10%'

# --- diff
row "diff: default gate, a rerun" 0 pass \
    "$P" diff -q "$D/base.json" "$D/rerun.json"
row "diff: default gate, a 20% slowdown" 3 fail \
    "$P" diff -q "$D/base.json" "$D/slow.json"
row "diff: the default gate beside rules that hold" 3 fail \
    "$P" diff -q "$D/base.json" "$D/slow.json" --fail-on 'memory.peak>+1GiB'
row "diff: three rules that match nothing keep the default gate" 3 fail \
    "$P" diff -q "$D/base.json" "$D/slow.json" --fail-on "$NONE1" \
    --fail-on "$NONE2" --fail-on "$NONE3"
check "  the three are skipped, not passed" \
    test "$(grep -c '"skip_reason":[[:space:]]*"no_figure"' "$T_DIR/m.json")" -eq 3
row "diff: only rules that match nothing: inconclusive" 4 inconclusive \
    "$P" diff -q "$D/base.json" "$D/slow.json" --no-default-gate \
    --fail-on "$NONE1"
row "diff: --strict, a rule that matches nothing: usage error" 1 - \
    "$P" diff -q "$D/base.json" "$D/slow.json" --strict --fail-on "$NONE1"
check "  naming the rule" grep -q "no_such_op" "$T_DIR/m.err"
row "diff: --strict, rules that match: the slowdown" 3 fail \
    "$P" diff -q "$D/base.json" "$D/slow.json" --strict \
    --fail-on 'memory.peak>+1GiB'
row "diff: --threshold with --no-default-gate: usage error" 1 - \
    "$P" diff -q "$D/base.json" "$D/slow.json" --no-default-gate \
    --threshold 10 --fail-on 'memory.peak>+1GiB'
row "diff: --threshold 25 beside a rule lets +20% pass" 0 pass \
    "$P" diff -q "$D/base.json" "$D/slow.json" --threshold 25 \
    --fail-on 'memory.peak>+1GiB'
row "diff: --threshold 25% (written as rules write it) lets +20% pass" 0 pass \
    "$P" diff -q "$D/base.json" "$D/slow.json" --threshold 25%
row "diff: --threshold 25%% is a usage error" 1 - \
    "$P" diff -q "$D/base.json" "$D/slow.json" --threshold 25%%
row "diff: --min-share 1% reads as 1" 3 fail \
    "$P" diff -q "$D/base.json" "$D/slow.json" --min-share 1%

gen "$T_DIR/steps.pt.trace.json" "1 2 3 4 5 6" aten::mm ampere_sgemm_128x64_nn
gen "$T_DIR/whole.pt.trace.json" "- - - - - -" aten::mm ampere_sgemm_128x64_nn
gen "$T_DIR/cpu.pt.trace.json" "1 2 3 4 5 6" aten::mm - none cpu
row "diff: no step markers against ProfilerSteps: inconclusive" 4 \
    inconclusive "$P" diff -q "$T_DIR/steps.pt.trace.json" \
    "$T_DIR/whole.pt.trace.json"
# steps on the device basis against the host's: different windows, not
# compared (review 18 #1)
row "diff: a GPU run against a CPU-only run: two bases, inconclusive" 4 \
    inconclusive \
    "$P" diff -q "$T_DIR/steps.pt.trace.json" "$T_DIR/cpu.pt.trace.json"
check "  comparability warned" \
    grep -q '"comparable":[[:space:]]*false' "$T_DIR/m.json"

# --- trend
row "trend --fail: the last night crossed" 3 fail \
    "$P" trend -q --fail "$D/base.json" "$D/rerun.json" "$D/slow.json"
row "trend --fail: the last night back to the first's level" 0 pass \
    "$P" trend -q --fail --keep-order "$D/base.json" "$D/slow.json" "$D/rerun.json"
row "trend --fail: still 19% above the first night, it still crosses" 3 fail \
    "$P" trend -q --fail "$D/base.json" "$D/slow.json" "$D/slow.json"
row "trend without --fail: charts, exit 0 whatever the verdict" 0 fail \
    "$P" trend -q "$D/base.json" "$D/rerun.json" "$D/slow.json"

# a creep of +4% a night: no two nights in a row cross 5%, the first
# night and the last do
for us in 1000 1040 1082 1125; do
    STEP_US=$us gen "$T_DIR/n$us.pt.trace.json" "1 2 3 4 5 6" aten::mm \
        ampere_sgemm_128x64_nn
done
row "trend: a +4%-a-night creep crosses against the first night" 3 fail \
    "$P" trend -q --fail --keep-order "$T_DIR/n1000.pt.trace.json" \
    "$T_DIR/n1040.pt.trace.json" "$T_DIR/n1082.pt.trace.json" \
    "$T_DIR/n1125.pt.trace.json"
"$P" trend -q --keep-order "$T_DIR/n1000.pt.trace.json" \
    "$T_DIR/n1040.pt.trace.json" "$T_DIR/n1082.pt.trace.json" \
    "$T_DIR/n1125.pt.trace.json" --markdown "$T_DIR/creep.md"
check "  the table says which comparison crossed" \
    grep -q 'ok step.mean>+5%: .*CROSSED step.mean>+5% (vs the first night)' \
    "$T_DIR/creep.md"

row "trend: a missing night is reported and left out" 3 fail \
    "$P" trend --fail --keep-order "$T_DIR/n1000.pt.trace.json" \
    "$T_DIR/n1040.pt.trace.json" "$T_DIR/no_such_night.json" \
    "$T_DIR/n1125.pt.trace.json"
check "  a warning names it" grep -q 'warning: trend: night .*no_such_night' \
    "$T_DIR/m.err"
check "  the JSON lists it" grep -q '"path":[[:space:]]*".*no_such_night' \
    "$T_DIR/m.json"

printf '{"schema_version": 1, "runs": [' > "$T_DIR/corrupt.json"
row "trend: a corrupt night is reported and left out" 3 fail \
    "$P" trend --fail "$D/base.json" "$T_DIR/corrupt.json" "$D/rerun.json" \
    "$D/slow.json" --junit "$T_DIR/t.xml" --markdown "$T_DIR/t.md"
check "  a warning names the byte" \
    grep -q 'corrupt.json: byte [0-9]*' "$T_DIR/m.err"
check "  the headline counts it" \
    grep -q '^## profreport trend: REGRESSION (.*1 night unreadable' \
    "$T_DIR/t.md"
check "  JUnit: two failures (vs the night before, vs the first)" \
    grep -q 'failures="2"' "$T_DIR/t.xml"
check "  JUnit: the corrupt night as a skipped test" \
    grep -q 'name="night .*corrupt.json"' "$T_DIR/t.xml"

row "trend: one readable night is bad input" 2 - \
    "$P" trend -q "$D/base.json" "$T_DIR/corrupt.json"
row "trend --strict: a rule no night matches is a usage error" 1 - \
    "$P" trend -q --strict --fail-on "$NONE1" "$D/base.json" "$D/rerun.json"
row "trend: only rules that match nothing: inconclusive (--fail: 4)" 4 \
    inconclusive "$P" trend -q --fail --no-default-gate --fail-on "$NONE1" \
    "$D/base.json" "$D/rerun.json"

echo "1..$T_N"
