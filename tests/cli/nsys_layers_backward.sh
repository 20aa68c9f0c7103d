#!/bin/sh
# nsys_layers_backward.sh - issue #29: an Nsight Systems export of a
# training step under torch.autograd.profiler.emit_nvtx holds the
# autograd nodes' ranges, each with the sequence number of the forward op
# that made it, and the layer view pairs them as it pairs a Kineto
# trace's.  Hand-made: aten::mm (2 ms kernel) and aten::relu (0.5 ms) on
# the main thread, then, on the engine's thread, ReluBackward0 (its
# threshold_backward kernel, 0.5 ms) and MmBackward0 (an mm kernel, 4 ms),
# in the texts each PyTorch wrote (getNvtxStr): a, 2.x ("MmBackward0, seq
# = 1, op_id = 7, sizes = ..." inside the seq-less "autograd::engine::
# evaluate_function: MmBackward0, op_id = 6"; the ATen ops backward runs
# carry no seq); b, 1.1-1.10 ("MmBackward, seq = 1, sizes = ...", the
# ATen ops inside with the engine thread's seq 0); c, 0.4-1.0 ("mm,
# seq=1", "MmBackward, stashed seq=1", no sizes); d, a without its
# forward ranges (a capture that starts after the forward pass): nsys's
# words, its capture range, never "record whole steps".
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "nsys layers backward" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import sys
import nsys_db
M = 1000000
MAIN = nsys_db.GPID | 100  # the Python thread: forward
ENG = nsys_db.GPID | 101   # the autograd engine's device thread
STYLES = {
    "a": ("aten::mm, seq = 1, op_id = 1, sizes = [[64, 512], [512, 1000]], "
          "input_op_ids = [(0,0), (0,0)]",
          "aten::relu, seq = 2, op_id = 2, sizes = [[64, 1000]], "
          "input_op_ids = [(1,0)]",
          "autograd::engine::evaluate_function: ReluBackward0, op_id = 3",
          "ReluBackward0, seq = 2, op_id = 4, sizes = [[64, 1000]], "
          "input_op_ids = []",
          "aten::threshold_backward, op_id = 5, sizes = [[64, 1000], "
          "[64, 1000], []], input_op_ids = [(4,0), (2,0)]",
          "autograd::engine::evaluate_function: MmBackward0, op_id = 6",
          "MmBackward0, seq = 1, op_id = 7, sizes = [[64, 1000]], "
          "input_op_ids = []",
          "aten::mm, op_id = 8, sizes = [[1000, 64], [64, 512]], "
          "input_op_ids = [(5,0), (0,0)]"),
    "b": ("aten::mm, seq = 1, sizes = [[64, 512], [512, 1000]]",
          "aten::relu, seq = 2, sizes = [[64, 1000]]", None,
          "ReluBackward, seq = 2, sizes = [[64, 1000]]",
          "aten::threshold_backward, seq = 0, sizes = [[64, 1000], "
          "[64, 1000], []]", None,
          "MmBackward, seq = 1, sizes = [[64, 1000]]",
          "aten::mm, seq = 0, sizes = [[1000, 64], [64, 512]]"),
    "c": ("mm, seq=1", "relu, seq=2", None, "ReluBackward, stashed seq=2",
          "threshold_backward, seq=0", None, "MmBackward, stashed seq=1",
          "mm, seq=0"),
}
STYLES["d"] = (None, None) + STYLES["a"][2:]
for name, texts in STYLES.items():
    fwd_mm, fwd_relu, ev_relu, relu_b, thr, ev_mm, mm_b, mm_in = texts
    db = nsys_db.export(sys.argv[1] + "/" + name + ".sqlite",
                        ['cudaLaunchKernel_v7000', 'ampere_sgemm_128x64_nn',
                         'vectorized_elementwise_kernel'], 'python')
    db.execute("CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, "
               "eventType INTEGER, globalTid INTEGER, text TEXT)")
    corr = [0]

    def rng(t0, t1, tid, text):
        if text is not None:
            db.execute("INSERT INTO NVTX_EVENTS VALUES (?, ?, 59, ?, ?)",
                       (t0, t1, tid, text))

    def launch(t, tid, kname, dur):
        corr[0] += 1
        db.execute(nsys_db.RUNTIME, (t, t + 10000, tid, corr[0], 1))
        nsys_db.kernel(db, t + 20000, t + 20000 + dur, corr[0], kname)

    rng(1 * M, 2 * M, MAIN, fwd_mm)
    launch(1 * M + 1000, MAIN, 2, 2 * M)
    rng(4 * M, 5 * M, MAIN, fwd_relu)
    launch(4 * M + 1000, MAIN, 3, M // 2)
    rng(6 * M, 8 * M, ENG, ev_relu)
    rng(6 * M + 100, 8 * M - 100, ENG, relu_b)
    rng(6 * M + 200, 7 * M, ENG, thr)
    launch(6 * M + 300, ENG, 3, M // 2)
    rng(9 * M, 12 * M, ENG, ev_mm)
    rng(9 * M + 100, 12 * M - 100, ENG, mm_b)
    rng(9 * M + 200, 10 * M, ENG, mm_in)
    launch(9 * M + 300, ENG, 2, 4 * M)
    db.commit()
PY
for x in a b c d; do
    "$PR_BIN" -q --input "$T_DIR/$x.sqlite" --json "$T_DIR/$x.json" \
        2> "$T_DIR/$x.err" || sed 's/^/# /' "$T_DIR/$x.err"
done
for x in a b c; do
    check "$x: both layers pair with their backward, no note" \
        python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))['runs'][0]['layer_view']
assert v['layers'] == 2 and v['rows'] == 2, v
assert v['backward_roots'] == 2 and v['backward_unpaired'] == 0, v
assert v['forward_device_us'] == 2500, v
assert v['backward_device_us'] == 4500, v
assert v['note'] is None, v
" "$T_DIR/$x.json"
done
check "a (PyTorch 2.x): the rows name the node and sum forward and backward" \
    python3 -c "
import json, sys
rows = {r['name']: r for r in json.load(open(sys.argv[1]))['runs'][0]['layers']}
mm, relu = rows['aten::mm'], rows['aten::relu']
assert mm['backward'] == 'MmBackward0', mm
assert mm['input_shapes'] == '[[64, 512], [512, 1000]]', mm
assert (mm['forward_device_us'], mm['backward_device_us']) == (2000, 4000), mm
assert mm['calls'] == 1 and mm['backward_calls'] == 1, mm
assert relu['backward'] == 'ReluBackward0', relu
assert (relu['forward_device_us'], relu['backward_device_us']) == (500, 500), relu
" "$T_DIR/a.json"
check "b (PyTorch 1.1-1.10): MmBackward, no digit; the inner seq 0 is no layer" \
    python3 -c "
import json, sys
rows = {r['name']: r for r in json.load(open(sys.argv[1]))['runs'][0]['layers']}
assert sorted(rows) == ['aten::mm', 'aten::relu'], rows
assert rows['aten::mm']['backward'] == 'MmBackward', rows
assert rows['aten::relu']['backward'] == 'ReluBackward', rows
" "$T_DIR/b.json"
check "c (PyTorch 0.4-1.0): ', stashed seq=' pairs with ', seq='" \
    python3 -c "
import json, sys
rows = {r['name']: r for r in json.load(open(sys.argv[1]))['runs'][0]['layers']}
assert sorted(rows) == ['mm', 'relu'], rows
assert rows['mm']['backward'] == 'MmBackward', rows
assert rows['mm']['backward_device_us'] == 4000, rows
" "$T_DIR/c.json"
check "d: backward without its forward ranges: the capture range, in nsys's words" \
    python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))['runs'][0]['layer_view']
assert v['layers'] == 0 and v['backward_roots'] == 2, v
n = v['note']
assert n.startswith('The capture has autograd backward ranges but not the forward operators\' emit_nvtx ranges'), n
assert 'nsys profile --capture-range=cudaProfilerApi, with torch.cuda.profiler.start()/stop() around it' in n, n
assert 'record whole steps' not in n, n
" "$T_DIR/d.json"
echo "1..$T_N"
