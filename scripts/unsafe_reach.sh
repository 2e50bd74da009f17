#!/usr/bin/env bash
# Which of ecs-core's test units (one file's tests: test_units.sh) reach each `unsafe` block, measured with LLVM's source-based
# coverage, and the cheapest set of units that together reach every block the whole suite
# reaches. memcheck.sh runs that set in CI (scripts/memcheck_ci.list); ARCHITECTURE.md's
# "Unsafe paths and the tests that reach them" is this script's report.
#
# Usage: scripts/unsafe_reach.sh            (writes target/unsafe-reach/report.md and prints it)
#        scripts/unsafe_reach.sh --write    (also rewrites scripts/memcheck_ci.list)
# Needs the llvm-tools component (rustup component add llvm-tools). The binaries run with the
# case counts CI's memcheck uses, so the set is chosen for the run it stands in for.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/trybuild_drivers.sh
source scripts/test_units.sh

sysroot=$(rustc --print sysroot)
tools="$sysroot/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin"
if [ ! -x "$tools/llvm-cov" ]; then
    echo "llvm-cov is missing: rustup component add llvm-tools" >&2
    exit 1
fi

out=target/unsafe-reach
rm -rf "$out/profiles" "$out/build"
mkdir -p "$out/profiles" "$out/build"
export CARGO_TARGET_DIR=target/coverage
export RUSTFLAGS="-C instrument-coverage"
# Build scripts and proc macros are instrumented too: their profiles go here, not into the tree.
export LLVM_PROFILE_FILE="$PWD/$out/build/%p-%m.profraw"
export ECS_MODEL_CASES=8 ECS_FUZZ_CASES=2 ECS_MERGE_CASES=8 SNAPSHOT_CASES=16 PROPTEST_CASES=40

# Built first with cargo's messages shown, so a failed build stops here instead of listing
# fewer binaries.
cargo test -p ecs-core --features serde --no-run --quiet
mapfile -t binaries < <(
    cargo test -p ecs-core --features serde --no-run --message-format=json 2>/dev/null |
        python3 -c '
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("reason") == "compiler-artifact" and msg.get("executable") and msg["profile"]["test"]:
        print(msg["executable"])
'
)
split_trybuild_drivers

for binary in "${checked[@]}"; do
    while read -r unit; do
        filter_for "$binary" "$unit"
        # A file name for the unit's profiles.
        name=${unit//::/.}
        start=$(date +%s.%N)
        LLVM_PROFILE_FILE="$out/profiles/$name-%p-%m.profraw" "$binary" --test-threads=1 -q \
            "${filter[@]}" >/dev/null
        end=$(date +%s.%N)
        "$tools/llvm-profdata" merge -sparse "$out/profiles/$name"-*.profraw -o "$out/profiles/$name.profdata"
        "$tools/llvm-cov" export --format=lcov --instr-profile="$out/profiles/$name.profdata" \
            "$binary" --ignore-filename-regex='/(\.cargo|rustc|\.rustup)/' > "$out/profiles/$name.lcov"
        echo "$unit $(python3 -c "print(round($end - $start, 3))")" >> "$out/profiles/seconds"
        echo "covered $unit"
    done < <(units_of "$binary")
done

python3 scripts/unsafe_reach.py "$out" "${1:-}"
