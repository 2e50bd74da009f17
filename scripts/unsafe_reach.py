"""Reads the per-binary coverage unsafe_reach.sh wrote and reports, for every `unsafe` block of
ecs-core/src, which test binaries reach it; then picks the cheapest set of binaries that reaches
every block the whole suite reaches (greedy set cover, cost = the binary's own run time)."""

import pathlib
import re
import sys

out = pathlib.Path(sys.argv[1])
write = len(sys.argv) > 2 and sys.argv[2] == "--write"
root = pathlib.Path.cwd()
src = root / "ecs-core" / "src"

UNSAFE_BLOCK = re.compile(r"\bunsafe\s*\{")


def code_of(line):
    """The line without a trailing `//` comment (good enough: no `//` in our string literals
    sits on a line with an unsafe block)."""
    return line.split("//", 1)[0]


def unsafe_blocks(path):
    """(first line, last line) of each unsafe block, 1-based, by brace matching."""
    lines = path.read_text().splitlines()
    blocks = []
    for number, line in enumerate(lines, 1):
        code = code_of(line)
        match = UNSAFE_BLOCK.search(code)
        if not match:
            continue
        depth = 0
        end = number
        started = False
        for offset, later in enumerate(lines[number - 1 :]):
            text = code_of(later)
            if offset == 0:
                text = text[match.start() :]
            for ch in text:
                if ch == "{":
                    depth += 1
                    started = True
                elif ch == "}":
                    depth -= 1
            if started and depth <= 0:
                end = number + offset
                break
        blocks.append((number, end))
    return blocks


def hits_of(lcov):
    """{absolute file: {line: count}} from an lcov file."""
    hits = {}
    current = None
    for line in lcov.read_text().splitlines():
        if line.startswith("SF:"):
            current = hits.setdefault(str(pathlib.Path(line[3:]).resolve()), {})
        elif line.startswith("DA:") and current is not None:
            number, count = line[3:].split(",")[:2]
            current[int(number)] = current.get(int(number), 0) + int(count)
    return hits


sites = []
for path in sorted(src.rglob("*.rs")):
    for first, last in unsafe_blocks(path):
        sites.append((str(path.resolve()), first, last))

seconds = {}
for line in (out / "profiles" / "seconds").read_text().splitlines():
    name, value = line.split()
    seconds[name] = float(value)

reach = {}  # binary -> set of site indexes
for name in seconds:
    hits = hits_of(out / "profiles" / f"{name.replace('::', '.')}.lcov")
    reached = set()
    for index, (file, first, last) in enumerate(sites):
        counts = hits.get(file, {})
        if any(counts.get(n, 0) > 0 for n in range(first, last + 1)):
            reached.add(index)
    reach[name] = reached

everything = set().union(*reach.values())
chosen = []
left = set(everything)
while left:
    best = max(reach, key=lambda b: (len(reach[b] & left) / max(seconds[b], 0.01), -seconds[b]))
    if not reach[best] & left:
        break
    chosen.append(best)
    left -= reach[best]
# Drop any binary the others already cover, most expensive first.
for name in sorted(chosen, key=lambda b: -seconds[b]):
    rest = set().union(*(reach[b] for b in chosen if b != name)) if len(chosen) > 1 else set()
    if reach[name] <= rest:
        chosen.remove(name)

report = []
report.append(f"{len(sites)} unsafe blocks in ecs-core/src; the whole suite reaches {len(everything)}.")
report.append(
    f"CI's memcheck set: {', '.join(sorted(chosen))} "
    f"({sum(seconds[b] for b in chosen):.1f} s of {sum(seconds.values()):.1f} s uninstrumented-equivalent run time)."
)
report.append("")
report.append("| file | unsafe blocks | reached in CI's set by | lines of blocks no test reaches |")
report.append("|---|---:|---|---|")
by_file = {}
for index, (file, first, last) in enumerate(sites):
    by_file.setdefault(file, []).append(index)
for file, indexes in by_file.items():
    rel = pathlib.Path(file).relative_to(root)
    # Each block is credited to the first binary of the set (in the order
    # the cover picked them) that reaches it.
    reachers = sorted(
        {next(b for b in chosen if i in reach[b]) for i in indexes if i in everything}
    )
    missing = [str(sites[i][1]) for i in indexes if i not in everything]
    report.append(
        f"| `{rel}` | {len(indexes)} | {', '.join(reachers) or '-'} | {', '.join(missing) or '-'} |"
    )
text = "\n".join(report) + "\n"
with open(out / "blocks.tsv", "w") as blocks:
    for index, (file, first, last) in enumerate(sites):
        rel = pathlib.Path(file).relative_to(root)
        reachers = sorted(b for b in reach if index in reach[b])
        blocks.write(f"{rel}:{first}\t{' '.join(reachers)}\n")
(out / "report.md").write_text(text)
print(text)
# Reaching a block is not the whole story for memcheck: these units drive
# the unsafe paths through panics mid-change and hostile input, where a
# block is left early while unwinding. They stay in CI's set beside the cover.
ALSO = {
    "reliability::drops": "every value dropped once, through panicking drops and clears",
    "reliability::fault_injection": "panics injected at every step of structural changes",
    "snapshots::snapshot_hostile": "crafted and corrupted snapshots, with allocation counting",
}
if write:
    (root / "scripts" / "memcheck_ci.list").write_text(
        "# Written by scripts/unsafe_reach.sh --write: the test units (`binary::module`, one file's\n"
        "# tests: scripts/test_units.sh) that together reach every unsafe block of ecs-core/src that\n"
        "# the whole suite reaches, measured with coverage.\n"
        "# CI's memcheck runs these; scripts/memcheck.sh --all runs every unit.\n"
        + "".join(f"{b}\n" for b in sorted(chosen))
        + "# Beside the cover, for the paths they take through unsafe code while unwinding:\n"
        + "".join(f"{b}  # {why}\n" for b, why in ALSO.items() if b not in chosen)
    )
    print("wrote scripts/memcheck_ci.list")
