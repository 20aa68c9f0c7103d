#!/bin/sh
# device_copies.sh - the second review's finding 16 (issue #31): HTA's
# trace_diff test moves 4.65 GB a step in device-to-device copies, 15 ms
# of its critical path, and read "No finding".  The device_copies finding
# fires there with the copies a step and the bytes a step that the trace's
# own "Memcpy DtoD" events give (counted here by Python from the .json.gz),
# and (issue #31) the replay's gain, the CUDA-graph wrapper's copies gone,
# no more than the path's copies and host work; the control run of the
# same model, whose DtoD copies are a smaller part of its path, gets none.
. "$PR_SRCDIR/tests/lib.sh"

T=$PR_SHARED/traces/hta/trace_diff
if ! have_shared || ! command -v python3 >/dev/null 2>&1 || [ ! -d "$T" ]; then
    skip "device-to-device copies on the critical path" "no $T or no python3"
    echo "1..$T_N"
    exit 0
fi

cat > "$T_DIR/dc.py" <<'PY'
import gzip, json, re, sys

ev = json.load(gzip.open(sys.argv[1]))['traceEvents']
c = [e for e in ev if e.get('ph') == 'X' and 'DtoD' in e.get('name', '')]
steps = len([e for e in ev if e.get('ph') == 'X' and
             e.get('name', '').startswith('ProfilerStep')])
n, gb = len(c) / steps, sum(e['args'].get('bytes', 0) for e in c) / steps / 1e9
r = json.load(open(sys.argv[2]))['runs'][0]
d = {x['id']: x for x in r['recommendations']}.get('device_copies')
fail = []
if sys.argv[3] == 'fires':
    if d is None:
        fail.append('no device_copies finding: %s' % [x['id'] for x in r['recommendations']])
    else:
        m = re.search(r'copies on the critical path: (\d+) a step move ([\d.]+) GB', d['text'])
        if not m or int(m.group(1)) != round(n) or abs(float(m.group(2)) - gb) > 0.006:
            fail.append('text %r; the trace: %.1f copies, %.3f GB a step' % (d['text'][:120], n, gb))
        # issue #31: the CUDA-graph wrapper's copies, replayed gone (as
        # CUDA-graph trees): no more than the copies and host work on
        # the path
        k = r['critical_path']['by_kind_us']
        if not (d.get('what_if') == 'device_copies' and
                0 < d['bound_us'] < k['copy'] + k['host_op'] + k['launch'] and
                (d['gain_us'] is None or 0 < d['gain_us'] < d['bound_us']) and
                (d.get('gain_note') or '').startswith('replayed: ')):
            fail.append('gain %s, bound %s, note %r' % (d.get('gain_us'), d.get('bound_us'), d.get('gain_note')))
elif d is not None:
    fail.append('fires: %r' % d['text'][:200])
print('\n'.join(fail) if fail else 'ok')
PY

for c in "test fires" "control quiet"; do
    set -- $c
    if "$PR_BIN" -q -i "$T/$1/$1.json.gz" --json "$T_DIR/s.json" 2>"$T_DIR/err"; then
        res=$(python3 "$T_DIR/dc.py" "$T/$1/$1.json.gz" "$T_DIR/s.json" "$2")
        [ "$res" = ok ] || echo "# $res"
        check "trace_diff $1: device_copies $2" [ "$res" = ok ]
    else
        sed 's/^/# /' "$T_DIR/err"
        check "trace_diff $1: device_copies $2" false
    fi
done
echo "1..$T_N"
