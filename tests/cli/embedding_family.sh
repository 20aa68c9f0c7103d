#!/bin/sh
# embedding_family.sh - the second review's finding 16 (issue #28):
# embedding lookups and their gradients are the kernel table's family
# "embedding", not "other": FBGEMM's table-batched embedding kernels
# (split_embedding_*, 8-20% of kernel time on the HTA DLRM samples) and
# MindSpore/CANN GatherV2 / UnsortedSegmentSum (69% of ascend_run1's task
# time).  Every kernel whose name says so is in the family, none of them
# on tensor cores or the Cube, and by_family's embedding share is the
# sum of those kernels' time (summed here by Python from the kernels).
# Issue #30 finding 3: FBGEMM's permutes of the tables' inputs and
# outputs (permute_pooled_embs, recat_copy_async, permute_2D /
# permute_indices_weights) are the family too; cub's radix sorts, which
# carry no FBGEMM name, are not; a GatherV2 is one by its 2-D table
# (ascend_review4.sh checks the shapes).
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v python3 >/dev/null 2>&1; then
    skip "the embedding family on the shared samples" "no $PR_SHARED/traces or no python3"
    echo "1..$T_N"
    exit 0
fi

cat > "$T_DIR/emb.py" <<'PY'
import json, re, sys

want = re.compile(r'split_embedding|/GatherV2-op|/UnsortedSegmentSum-op|'
                  r'permute_pooled_embs|recat_copy_async|fbgemm_gpu::permute_')
never = re.compile(r'DeviceRadixSort')
r = json.load(open(sys.argv[1]))['runs'][int(sys.argv[2])]
ks = r['kernels']
fail = []
hit = [k for k in ks if want.search(k['name'])]
if not hit:
    fail.append('no embedding kernel in the sample')
for k in hit:
    if k.get('family') != 'embedding':
        fail.append('%s: family %s' % (k['name'][:80], k.get('family')))
    if k.get('tensor_cores_used'):
        fail.append('%s: on tensor cores' % k['name'][:80])
for k in ks:
    if never.search(k['name']) and k.get('family') == 'embedding':
        fail.append('%s: a generic sort in the family' % k['name'][:80])
emb = sum(k['total_us'] for k in ks if k.get('family') == 'embedding')
tot = sum(k['total_us'] for k in ks)
fam = {f['family']: f for f in r['kernel_classes']['by_family']}
got = fam.get('embedding', {}).get('time_pct')
if got is None or abs(got - 100.0 * emb / tot) > 0.1:
    fail.append('by_family embedding %s%%, kernels say %.2f%%' % (got, 100.0 * emb / tot))
print('\n'.join(fail) if fail else 'ok')
PY

for c in "hta/trace_diff/control/control.json.gz 0" \
         "mindspore/ascend_run1 0"; do
    set -- $c
    if "$PR_BIN" -q -i "$PR_SHARED/traces/$1" --json "$T_DIR/s.json" 2>"$T_DIR/err"; then
        res=$(python3 "$T_DIR/emb.py" "$T_DIR/s.json" "$2")
        [ "$res" = ok ] || echo "# $res"
        check "$1: embedding kernels are the embedding family, its share their time" [ "$res" = ok ]
    else
        sed 's/^/# /' "$T_DIR/err"
        check "$1: embedding kernels are the embedding family, its share their time" false
    fi
done
echo "1..$T_N"
