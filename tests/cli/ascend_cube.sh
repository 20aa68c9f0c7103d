#!/bin/sh
# ascend_cube.sh - on an Ascend run the tensor-core figures are the Cube's
# (issue #30): a task counts when it did its work on the AI Core's Cube,
# not by its kernel name nor its core's name alone.  Its PMU counters
# decide where kernel_details.csv has them (the Cube's MAC ratio, its
# L0A/L0B traffic: a 910A runs every task on AI_CORE, Cast and ZerosLike
# too); without them a MIX_AIC task, or an AI_CORE task where vector
# cores exist, is the Cube's.  The share is the Cube rows' time over the
# compute rows' time, HCCL left out; computed again here from the CSV; the
# reports call it the Cube share.  The eligible time is the rows of CANN's
# Cube operator types (MatMul, Conv, FlashAttention) or the Cube's own.
# Traces from ../shared/traces/torch_npu.  Without the column
# (profiler_level0) the share is unknown, not 0 %.
. "$PR_SRCDIR/tests/lib.sh"

D=${PR_SHARED:-}/traces/torch_npu
if ! have_shared || [ ! -d "$D/text_level1" ] || ! command -v python3 >/dev/null 2>&1; then
    skip "Ascend Cube share" "no $D or no python3"
    echo "1..$T_N"
    exit 0
fi

for r in text_level0/rank0_ascend_pt text_level1/rank0_ascend_pt \
    text_level2/rank0_ascend_pt old2023/test_rank_0; do
    "$PR_BIN" --quiet --input "$D/$r" --json "$T_DIR/s.json"
    check "$r: exit 0" [ $? -eq 0 ]
    check "$r: Cube share and kernels as kernel_details.csv says" python3 - \
        "$D/$r/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$T_DIR/s.json" <<'PY'
import csv, json, sys
from collections import defaultdict
from decimal import Decimal
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
PMU = ('aic_mac_ratio', 'aic_mac_time(us)', 'aic_mac_fp16_ratio', 'aic_mac_int8_ratio',
       'aic_cube_fops', 'aic_l0a_read_bw(GB/s)', 'aic_l0b_read_bw(GB/s)',
       'aic_l0c_read_bw_cube(GB/s)', 'aic_l0c_write_bw_cube(GB/s)')
TYPES = ('MatMul', 'BatchMatMul', 'Conv2D', 'Conv3D', 'FlashAttentionScore')
split = any(r['Accelerator Core'] in ('AI_VECTOR_CORE', 'MIX_AIV') for r in rows)
def on_cube(r):
    core = r['Accelerator Core']
    if core not in ('AI_CORE', 'MIX_AIC'):
        return False
    v = []
    for c in PMU:
        try:
            v.append(float(r.get(c) or 'x'))
        except ValueError:
            pass
    if v:
        return any(x > 0 for x in v)
    return core == 'MIX_AIC' or split or r['Type'].startswith(TYPES)
comp = [r for r in rows if r['Accelerator Core'] != 'HCCL']
all_us = sum(Decimal(r['Duration(us)']) for r in comp)
cube_us = sum(Decimal(r['Duration(us)']) for r in comp if on_cube(r))
elig_us = sum(Decimal(r['Duration(us)']) for r in comp
              if on_cube(r) or r['Type'].startswith(TYPES))
by_name = defaultdict(lambda: [Decimal(0), Decimal(0)])
for r in rows:
    by_name[r['Name']][0] += Decimal(r['Duration(us)'])
    if on_cube(r):
        by_name[r['Name']][1] += Decimal(r['Duration(us)'])
run = json.load(open(sys.argv[2]))['runs'][0]
got = run['tensor_cores']['tc_kernel_time_pct']
elig = run['tensor_cores']['eligible_op_time_pct']
if all(r['Accelerator Core'] in ('N/A', 'HCCL') for r in rows):
    # profiler_level0: no unit recorded, so no share rather than 0 %
    print('no units; got', got, run['tensor_cores'].get('note'))
    sys.exit(0 if got is None and 'profiler_level1' in run['tensor_cores']['note'] else 1)
want = float(100 * cube_us / all_us)
want_elig = float(100 * elig_us / all_us)
bad = [k['name'] for k in run['kernels']
       if k['tensor_cores_source'] != 'unit' or
       k['tensor_cores_used'] != (by_name[k['name']][1] * 2 >= by_name[k['name']][0] > 0 and by_name[k['name']][1] > 0)]
print('want %.4f got %s, eligible %.4f got %s; %d cube rows; bad %s'
      % (want, got, want_elig, elig, sum(on_cube(r) for r in rows), bad[:3]))
sys.exit(0 if got is not None and abs(got - want) < 0.01 and not bad
         and abs(elig - want_elig) < 0.01 else 1)
PY
done

# the words: "Cube share" on the overview, never "Tensor-core share"
R=$D/text_level1/rank0_ascend_pt
"$PR_BIN" --quiet --input "$R" --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf"
check "HTML: Cube share, no tensor-core share" sh -c \
    "grep -q 'Cube share' '$T_DIR/r.html' && ! grep -q 'Tensor-core share' '$T_DIR/r.html'"
if command -v pdftotext >/dev/null 2>&1; then
    pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
    check "PDF: Cube share, no tensor-core share" sh -c \
        "grep -q 'Cube share' '$T_DIR/r.txt' && ! grep -q 'Tensor-core share' '$T_DIR/r.txt'"
else
    skip "PDF: Cube share" "no pdftotext"
fi

echo "1..$T_N"
