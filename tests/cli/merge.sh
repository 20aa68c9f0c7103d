#!/bin/sh
# merge.sh - per-rank summaries are the merge unit of a job (issue #17):
# summaries written one rank at a time (a Slurm array, xargs -P) give the
# same job - distributed view, stragglers, collectives, job overview - and
# the same reports as reading every rank's trace together.
. "$PR_SRCDIR/tests/lib.sh"

SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
cd "$T_DIR" || exit 1

# same_job NAME TRACE... : one summary per trace, merged, against the
# traces read together
same_job() {
    name=$1
    shift
    sums=""
    i=0
    for t in "$@"; do
        "$PR_BIN" -q --input "$t" --json "r$i.summary.json" 2> err ||
            { check "$name: rank summary $i (exit $?: $(head -c 200 err))" false; return; }
        sums="$sums --input r$i.summary.json"
        i=$((i + 1))
    done
    args=""
    for t in "$@"; do args="$args --input $t"; done
    # shellcheck disable=SC2086
    "$PR_BIN" -q $args --json all.json --html all.html --pdf all.pdf 2> err
    # shellcheck disable=SC2086
    "$PR_BIN" -q $sums --json m.json --html m.html --pdf m.pdf 2> err
    check "$name: $i rank summaries merge (exit $?: $(head -c 200 err))" [ -s m.json ]
    check "  the job has every rank" python3 -c "
import json, sys
m = json.load(open('m.json'))
sys.exit(len(m['runs']) != $i or m['job']['ranks'] != $i)"
    for k in distributed job; do
        check "  $k is that of the traces read together" python3 -c "
import json, sys
a, m = json.load(open('all.json')), json.load(open('m.json'))
sys.exit(a['$k'] != m['$k'])"
    done
    check "  the whole summary is the traces' byte for byte" cmp -s all.json m.json
    check "  so is the HTML" cmp -s all.html m.html
    check "  and the PDF" cmp -s all.pdf m.pdf
}

same_job "examples/ddp_run" "$PR_SRCDIR"/examples/ddp_run/rank*.pt.trace.json.gz

H=$PR_SHARED/traces/hta/trace_filter
if [ -d "$H" ]; then
    same_job "hta two NCCL ranks" "$H"/sampled_rank-0.json.gz "$H"/sampled_rank-1.json.gz
    check "  with collectives in the merged job" python3 -c "
import json, sys
d = json.load(open('m.json'))['distributed']
sys.exit(not d or not d.get('comm_ops'))"
else
    skip "hta two NCCL ranks" "no $H (shared traces absent)"
fi

# examples/slurm-array.sh: two array tasks, then the merge job
D=$PR_SRCDIR/examples/ddp_run
mkdir -p bin && ln -sf "$PR_BIN" bin/profreport
for i in 0 1; do
    PATH=$T_DIR/bin:$PATH SLURM_ARRAY_TASK_ID=$i \
        sh "$PR_SRCDIR/examples/slurm-array.sh" rank "$D" slurm 2> err
done
PATH=$T_DIR/bin:$PATH sh "$PR_SRCDIR/examples/slurm-array.sh" merge "$D" slurm 2> err
check "slurm-array.sh: rank tasks and the merge (exit $?: $(head -c 200 err))" [ -s slurm/job.html ]
"$PR_BIN" -q --input "$D" --json dir.json 2> err
check "  its job.json is the run folder's" cmp -s dir.json slurm/job.json

# README.md's local recipe (xargs -P) on 8 generated ranks
"$PR_GEN" --ranks 8 --steps 3 --blocks 2 --attn 1 --gzip -o run8 > /dev/null
mkdir -p x8 && (
    cd x8 && export PATH="$T_DIR/bin:$PATH" &&
        ls ../run8/rank*.pt.trace.json.gz | xargs -P 8 -I{} sh -c \
            'profreport -q --input "$1" --json "$(basename "$1" .pt.trace.json.gz).summary.json"' _ {} &&
        profreport -q --input rank*.summary.json --html job.html --pdf job.pdf \
            --json job.json
) 2> err
check "xargs -P recipe: 8 rank summaries merged (exit $?: $(head -c 200 err))" \
    sh -c '[ -s x8/job.html ] && [ -s x8/job.pdf ]'
"$PR_BIN" -q --input run8 --json dir8.json 2> err
check "  the distributed view is that of the traces read together" python3 -c "
import json, sys
a, m = json.load(open('dir8.json')), json.load(open('x8/job.json'))
sys.exit(a['distributed'] != m['distributed'] or
         a['distributed']['world_size'] != 8 or not a['distributed']['comm_ops'])"
# a summary prints numbers as cJSON does, 15 digits where they read back
# within an epsilon, so a share the job view computes from them may
# differ from the traces' in the last bit (job.per_rank[].communication_pct
# here)
check "  the job view too, to the last bit" python3 -c "
import json, sys
def same(x, y):
    if isinstance(x, float) or isinstance(y, float):
        return isinstance(x, (int, float)) and isinstance(y, (int, float)) \\
            and abs(x - y) <= 1e-12 * max(abs(x), abs(y))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(same(p, q) for p, q in zip(x, y))
    return x == y
a, m = json.load(open('dir8.json')), json.load(open('x8/job.json'))
sys.exit(not same(a['job'], m['job']) or a['job']['ranks'] != 8)"

# traces of two jobs read as one are named (issue #15)
"$PR_BIN" -q --input "$D" --json j.json 2> err
check "one job's ranks: no word about several jobs" \
    sh -c '! grep -q "jobs" err'
mkdir -p two && cp "$D"/rank0.*.pt.trace.json.gz two/ &&
    cp "$D"/rank0.1714525200123.pt.trace.json.gz two/other0.1714525200123.pt.trace.json.gz
"$PR_BIN" --input two --json j.json 2> err
check "rank 0 of two workers in one folder: two jobs, named on stderr" \
    grep -q "read 2 jobs from two: other0 (rank 0 of 2), rank0 (rank 0 of 2)" err
check "  each named by its worker, the split by the rank both hold" python3 -c "
import json
j = json.load(open('j.json'))['jobs']
assert [(e['name'], e['split_note']) for e in j] == [('other0', None),
    ('rank0', 'it holds rank 0, which other0 holds too: one rank is not two workers of one job')], j
"

# what cannot be one job
"$PR_BIN" -q --input r0.summary.json --input r0.summary.json --json d.json 2> err
check "one summary given twice is refused (exit 2, got $?)" [ $? -eq 2 ] 
check "  naming the run" grep -q "both hold run" err
check "  and writing nothing" [ ! -e d.json ]

echo "1..$T_N"
