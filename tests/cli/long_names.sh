#!/bin/sh
# long_names.sh - names of hostile length (issue #35): a Kineto trace
# whose kernel name is 1 MB and whose operator name is 200 KB gives a
# report, each name kept as its first 64 KiB and the count of bytes cut
# ("... [N bytes cut]"), counted in data_quality.long_text_cut and said in
# the diagnostics; the JSON and HTML stay small (each name was written
# whole into every table that shows it: a 100 MB CSV name gave a 1.2 GB
# HTML).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "long names" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/t.json" <<'PY'
import json, sys
k = "k" + "<" * (1 << 20)
o = "aten::" + "o" * 200000
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
      {"ph": "X", "cat": "cpu_op", "name": o, "pid": 1, "tid": 1,
       "ts": 10, "dur": 100, "args": {"External id": 7}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
       "pid": 1, "tid": 1, "ts": 20, "dur": 5,
       "args": {"correlation": 9, "External id": 7}},
      {"ph": "X", "cat": "kernel", "name": k, "pid": 0, "tid": 7,
       "ts": 30, "dur": 50,
       "args": {"device": 0, "stream": 7, "correlation": 9,
                "External id": 7}}]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/t.json" --json "$T_DIR/o.json" \
    --html "$T_DIR/o.html" 2> "$T_DIR/err"
check "a trace with a 1 MB kernel name is reported (exit $?)" \
    [ -s "$T_DIR/o.json" ]
check "each long name kept as its first 64 KiB and the bytes cut" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['data_quality']['long_text_cut'] == 2, r['data_quality']
k = r['kernels'][0]['name']
assert k.startswith('k<<<') and len(k.encode()) <= 65536, len(k)
assert k.endswith(' [%d bytes cut]' % (1 + (1 << 20) - k.index('\u2026'))), k[-40:]
ops = [o['name'] for o in r['operators'] if o['name'].startswith('aten::ooo')]
assert ops and len(ops[0].encode()) <= 65536, ops
d = [x for x in r['diagnostics'] if x['kind'] == 'long_text_cut']
assert d and d[0]['count'] == 2 and '64 KiB' in d[0]['text'], d
" "$T_DIR/o.json"
check "the JSON and HTML stay small (under 2 MB each)" python3 -c "
import os, sys
for p in sys.argv[1:]:
    assert os.path.getsize(p) < 2 << 20, (p, os.path.getsize(p))
" "$T_DIR/o.json" "$T_DIR/o.html"
echo "1..$T_N"
