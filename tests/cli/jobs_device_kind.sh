#!/bin/sh
# jobs_device_kind.sh - review30a #10: a folder whose rank 0 is claimed
# by an NPU run and a GPU run (MindSpore's fixtures: the GPU timeline
# rank0-gpu beside the Ascend ranks 0, 1 and 10).  The job split kept the
# GPU run with the NPU ranks 1 and 10 and sent the NPU rank 0 to a job
# of its own, then warned that the job it built mixes devices.  Now the
# device kinds are split first: one NPU job of ranks 0 and 1, and the GPU
# run alone.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "jobs by device kind" "no python3"
    echo "1..$T_N"
    exit 0
fi
P=$T_DIR/profiler
mkdir -p "$P"
for r in 0 1; do
    cat > "$P/ascend_timeline_display_$r.json" << EOF
[{"name": "MatMul-op1", "ph": "X", "tid": "5", "ts": 100.0, "dur": 50.0, "pid": 1, "args": {"type": "MatMul", "fullname": "Default/MatMul-op1"}},
 {"name": "Add-op2", "ph": "X", "tid": "5", "ts": 200.0, "dur": 10.0, "pid": 1, "args": {"type": "Add", "fullname": "Default/Add-op2"}}]
EOF
done
cat > "$P/gpu_timeline_display_0.json" << 'EOF'
[{"name": "void MomentumKernel(float*)", "ph": "X", "tid": "17", "ts": 120.0, "dur": 5.0, "pid": 0, "args": {"type": "cuLaunchKernel", "op_full_name": "Default/optimizer-Momentum/ApplyMomentum-op55", "block_dim": "1024,1,1", "grid_dim": "8,1,1"}}]
EOF
"$PR_BIN" -q --input "$P" --json "$T_DIR/s.json" 2> "$T_DIR/err"
check "the folder is read (exit 0)" [ $? -eq 0 ]
check "one NPU job of ranks 0 and 1, the GPU run alone" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
kinds = {r['worker']: r['device_kind'] for r in d['runs']}
assert sorted(kinds.values()) == ['gpu', 'npu', 'npu'], kinds
jobs = d['jobs']
assert len(jobs) == 2, [j['name'] for j in jobs]
by = {}
for j in jobs:
    ws = sorted(d['runs'][k]['worker'] for k in j['runs'])
    by[tuple(ws)] = j
npu = [ws for ws in by if all(kinds[w] == 'npu' for w in ws)]
gpu = [ws for ws in by if all(kinds[w] == 'gpu' for w in ws)]
assert len(npu) == 1 and len(npu[0]) == 2, by.keys()
assert len(gpu) == 1 and len(gpu[0]) == 1, by.keys()
for j in jobs:
    assert j['job'] is None or j['job'].get('mixed_devices_note') is None, j
notes = [j['split_note'] for j in jobs if j['split_note']]
assert len(notes) == 1 and 'two device kinds' in notes[0], notes
assert 'one rank is not two workers' not in notes[0], notes
" "$T_DIR/s.json"

# ---- the shared sample
M=mindspore/fixtures
if have_shared && [ -d "$PR_SHARED/traces/$M" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$M" --json "$T_DIR/fx.json" \
        2> /dev/null
    check "fixtures: NPU ranks 0, 1, 10 in one job, rank0-gpu alone" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
w = {tuple(sorted(d['runs'][k]['worker'] for k in j['runs'])) for j in d['jobs']}
assert w == {('rank0', 'rank1', 'rank10'), ('rank0-gpu',)}, w
" "$T_DIR/fx.json"
else
    skip "mindspore fixtures" "no $PR_SHARED/traces/$M"
fi
echo "1..$T_N"
