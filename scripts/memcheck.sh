#!/usr/bin/env bash
# Runs ecs-core's test binaries under valgrind memcheck: any invalid read or write,
# use of uninitialised memory, or definite leak fails the run, in the test binaries and in the
# child processes they start (valgrind follows them: --trace-children).
#
# Usage: scripts/memcheck.sh            (CI's set: the units in scripts/memcheck_ci.list, which
#                                        together reach every unsafe block the suite reaches)
#        scripts/memcheck.sh --all      (every unit of every binary: before a release)
#        ECS_MODEL_CASES=1000 scripts/memcheck.sh --all
#        MEMCHECK_QUERY_MODEL_CASES=1 scripts/memcheck.sh --all   (query_model alone shortened)
# Property tests are shortened for valgrind's ~50x slowdown. Each unit's time is printed after it
# (a unit is one file's tests: test_units.sh).
# scripts/unsafe_reach.sh measures which units reach which unsafe block and rewrites the list.
#
# The binaries that drive trybuild run rustc, not our code, so they are skipped here (found by
# what they link: trybuild_drivers.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/trybuild_drivers.sh
source scripts/test_units.sh

all=0
case "${1:-}" in
    --all) all=1 ;;
    "") ;;
    *) echo "usage: scripts/memcheck.sh [--all]" >&2; exit 2 ;;
esac

if ! command -v valgrind >/dev/null; then
    echo "valgrind is not installed (apt-get install valgrind)" >&2
    exit 1
fi

export ECS_MODEL_CASES="${ECS_MODEL_CASES:-40}"
export PROPTEST_CASES="${PROPTEST_CASES:-40}"
export ECS_MERGE_CASES="${ECS_MERGE_CASES:-8}"
export SNAPSHOT_CASES="${SNAPSHOT_CASES:-16}"

# Build the test binaries and list ecs-core's (unit tests and integration tests, snapshots
# included). The build is the README's `cargo test --workspace`, whose features turn snapshots
# on: after that command (as in CI) nothing is rebuilt, where a build of ecs-core alone would
# compile every test binary a second time with other dependency features (about 7 GB).
# Cargo's messages are kept, so a build that fails says why instead of listing fewer binaries.
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
if ! cargo test --workspace --no-run --message-format=json 2>"$build_log" >"$build_log.json"; then
    cat "$build_log" >&2
    echo "memcheck: the test binaries did not build (cargo's messages above)" >&2
    exit 1
fi
mapfile -t binaries < <(
    python3 -c '
import json, os, sys
core = os.path.realpath("ecs-core/Cargo.toml")
for line in open(sys.argv[1]):
    msg = json.loads(line)
    if (msg.get("reason") == "compiler-artifact" and msg.get("executable")
            and msg["profile"]["test"] and os.path.realpath(msg["manifest_path"]) == core):
        print(msg["executable"])
' "$build_log.json"
)
rm -f "$build_log.json"
split_trybuild_drivers
if [ "${#checked[@]}" -eq 0 ]; then
    echo "memcheck: no test binaries were built" >&2
    exit 1
fi
for binary in "${skipped[@]}"; do
    echo "-- valgrind skips $(basename "$binary"): it drives trybuild"
done

# A binary's name without cargo's hash suffix.
name_of() { basename "$1" | sed 's/-[0-9a-f]*$//'; }

# What runs: units (test_units.sh), each as the binary it lives in and its name.
unit_binaries=()
unit_names=()
if [ "$all" -eq 0 ]; then
    mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' scripts/memcheck_ci.list | grep -v '^$')
    for unit in "${wanted[@]}"; do
        found=""
        for binary in "${checked[@]}"; do
            if [ "$(name_of "$binary")" = "${unit%%::*}" ]; then found="$binary"; fi
        done
        if [ -z "$found" ]; then
            echo "memcheck: scripts/memcheck_ci.list names $unit, which is not in a test binary" \
                "of ecs-core: rerun scripts/unsafe_reach.sh --write" >&2
            exit 1
        fi
        unit_binaries+=("$found")
        unit_names+=("$unit")
    done
    echo "-- CI's set: ${#wanted[@]} units of ${#checked[@]} binaries (scripts/memcheck_ci.list; --all for every one)"
else
    for binary in "${checked[@]}"; do
        while read -r unit; do
            unit_binaries+=("$binary")
            unit_names+=("$unit")
        done < <(units_of "$binary")
    done
fi

failed=0
for i in "${!unit_names[@]}"; do
    binary=${unit_binaries[$i]}
    unit=${unit_names[$i]}
    filter_for "$binary" "$unit"
    echo "== valgrind $unit"
    # `query_model` sweeps every query shape over every case: at 8 cases it took 19 minutes
    # on this 2-core machine, most of the whole run, while its iteration paths also run in
    # query_kinds, provenance and disjoint_access_miri. MEMCHECK_QUERY_MODEL_CASES (CI: 1)
    # shortens it alone; unset, it runs as many cases as the rest.
    cases="$ECS_MODEL_CASES"
    case "$unit" in
        queries::query_model) cases="${MEMCHECK_QUERY_MODEL_CASES:-$ECS_MODEL_CASES}" ;;
    esac
    # Panics that tests provoke on purpose unwind normally; valgrind sees nothing wrong.
    # --trace-children: a test that re-runs its own binary in a child process (panic_safety,
    # for scenarios that would abort the runner if they went wrong) is checked in the child
    # too. The child inherits these options, so its errors make it exit 99, and the parent
    # test, which requires the child to pass, fails. A binary that starts no process is
    # checked as before.
    start=$SECONDS
    if ! ECS_MODEL_CASES="$cases" valgrind --quiet --trace-children=yes --error-exitcode=99 \
        --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
        "$binary" --test-threads=1 -q "${filter[@]}"
    then
        echo "!! memcheck failed for $unit ($binary)" >&2
        failed=1
    fi
    echo "   $unit: $((SECONDS - start)) s"
done

if [ "$failed" -ne 0 ]; then
    echo "memcheck: errors found" >&2
    exit 1
fi
echo "memcheck: ${#unit_names[@]} units of ${#checked[@]} test binaries, no errors, no definite leaks" \
    "(${#skipped[@]} that drive trybuild skipped)"

# AddressSanitizer too, when a nightly toolchain is installed (it says so and exits 0 otherwise).
if [ "${ECS_SKIP_ASAN:-0}" != 1 ]; then
    "$(dirname "$0")/asan.sh"
fi
