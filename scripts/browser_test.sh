#!/usr/bin/env bash
# The inspector in a real browser: starts the boids example with --inspect,
# loads its page in headless Chromium and checks the rendered page (entity
# count, a table row with a Position value, the schedule's stages).
#
#   scripts/browser_test.sh                              # check the page
#   scripts/browser_test.sh --screenshot docs/inspector.png   # and take a picture of it
#
# Without Chromium it says so and exits 0 (apt-get install chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

screenshot=""
if [[ "${1:-}" == "--screenshot" ]]; then
    screenshot="${2:?--screenshot needs a file}"
fi

browser=""
for name in chromium chromium-browser google-chrome; do
    if command -v "$name" >/dev/null; then browser="$name"; break; fi
done
if [[ -z "$browser" ]]; then
    echo "browser test skipped: no Chromium on PATH (apt-get install chromium)"
    exit 0
fi

cargo build --release -p examples --example boids
# Beside the build, so nothing that tidies /tmp can take it mid-run.
out="$(mktemp -d target/browser-test.XXXXXX)"
boids_pid=""
cleanup() {
    if [[ -n "$boids_pid" ]]; then kill "$boids_pid" 2>/dev/null || true; wait "$boids_pid" 2>/dev/null || true; fi
    rm -rf "$out"
}
trap cleanup EXIT

target/release/examples/boids --inspect 127.0.0.1:0 --boids 5000 >"$out/boids.log" 2>/dev/null &
boids_pid=$!
url=""
for _ in $(seq 1 300); do
    url="$(sed -n 's/^inspector: //p' "$out/boids.log")"
    [[ -n "$url" ]] && break
    sleep 0.1
done
[[ -n "$url" ]] || { echo "boids did not print the inspector's URL"; exit 1; }
echo "boids serves the inspector at $url"

flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run
       --disable-component-update --disable-sync --user-data-dir="$(realpath "$out")/profile" --virtual-time-budget=6000)
timeout 120 "$browser" "${flags[@]}" --dump-dom "$url" >"$out/dom.html" 2>/dev/null

fail() { echo "browser test failed: $1"; exit 1; }
count="$(grep -o '<b id="entity-count">[0-9]*' "$out/dom.html" | grep -o '[0-9]*$' || true)"
[[ -n "$count" && "$count" -gt 5000 ]] || fail "the page shows no entity count over 5000 (got '${count}')"
grep -q 'Position(Vec2 { x: ' "$out/dom.html" || fail "no table row shows a Position value"
for stage in First FixedUpdate Last; do
    grep -q "<h3>$stage · " "$out/dom.html" || fail "the schedule does not show stage $stage"
done
echo "the page shows $count entities, Position values and the stages First, FixedUpdate, Last"

if [[ -n "$screenshot" ]]; then
    timeout 120 "$browser" "${flags[@]}" --hide-scrollbars --window-size=1400,1000 \
        --screenshot="$(realpath -m "$screenshot")" "$url" 2>/dev/null
    echo "wrote $screenshot"
fi
echo "browser test passed"
