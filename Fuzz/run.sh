#!/bin/bash
# Builds pinchlab's libFuzzer targets and runs each for a bounded time.
#
#   Fuzz/run.sh [SECONDS]        default 20 s per target; CI runs `FUZZ_SEED=1 Fuzz/run.sh 5`
#
# FUZZ_SEED fixes libFuzzer's random seed (0 or unset: a new one each run), so a CI smoke run
# explores the same inputs every time and a red run is reproducible.
#
# SwiftPM cannot build fuzzer executables in a normal build, so this compiles the modules' sources
# directly with swiftc -sanitize=fuzzer,address into .build-fuzz/ (FUZZ_BUILD overrides), module by
# module as SwiftPM does (swift-system's SystemPackage from SwiftPM's checkout, with its C shims and
# its package settings; SettingsTable; GestureCore; GestureKit with the CEvdev/CYAML module maps,
# InteractiveTransition, GestureTools, GestureLab), then links each target in Fuzz/Targets/ against them.
#
# Targets and their committed seed corpora (Fuzz/corpus/<target>/, read-only: new inputs found go to
# .build-fuzz/corpus/<target>/):
#   evemu            EvemuReaderFuzz.swift          arbitrary bytes as an evemu file
#   libinput-record  LibinputRecordReaderFuzz.swift arbitrary bytes as a libinput record file
#   pipeline         PipelineFuzz.swift             arbitrary event streams and axes through frames, recognizer, transition
#   settings         SettingsFileFuzz.swift         arbitrary bytes as a settings file (--config), accepted ones replayed
#   manifest         ManifestMemoryFuzz.swift       arbitrary bytes as a manifest and as a settings file, each reader's
#                                                   peak heap bounded per input byte (ASan's allocator hooks)
# The two reader targets replay what they read through the pipeline (FuzzReplay.swift), so mutated
# description lines reach every use of a description's numbers; Fuzz/dict/<target>.dict holds
# description tokens for libFuzzer's mutations.
#
# A crash leaves its input in .build-fuzz/crashes/<target>/ and makes the script exit 1; turn it into
# a regression test in Tests/ before fixing it. Needs only the Swift toolchain and the Debian packages
# from scripts/setup-debian (libevdev-dev, libyaml-dev, pkg-config).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-20}
OUT=${FUZZ_BUILD:-.build-fuzz}
mkdir -p "$OUT/modules" "$OUT/objects"

SWIFTC=${SWIFTC:-swiftc}
# One package name for every module, as SwiftPM gives them: `package` declarations are shared.
FLAGS=(-sanitize=fuzzer,address -O -g -swift-version 6 -parse-as-library -package-name pinchlab -I "$OUT/modules")
# swift-system as SwiftPM checked it out (Package.swift names it; resolving is quick once fetched).
swift package resolve >&2
SYSTEM=$(swift package show-dependencies --format json \
    | python3 -c 'import json,sys
def find(node):
    for dep in node["dependencies"]:
        if dep["identity"] == "swift-system": return dep["path"]
        found = find(dep)
        if found: return found
print(find(json.load(sys.stdin)) or "")')
test -d "$SYSTEM/Sources/System" || { echo "fuzz: swift-system's checkout not found" >&2; exit 1; }
# The C modules are found by their module maps; libevdev's header lives in a versioned directory.
C_FLAGS=(-I Sources/CEvdev -I Sources/CYAML -I "$SYSTEM/Sources/CSystem/include")
for flag in $(pkg-config --cflags libevdev yaml-0.1); do C_FLAGS+=(-Xcc "$flag"); done
LIBS=$(pkg-config --libs libevdev yaml-0.1)

# ld.gold warns about every ASan helper symbol it cannot export; those lines say nothing.
quiet_link() { grep -v "Cannot export local symbol" || true; }

build_module() {
    local name=$1; shift
    echo "fuzz: compiling $name" >&2
    "$SWIFTC" "${FLAGS[@]}" "$@" -module-name "$name" -wmo -c \
        -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" \
        -o "$OUT/objects/$name.o" $(find "${SOURCES:-Sources/$name}" -name '*.swift' | sort) 2>&1 | quiet_link
    test -f "$OUT/objects/$name.o"
}

# swift-system's own settings (its Package.swift): the availability macros its sources use, and
# SYSTEM_PACKAGE. Its C shims are one file.
SYSTEM_FLAGS=(-D SYSTEM_PACKAGE -enable-experimental-feature Lifetimes -I "$SYSTEM/Sources/CSystem/include")
for version in 0.0.1 0.0.2 0.0.3 1.1.0 1.1.1 1.2.0 1.2.1 1.3.0 1.3.1 1.3.2 1.4.0 1.7.0 199; do
    SYSTEM_FLAGS+=(-enable-experimental-feature "AvailabilityMacro=System $version:macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, visionOS 1.0")
done
clang -fsanitize=fuzzer-no-link,address -O1 -I "$SYSTEM/Sources/CSystem/include" -c "$SYSTEM/Sources/CSystem/shims.c" \
    -o "$OUT/objects/CSystem.o"
SOURCES="$SYSTEM/Sources/System" build_module SystemPackage "${SYSTEM_FLAGS[@]}"
build_module SettingsTable
build_module GestureCore
build_module GestureKit "${C_FLAGS[@]}"
build_module InteractiveTransition
build_module GestureTools
build_module GestureLab "${C_FLAGS[@]}"

TARGETS=(evemu:EvemuReaderFuzz libinput-record:LibinputRecordReaderFuzz pipeline:PipelineFuzz settings:SettingsFileFuzz manifest:ManifestMemoryFuzz)
for entry in "${TARGETS[@]}"; do
    target=${entry%%:*}; source=${entry#*:}
    echo "fuzz: linking fuzz-$target" >&2
    # shellcheck disable=SC2086
    "$SWIFTC" "${FLAGS[@]}" "${C_FLAGS[@]}" Fuzz/Targets/FuzzInputFile.swift Fuzz/Targets/FuzzReplay.swift Fuzz/Targets/ReadingOutcome.swift "Fuzz/Targets/$source.swift" \
        "$OUT"/objects/*.o $LIBS -o "$OUT/fuzz-$target" 2>&1 | quiet_link
    test -x "$OUT/fuzz-$target"
done

status=0
for entry in "${TARGETS[@]}"; do
    target=${entry%%:*}
    mkdir -p "$OUT/corpus/$target" "$OUT/crashes/$target"
    echo "fuzz: running fuzz-$target for ${SECONDS_PER_TARGET}s" >&2
    log=$OUT/fuzz-$target.log
    # A dictionary of description tokens (axis lines, extreme numbers) steers mutations into the
    # description as well as the events.
    dict=()
    if [ -f "Fuzz/dict/$target.dict" ]; then dict=(-dict="Fuzz/dict/$target.dict"); fi
    # Leak checking is off: the Swift runtime's metadata caches are never freed and would be reported.
    if ASAN_OPTIONS=detect_leaks=0 "$OUT/fuzz-$target" "$OUT/corpus/$target" "Fuzz/corpus/$target" \
        "${dict[@]}" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -seed="${FUZZ_SEED:-0}" \
        -artifact_prefix="$OUT/crashes/$target/" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
        echo "fuzz-$target: ok, ${runs:-?} runs, ${cov:-cov: ?}"
    else
        status=1
        echo "fuzz-$target: FAILED; log $log, inputs in $OUT/crashes/$target/"
        grep -m1 -A12 -E "ERROR|Fatal error|deadly signal" "$log" || tail -20 "$log"
    fi
done
exit $status
