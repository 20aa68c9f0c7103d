#!/bin/sh
# ascend_modules.sh - torch_npu's with_modules ranges (second review,
# finding 5): trace_view.json keeps each nn.Module's range as a
# python_function event with its "Python module id", and the SQLite export
# keeps it as a PYTORCH_API row of type trace without Python ids.  On
# ../shared/traces/torch_npu/text_level1 and db_level1 (rank 0, recorded
# with with_modules=True) the module view holds every module the export
# names (counted here by Python / sqlite3 from the files), nested as the
# ranges nest (Conv2d_0 inside Sequential_0 inside AlexNet_0), with no
# "no module frames" note; the two exports of one run agree.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v python3 >/dev/null 2>&1; then
    skip "torch_npu module view" "no $PR_SHARED/traces or no python3"
    echo "1..$T_N"
    exit 0
fi
T=$PR_SHARED/traces/torch_npu

"$PR_BIN" -q --input "$T/text_level1/rank0_ascend_pt" --json "$T_DIR/t.json"
check "text export: report written (exit $?)" [ -s "$T_DIR/t.json" ]
"$PR_BIN" -q --input "$T/db_level1/rank0_ascend_pt" --json "$T_DIR/d.json"
check "SQLite export: report written (exit $?)" [ -s "$T_DIR/d.json" ]

cat > "$T_DIR/mod.py" <<'PY'
import json, sys

tv, out = sys.argv[1], sys.argv[2]
ev = json.load(open(tv))
ev = ev if isinstance(ev, list) else ev['traceEvents']
names = sorted(e['name'][len('nn.Module: '):] for e in ev
               if e.get('ph') == 'X' and
               str(e.get('name', '')).startswith('nn.Module: '))
assert len(names) > 10, names
r = json.load(open(out))['runs'][0]
v = r['module_view']
assert v['modules'] == len(names) and v['note'] is None, (v, len(names))
mods = r['modules']
assert sorted(m['name'] for m in mods) == names, mods
depth = {m['name']: m['depth'] for m in mods}
assert depth['AlexNet_0'] < depth['Sequential_0'] < depth['Conv2d_0'], depth
conv = [m for m in mods if m['name'] == 'Conv2d_0'][0]
assert conv['device_self_us'] > 0, conv
PY
tv=$(ls "$T"/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json)
check "text export: every nn.Module range is a module, nested by time" \
    python3 "$T_DIR/mod.py" "$tv" "$T_DIR/t.json"
check "SQLite export: the same modules (the text export's names)" \
    python3 "$T_DIR/mod.py" "$tv" "$T_DIR/d.json"
check "the two exports agree on the module tree" python3 -c "
import json, sys
a, b = (json.load(open(p))['runs'][0]['modules'] for p in sys.argv[1:3])
assert [(m['name'], m['depth']) for m in a] == \
       [(m['name'], m['depth']) for m in b], (a, b)
" "$T_DIR/t.json" "$T_DIR/d.json"
echo "1..$T_N"
