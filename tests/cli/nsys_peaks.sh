#!/bin/sh
# nsys_peaks.sh - review22g item 5: what an Nsight Systems export states of
# its GPU (TARGET_INFO_GPU clockRate, memoryBandwidth, smCount) wins over a
# guess from another part of the same compute capability.  basic.sql's GPUs
# renamed: an RTX 3070 (46 SMs at 1.725 GHz, 448 GB/s; not in the device
# table) is guessed from the sm_86 default (the A10: 72 SMs at 1.695 GHz)
# scaled by SMs x clock, its tensor rates with FP32 accumulate halved
# (GeForce), its bandwidth the export's: 20.3 / 40.6 TFLOP/s and 448 GB/s
# as NVIDIA's GA104 figures give, where the bare guess said the A10's
# 31.2 / 125 / 600; an RTX 3080 is the table's own row (29.8 / 59.5 / 760);
# an RTX A6000 is scaled but keeps the full tensor rate.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "nsys peaks" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

# name, SMs, clock (Hz), bandwidth (B/s)
mk() {
    python3 - "$PR_SRCDIR/tests/data/nsys/basic.sql" "$T_DIR/$1.sqlite" \
        "$2" "$3" "$4" "$5" <<'PY'
import sqlite3, sys
src, out, name, sms, clock, bw = sys.argv[1:]
db = sqlite3.connect(out)
db.executescript(open(src).read())
db.execute("ALTER TABLE TARGET_INFO_GPU ADD COLUMN clockRate INTEGER")
db.execute("ALTER TABLE TARGET_INFO_GPU ADD COLUMN memoryBandwidth INTEGER")
db.execute("UPDATE TARGET_INFO_GPU SET name = ?, smCount = ?, clockRate = ?,"
           " memoryBandwidth = ?, computeMajor = 8, computeMinor = 6",
           (name, int(sms), int(clock), int(bw)))
db.commit()
PY
}

# gpu: name sms clock bw | want: source fp32 fp16 gbps scale half gbps_source
check() {
    what=$1
    shift
    mk "$what" "$1" "$2" "$3" "$4"
    shift 4
    if "$PR_BIN" --quiet --input "$T_DIR/$what.sqlite" \
            --json "$T_DIR/$what.json" --html "$T_DIR/$what.html" \
            2> "$T_DIR/err" &&
       python3 - "$T_DIR/$what.json" "$@" > "$T_DIR/why" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["runs"][0]["devices"][0]
src, fp32, fp16, gbps, scale, half, gsrc = sys.argv[2:]
got = (d["peak_source"], round(d["peak_tflops"]["fp32"], 1),
       round(d["peak_tflops"]["fp16_tensor"], 1), round(d["peak_gbps"]),
       round(d.get("peak_scale") or 0, 3), d.get("peak_half_rate", False),
       d.get("peak_gbps_source"), d.get("clock_mhz"))
want = (src, float(fp32), float(fp16), int(gbps), float(scale),
        half == "1", None if gsrc == "-" else gsrc, got[7])
if got != want:
    print("got %s want %s" % (got, want))
    sys.exit(1)
PY
    then ok "$what: $*"
    else not_ok "$what: $(cat "$T_DIR/why") $(head -c 200 "$T_DIR/err")"; fi
}

# 46 x 1725 / (72 x 1695) = 0.650: 31.2 -> 20.3, 125 / 2 -> 40.6
check rtx3070 'NVIDIA GeForce RTX 3070' 46 1725000000 448000000000 \
    guess 20.3 40.6 448 0.650 1 export
# the table's row: the export's figures agree, nothing fitted
check rtx3080 'NVIDIA GeForce RTX 3080' 68 1710000000 760080000000 \
    table 29.8 59.5 760 0 0 -
# a professional part: scaled, not halved (an RTX A6000: 84 SMs at
# 1.8 GHz; NVIDIA's datasheet: FP32 38.7, FP16 tensor 154.8 dense, 768 GB/s)
check a6000 'NVIDIA RTX A6000' 84 1800000000 768000000000 \
    guess 38.7 154.9 768 1.239 0 export

# the report says how the guess was made, and not that the device is unnamed
if grep -q "compute peaks are a guess, NVIDIA A10&#39;s rate per SM and clock times the export&#39;s 46 SMs at 1.73 GHz (x0.65), tensor rates with FP32 accumulate halved as on every GeForce part; bandwidth 448 GB/s from the export" "$T_DIR/rtx3070.html" ||
   grep -q "compute peaks are a guess, NVIDIA A10's rate per SM and clock times the export's 46 SMs at 1.73 GHz (x0.65), tensor rates with FP32 accumulate halved as on every GeForce part; bandwidth 448 GB/s from the export" "$T_DIR/rtx3070.html"
then ok "rtx3070: the Devices note says how the guess was fitted"
else not_ok "rtx3070: no fit note in: $(grep -o 'RTX 3070: [^<]*' "$T_DIR/rtx3070.html" | head -3)"; fi
if grep -q "does not name its device" "$T_DIR/rtx3070.html"; then
    not_ok "rtx3070: the report says the trace does not name its device"
else ok "rtx3070: no 'does not name its device'"; fi

echo "1..$T_N"
