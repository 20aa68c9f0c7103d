#!/bin/sh
# ascend_roof_note.sh - review 28a #14: the Roofline's peaks note of a
# torch_npu run that names its device's family ("Ascend910B") says so,
# instead of "the trace does not name its device" ... "entry for its
# compute capability" (an NVIDIA notion) on npu_db1.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared; then
    skip "Ascend peaks note" "no $PR_SHARED/traces"
    echo "1..$T_N"
    exit 0
fi
if "$PR_BIN" -q --input "$PR_SHARED/traces/torch_npu/db_level1" \
    --html "$T_DIR/db1.html" 2> "$T_DIR/err"; then
    check "npu_db1: the note says the trace names only the family" \
        grep -q 'the trace names only the device&#39;s family (&quot;Ascend910B&quot;), not its variant' "$T_DIR/db1.html"
    check "  not that it names no device, nor a compute capability" \
        sh -c "! grep -q 'does not name its device\|compute capability is used' '$T_DIR/db1.html'"
else
    not_ok "npu_db1 is read ($(head -c 200 "$T_DIR/err"))"
fi
echo "1..$T_N"
