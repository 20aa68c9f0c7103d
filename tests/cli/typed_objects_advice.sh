#!/bin/sh
# typed_objects_advice.sh - issue #34: a run's critical_path and verdict
# are typed rows (rows.def: struct pr_row_critical_path, written once by
# critpath.c's pr_critpath_fill; struct pr_row_verdict), written through
# the one writer in schema.def's row order, and the loader (pr_rows_check)
# reads them back whole: a saved summary whose object holds a damaged value
# (keys the contract does not require, so only the typed reader sees them)
# is refused with its path, exit 2.  A hand-made Kineto step pair (a GEMM,
# a pageable copy, a memset and a device synchronize in each of two 1.9 ms
# ProfilerSteps: a host-bound path, replayed what-ifs, no finding) gives
# both; shared samples (skipped without ../shared) a verdict resting on
# the producer's step table (torch_npu old2023: basis) and the peer-bound
# collective's keys (CANN 6).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "typed critical path and verdict" "no python3"
    echo "1..$T_N"
    exit 0
fi
# rows, refused and two_steps (the hand-made summary $T_DIR/one.json)
. "$PR_SRCDIR/tests/cli/lib/typed.sh"
two_steps

check "  critical_path, every key in schema order" \
    rows "$T_DIR/one.json" "runs[].critical_path"
check "  its path is the host's in both steps, two steps replayed" \
    python3 -c "
import json, sys
cp = json.load(open(sys.argv[1]))['runs'][0]['critical_path']
assert cp['bound'] == 'host' and cp['what_if_steps'] == 2, cp
assert len(cp['steps']) == 2 and cp['serial_streams'] is False, cp
assert cp['peer_wait_parts'] is None and cp['idle_note'] is None, cp
" "$T_DIR/one.json"
check "  critical_path's serial_streams as text is refused" \
    refused "$T_DIR/one.json" "runs[].critical_path" serial_streams
check "  critical_path's replay error as text is refused" \
    refused "$T_DIR/one.json" "runs[].critical_path" replay_error_pct
check "  critical_path's bound as a number is refused" \
    refused "$T_DIR/one.json" "runs[].critical_path" bound 3
check "  critical_path's what_if_steps as null is refused" \
    refused "$T_DIR/one.json" "runs[].critical_path" what_if_steps null
check "  critical_path's what_if as text is refused" \
    refused "$T_DIR/one.json" "runs[].critical_path" what_if
check "  critical_path's steps as an object is refused" \
    refused "$T_DIR/one.json" "runs[].critical_path" steps '{}'
check "  critical_path's held note as a number is refused" \
    refused "$T_DIR/one.json" "runs[].critical_path" held_note 1

check "  verdict, keys in schema order (no basis: no producer's table)" \
    rows "$T_DIR/one.json" --subset "runs[].verdict"
check "  its verdict names the host, no finding, no basis" \
    python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))['runs'][0]['verdict']
assert v['bound'] == 'host' and v['bound_steps'] == 2 and v['steps'] == 2, v
assert v['findings'] == [] and 'no_finding' in v and 'basis' not in v, v
" "$T_DIR/one.json"
check "  the verdict's bound_steps as text is refused" \
    refused "$T_DIR/one.json" "runs[].verdict" bound_steps
check "  the verdict's steps as null is refused" \
    refused "$T_DIR/one.json" "runs[].verdict" steps null
check "  the verdict's text as a number is refused" \
    refused "$T_DIR/one.json" "runs[].verdict" text 1
check "  the verdict's bound as a boolean is refused" \
    refused "$T_DIR/one.json" "runs[].verdict" bound true
check "  the verdict's no_finding as null is refused" \
    refused "$T_DIR/one.json" "runs[].verdict" no_finding null
check "  the verdict's basis as a number is refused" \
    refused "$T_DIR/one.json" "runs[].verdict" basis 1

if shared_summary old torch_npu/old2023; then
    check "torch_npu old2023: its verdict rests on the step table (basis)" \
        python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))['runs'][0]['verdict']
assert isinstance(v.get('basis'), str) and v['findings'], v
" "$T_DIR/old.json"
    check "  verdict, keys in schema order" \
        rows "$T_DIR/old.json" --subset "runs[].verdict"
    check "  the verdict's basis as a number is refused" \
        refused "$T_DIR/old.json" "runs[].verdict" basis 1
else
    skip "old2023's verdict basis" "no ../shared"
fi

if shared_summary cann6 msprof/mindinsight_cann6_PROF; then
    check "CANN 6: critical_path, keys in schema order" \
        rows "$T_DIR/cann6.json" "runs[].critical_path"
    check "  its path waits for a peer (a longest collective, parts)" \
        python3 -c "
import json, sys
cp = json.load(open(sys.argv[1]))['runs'][0]['critical_path']
assert isinstance(cp['peer_wait_longest'], str), cp
assert cp['peer_wait_parts'] and cp['peer_wait_rank'] is not None, cp
" "$T_DIR/cann6.json"
    check "  the longest peer-bound collective as a number is refused" \
        refused "$T_DIR/cann6.json" "runs[].critical_path" peer_wait_longest 1
    check "  the peer-bound parts as an object are refused" \
        refused "$T_DIR/cann6.json" "runs[].critical_path" peer_wait_parts '{}'
    check "  the peer's rank as text is refused" \
        refused "$T_DIR/cann6.json" "runs[].critical_path" peer_wait_rank
else
    skip "CANN 6's peer-bound critical path" "no ../shared"
fi
echo "1..$T_N"
