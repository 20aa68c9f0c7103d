#!/bin/sh
# ascend_folder.sh - a torch_npu rank folder that holds only the SQLite
# export (export_type=db) is one run: profiler_info_{rank}.json is part of
# it, not a stray file warned about as "not a profiler trace", and the
# database's own run is what the report holds.  Traces from
# ../shared/traces/torch_npu/db_level1.
. "$PR_SRCDIR/tests/lib.sh"

S=${PR_SHARED:-}/traces/torch_npu/db_level1
if ! have_shared || [ ! -d "$S" ] || ! command -v python3 >/dev/null 2>&1; then
    skip "Ascend database folders" "no $S or no python3"
    echo "1..$T_N"
    exit 0
fi

for in in "$S" "$S/rank1_ascend_pt"; do
    "$PR_BIN" --input "$in" --json "$T_DIR/s.json" 2> "$T_DIR/err"
    check "${in#"$S"}: exit 0" [ $? -eq 0 ]
    check "${in#"$S"}: no warning about profiler_info or a non-trace" sh -c \
        "! grep -E 'profiler_info|not a profiler trace' '$T_DIR/err'"
    check "${in#"$S"}: the ranks of the rank folders, read from their databases" \
        python3 - "$in" "$T_DIR/s.json" <<'PY'
import glob, json, os, sys
s = json.load(open(sys.argv[2]))
folders = sorted(glob.glob(os.path.join(sys.argv[1], '*_ascend_pt'))) or [sys.argv[1]]
want = []
for f in folders:
    info = glob.glob(os.path.join(f, 'profiler_info_*.json'))
    want.append('rank%s' % json.load(open(info[0]))['rank_id'])
got = [r['worker'] for r in s['runs']]
fmts = {i['format'] for i in s['inputs']}
print(want, got, fmts)
sys.exit(0 if got == want and fmts == {'ascend_db'} else 1)
PY
done

echo "1..$T_N"
