#!/bin/sh
# nsys_layers_forward.sh - issue #28 (review s20): an Nsight Systems
# export recorded under torch.autograd.profiler.emit_nvtx whose ranges
# carry the operators' sequence numbers ("aten::mm, seq = 1, ...") but
# whose capture holds no backward pass (nsys mfu_2gpu_before: 9,231
# ranges with "seq = N", FSDP::pre_forward/post_forward alone) lacks a
# backward in its window, not the option: the layer view says so, with
# the capture's span from its first event to its last (issue #30 #4:
# mfu_2gpu_before's capture has no range to widen, an Immediate start
# and 300 ms of events), and asks for one whole step.  Hand-made: the
# same two aten::mm ranges with sequence numbers (a, its events spanning
# 1-6 ms), without them (b: emit_nvtx's words stay), and with an
# autograd backward range after them (c: the capture holds backward, so
# no "forward alone").
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "nsys layers forward" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import sys
import nsys_db
for name, seq, bwd in (("a", True, False), ("b", False, False),
                       ("c", True, True)):
    db = nsys_db.export(sys.argv[1] + "/" + name + ".sqlite",
                        ['cudaLaunchKernel_v7000', 'ampere_sgemm_128x64_nn'],
                        'python')
    db.execute("CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, "
               "eventType INTEGER, globalTid INTEGER, text TEXT)")
    M = 1000000
    t = M
    for i in range(2):
        db.execute("INSERT INTO NVTX_EVENTS VALUES (?, ?, 59, ?, ?)",
                   (t, t + M, nsys_db.GPID | 100,
                    ("aten::mm, seq = %d, op_id = %d" % (i + 1, i + 1))
                    if seq else "aten::mm, op_id = %d" % (i + 1)))
        nsys_db.runtime(db, t + 1000, t + 11000, i + 1, 1)
        nsys_db.kernel(db, t + 20000, t + 2 * M, i + 1, 2)
        t += 3 * M
    if bwd:
        db.execute("INSERT INTO NVTX_EVENTS VALUES (?, ?, 59, ?, ?)",
                   (t, t + M, nsys_db.GPID | 100,
                    "autograd::engine::evaluate_function: MmBackward0, "
                    "seq = 2, op_id = 3"))
    db.commit()
PY
for x in a b c; do
    "$PR_BIN" -q --input "$T_DIR/$x.sqlite" --json "$T_DIR/$x.json" \
        2> "$T_DIR/$x.err" || sed 's/^/# /' "$T_DIR/$x.err"
done
check "ranges with sequence numbers, no backward: the capture holds forward alone" \
    python3 -c "
import json, sys
n = json.load(open(sys.argv[1]))['runs'][0]['layer_view']['note']
assert 'its emit_nvtx ranges carry the operators\' sequence numbers, but the capture holds 5 ms of events, of the forward pass alone' in n, n
assert 'Capture one whole training step (e.g. nsys profile --capture-range=cudaProfilerApi with cudaProfilerStart/Stop around it).' in n, n
assert 'Widen' not in n, n
assert 'layers need a training step' not in n, n
" "$T_DIR/a.json"
check "ranges without sequence numbers: a training step under emit_nvtx" \
    python3 -c "
import json, sys
n = json.load(open(sys.argv[1]))['runs'][0]['layer_view']['note']
assert 'under torch.autograd.profiler.emit_nvtx,' in n, n
assert 'forward pass alone' not in n, n
" "$T_DIR/b.json"
check "a capture with an autograd backward range: not 'forward alone'" \
    python3 -c "
import json, sys
n = json.load(open(sys.argv[1]))['runs'][0]['layer_view']['note']
assert n is None or 'forward pass alone' not in n, n
" "$T_DIR/c.json"
echo "1..$T_N"
