#!/bin/sh
# gen_trace.sh - the benchmark trace generator (bench/gen_trace, issue #2):
# same arguments give the same bytes, the output is valid JSON with the
# events linked as in real traces, --steps/--ranks/--size-mb are obeyed, and
# examples/ is what examples/README.md says it is.  JSON checks need
# python3 and skip without it.
. "$PR_SRCDIR/tests/lib.sh"

G=$PR_GEN
done_tests() { echo "1..$T_N"; exit 0; }
have_py() { command -v python3 > /dev/null 2>&1; }
not() { ! "$@"; }

if [ ! -x "$G" ]; then
    skip "generator" "$G not built"
    done_tests
fi

# --- determinism
"$G" --steps 2 --memory --stack -o "$T_DIR/a.json"
check "writes a file" [ -s "$T_DIR/a.json" ]
"$G" --steps 2 --memory --stack -o "$T_DIR/b.json"
check "same arguments, same bytes" cmp -s "$T_DIR/a.json" "$T_DIR/b.json"
"$G" --steps 2 --memory --stack > "$T_DIR/c.json"
check "stdout gets the same bytes" cmp -s "$T_DIR/a.json" "$T_DIR/c.json"
"$G" --steps 2 --memory --stack --seed 7 -o "$T_DIR/d.json"
check "another seed, other bytes" not cmp -s "$T_DIR/a.json" "$T_DIR/d.json"
"$G" --steps 2 --gzip -o "$T_DIR/a.json.gz"
"$G" --steps 2 --gzip -o "$T_DIR/b.json.gz"
check "gzip output is deterministic" cmp -s "$T_DIR/a.json.gz" "$T_DIR/b.json.gz"
check "gzip output is gzip" gzip -t "$T_DIR/a.json.gz"

# --- --steps
n=$(grep -c '"name": "ProfilerStep#' "$T_DIR/a.json")
check "--steps 2 gives 2 ProfilerStep annotations (got $n)" [ "$n" -eq 2 ]
"$G" --steps 5 --format 2021 -o "$T_DIR/old.json"
n=$(grep -c '"name": "ProfilerStep#' "$T_DIR/old.json")
check "--steps 5 --format 2021 gives 5 steps (got $n)" [ "$n" -eq 5 ]
check "--format 2021 uses the old categories" grep -q '"cat": "Operator"' \
    "$T_DIR/old.json"
check "--format 2021 has no cpu_op" not grep -q '"cat": "cpu_op"' \
    "$T_DIR/old.json"

# --- --size-mb
"$G" --size-mb 1 -o "$T_DIR/size.json"
sz=$(wc -c < "$T_DIR/size.json" | tr -d ' ')
in_mb_range() { [ "$1" -ge 1000000 ] && [ "$1" -lt 2000000 ]; }
check "--size-mb 1 gives 1 to 2 MB (got $sz bytes)" in_mb_range "$sz"

# --- --ranks
"$G" --ranks 3 --steps 2 --blocks 2 --attn 1 --gzip -o "$T_DIR/run"
n=$(ls "$T_DIR/run" | grep -cE '^rank[0-2]\.[0-9]+\.pt\.trace\.json\.gz$')
check "--ranks 3 writes 3 rank files (got $n)" [ "$n" -eq 3 ]
for r in 0 1 2; do
    f=$(ls "$T_DIR/run"/rank$r.*.pt.trace.json.gz 2> /dev/null | head -n 1)
    gzip -dc "$f" > "$T_DIR/rank$r.json" 2> /dev/null
    check "rank $r: distributedInfo names rank $r of 3" grep -q \
        "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": $r, \"world_size\": 3" \
        "$T_DIR/rank$r.json"
    n=$(grep -c '"name": "ProfilerStep#' "$T_DIR/rank$r.json")
    check "rank $r: 2 steps (got $n)" [ "$n" -eq 2 ]
    check "rank $r: NCCL all-reduce kernels" grep -q \
        '"name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL' "$T_DIR/rank$r.json"
done
check "ranks differ in timing" not cmp -s "$T_DIR/rank0.json" "$T_DIR/rank1.json"

# --- --python: python_function frames around the forward ops
"$G" --steps 2 --python -o "$T_DIR/py.json"
"$G" --steps 2 --python -o "$T_DIR/py2.json"
check "--python: same arguments, same bytes" cmp -s "$T_DIR/py.json" "$T_DIR/py2.json"
n=$(grep -c '"cat": "python_function"' "$T_DIR/py.json")
check "--python writes python_function events (got $n)" [ "$n" -gt 100 ]
n=$(grep -c '"cat": "python_function"' "$T_DIR/a.json")
check "without --python there are none (got $n)" [ "$n" -eq 0 ]
n=$(grep -c '"name": "train.py(88): train_step"' "$T_DIR/py.json")
check "--python: one train_step frame per step (got $n)" [ "$n" -eq 2 ]
check "--python: nn.Module frames carry a Python module id" grep -q \
    '"Python module id": 1, "Python id": [0-9]*, "Python parent id": [0-9]' \
    "$T_DIR/py.json"
check "--python: a root frame has a null parent" grep -q \
    '"Python parent id": null' "$T_DIR/py.json"
check "--python writes with_stack" grep -q '"with_stack": 1' "$T_DIR/py.json"

# --- usage errors
"$G" --steps 0 > /dev/null 2>&1
check "--steps 0 is a usage error" [ $? -eq 1 ]
"$G" --ranks 2 > /dev/null 2>&1
check "--ranks 2 without -o DIR is a usage error" [ $? -eq 1 ]
"$G" --steps 2 --size-mb 1 > /dev/null 2>&1
check "--steps with --size-mb is a usage error" [ $? -eq 1 ]
"$G" --format 2019 > /dev/null 2>&1
check "an unknown --format is a usage error" [ $? -eq 1 ]
"$G" --python --format 2021 > /dev/null 2>&1
check "--python with --format 2021 is a usage error" [ $? -eq 1 ]

# --- JSON validity and linking (python3)
if ! have_py; then
    skip "JSON checks" "python3 not found"
    done_tests
fi
cat > "$T_DIR/check.py" <<'PY'
# Valid JSON, and linked as profreport expects: CPU events nest per thread,
# every GPU activity has its runtime (same correlation, earlier ts), and
# every flow id has one start and one end.  Prints "ok" or the first problem.
import collections, decimal, gzip, json, sys
path = sys.argv[1]
f = gzip.open(path) if path.endswith('.gz') else open(path)
doc = json.load(f, parse_float=decimal.Decimal)
ev = doc['traceEvents']
ns = lambda x: int(decimal.Decimal(x) * 1000)
cpu = collections.defaultdict(list)
rt = {}
for e in ev:
    if e['ph'] == 'X' and e['cat'] in ('cpu_op', 'user_annotation',
            'cuda_runtime', 'Operator', 'Runtime', 'python_function'):
        cpu[e['tid']].append(e)
    if e['ph'] == 'X' and e['cat'] in ('cuda_runtime', 'Runtime'):
        rt[e['args']['correlation']] = e
for tid, lst in cpu.items():
    lst.sort(key=lambda e: (ns(e['ts']), -ns(e['dur'])))
    stack = []
    for e in lst:
        s, t = ns(e['ts']), ns(e['ts']) + ns(e['dur'])
        while stack and s >= stack[-1]:
            stack.pop()
        if stack and t > stack[-1]:
            sys.exit('partial overlap at %s' % e['name'])
        stack.append(t)
for e in ev:
    if e['ph'] == 'X' and e['cat'] in ('kernel', 'gpu_memcpy', 'gpu_memset',
            'Kernel', 'Memcpy', 'Memset'):
        r = rt.get(e['args']['correlation'])
        if r is None or ns(e['ts']) < ns(r['ts']):
            sys.exit('no earlier runtime for %s' % e['name'])
flows = collections.Counter((e['cat'], e['id'], e['ph'])
                            for e in ev if e['ph'] in 'sf')
ids = collections.Counter((c, i) for (c, i, p) in flows)
if any(n != 2 for n in ids.values()) or any(n != 1 for n in flows.values()):
    sys.exit('unpaired flow')
# python frames: unique ids, each parent a frame around it on its thread
py = [e for e in ev if e.get('cat') == 'python_function']
by_id = {e['args']['Python id']: e for e in py}
if len(by_id) != len(py):
    sys.exit('repeated Python id')
for e in py:
    p = by_id.get(e['args']['Python parent id'])
    if e['args']['Python parent id'] is not None and (p is None or
            p['tid'] != e['tid'] or ns(p['ts']) > ns(e['ts']) or
            ns(p['ts']) + ns(p['dur']) < ns(e['ts']) + ns(e['dur'])):
        sys.exit('Python parent id does not hold %s' % e['name'])
print('ok')
PY
for f in a.json old.json a.json.gz run/rank1.*.pt.trace.json.gz py.json; do
    for p in "$T_DIR"/$f; do
        out=$(python3 "$T_DIR/check.py" "$p" 2>&1 | tail -n 1)
        check "$f: valid JSON, nested and linked ($out)" [ "$out" = ok ]
    done
done

# --- examples/ are reproducible from the commands in examples/README.md
# (compared uncompressed: another zlib may compress differently).
ex=$PR_SRCDIR/examples
same_gz() { gzip -dc "$1" > "$T_DIR/x1" && gzip -dc "$2" > "$T_DIR/x2" &&
    cmp -s "$T_DIR/x1" "$T_DIR/x2"; }
"$G" --steps 3 --memory --stack --gzip -o "$T_DIR/resnet_like.pt.trace.json.gz"
check "examples/resnet_like is reproducible" \
    same_gz "$ex/resnet_like.pt.trace.json.gz" "$T_DIR/resnet_like.pt.trace.json.gz"
"$G" --ranks 2 --steps 2 --blocks 4 --attn 1 --gzip -o "$T_DIR/ddp_run"
for r in 0 1; do
    a=$(ls "$ex"/ddp_run/rank$r.*.pt.trace.json.gz | head -n 1)
    b=$T_DIR/ddp_run/$(basename "$a")
    check "examples/ddp_run rank $r is reproducible" same_gz "$a" "$b"
done
"$G" --format 2021 --steps 2 --blocks 2 --attn 1 --memory --gzip \
    -o "$T_DIR/legacy.json.gz"
check "examples/legacy_2021 is reproducible" \
    same_gz "$ex/legacy_2021.pt.trace.json.gz" "$T_DIR/legacy.json.gz"

done_tests
