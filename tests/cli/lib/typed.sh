# typed.sh - the helpers of the typed-row tests (issue #34: typed_tables.sh,
# typed_objects_ops.sh, typed_objects_time.sh, typed_objects.sh,
# typed_objects_advice.sh), sourced
# after tests/lib.sh.

# rows FILE [--subset] PATH...: each table or object at PATH has rows, keys
# in schema order (tests/cli/lib/typed_rows.py)
rows() { python3 "$PR_SRCDIR/tests/cli/lib/typed_rows.py" "$PR_SRCDIR" "$@"; }

# refused FILE PATH KEY [VALUE]: the loader refuses FILE with KEY of the
# object at PATH (the first element where an array leads to it) set to
# VALUE (JSON; a string by default): exit 2, naming the object and key
# ("runs[0].roofline.peak_gbps")
refused() {
    python3 - "$1" "$T_DIR/bad.json" "$2" "$3" "${4:-\"x\"}" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
v = s
for part in sys.argv[3].split("."):
    v = v[part.rstrip("[]")]
    if part.endswith("[]"):
        v = v[0]
v[sys.argv[4]] = json.loads(sys.argv[5])
json.dump(s, open(sys.argv[2], "w"))
PY
    "$PR_BIN" diff -q -b "$T_DIR/bad.json" -i "$1" > /dev/null 2> "$T_DIR/err"
    rc=$?
    want=$(echo "$2" | sed 's/\[\]/[0]/g').$3
    [ $rc -eq 2 ] && grep -qF "$want" "$T_DIR/err"
}

# two_steps: $T_DIR/one.json, the summary of tests/cli/lib/two_steps.py's
# hand-made two-step trace, checked written and loadable as a diff's
# baseline (two checks)
two_steps() {
    python3 "$PR_SRCDIR/tests/cli/lib/two_steps.py" "$T_DIR/one.pt.trace.json"
    "$PR_BIN" -q --input "$T_DIR/one.pt.trace.json" --json "$T_DIR/one.json"
    check "two hand-made steps: summary written (exit $?)" \
        [ -s "$T_DIR/one.json" ]
    "$PR_BIN" diff -q -b "$T_DIR/one.json" -i "$T_DIR/one.json" \
        > /dev/null 2>&1
    rc=$?
    check "  the saved summary loads as a diff's baseline (exit $rc)" \
        [ "$rc" -eq 0 ]
}
