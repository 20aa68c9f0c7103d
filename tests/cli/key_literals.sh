#!/bin/sh
# key_literals.sh - issue #34: a summary key is written and read through
# its keys.h constant, not a string literal, so that schema.def, keys.h and
# the code name one key.  Counted in the files that write or read the
# summary tree (src/analysis, src/render, src/diff, src/cli, src/pipeline.c;
# not src/ingest or src/record, whose literals are the keys of the input and
# output trace formats, nor src/summary, the schema's home): each summary
# key passed as a literal where the summary API takes a key.  A ratchet:
# tests/data/key_literals.txt gives what each file may still have, and only
# shrinks.  The counter finds what it should: a probe file's literal keys
# are counted, a key in a comment or a value equal to a key name is not.
. "$PR_SRCDIR/tests/lib.sh"
cd "$PR_SRCDIR" || exit 1

if ! command -v python3 > /dev/null 2>&1; then
    skip "summary key literals" "no python3"
    echo "1..$T_N"
    exit 0
fi
PY=tests/golden/schema.py
DEF=src/summary/schema.def
KEYS=include/profreport/keys.h
files=$(find src/analysis src/render src/diff src/cli -name '*.[ch]' | sort)
out=$(python3 "$PY" literals "$DEF" "$KEYS" tests/data/key_literals.txt \
    $files src/pipeline.c 2>&1)
check "summary key literals as tests/data/key_literals.txt allows (${out:-so})" \
    [ -z "$out" ]

mkdir -p "$T_DIR/src/render"
cat > "$T_DIR/src/render/probe.c" << 'EOF2'
/* pr_sget_num(run, "duration_us") in a comment is no literal */
static double f(const cJSON *run, cJSON *o, int *ok)
{
    pr_emit_str(o, "not a key", "duration_us", ok); /* a value */
    pr_emit_num(o, PR_K_MEAN_US, 1, ok);
    return pr_sget_num(pr_sget(run, "steps"), "duration_us") +
           pr_sget_num(run, "critical_path.length_us");
}
static double
mean_of(const cJSON *o, const char *key)
{
    return pr_sget_num(o, key);
}
static double g(const cJSON *run) { return mean_of(run, "mean_us"); }
static const struct pr_col cols[] = {
    {"steps", "steps", "Steps", PR_FMT_COUNT, 1, NULL, PR_COL_BOTH},
    {"mean", PR_K_MEAN_US, "duration_us", PR_FMT_US, 1, NULL, PR_COL_BOTH},
};
EOF2
out=$(python3 "$PY" literals "$DEF" "$KEYS" tests/data/key_literals.txt \
    "$T_DIR/src/render/probe.c" 2>&1)
case $out in
*'src/render/probe.c: 5 summary key literals (0 allowed)'*) ok "literal keys are counted, in calls, wrappers and column tables, comments and values not" ;;
*) not_ok "literal keys are counted, in calls, wrappers and column tables, comments and values not (got: $out)" ;;
esac
echo "1..$T_N"
