#!/bin/sh
# summary_keys.sh - issue #10 (one summary vocabulary): the summary JSON
# keeps every key of the contract in $PR_SHARED/spec/summary-json.md, and
# every key it adds beyond the contract is documented in
# docs/summary-json.md.  The spec's example tree (JSON with // comments; the
# distributed object is given in comments) is read into key paths such as
# runs[].steps[].breakdown_us.kernel; the summary of the reference sample
# (tb_plugin resnet50, the run the spec quotes) must hold each one, and the
# summary of two ranks (hta trace_filter) each path under distributed.
. "$PR_SRCDIR/tests/lib.sh"

SPEC=$PR_SHARED/spec/summary-json.md
S=$PR_SHARED/traces
if ! command -v python3 > /dev/null 2>&1; then
    skip "summary keys follow the spec" "no python3"
    echo "1..$T_N"
    exit 0
fi
if [ ! -f "$SPEC" ] || ! have_shared; then
    skip "summary keys follow the spec" "no $SPEC or $S"
    echo "1..$T_N"
    exit 0
fi

"$PR_BIN" -q --input "$S/tb_plugin/resnet50_num_workers_0" \
    --json "$T_DIR/one.json" 2> "$T_DIR/err"
check "reference sample: summary written (exit $?)" [ -s "$T_DIR/one.json" ]
"$PR_BIN" -q --input "$S/hta/trace_filter" --json "$T_DIR/two.json" \
    2> "$T_DIR/err"
check "two ranks: summary written (exit $?)" [ -s "$T_DIR/two.json" ]

# keys.py MODE SPEC DOC ONE TWO: MODE "spec" prints the spec's paths that a
# summary lacks; MODE "added" prints the summary's keys that neither the
# spec nor the doc names.  Paths go through every element of an array, and
# a path is held when some element holds it (an empty array holds none).
cat > "$T_DIR/keys.py" <<'PY'
import json, re, sys

mode, spec_md, doc_md, one, two = sys.argv[1:6]

def spec_tree(text):
    block = text.split("```")[1]
    dist = [re.sub(r"//.*", "", l.split("//", 1)[1])
            for l in block.splitlines() if l.strip().startswith("//")]
    while dist and not dist[0].strip().startswith("{"):
        dist.pop(0)  # the prose before the commented object
    body = "\n".join(re.sub(r"//.*", "", l) for l in block.splitlines())
    tree = json.loads(body)
    tree["distributed"] = json.loads("\n".join(dist))
    return tree

def paths(node, at=""):
    if isinstance(node, dict):
        for k, v in node.items():
            p = at + "." + k if at else k
            yield p
            yield from paths(v, p)
    elif isinstance(node, list):
        for v in node:
            yield from paths(v, at + "[]")

def held(node, parts):
    """"yes", "no", or "empty" when only empty arrays lie on the way."""
    if not parts:
        return "yes"
    head, rest = parts[0], parts[1:]
    if head == "[]":
        if not isinstance(node, list):
            return "no"
        got = [held(v, rest) for v in node]
        return "yes" if "yes" in got else "no" if "no" in got else "empty"
    if not isinstance(node, dict) or head not in node:
        return "no"
    return held(node[head], rest)

def split(path):
    return [p for p in re.split(r"\.|(\[\])", path) if p]

spec = spec_tree(open(spec_md).read())
one_t, two_t = json.load(open(one)), json.load(open(two))
want = sorted(set(paths(spec)))
if mode == "spec":
    for p in want:
        t = two_t if p.startswith("distributed") else one_t
        h = held(t, split(p))
        if h == ("empty" if len(sys.argv) > 6 else "no"):
            print(p)
else:
    known = {p.split(".")[-1].replace("[]", "") for p in want}
    doc = open(doc_md).read()
    for t in (one_t, two_t):
        for p in sorted(set(paths(t))):
            k = p.split(".")[-1].replace("[]", "")
            if k not in known and '"%s"' % k not in doc:
                known.add(k)
                print(p)
PY

missing=$(python3 "$T_DIR/keys.py" spec "$SPEC" "$PR_SRCDIR/docs/summary-json.md" \
    "$T_DIR/one.json" "$T_DIR/two.json" 2>&1)
n=$(python3 "$T_DIR/keys.py" spec "$SPEC" /dev/null "$T_DIR/one.json" \
    "$T_DIR/two.json" > /dev/null 2>&1; python3 -c "
import re,json,sys; print(len(re.findall(r'\"[a-z_0-9]+\"\s*:', open('$SPEC').read())))")
check "every key of the spec is in the summaries (${n} keys read; missing: ${missing:-none})" \
    [ -z "$missing" -a "$n" -gt 100 ]

empty=$(python3 "$T_DIR/keys.py" spec "$SPEC" "$PR_SRCDIR/docs/summary-json.md" \
    "$T_DIR/one.json" "$T_DIR/two.json" empty 2>&1 | grep -v '^distributed$' | tr '\n' ' ')
if [ -n "$empty" ]; then
    skip "keys inside arrays that no sample fills" "$empty"
fi

added=$(python3 "$T_DIR/keys.py" added "$SPEC" "$PR_SRCDIR/docs/summary-json.md" \
    "$T_DIR/one.json" "$T_DIR/two.json" 2>&1)
check "every key beyond the spec is in docs/summary-json.md (undocumented: ${added:-none})" \
    [ -z "$added" ]
echo "1..$T_N"
