#!/bin/sh
# ascend_queue_stream.sh - review 28a #14: the Kernel launches table's
# queue lengths leave out tasks that have no stream id.  torch_npu's
# kernel_details.csv gives its hcom_allReduce rows Stream ID "N/A", which
# the reader keeps as -1; npu_text0/1/2 showed a row "Device 0 | Stream -1
# | 4 | 4 | 3 | 2.76" of those 4 tasks, a sentinel read as a stream.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v python3 > /dev/null 2>&1; then
    skip "queue lengths without stream -1" "no $PR_SHARED/traces or no python3"
    echo "1..$T_N"
    exit 0
fi
for s in text_level0 text_level2; do
    if shared_summary "$s" "torch_npu/$s"; then
        check "$s: no queue_length row of stream -1, the real streams kept" \
            python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    q = r['launches']['queue_length']
    assert q and all(x['stream'] >= 0 for x in q), q
    assert any(x['stream'] == 2 and x['kernels'] > 100 for x in q), q
" "$T_DIR/$s.json"
    else
        skip "$s queue lengths" "no torch_npu/$s"
    fi
done
echo "1..$T_N"
