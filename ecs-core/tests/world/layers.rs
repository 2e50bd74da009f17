//! The core's layers import only downwards, `World` gets methods in `world/`
//! only, queries never name `World` (ARCHITECTURE.md draws the layers), and
//! only `world/structural/` changes a world's structure.
//!
//! Reads the sources, so it fails the moment a change imports upwards.

use std::fs;
use std::path::{Path, PathBuf};

/// Top-level modules of `ecs-core/src`, lowest first. A module may name only
/// modules before it in this list (and itself).
const LAYERS: &[&str] = &[
    "util",
    "tuning",
    "entity",
    "change",
    "component",
    "observer",
    "error",
    "storage",
    "resource",
    "event",
    "state",
    "time",
    "bundle",
    "group",
    "access",
    "view",
    "query",
    "world",
    "persist",
    "system",
    "schedule",
    "diagnostics",
    "prelude",
];

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("the source directory is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`None` for `lib.rs`).
fn module_of(path: &Path) -> Option<String> {
    let relative = path.strip_prefix(src_dir()).expect("a file under src");
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_owned())
}

/// The text with comments and the insides of string and char literals
/// blanked out (newlines kept), so only code is left to read.
fn blank_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                out.push(blank(chars[i]));
                i += 1;
            }
            out.push_str("  ");
            i += 2;
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && next == Some('\\') {
            // An escaped char literal: blank up to its closing quote.
            out.push(' ');
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                out.push(' ');
                i += 1;
            }
            out.push_str("  ");
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            out.push_str("   ");
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The lines of code outside comments, literals and unit-test modules (which
/// may use anything), with their line numbers.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let code = blank_comments_and_strings(text);
    let mut lines = Vec::new();
    let mut in_tests = false;
    let mut previous_is_cfg_test = false;
    for (n, line) in code.lines().enumerate() {
        let trimmed = line.trim_start();
        if previous_is_cfg_test && trimmed.starts_with("mod ") {
            in_tests = true;
        }
        previous_is_cfg_test = trimmed.starts_with("#[cfg(") && trimmed.contains("test");
        if !in_tests {
            lines.push((n + 1, line.to_owned()));
        }
    }
    lines
}

/// The crate modules a line names: `crate::x`, or the `x` in `crate::{x, ..}`.
fn named_modules(line: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let item = item.trim();
                let head = item.split("::").next().unwrap_or("");
                if !head.is_empty() {
                    names.push(head.to_owned());
                }
            }
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            names.push(rest[..end].to_owned());
        }
    }
    names
}

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|&layer| layer == module)
}

fn sources() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(&src_dir(), &mut files);
    files.sort();
    files
        .into_iter()
        // A `tests.rs` is a unit-test module, which may use anything.
        .filter(|path| !path.ends_with("tests.rs"))
        .map(|path| {
            let text = fs::read_to_string(&path).expect("a readable source file");
            (path, text)
        })
        .collect()
}

#[test]
fn every_top_level_module_has_a_layer() {
    for (path, _) in sources() {
        if let Some(module) = module_of(&path) {
            assert!(
                rank(&module).is_some(),
                "{} is in module `{module}`, which has no place in LAYERS: add it \
                 (and to ARCHITECTURE.md) at the layer it belongs to",
                path.display()
            );
        }
    }
}

#[test]
fn modules_import_only_downwards() {
    let mut upward = Vec::new();
    for (path, text) in sources() {
        let Some(module) = module_of(&path) else {
            continue;
        };
        let Some(own) = rank(&module) else {
            continue;
        };
        for (line_number, line) in code_lines(&text) {
            for named in named_modules(&line) {
                if let Some(theirs) = rank(&named)
                    && theirs > own
                {
                    upward.push(format!(
                        "{}:{line_number}: `{module}` names the higher layer `{named}`",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports against the layers:\n{}",
        upward.join("\n")
    );
}

/// `file:line: code` for every code line that `offends`, in the files whose
/// top-level module `in_scope` picks.
fn offending_lines(
    in_scope: impl Fn(Option<&str>) -> bool,
    offends: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut found = Vec::new();
    for (path, text) in sources() {
        if !in_scope(module_of(&path).as_deref()) {
            continue;
        }
        for (line_number, line) in code_lines(&text) {
            if offends(&line) {
                found.push(format!("{}:{line_number}: {}", path.display(), line.trim()));
            }
        }
    }
    found
}

#[test]
fn world_gets_methods_in_world_only() {
    let strays = offending_lines(
        |module| module != Some("world"),
        |line| {
            let line = line.trim_start();
            // `impl World` itself, not a type whose name starts so (`WorldState`).
            let names_world = line
                .strip_prefix("impl World")
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
            names_world || line.starts_with("impl<") && line.contains(" World ")
        },
    );
    assert!(
        strays.is_empty(),
        "`impl World` outside world/:\n{}",
        strays.join("\n")
    );
}

#[test]
fn queries_never_name_the_world() {
    let named = offending_lines(
        |module| module == Some("query"),
        |line| {
            line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|word| word == "World")
        },
    );
    assert!(
        named.is_empty(),
        "query code naming `World`:\n{}",
        named.join("\n")
    );
}

/// The checker itself: comments and literals are not code.
#[test]
fn comments_and_literals_are_not_code() {
    let code = blank_comments_and_strings(
        "let a = \"crate::world\"; // crate::world\nlet b = '\"'; /* World */ use crate::x;",
    );
    assert!(!code.contains("world") && !code.contains("World"), "{code}");
    assert!(code.contains("use crate::x;"), "{code}");
    assert_eq!(code.lines().count(), 2);
}

/// The checker itself: it finds both forms of a crate path.
#[test]
fn crate_paths_are_found_in_both_forms() {
    assert_eq!(named_modules("use crate::world::World;"), ["world"]);
    assert_eq!(
        named_modules("use crate::{bundle::Bundle, query};"),
        ["bundle", "query"]
    );
    assert_eq!(
        named_modules("Err(crate::error::Error::missing::<T>(e))"),
        ["error"]
    );
    assert!(named_modules("let x = 1;").is_empty());
}

/// The calls that change a world's structure underneath: a storage's
/// membership (values added or removed with their entities), the
/// per-entity component masks, the allocator's ids, and the funnel that
/// keeps them in step. Only `world/structural/` makes them.
const STRUCTURAL_PRIMITIVES: &[&str] = &[
    "split(",
    "Structural",
    "insert_unhooked",
    "remove_unhooked",
    "push_new(",
    "commit_run(",
    "remove_and_drop(",
    "erased_by_id_mut(",
    "erased_mut(",
    ".absorb(",
    ".mark(",
    ".unmark(",
    "mark_all(",
    "clear_all(",
    ".cover(",
    "masks.clear(",
    ".alloc()",
    ".free(",
    "free_all(",
    ".settle(",
    "settle_except(",
];

/// Whether a line of code makes a structural change itself: calls one of
/// [`STRUCTURAL_PRIMITIVES`] or borrows the masks to write them.
fn changes_structure(line: &str) -> bool {
    STRUCTURAL_PRIMITIVES.iter().any(|call| names(line, call))
        || line.contains("&mut") && line.contains("masks")
}

/// Whether `line` names `call` as a whole word (`split(`, not `rsplit(`).
fn names(line: &str, call: &str) -> bool {
    line.match_indices(call).any(|(at, _)| {
        call.starts_with('.')
            || !line[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Whether `path` lies in `world/structural/`, the one door.
fn in_the_door(path: &Path) -> bool {
    path.strip_prefix(src_dir().join("world").join("structural"))
        .is_ok()
}

#[test]
fn only_the_structural_transaction_changes_structure() {
    let world = rank("world").expect("`world` has a layer");
    let mut strays = Vec::new();
    for (path, text) in sources() {
        // Lower layers define the primitives and never reach a world's
        // storages but through the funnel (groups, bundles) or staging
        // storages of their own (snapshot loads).
        let above = module_of(&path)
            .and_then(|module| rank(&module))
            .is_some_and(|layer| layer >= world);
        if !above || in_the_door(&path) {
            continue;
        }
        for (line_number, line) in code_lines(&text) {
            if changes_structure(&line) {
                strays.push(format!("{}:{line_number}: {}", path.display(), line.trim()));
            }
        }
    }
    assert!(
        strays.is_empty(),
        "structural change outside world/structural/ (go through `world.transaction()`):\n{}",
        strays.join("\n")
    );
}

/// The checker itself: it sees the funnel's parts, storage membership,
/// mask writes and id allocation, and passes reads and plain value writes.
#[test]
fn structural_primitives_are_recognised() {
    for line in [
        "let (bundles, mut structural) = world.split();",
        "unsafe { Structural::insert_unhooked(&mut data.masks, &mut data.clock, id, set, e, v) }",
        "storages.erased_by_id_mut(id).remove_and_drop(entity)",
        "self.masks.mark(entity.index(), id);",
        "let masks = &mut *self.masks;",
        "let entity = self.entities.alloc();",
        "self.entities.free(entity)",
    ] {
        assert!(changes_structure(line), "not seen: {line}");
    }
    for line in [
        "self.transaction().insert(entity, component)",
        "held_components(storages, &self.data.masks, entity)",
        "world.get_mut::<T>(entity)",
        "self.data.entities.check(entity)?;",
        "world.settle_reserved();",
        "let mut segments = type_name.rsplit(':');",
    ] {
        assert!(!changes_structure(line), "taken for a change: {line}");
    }
    assert!(in_the_door(
        &src_dir().join("world").join("structural").join("funnel.rs")
    ));
    assert!(!in_the_door(&src_dir().join("world").join("mod.rs")));
}

/// The rules a spawn or insert passes (a live target, relationships that
/// keep their world a forest, requirements without a cycle) and the
/// requirements added after it. Only the door applies them, so no caller
/// can change structure having skipped one.
const STRUCTURAL_RULES: &[&str] = &[
    ".check_bundle(",
    ".check_relationship(",
    ".check_requirements::<",
    ".add_required::<",
    ".add_required_each::<",
];

/// Where the rules are defined, and call one another: the relationship
/// check, and the requirements (a requirement that would break a
/// relationship is left out).
fn defines_the_rules(path: &Path) -> bool {
    let world = src_dir().join("world");
    path == world.join("required.rs") || path == world.join("relationship").join("check.rs")
}

#[test]
fn only_the_door_applies_the_structural_rules() {
    let mut strays = Vec::new();
    for (path, text) in sources() {
        if in_the_door(&path) || defines_the_rules(&path) {
            continue;
        }
        for (line_number, line) in code_lines(&text) {
            if STRUCTURAL_RULES.iter().any(|rule| line.contains(rule)) {
                strays.push(format!("{}:{line_number}: {}", path.display(), line.trim()));
            }
        }
    }
    assert!(
        strays.is_empty(),
        "a structural rule applied outside world/structural/ (call the transaction's \
         `try_spawn`, `try_insert`, ... instead):\n{}",
        strays.join("\n")
    );
}

/// The rules' checker sees the calls a caller would make, and the door's
/// own files are where they may be made.
#[test]
fn structural_rules_are_recognised() {
    for line in [
        "self.check_requirements::<B>()?;",
        "world.check_bundle(None, &bundle)?;",
        "self.world.add_required::<T>(entity);",
        "world.check_relationship(Some(entity), &value)?;",
    ] {
        assert!(
            STRUCTURAL_RULES.iter().any(|rule| line.contains(rule)),
            "not seen: {line}"
        );
    }
    assert!(in_the_door(
        &src_dir().join("world").join("structural").join("rules.rs")
    ));
    assert!(!defines_the_rules(
        &src_dir().join("world").join("typed_view.rs")
    ));
}
