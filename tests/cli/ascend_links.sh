#!/bin/sh
# ascend_links.sh - communication_matrix.json of torch_npu folders (2025
# "-total" layout and 2023 per-operation layout) gives each run's links
# (group, source and destination rank, transport, bytes, time, bandwidth)
# and link types, and the job's link groups; computed again here from the
# file itself.  Traces from ../shared/traces/torch_npu.
. "$PR_SRCDIR/tests/lib.sh"

D=${PR_SHARED:-}/traces/torch_npu
if ! have_shared || [ ! -d "$D/text_level1" ] || ! command -v python3 >/dev/null 2>&1; then
    skip "Ascend link matrix" "no $D or no python3"
    echo "1..$T_N"
    exit 0
fi

for job in text_level1 old2023; do
    "$PR_BIN" --input "$D/$job" --json "$T_DIR/$job.json" 2> "$T_DIR/$job.err"
    check "$job: exit 0" [ $? -eq 0 ]
    check "$job: communication_matrix.json is read, not skipped" \
        sh -c "! grep -q 'communication_matrix.json' '$T_DIR/$job.err'"
    check "$job: links and link types as the file says" python3 - "$D/$job" \
        "$T_DIR/$job.json" <<'PY'
import glob, json, os, sys
from collections import defaultdict

def links_of(path):
    """(group, src, dst, transport) -> [bytes, ns] summed over steps."""
    out = defaultdict(lambda: [0, 0])
    for step in json.load(open(path)).values():
        for kind in ('p2p', 'collective'):
            ops = step.get(kind, {})
            totals = any('-total@' in k for k in ops)
            for name, links in ops.items():
                if name == 'Total Op Info' or (totals and '-total@' not in name):
                    continue
                group = name.split('@', 1)[1] if '@' in name else None
                for key, l in links.items():
                    s, d = key.split('-')
                    v = out[(group, int(s), int(d), l['Transport Type'])]
                    v[0] += round(l['Transit Size(MB)'] * 1e6)
                    v[1] += round(l['Transit Time(ms)'] * 1e6)
    return out

summary = json.load(open(sys.argv[2]))
runs = {r['worker']: r for r in summary['runs']}
job = defaultdict(lambda: [0, 0])
bad = []
for info in sorted(glob.glob(sys.argv[1] + '/*/profiler_info_*.json')):
    folder = os.path.dirname(info)
    rank = json.load(open(info))['rank_id']
    want = links_of(folder + '/ASCEND_PROFILER_OUTPUT/communication_matrix.json')
    comm = runs['rank%s' % rank]['communication']
    got = {(l['group'], l['src_rank'], l['dst_rank'], l['transport']):
           (l['bytes'], l['time_us'], l['bandwidth_gbps']) for l in comm['links']}
    if set(got) != set(want) or len(got) != len(comm['links']):
        bad.append(('keys', rank, sorted(set(got) ^ set(want))[:4]))
    for k, (b, ns) in want.items():
        job[k][0] += b; job[k][1] += ns
        g = got.get(k)
        if g is None or g[0] != b or abs(g[1] * 1000 - ns) > 1 or \
           abs(g[2] - b / ns) > 1e-9 * max(1, b / ns):
            bad.append((rank, k, g, b, ns))
    types = defaultdict(lambda: [0, 0, 0])
    for (_, _, _, t), (b, ns) in want.items():
        types[t][0] += 1; types[t][1] += b; types[t][2] += ns
    gt = [(t['transport'], t['links'], t['bytes']) for t in comm['link_types']]
    wt = sorted(((t, v[0], v[1]) for t, v in types.items()), key=lambda x: (-x[2], x[0]))
    if gt != wt:
        bad.append(('types', rank, gt, wt))
# the job: every run's links, group by group, largest group first
groups = defaultdict(dict)
for (g, s, d, t), v in job.items():
    groups[g][(s, d, t)] = v
dg = summary['distributed']['link_groups']
want_order = sorted(groups, key=lambda g: (-sum(v[0] for v in groups[g].values()), g or ''))
if [g['group'] for g in dg] != want_order:
    bad.append(('group order', [g['group'] for g in dg], want_order))
for g in dg:
    w = groups[g['group']]
    ranks = {s for s, _, _ in w} | {d for _, d, _ in w}
    got = {(l['src_rank'], l['dst_rank'], l['transport']): l['bytes'] for l in g['links']}
    if g['ranks'] != len(ranks) or got != {k: v[0] for k, v in w.items()} or \
       g['bytes'] != sum(v[0] for v in w.values()):
        bad.append(('group', g['group'], g['ranks'], len(ranks)))
print(len(job), 'links;', bad[:5])
sys.exit(1 if bad or not job else 0)
PY
done

# the report draws the group's grid: each cell's tooltip has the link's
# bandwidth as the file gives its size and time
"$PR_BIN" --quiet --input "$D/text_level1" --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf"
check "report: exit 0" [ $? -eq 0 ]
check "HTML: the link grid, with the file's bandwidths" python3 - "$D/text_level1" \
    "$T_DIR/r.html" <<'PY'
import glob, json, re, sys
html = open(sys.argv[2], encoding='utf-8').read()
bad, n = [], 0
for path in glob.glob(sys.argv[1] + '/*/ASCEND_PROFILER_OUTPUT/communication_matrix.json'):
    for step in json.load(open(path)).values():
        for name, links in step['collective'].items():
            if '-total@' not in name:
                continue
            if 'Link bandwidth, group %s' % name.split('@')[1] not in html:
                bad.append(name)
            for key, l in links.items():
                s, d = key.split('-')
                gbps = round(l['Transit Size(MB)'] * 1e6) / round(l['Transit Time(ms)'] * 1e6)
                want = 'rank %s to %s, %s: ' % (s, d, l['Transport Type'])
                m = re.search(re.escape(want) + r'[^<]*, ([0-9.]+) GB/s', html)
                n += 1
                if m is None or m.group(1) != '%.1f' % gbps:
                    bad.append((key, m and m.group(1), gbps))
print(n, 'cells;', bad[:4])
sys.exit(1 if bad or n == 0 else 0)
PY
if command -v pdftotext >/dev/null 2>&1; then
    pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
    check "PDF: the link grid and the transports" sh -c \
        "grep -q 'Link bandwidth, group' '$T_DIR/r.txt' && grep -q 'Traffic by transport' '$T_DIR/r.txt'"
else
    skip "PDF: the link grid" "no pdftotext"
fi

# a broken matrix stops the run with the file's name, and no output
B=$T_DIR/broken/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT
mkdir -p "$B"
cp "$D/old2023/test_rank_0/ASCEND_PROFILER_OUTPUT/kernel_details.csv" "$B/"
printf '{"step2": {"collective": {"x@1": {"0-1": ' > "$B/communication_matrix.json"
"$PR_BIN" --input "$T_DIR/broken" --json "$T_DIR/broken.json" 2> "$T_DIR/broken.err"
check "broken matrix: exit 2" [ $? -eq 2 ]
check "broken matrix: the message names the file" \
    grep -q "communication_matrix.json: not a JSON object" "$T_DIR/broken.err"
check "broken matrix: no summary written" [ ! -e "$T_DIR/broken.json" ]

echo "1..$T_N"
