#!/bin/bash
# What the flight recorder costs the live path, counted by callgrind: instructions per event of
# `pinchlab live DEVICE --json` (libevdev on the virtual FUSE device, frames, recognizer,
# transition, JSON lines) with --keep 0 and --keep 30, on two generated files (the difference of
# their totals over the difference of their event counts, as the instruction gate does). 30 s, as
# the gate: the ring (90,000 events and a block on this device) fills inside the small file, so
# every counted event pays the oldest block's drop. The device is served --fast
# --unplug-when-done, so live reads everything and ends.
#
#   Benchmarks/flight-recorder-cost.sh [PINCHLAB_BINARY]   (default: the release build)
#
# Not in CI (it mounts a FUSE device and takes about two minutes); the gate's `flight` measure is
# the same cost on the pipeline alone.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
BIN=${1:-$(swift build -c release --show-bin-path)/pinchlab}
BENCH=$(dirname "$BIN")/pinchlab-bench
T=$(mktemp -d "${TMPDIR:-/tmp}/pinchlab-flight.XXXXXX"); trap 'rm -rf "$T"' EXIT
D=$T
# valgrind 3.19 cannot read the DWARF 5 debug information Swift writes: a copy without it.
strip --strip-debug -o "$T/p" "$BIN"
"$BENCH" generate "$D/small.evemu" 100000 >/dev/null
"$BENCH" generate "$D/large.evemu" 300000 >/dev/null
small_events=$(grep -c '^E:' "$D/small.evemu"); large_events=$(grep -c '^E:' "$D/large.evemu")
run() { # keep file
  "$T/p" serve "$2" --at "$T/v" --fast --unplug-when-done >/dev/null 2>&1 & local s=$!
  for _ in $(seq 100); do [ -e "$T/v/event0" ] && break; sleep 0.1; done
  # live ends with the device's removal (unplugged when done), a non-zero status (69), which other
  # failures share; and callgrind prints its total whatever the status. So a run counts only when
  # live says the device was removed: anything else (no device, no FUSE) prints nothing.
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$T/p" live "$T/v/event0" --json --keep "$1" 2>"$T/log" >/dev/null || true
  wait "$s" || true
  grep -q "the device was removed" "$T/log" || return 0
  sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$T/log" | tail -1
}
per_event() { # keep
  # Each count is its own assignment, so a failed run stops the script (set -e does not see a
  # command substitution inside another command's arguments).
  local s l
  s=$(run "$1" "$D/small.evemu"); l=$(run "$1" "$D/large.evemu")
  [ -n "$s" ] && [ -n "$l" ] || { echo "flight-recorder-cost: live did not run to the device's removal; its last output:" >&2; tail -5 "$T/log" >&2; return 1; }
  awk -v s="$s" -v l="$l" -v n="$small_events" -v m="$large_events" 'BEGIN { printf "%.1f", (l - s) / (m - n) }'; }
off=$(per_event 0); on=$(per_event 30)
echo "live --json, instructions per event: --keep 0 $off, --keep 30 $on ($(awk -v a="$off" -v b="$on" 'BEGIN { printf "%+.1f%%", 100 * (b - a) / a }'))"
