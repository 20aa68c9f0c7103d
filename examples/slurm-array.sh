#!/bin/sh
# slurm-array.sh - one job's report from per-rank summaries (issue #17).
#
# Each task of a Slurm array summarises one rank's trace where it lies (a
# summary is ~100 KB, a trace can be GBs); a last job, started when every
# task has ended, merges the summaries into the job's report: distributed
# view, stragglers, collectives and job overview, the same as reading all
# the traces on one machine.
#
#   N=$(ls run/rank*.pt.trace.json.gz | wc -l)
#   A=$(sbatch --parsable --array=0-$((N - 1)) examples/slurm-array.sh rank run out)
#   sbatch --dependency=afterok:"$A" examples/slurm-array.sh merge run out
#
# Usage: slurm-array.sh rank|merge TRACE_DIR OUT_DIR
#SBATCH --job-name=profreport
#SBATCH --cpus-per-task=4
#SBATCH --mem=16G
set -eu

mode=$1
traces=$2
out=$3
mkdir -p "$out"

case $mode in
rank)
    # the array index picks this task's trace (the files in name order)
    i=${SLURM_ARRAY_TASK_ID:?run as a Slurm array task}
    trace=$(ls "$traces"/*.pt.trace.json* | sed -n "$((i + 1))p")
    [ -n "$trace" ] || { echo "no trace number $i in $traces" >&2; exit 2; }
    name=$(basename "$trace")
    name=${name%%.pt.trace.json*}
    profreport -q --threads "${SLURM_CPUS_PER_TASK:-4}" --input "$trace" \
        --json "$out/$name.summary.json"
    ;;
merge)
    set --
    for s in "$out"/*.summary.json; do
        [ -e "$s" ] && set -- "$@" --input "$s"
    done
    [ $# -gt 0 ] || { echo "no summaries in $out" >&2; exit 2; }
    profreport -q "$@" --json "$out/job.json" --html "$out/job.html" \
        --pdf "$out/job.pdf"
    ;;
*)
    echo "usage: slurm-array.sh rank|merge TRACE_DIR OUT_DIR" >&2
    exit 1
    ;;
esac
