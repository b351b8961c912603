#!/bin/bash
# pinchlab's benchmarks: prints the figures and appends them, dated, to Benchmarks/results.md.
#
#   Benchmarks/run.sh              the full run (about 2-4 minutes after the release build)
#   (Benchmarks/instruction-gate.sh is the repeatable regression gate CI runs: instructions per event)
#
# Environment:
#   BENCH_SCRATCH   SwiftPM scratch path for the release build (default .build)
#   BENCH_DATA      where the generated recordings go (default: a temporary directory, removed at the end;
#                   the 10M-event file is about 660 MB)
#   BENCH_RUNS      repetitions of each timed parse and replay, alternating the readers; the best is
#                   the figure (a shared virtual machine's neighbours only ever slow a run down),
#                   the median ratio is printed beside it (default 7)
#   BENCH_RESULTS   the results file (default Benchmarks/results.md)
#   BENCH_LATENCY_SAMPLES   frames measured for (e) (default 3000)
#
# Measures, on one generated evemu file of 1,000,000 realistic events (the standard corpus's gestures
# played back to back) in the same run:
#   (a) parse events/s: `pinchlab stats FILE` against libevemu (Benchmarks/evemu_reference.c), against
#       a bare C loop (Benchmarks/bare_parse.c, the practical limit) and against `wc -l`, interleaved;
#       goal >= 8x libevemu and within 1.25x of the C loop's time. Every program is timed as a whole
#       process, fork to exit (Benchmarks/wall.c); before 64c59dd (2026-11-24) libevemu and the C loop were timed
#       by their own clocks (no start, no exit) and pinchlab with the shell's `date` around it
#   (b) pipeline events/s: `pinchlab replay FILE --summary` (parse, frames, recognizers, transition);
#       goal >= 3x libevemu's parse alone
#   (c) ns and heap allocations per touch frame through recognizer + driver/transition, counted by the
#       LD_PRELOAD shim Benchmarks/alloc_counter.c; goal 0 allocations per frame in steady state
#   (d) peak RSS of `pinchlab replay --summary` on 1M and 10M events; goal < 50 MB and flat
#   (e) live latency: a fixture served looped by the virtual FUSE evdev device (which stamps each packet
#       with CLOCK_MONOTONIC when it becomes readable) and read by the loop `pinchlab live` runs
#       (LiveSession: poll, libevdev, frames, recognizer, transition); time from readable to the end of
#       the transition update it causes, median and p99 over LATENCY_SAMPLES frames; goal p99 < 1 ms.
#       Needs /dev/fuse (run as root).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SCRATCH=${BENCH_SCRATCH:-.build}
RUNS=${BENCH_RUNS:-7}
RESULTS=${BENCH_RESULTS:-$ROOT/Benchmarks/results.md}
PARSE_GOAL_RATIO=8           # x libevemu; and within BARE_GOAL_RATIO of the bare C loop
BARE_GOAL_RATIO=1.25
PIPELINE_GOAL_RATIO=3        # x libevemu's parse
RSS_GOAL_KB=$((50 * 1024))
SMALL_EVENTS=1000000
LARGE_EVENTS=10000000
LATENCY_FIXTURE=$ROOT/Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu
LATENCY_SAMPLES=${BENCH_LATENCY_SAMPLES:-3000}
LATENCY_SPEED=2          # frames every 3.5-7 ms instead of 7-14 ms: the same work, half the wait
LATENCY_GOAL_P99_US=1000

if [ -n "${BENCH_DATA:-}" ]; then
    DATA=$BENCH_DATA
    mkdir -p "$DATA"
else
    DATA=$(mktemp -d "${TMPDIR:-/tmp}/pinchlab-bench.XXXXXX")
    trap 'rm -rf "$DATA"' EXIT
fi

say() { printf '%s\n' "$*" >&2; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# "met" or "MISSED" for a ratio a / b against goal g, on the times themselves: the printed ratio is
# rounded (0.028258 / 0.022551 = 1.2531 prints as 1.25 and is not within 1.25). $4: ">=" or "<=".
verdict() { awk -v a="$1" -v b="$2" -v g="$3" -v op="$4" 'BEGIN { r = a / b; print ((op == ">=" ? r >= g : r <= g) ? "met" : "MISSED") }'; }
# The value of key=value in a line of key=value pairs.
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -1; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# Built as scripts/install builds pinchlab for use: release, Swift runtime linked in.
say "== build (release, static Swift runtime, scratch $SCRATCH)"
# The two products it runs, each linked once: pinchlab as scripts/install links it (position-dependent:
# see there).
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product pinchlab-bench >&2
swift build -c release --static-swift-stdlib -Xlinker -no-pie --scratch-path "$SCRATCH" --product pinchlab >&2
BIN=$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)
PINCHLAB=$BIN/pinchlab
BENCH=$BIN/pinchlab-bench
# shellcheck disable=SC2046
gcc -O2 -o "$DATA/evemu_reference" Benchmarks/evemu_reference.c $(pkg-config --cflags --libs evemu)
gcc -O2 -shared -fPIC -o "$DATA/alloc_counter.so" Benchmarks/alloc_counter.c
gcc -O2 -o "$DATA/bare_parse" Benchmarks/bare_parse.c
gcc -O2 -o "$DATA/wall" Benchmarks/wall.c

say "== generate"
SMALL=$DATA/bench-1m.evemu
LARGE=$DATA/bench-10m.evemu
# The generator completes the last frame, so a file holds a few more events than asked for.
line=$("$BENCH" generate "$SMALL" "$SMALL_EVENTS"); say "$line"; SMALL_EVENTS=$(field "$line" events)
line=$("$BENCH" generate "$LARGE" "$LARGE_EVENTS"); say "$line"; LARGE_EVENTS=$(field "$line" events)

# Whether the CLI has the commands yet (it is built in the same package; older trees had none).
HAVE_STATS=0; "$PINCHLAB" stats --help >/dev/null 2>&1 && HAVE_STATS=1
HAVE_REPLAY=0; "$PINCHLAB" replay --help >/dev/null 2>&1 && HAVE_REPLAY=1

# Runs "$@" and prints "<seconds> <peak RSS kB>"; output goes to $DATA/out. Every program compared is
# timed this way, as a whole process from fork to exit (Benchmarks/wall.c), none by its own clock.
timed() {
    local line
    line=$("$DATA/wall" "$DATA/out" "$@") || { say "failed ($line): $*"; return 1; }
    echo "$(field "$line" seconds) $(field "$line" rss_kb)"
}

say "== (a) parse, best of $RUNS"
# Every timed read starts from the page cache: virtual machines reclaim cold cache quickly, and a
# read that goes to the disk measures the disk, for either reader.
warm() { cat "$1" >/dev/null; }
best_ref=""; best_cli=""; best_inproc=""; best_bare=""; best_wc=""
ref_checksum=""; inproc_checksum=""; bare_checksum=""
ratios=()   # libevemu seconds / pinchlab stats seconds, run by run
for _ in $(seq "$RUNS"); do
    warm "$SMALL"
    read -r s _ < <(timed "$DATA/evemu_reference" "$SMALL")
    line=$(cat "$DATA/out")
    say "$line (whole process: $s s)"
    ref_checksum=$(field "$line" checksum); ref_seconds=$s
    ref_events=$(field "$line" events)
    if [ -z "$best_ref" ] || awk -v a="$s" -v b="$best_ref" 'BEGIN { exit !(a < b) }'; then best_ref=$s; fi

    warm "$SMALL"
    read -r s _ < <(timed "$DATA/bare_parse" "$SMALL")
    line=$(cat "$DATA/out")
    say "$line (whole process: $s s)"
    bare_checksum=$(field "$line" checksum)
    if [ -z "$best_bare" ] || awk -v a="$s" -v b="$best_bare" 'BEGIN { exit !(a < b) }'; then best_bare=$s; fi

    warm "$SMALL"
    read -r s _ < <(timed wc -l "$SMALL")
    say "wc -l seconds=$s"
    if [ -z "$best_wc" ] || awk -v a="$s" -v b="$best_wc" 'BEGIN { exit !(a < b) }'; then best_wc=$s; fi

    warm "$SMALL"
    line=$("$BENCH" parse "$SMALL")
    say "$line"
    s=$(field "$line" seconds); inproc_checksum=$(field "$line" checksum)
    if [ -z "$best_inproc" ] || awk -v a="$s" -v b="$best_inproc" 'BEGIN { exit !(a < b) }'; then best_inproc=$s; fi

    if [ "$HAVE_STATS" = 1 ]; then
        warm "$SMALL"
        read -r s _ < <(timed "$PINCHLAB" stats "$SMALL" --json)
        say "pinchlab stats seconds=$s $(cat "$DATA/out")"
        if [ -z "$best_cli" ] || awk -v a="$s" -v b="$best_cli" 'BEGIN { exit !(a < b) }'; then best_cli=$s; fi
        ratios+=("$(ratio "$ref_seconds" "$s")")
    fi
done
if [ "$ref_checksum" != "$inproc_checksum" ] || [ "$ref_checksum" != "$bare_checksum" ]; then
    say "checksums differ: libevemu $ref_checksum, pinchlab $inproc_checksum, bare C loop $bare_checksum"; exit 1
fi
if [ "$HAVE_STATS" = 1 ]; then
    grep -q "\"events\" *: *$SMALL_EVENTS" "$DATA/out" || { say "pinchlab stats did not count $SMALL_EVENTS events"; exit 1; }
    parse_seconds=$best_cli; parse_how="pinchlab stats FILE (whole process)"
else
    parse_seconds=$best_inproc; parse_how="pinchlab-bench parse (in process; pinchlab stats not built)"
fi
ref_eps=$(awk -v n="$ref_events" -v s="$best_ref" 'BEGIN { printf "%.0f", n / s }')
parse_eps=$(awk -v n="$SMALL_EVENTS" -v s="$parse_seconds" 'BEGIN { printf "%.0f", n / s }')
inproc_eps=$(awk -v n="$SMALL_EVENTS" -v s="$best_inproc" 'BEGIN { printf "%.0f", n / s }')
parse_ratio=$(ratio "$best_ref" "$parse_seconds")
median_ratio=$(printf '%s\n' "${ratios[@]:-0}" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
parse_verdict=$(verdict "$best_ref" "$parse_seconds" "$PARSE_GOAL_RATIO" ">=")
bare_eps=$(awk -v n="$SMALL_EVENTS" -v s="$best_bare" 'BEGIN { printf "%.0f", n / s }')
bare_ratio=$(ratio "$best_ref" "$best_bare")
parse_over_bare=$(ratio "$parse_seconds" "$best_bare")
parse_over_bare_exact=$(awk -v a="$parse_seconds" -v b="$best_bare" 'BEGIN { printf "%.4f", a / b }')
bare_verdict=$(verdict "$parse_seconds" "$best_bare" "$BARE_GOAL_RATIO" "<=")
parse_over_wc=$(ratio "$parse_seconds" "$best_wc")

say "== (b) pipeline"
if [ "$HAVE_REPLAY" = 1 ]; then
    pipe_seconds=""; rss_small=""
    for _ in $(seq "$RUNS"); do
        warm "$SMALL"
        read -r s rss < <(timed "$PINCHLAB" replay "$SMALL" --summary)
        say "pinchlab replay seconds=$s rss_kb=$rss"
        if [ -z "$pipe_seconds" ] || awk -v a="$s" -v b="$pipe_seconds" 'BEGIN { exit !(a < b) }'; then pipe_seconds=$s; fi
        if [ -z "$rss_small" ] || [ "$rss" -gt "$rss_small" ]; then rss_small=$rss; fi
    done
    pipe_how="pinchlab replay FILE --summary (whole process), best of $RUNS"
    grep -q "\"events\" *: *$SMALL_EVENTS" "$DATA/out" || { say "pinchlab replay did not count $SMALL_EVENTS events"; exit 1; }
else
    read -r pipe_seconds rss_small < <(timed "$BENCH" pipeline "$SMALL")
    pipe_how="pinchlab-bench pipeline (in process; pinchlab replay not built)"
fi
say "pipeline seconds=$pipe_seconds rss_kb=$rss_small"
line=$("$BENCH" pipeline "$SMALL"); say "$line"
gestures=$(field "$line" gestures); frames_total=$(field "$line" frames)
pipe_eps=$(awk -v n="$SMALL_EVENTS" -v s="$pipe_seconds" 'BEGIN { printf "%.0f", n / s }')
pipe_ratio=$(ratio "$best_ref" "$pipe_seconds")
pipe_verdict=$(verdict "$best_ref" "$pipe_seconds" "$PIPELINE_GOAL_RATIO" ">=")
pipe_over_bare=$(ratio "$pipe_seconds" "$best_bare")
pipe_over_wc=$(ratio "$pipe_seconds" "$best_wc")

say "== (c) per frame (allocations counted by alloc_counter.so)"
frame_lines=$(LD_PRELOAD="$DATA/alloc_counter.so" "$BENCH" frames "$SMALL")
say "$frame_lines"
rd=$(grep '^frames-recognizer+driver' <<<"$frame_lines")
pl=$(grep '^frames-pipeline-in-memory' <<<"$frame_lines")
alloc_verdict=$(awk -v q="$(field "$rd" allocations_quiet_frames)" 'BEGIN { print (q == 0 ? "met" : "MISSED") }')

say "== (d) peak RSS, replay of $LARGE_EVENTS events"
if [ "$HAVE_REPLAY" = 1 ]; then
    read -r large_seconds rss_large < <(timed "$PINCHLAB" replay "$LARGE" --summary)
else
    read -r large_seconds rss_large < <(timed "$BENCH" pipeline "$LARGE")
fi
say "large seconds=$large_seconds rss_kb=$rss_large"
rss_verdict=$(awk -v a="$rss_large" -v b="$rss_small" -v g="$RSS_GOAL_KB" \
    'BEGIN { print (a < g && a < b * 1.25 + 2048 ? "met" : "MISSED") }')

say "== (e) live latency, $LATENCY_SAMPLES frames from the virtual FUSE device"
LATENCY_DIR=$DATA/vdev
lat=$("$BENCH" latency "$LATENCY_FIXTURE" "$LATENCY_SAMPLES" "$LATENCY_SPEED" "$LATENCY_DIR")
say "$lat"
lat_verdict=$(awk -v p="$(field "$lat" p99_us)" -v g="$LATENCY_GOAL_P99_US" 'BEGIN { print (p < g ? "met" : "MISSED") }')

CPU=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
report=$(cat <<EOF

## $DATE ($REV)

Machine: $(nproc) CPUs, $CPU; $(swift --version 2>/dev/null | head -1); pinchlab built as scripts/install does (release, static Swift runtime)
File: $SMALL_EVENTS evemu events ($frames_total frames, $gestures gestures recognized; standard corpus recipes, 4 seeds each, back to back); libevemu and pinchlab checksums equal.

| measure | figure | goal | verdict |
| --- | --- | --- | --- |
| (a) libevemu parse (evemu_reference, whole process, best of $RUNS) | $ref_eps events/s ($best_ref s) | | |
| (a) pinchlab parse: $parse_how, best of $RUNS | $parse_eps events/s ($parse_seconds s), ${parse_ratio}x libevemu (median of the runs' own ratios ${median_ratio}x) | >= ${PARSE_GOAL_RATIO}x | $parse_verdict |
| (a) bare C loop (Benchmarks/bare_parse.c: mmap, digits by hand, no checks; whole process), best of $RUNS | $bare_eps events/s ($best_bare s), ${bare_ratio}x libevemu | | |
| (a) \`wc -l FILE\` (reads every byte once), best of $RUNS | $best_wc s | | |
| (a) pinchlab parse against the bare C loop and \`wc -l\` | ${parse_over_bare}x the C loop's time (${parse_over_bare_exact}), ${parse_over_wc}x wc's | <= ${BARE_GOAL_RATIO}x the C loop | $bare_verdict |
| (a) pinchlab parse loop in process (EvemuReader; its own clock, so no ratio to the whole processes above) | $inproc_eps events/s | | |
| (b) pipeline: $pipe_how | $pipe_eps events/s ($pipe_seconds s), ${pipe_ratio}x libevemu's parse; ${pipe_over_bare}x the C loop's time, ${pipe_over_wc}x wc's | >= ${PIPELINE_GOAL_RATIO}x libevemu's parse | $pipe_verdict |
| (c) recognizer + driver per frame | $(field "$rd" ns_per_frame) ns/frame over $(field "$rd" frames) frames | | |
| (c) allocations, frames with no gesture begin/end | $(field "$rd" allocations_quiet_frames) in $(field "$rd" quiet_frames) frames | 0 | $alloc_verdict |
| (c) allocations, all frames (begin/release included) | $(field "$rd" allocations) ($(field "$rd" allocations_per_frame)/frame, $(field "$rd" allocations_per_gesture)/gesture) | | |
| (c) whole pipeline in memory per frame (assembler too) | $(field "$pl" ns_per_frame) ns/frame, $(field "$pl" allocations_quiet_frames) allocations in quiet frames, $(field "$pl" allocations) in all | | |
| (d) peak RSS, replay 1M events | $(mb "$rss_small") MB | < 50 MB | |
| (d) peak RSS, replay 10M events | $(mb "$rss_large") MB ($large_seconds s) | < 50 MB, flat | $rss_verdict |
| (e) live latency, readable -> transition update (virtual FUSE device, $(field "$lat" samples) frames at ${LATENCY_SPEED}x) | median $(field "$lat" median_us) us, p90 $(field "$lat" p90_us) us, p99 $(field "$lat" p99_us) us, max $(field "$lat" max_us) us | p99 < 1000 us | $lat_verdict |
EOF
)
printf '%s\n' "$report"
if [ ! -f "$RESULTS" ]; then
    printf '# pinchlab benchmark results\n\nAppended by `Benchmarks/run.sh`, newest last.\n' >"$RESULTS"
fi
printf '%s\n' "$report" >>"$RESULTS"
say "appended to $RESULTS"
