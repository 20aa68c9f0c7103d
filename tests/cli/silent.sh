#!/bin/sh
# silent.sh - options and inputs that used to be ignored or taken silently
# (issue #15, "Wrong or silent"): each one is now used, warned about, or a
# usage error.
. "$PR_SRCDIR/tests/lib.sh"

"$PR_GEN" --steps 3 -o "$T_DIR/t.pt.trace.json" 2> /dev/null
TR=$T_DIR/t.pt.trace.json

# --- --device-spec is used for the peaks, and must be a device spec
printf '{"peak_tflops": {"fp32": 12.5, "tf32_tensor": 50}, "peak_gbps": 4321}' \
    > "$T_DIR/spec.json"
"$PR_BIN" -q --input "$TR" --device-spec "$T_DIR/spec.json" \
    --json "$T_DIR/s.json" 2> "$T_DIR/err"
check "--device-spec FILE: exit 0 ($(cat "$T_DIR/err"))" [ $? -eq 0 ]
check "  its peak_gbps reaches the summary" \
    grep -q '"peak_gbps":[[:space:]]*4321' "$T_DIR/s.json"
check "  with peak_source cli" grep -q '"peak_source":[[:space:]]*"cli"' "$T_DIR/s.json"
for f in /etc/passwd "$T_DIR/s.json" "$T_DIR/nonexistent.json" "$T_DIR"; do
    "$PR_BIN" -q --input "$TR" --device-spec "$f" --json "$T_DIR/o.json" \
        2> "$T_DIR/err"
    rc=$?
    check "--device-spec $(basename "$f"): exit 2 naming it (got $rc: $(cat "$T_DIR/err"))" \
        sh -c "[ $rc -eq 2 ] && grep -q -F '$f' '$T_DIR/err'"
    check "  and writes nothing" [ ! -e "$T_DIR/o.json" ]
done

echo "1..$T_N"
