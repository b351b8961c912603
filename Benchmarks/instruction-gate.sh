#!/bin/bash
# The speed regression gate: instructions per event, counted by callgrind, against the budgets in
# Benchmarks/instruction-budget. Instruction counts are repeatable for one binary and one input
# whatever else the machine is doing, so this gate does not flake on a noisy machine as a timing would.
#
#   Benchmarks/instruction-gate.sh            measure and compare; exit 1 when a budget is exceeded
#   Benchmarks/instruction-gate.sh --update   measure, and lower each budget a figure beats to it + headroom (never raises one)
#
# What it measures, with the release binary scripts/install builds (release, static Swift runtime):
#   parse      `cat FILE | pinchlab stats - --json`   (the reader: evemu lines to events; through a
#              pipe, which is read on one thread: from a file the read-ahead's share moved the figure)
#   pipeline   `pinchlab replay FILE --summary`       (reader, frames, recognizers, transition)
#   json       `pinchlab replay FILE --json`          (the pipeline and its JSON lines)
#   to_yaml    `pinchlab convert FILE -o OUT.yml`     (evemu to `libinput record` YAML)
#   from_yaml  `pinchlab convert FILE.yml -o OUT.evemu` (`libinput record` YAML to evemu: the event
#              lines read without libyaml, CanonicalRecordLines)
#   flight     what `live --keep 30`'s flight recorder adds to the pipeline: `cat FILE | pinchlab-bench
#              pipeline -` with PINCHLAB_BENCH_KEEP=30 less the same with 0 (its ring of events and lines,
#              noted as `live` notes them). 30 s, not live's default 60: the ring (90,000 + 2,812
#              events on the generated device) then fills inside the small file, so every counted
#              event pays the oldest block's drop, as in a long live session (with 60 only the last
#              131k events of the large file paid it)
# on two generated evemu files of the standard corpus's gestures (pinchlab-bench generate, fixed seeds),
# SMALL and LARGE events, and the same two converted to YAML (the conversion not counted). The
# per-event figure is the difference of the two runs' totals divided by the difference of their
# event counts: start-up and the description cancel out. The summary does not (it lists one trial
# per attempt, about 98 in the small file and 287 in the large): the pipeline figure includes
# measuring and writing the trials' margins.
#
# The budget is the figure measured when it was last lowered plus HEADROOM_PERCENT, so a change that
# costs 10% more instructions per event fails. When a change makes a figure clearly better, the gate
# says so: run it with --update and commit the lower budget with that change.
#
# Environment: GATE_SCRATCH (SwiftPM scratch path, default .build), GATE_SMALL / GATE_LARGE (events).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
BUDGET_FILE=Benchmarks/instruction-budget
SCRATCH=${GATE_SCRATCH:-.build}
SMALL_EVENTS=${GATE_SMALL:-100000}
LARGE_EVENTS=${GATE_LARGE:-300000}
HEADROOM_PERCENT=5
UPDATE=0
case "${1:-}" in
    --update) UPDATE=1 ;;
    "") ;;
    *) echo "usage: $0 [--update]" >&2; exit 64 ;;
esac
command -v valgrind >/dev/null || { echo "instruction gate: valgrind is not installed (scripts/setup-debian installs it)" >&2; exit 69; }

say() { printf '%s\n' "$*" >&2; }
say "== build (release, static Swift runtime, scratch $SCRATCH)"
# Linked as scripts/install links it (position-dependent: see there).
swift build -c release --static-swift-stdlib -Xlinker -no-pie --scratch-path "$SCRATCH" --product pinchlab >&2
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product pinchlab-bench >&2
BIN=$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)

DATA=$(mktemp -d "${TMPDIR:-/tmp}/pinchlab-gate.XXXXXX")
trap 'rm -rf "$DATA"' EXIT
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -1; }
# valgrind 3.19 cannot read the DWARF 5 debug information Swift's compiler writes: a copy without it.
strip --strip-debug -o "$DATA/pinchlab" "$BIN/pinchlab"
strip --strip-debug -o "$DATA/pinchlab-bench" "$BIN/pinchlab-bench"
small_events=$(field "$("$BIN/pinchlab-bench" generate "$DATA/small.evemu" "$SMALL_EVENTS")" events)
large_events=$(field "$("$BIN/pinchlab-bench" generate "$DATA/large.evemu" "$LARGE_EVENTS")" events)
"$BIN/pinchlab" convert "$DATA/small.evemu" -o "$DATA/small.yml" >/dev/null 2>"$DATA/convert.err" \
    || { say "instruction gate: converting the small file to YAML failed:"; cat "$DATA/convert.err" >&2; exit 1; }
"$BIN/pinchlab" convert "$DATA/large.evemu" -o "$DATA/large.yml" >/dev/null 2>"$DATA/convert.err" \
    || { say "instruction gate: converting the large file to YAML failed:"; cat "$DATA/convert.err" >&2; exit 1; }

# Instructions the whole process executed (callgrind's "Collected" total), its output discarded.
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>"$DATA/valgrind.log" >/dev/null \
        || { cat "$DATA/valgrind.log" >&2; say "instruction gate: $* failed"; exit 1; }
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$DATA/valgrind.log" | tail -1
}
per_event() {  # per_event EXTENSION ARGS... (the word FILE is replaced by the file with that extension)
    local extension=$1 small large
    shift
    small=$(instructions "${@/FILE/$DATA/small.$extension}")
    large=$(instructions "${@/FILE/$DATA/large.$extension}")
    awk -v s="$small" -v l="$large" -v n="$small_events" -v m="$large_events" \
        'BEGIN { printf "%.1f", (l - s) / (m - n) }'
}

# The parse through a pipe (`stats -`), which is never read ahead: one thread, so one figure. From a
# file, the read-ahead thread's share of the lines follows which thread waited, which callgrind's
# scheduling decides: the same binary read 705.9 to 754.7 (the latter with the machine busy).
per_event_piped() {  # per_event_piped EXTENSION ARGS...: the file with that extension on standard input
    local extension=$1 small large
    shift
    small=$(cat "$DATA/small.$extension" | instructions "$@")
    large=$(cat "$DATA/large.$extension" | instructions "$@")
    awk -v s="$small" -v l="$large" -v n="$small_events" -v m="$large_events" \
        'BEGIN { printf "%.1f", (l - s) / (m - n) }'
}

say "== callgrind: $small_events and $large_events events"
parse=$(per_event_piped evemu "$DATA/pinchlab" stats - --json)
pipeline=$(per_event evemu "$DATA/pinchlab" replay FILE --summary)
json=$(per_event evemu "$DATA/pinchlab" replay FILE --json)
to_yaml=$(per_event evemu "$DATA/pinchlab" convert FILE -o "$DATA/out.yml")
from_yaml=$(per_event yml "$DATA/pinchlab" convert FILE -o "$DATA/out.evemu")
# The flight recorder's figure is a difference of two counts, each read through a pipe as parse is:
# from a file the reader's read-ahead thread shares the parsing, and callgrind's scheduling of it
# moved each count (one commit's flight read 76.2, 91.7, 112.9 and 113.9 from files, least of three
# runs or not; through the pipe the same binary reads within 0.1 run after run).
bench_keep0=$(PINCHLAB_BENCH_KEEP=0 per_event_piped evemu "$DATA/pinchlab-bench" pipeline -)
bench_keep30=$(PINCHLAB_BENCH_KEEP=30 per_event_piped evemu "$DATA/pinchlab-bench" pipeline -)
flight=$(awk -v a="$bench_keep0" -v b="$bench_keep30" 'BEGIN { printf "%.1f", b - a }')
say "flight recorder: pipeline $bench_keep0 -> $bench_keep30 instructions per event with --keep 30 ($(awk -v a="$bench_keep0" -v f="$flight" 'BEGIN { printf "%+.1f%%", 100 * f / a }'))"
MEASURES="parse pipeline json to_yaml from_yaml flight"

budget() { sed -n "s/^$1 *= *//p" "$BUDGET_FILE" 2>/dev/null | head -1; }
# Measures whose figure moves between runs more than the headroom ("keep = flight ..." in the file):
# --update leaves their budget as set by hand, and a low figure is no reason to lower it.
kept() { sed -n "s/^keep *= *//p" "$BUDGET_FILE" 2>/dev/null | tr ' ,' '\n\n' | grep -qx "$1"; }

if [ "$UPDATE" = 1 ]; then
    # Lowers each budget that the figure beats to the figure plus the headroom, and never raises one:
    # a rise is a choice made by hand, with its reason, in the file and the commit (rewriting every
    # budget from one run raised the figures that had grown along with lowering the others).
    echo "# measured: parse $parse, pipeline $pipeline, json $json, to_yaml $to_yaml, from_yaml $from_yaml, flight $flight ($(git describe --always --dirty 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d), --update)" >>"$BUDGET_FILE"
    for name in $MEASURES; do
        if kept "$name"; then continue; fi
        lowered=$(awk -v v="${!name}" -v h="$HEADROOM_PERCENT" -v c="$(budget "$name")" \
            'BEGIN { n = sprintf("%.0f", v * (1 + h / 100)); print (c == "" || n + 0 < c + 0 ? n : c) }')
        if [ -z "$(budget "$name")" ]; then
            echo "$name = $lowered" >>"$BUDGET_FILE"
        else
            sed -i "s/^$name *= *.*/$name = $lowered/" "$BUDGET_FILE"
        fi
    done
    say "lowered the beaten budgets in $BUDGET_FILE"
fi

status=0
for name in $MEASURES; do
    measured=${!name}
    allowed=$(budget "$name")
    if [ -z "$allowed" ]; then say "instruction gate: no '$name' budget in $BUDGET_FILE (run with --update)"; exit 1; fi
    verdict=$(awk -v m="$measured" -v a="$allowed" -v h="$HEADROOM_PERCENT" -v k="$(kept "$name" && echo 1)" 'BEGIN {
        if (m > a) print "OVER BUDGET";
        else if (k == 1) print "within budget (kept by hand: it varies between runs)";
        else if (m < a / (1 + h / 100) * 0.97) print "under budget by more than 3% below the last figure: lower it (--update)";
        else print "within budget" }')
    printf 'instructions per event, %-8s %10s (budget %s): %s\n' "$name" "$measured" "$allowed" "$verdict"
    [[ $verdict == "OVER BUDGET" ]] && status=1
done
exit $status
