#!/usr/bin/env bash
# Runs ecs-core's test binaries under AddressSanitizer (with LeakSanitizer): any out-of-bounds
# access, use after free, double free or leak fails the run.
#
# Usage: scripts/asan.sh            (property tests shortened: ASan slows debug code ~2-3x)
#        ECS_MODEL_CASES=1000 ECS_FUZZ_CASES=100 scripts/asan.sh
#
# Needs a nightly toolchain (`-Zsanitizer` is unstable). CI never runs this; without nightly,
# or without the nightly's ASan runtime, the script says so and exits 0.
#
# With the `rust-src` component installed (`rustup component add rust-src --toolchain nightly`)
# the standard library is rebuilt instrumented (`-Zbuild-std`); without it (the offline case)
# only ecs-core, the tests and their dependencies are instrumented. That still catches every
# bad access from our code into memory the allocator handed out (ASan replaces malloc/free for
# the whole process), which is where all of ecs-core's unsafe code points.
#
# The binaries that drive trybuild run rustc, not our code, and would inherit the sanitizer flags
# into their own builds, so they are skipped here (found by what they link: trybuild_drivers.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/trybuild_drivers.sh

if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "asan: no nightly toolchain installed (rustup toolchain list); skipping."
    echo "      to run it: rustup toolchain install nightly"
    exit 0
fi

host=$(rustc +nightly -vV | sed -n 's/^host: //p')
sysroot=$(rustc +nightly --print sysroot)
if ! compgen -G "$sysroot/lib/rustlib/$host/lib/*rt.asan*" >/dev/null; then
    echo "asan: the nightly toolchain has no AddressSanitizer runtime for $host; skipping."
    exit 0
fi

build_std=()
if [ -d "$sysroot/lib/rustlib/src/rust/library" ]; then
    build_std=(-Zbuild-std)
    echo "asan: rust-src found: the standard library is rebuilt instrumented (-Zbuild-std)"
else
    echo "asan: no rust-src for nightly (offline): std stays uninstrumented; ecs-core, the tests"
    echo "      and their dependencies are instrumented, and ASan's allocator covers the process"
fi

export RUSTFLAGS="-Zsanitizer=address ${ASAN_EXTRA_RUSTFLAGS:-}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/asan"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1}"
export ECS_MODEL_CASES="${ECS_MODEL_CASES:-200}"
export ECS_FUZZ_CASES="${ECS_FUZZ_CASES:-16}"
export PROPTEST_CASES="${PROPTEST_CASES:-64}"

build() {
    cargo +nightly test -p ecs-core --target "$host" "${build_std[@]}" --lib --tests --no-run \
        --message-format=json 2>"$log"
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! json=$(build); then
    if grep -q "unsafe-allow-abi-mismatch" "$log"; then
        # Newer nightlies refuse to mix sanitized crates with the prebuilt std unless told to.
        echo "asan: retrying with -Cunsafe-allow-abi-mismatch=sanitizer"
        export RUSTFLAGS="$RUSTFLAGS -Cunsafe-allow-abi-mismatch=sanitizer"
        json=$(build) || { cat "$log" >&2; exit 1; }
    else
        cat "$log" >&2
        exit 1
    fi
fi

mapfile -t binaries < <(
    python3 -c '
import json, sys
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if (msg.get("reason") == "compiler-artifact" and msg.get("executable")
            and msg["profile"]["test"]):
        print(msg["executable"])
' <<<"$json"
)
split_trybuild_drivers
if [ "${#checked[@]}" -eq 0 ]; then
    echo "asan: no test binaries were built" >&2
    exit 1
fi
# Make sure the instrumentation is really there, so a green run means something (grep reads
# all of nm's output: with `-q` an early exit would fail the pipe under pipefail).
if ! nm "${checked[0]}" 2>/dev/null | grep "__asan_init" >/dev/null; then
    echo "asan: ${checked[0]} is not instrumented" >&2
    exit 1
fi
for binary in "${skipped[@]}"; do
    echo "-- asan skips $(basename "$binary"): it drives trybuild"
done

# A test that re-runs its own binary in a child process (panic_safety) is checked in the child
# too: the child is the same instrumented binary and inherits ASAN_OPTIONS, so a report there
# makes it exit non-zero, and the parent test, which requires the child to pass, fails.
failed=0
for binary in "${checked[@]}"; do
    echo "== asan $(basename "$binary")"
    if ! "$binary" --test-threads=2 -q; then
        echo "!! asan failed for $binary" >&2
        failed=1
    fi
done

if [ "$failed" -ne 0 ]; then
    echo "asan: errors found" >&2
    exit 1
fi
echo "asan: ${#checked[@]} test binaries, no AddressSanitizer or LeakSanitizer reports" \
    "(${#skipped[@]} that drive trybuild skipped)"
