#!/bin/sh
# golden_shared.sh - summaries and reports of the real traces are as
# tests/golden/shared says (readable digests, tests/golden/digest.py; issues
# #10 and #34: refactors preserve behaviour; a change of output is
# deliberate, updates the digests and shows what changed).
. "$PR_SRCDIR/tests/lib.sh"
if ! have_shared; then
    skip "golden outputs of real traces" "no $PR_SHARED/traces (../shared is absent)"
    echo "1..$T_N"
    exit 0
fi
sh "$PR_SRCDIR/tests/golden/outputs.sh" check "$PR_BIN" "$PR_SHARED" \
    "$PR_SRCDIR/tests/golden/shared"
