#!/usr/bin/env bash
# Builds and runs a small game against this repository in each way a game can add it, then
# packages ecs-derive, ecs-core and ecs-inspector as crates.io would receive them.
#
#   1. vendored: the clone at ./ecs, its crates members of the game's workspace
#      (`members = ["game", "ecs/ecs-core", "ecs/ecs-derive"]`); this game also uses ecs-inspector,
#      which joins that workspace unlisted, as a path dependency inside its folder
#   2. a path dependency of a game outside any workspace
#   3. a path dependency of a workspace whose folder holds the clone without listing it
#      (`members = ["game"]`, no `exclude`)
#   4. a git dependency (`git = "file://..."`)
#
# What the games build is this working tree as it is, uncommitted changes and untracked files
# included (ignored ones not): the script commits it into a scratch repository,
# target/layouts/src, at a fixed date, so an unchanged tree is the same commit (cargo then reuses
# its git checkout). Layouts 1 to 3 clone that repository, layout 4 names it as a git dependency.
# On a clean clone, as in CI, the tree is HEAD.
#
# Every build shares one target directory, target/layouts, and each game starts from this
# repository's Cargo.lock, built offline when the registry cache holds the crates (online
# otherwise): registry crates are built once, and each layout compiles only ecs-derive, ecs-core
# (ecs-inspector in layout 1) and the game, in the dev profile, with default features.
#
# Usage: scripts/layouts.sh      One line per layout with its time; on a failure, cargo's
#                                messages and a non-zero exit.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export CARGO_TARGET_DIR="$repo/target/layouts"
export LC_NUMERIC=C

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$work/" in
    "$repo"/*) echo "layouts: the temporary folder $work is inside the repository (set TMPDIR)" >&2; exit 1 ;;
esac
log="$work/cargo.log"

# Seconds since $1 (an $EPOCHREALTIME), one decimal.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

fail() {
    echo "$1 failed:" >&2
    cat "$log" >&2
    exit 1
}

# Runs cargo offline, and online when that failed for want of something not cached (a crate
# missing from the registry cache, or a git dependency's first fetch). Messages go to $log.
cargo_cached() {
    if cargo --offline "$@" >"$log" 2>&1; then
        return 0
    fi
    if grep -q -e '--offline' -e 'offline mode' "$log"; then
        cargo "$@" >"$log" 2>&1
    else
        return 1
    fi
}

# The crates a game builds write out what ecs-bench and examples inherit (a crate that joins a
# game's workspace cannot inherit from this one), and the published ones carry copies of the
# licence files: the copies must equal their originals.
python3 - <<'EOF' || exit 1
import filecmp, os, sys, tomllib

def load(path):
    with open(path, "rb") as f:
        return tomllib.load(f)

root = load("Cargo.toml")["workspace"]
errors = []
for crate in ["ecs-core", "ecs-derive", "ecs-inspector", "ecs-testkit"]:
    manifest = load(f"{crate}/Cargo.toml")
    for key in ["version", "edition", "rust-version", "license"]:
        if manifest["package"].get(key) != root["package"][key]:
            errors.append(f"{crate}/Cargo.toml: package.{key} is {manifest['package'].get(key)!r}, "
                          f"the workspace's is {root['package'][key]!r}")
    if manifest.get("lints") != root["lints"]:
        errors.append(f"{crate}/Cargo.toml: [lints] differ from the root's [workspace.lints]")
for crate in ["ecs-core", "ecs-derive", "ecs-inspector"]:
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"]:
        copy = f"{crate}/{licence}"
        if not (os.path.exists(licence) and os.path.exists(copy)):
            errors.append(f"{copy} or {licence} is missing")
        elif not filecmp.cmp(licence, copy, shallow=False):
            errors.append(f"{copy} differs from {licence}")
for error in errors:
    print(error, file=sys.stderr)
if errors:
    sys.exit(1)
print("manifests: the written-out fields, lints and licence files equal the root's")
EOF

# The working tree, committed into the scratch repository.
src="$CARGO_TARGET_DIR/src"
rm -rf "$src"
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -C "$src" -xf -
git -C "$src" -c init.defaultBranch=main init -q
git -C "$src" add -A
GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
    git -C "$src" -c user.name=layouts -c user.email=layouts@localhost -c commit.gpgsign=false \
    commit -q -m "scripts/layouts.sh: the working tree"
rev=$(git -C "$src" rev-parse HEAD)

# The game: a derived component and query, a system run twice through a Schedule, the result
# checked. With `inspector`, it also starts an ecs-inspector and lets it serve one frame.
write_game() {
    local dir=$1 dependencies=$2 inspector=${3:-}
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "game"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
$dependencies
EOF
    cat >"$dir/src/main.rs" <<'EOF'
use ecs_core::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity {
    x: f32,
    y: f32,
}

#[derive(Query)]
struct Mover<'w> {
    pos: &'w mut Position,
    vel: &'w Velocity,
}

fn movement(mut movers: Query<Mover>) {
    for m in movers.iter_mut() {
        m.pos.x += m.vel.x;
        m.pos.y += m.vel.y;
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new();
    let e = world.spawn((Position { x: 0.0, y: 0.0 }, Velocity { x: 1.0, y: 2.0 }));
    world.spawn(Position { x: 9.0, y: 9.0 });
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, movement)?;
    schedule.run(&mut world)?;
    schedule.run(&mut world)?;
    assert_eq!(*world.get::<Position>(e)?, Position { x: 2.0, y: 4.0 });
    inspect(&mut world, &schedule)?;
    Ok(())
}
EOF
    if [[ -n $inspector ]]; then
        cat >>"$dir/src/main.rs" <<'EOF'

fn inspect(world: &mut World, schedule: &Schedule) -> Result<(), Box<dyn std::error::Error>> {
    let mut inspector = ecs_inspector::Inspector::bind("127.0.0.1:0")?;
    assert_eq!(inspector.serve(world, schedule), 0); // nobody asked: nothing answered
    Ok(())
}
EOF
    else
        cat >>"$dir/src/main.rs" <<'EOF'

fn inspect(_: &mut World, _: &Schedule) -> Result<(), Box<dyn std::error::Error>> {
    Ok(())
}
EOF
    fi
}

# A workspace root of its own for the game, listing `members`.
write_workspace() {
    cat >"$1/Cargo.toml" <<EOF
[workspace]
resolver = "3"
members = [$2]
EOF
}

# Builds and runs the game from `root` (the folder of its Cargo.lock), and says how long it took.
run_layout() {
    local what=$1 root=$2 start=$EPOCHREALTIME
    cp Cargo.lock "$root/Cargo.lock"
    (cd "$root" && cargo_cached run -p game) || fail "$what"
    echo "$what: ran in $(since "$start") s"
}

path_deps='ecs-core = { path = "../ecs/ecs-core" }'

ws="$work/vendored"
mkdir -p "$ws"
git clone -q "$src" "$ws/ecs"
write_workspace "$ws" '"game", "ecs/ecs-core", "ecs/ecs-derive"'
write_game "$ws/game" "$path_deps
ecs-inspector = { path = \"../ecs/ecs-inspector\" }" inspector
run_layout "1. vendored as members of the game's workspace, with ecs-inspector" "$ws"

ws="$work/standalone"
mkdir -p "$ws"
git clone -q "$src" "$ws/ecs"
write_game "$ws/game" "$path_deps"
run_layout "2. path dependency, game outside any workspace" "$ws/game"

ws="$work/unlisted"
mkdir -p "$ws"
git clone -q "$src" "$ws/ecs"
write_workspace "$ws" '"game"'
write_game "$ws/game" "$path_deps"
run_layout "3. path dependency, clone inside the game's workspace folder, unlisted" "$ws"

ws="$work/git"
mkdir -p "$ws"
write_game "$ws/game" "ecs-core = { git = \"file://$src\", rev = \"$rev\" }"
run_layout "4. git dependency (file://, the working tree's scratch commit)" "$ws/game"

# Packaging the crates a game depends on: each is verified against the others just packaged
# (cargo's local overlay registry), which takes only crates that may be published.
# `--allow-dirty`: this checks the packages, it publishes nothing. Cargo's warnings that
# ecs-core's tests are not packaged (they need ecs-testkit, which is not published) are expected.
# Cargo takes a registry crate of a given name and version as unchanging: it reuses the copy it
# unpacked into its home (under a directory named for the overlay's path, one starting with `-`)
# and the build it fingerprinted by version alone. A second run from the same checkout would
# verify ecs-inspector against the ecs-core of the first. Both are removed for our own crates
# (crates.io's are not touched); the builds of this run's layouts are done by now.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/ecs-{derive,core,inspector}-* \
    "$CARGO_TARGET_DIR"/debug/.fingerprint/ecs-{derive,core,inspector}-*
start=$EPOCHREALTIME
cargo_cached package -p ecs-derive -p ecs-core -p ecs-inspector --allow-dirty || fail "cargo package"
echo "cargo package -p ecs-derive -p ecs-core -p ecs-inspector: packaged and verified in $(since "$start") s"
