# Sourced by memcheck.sh and asan.sh: which test binaries drive trybuild.
#
# A binary that drives trybuild runs rustc through a nested cargo, not our code, and that nested
# build inherits what the checker puts in the environment (valgrind's LD_PRELOAD, the sanitizer's
# flags), so the checkers skip it. Whether a binary does is read from the binary itself: trybuild's
# code is linked into it exactly when one of its tests calls trybuild, whatever the file is called.
#
# Skipping a whole binary skips every test in it, so a binary that drives trybuild must hold only
# its trybuild test: a test of our code added beside it would escape the checkers unnoticed, and
# is reported instead.

# Splits the paths in `binaries` into `checked` and `skipped` (arrays the caller reads); exits with
# a message when a binary that drives trybuild holds more than one test, or when `nm` is missing.
split_trybuild_drivers() {
    if ! command -v nm >/dev/null; then
        echo "nm is not installed (apt-get install binutils): it tells which test binaries" \
            "drive trybuild" >&2
        exit 1
    fi
    checked=()
    skipped=()
    local binary tests
    for binary in "${binaries[@]}"; do
        # grep reads all of nm's output: with `-q` an early exit would fail the pipe under pipefail.
        if nm -C --defined-only "$binary" | grep -F 'trybuild::' >/dev/null; then
            tests=$("$binary" --list --format terse | grep -c ': test$' || true)
            if [ "$tests" -ne 1 ]; then
                echo "$(basename "$binary") drives trybuild and holds $tests tests: it is skipped" \
                    "whole, so move every test but the trybuild one to another file" >&2
                exit 1
            fi
            skipped+=("$binary")
        else
            checked+=("$binary")
        fi
    done
}
