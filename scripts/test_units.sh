# Sourced by memcheck.sh and unsafe_reach.sh: ecs-core's tests as units a checker runs and times
# one at a time. A binary under tests/<concept>/ holds one module per file, and its unit is
# `binary::module` (that module's tests); the library's own unit tests (binary `ecs_core`) are
# one unit. Units keep a checker's cost per file, as it was when every file was a binary.

# Prints the units of the test binary at path $1, one per line.
units_of() {
    local binary=$1 name
    name=$(basename "$binary" | sed 's/-[0-9a-f]*$//')
    if [ "$name" = ecs_core ]; then
        echo "$name"
        return
    fi
    "$binary" --list --format terse | sed -n 's/^\([a-z0-9_]*\)::.*: test$/\1/p' | sort -u |
        sed "s/^/$name::/"
}

# Sets the array `filter` to the arguments that make the test binary at path $1 run exactly the
# tests of unit $2. libtest's filters match anywhere in a name (`model::` would also pick
# `merge_model::`), so the unit's tests are listed by name and run with `--exact`.
filter_for() {
    local binary=$1 unit=$2 module names
    filter=()
    case "$unit" in
        *::*)
            module=${unit#*::}
            mapfile -t names < <("$binary" --list --format terse |
                sed -n "s/^\(${module}::.*\): test$/\1/p")
            if [ "${#names[@]}" -eq 0 ]; then
                echo "$unit: $(basename "$binary") has no tests in module $module" >&2
                exit 1
            fi
            filter=(--exact "${names[@]}")
            ;;
    esac
}
