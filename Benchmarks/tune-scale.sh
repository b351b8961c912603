#!/bin/bash
# The tuner at scale: `pinchlab tune` with 5-fold cross-validation on generated corpora of about
# 235, 517 and 1,034 files (the standard corpus's 47 recipes drawn 5, 11 and 22 times), timed and
# with the peak resident memory, by GNU time. Prints one line per corpus and, with BENCH_RESULTS,
# appends them to that file.
#
#   Benchmarks/tune-scale.sh
#
# Goal: the 1,034-file corpus tuned with cross-validation in under 60 s on 2 cores. CPU time
# (user + system) is printed beside the wall time: on a shared machine the wall time includes
# waiting for the cores, the CPU time does not, and CPU time / 2 is the wall time on 2 free cores.
#
# Environment: BENCH_SCRATCH (SwiftPM scratch path for the release build, default .build),
# BENCH_DATA (where the corpora go, default a temporary directory removed at the end),
# BENCH_VARIANTS (default "5 11 22"), BENCH_RESULTS (a file to append the figures to).
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH=${BENCH_SCRATCH:-.build}
swift build -c release --product pinchlab --scratch-path "$SCRATCH" >&2
PINCHLAB="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/pinchlab"
DATA=${BENCH_DATA:-$(mktemp -d)}
[ -n "${BENCH_DATA:-}" ] || trap 'rm -rf "$DATA"' EXIT
[ -x /usr/bin/time ] || { echo "tune-scale: needs GNU time (/usr/bin/time, Debian package 'time')" >&2; exit 69; }

lines=()
for variants in ${BENCH_VARIANTS:-5 11 22}; do
    corpus="$DATA/corpus-$variants"
    rm -rf "$corpus"
    "$PINCHLAB" generate-corpus "$corpus" --variants "$variants" >/dev/null
    /usr/bin/time -f '%e %U %S %M' -o "$DATA/time" "$PINCHLAB" tune "$corpus" --json > "$DATA/report.json"
    read -r wall user system rss < "$DATA/time"
    line=$(python3 - "$DATA/report.json" "$wall" "$user" "$system" "$rss" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall, user, system, rss = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
cv = r["crossValidation"]
print(f"{r['best']['files']} files: wall {wall:.1f} s, CPU {user + system:.1f} s (2 free cores: about {(user + system) / 2:.1f} s), "
      f"peak RSS {rss / 1024:.1f} MB; {r['replays']} replays, {r['recognizerCandidates']} recognizer settings; "
      f"best {r['best']['accuracy'] * 100:.1f}%, defaults {r['defaults']['accuracy'] * 100:.1f}%, "
      f"held out ({cv['folds']} folds) {cv['heldOutAccuracy'] * 100:.1f}%")
PY
)
    echo "$line"
    lines+=("$line")
done
if [ -n "${BENCH_RESULTS:-}" ]; then
    { echo; echo "## tune at scale, $(date -u +%Y-%m-%d) ($(nproc) cores, $(uname -m))"; for l in "${lines[@]}"; do echo "- $l"; done; } >> "$BENCH_RESULTS"
fi
