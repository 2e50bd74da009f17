//! Records, for the compare binary's report, the compiler that built it and the
//! versions of the peer libraries that Cargo.lock resolved.

use std::process::Command;

/// The peer libraries whose resolved versions the report names.
const PEERS: [&str; 6] = ["hecs", "bevy_ecs", "shipyard", "sparsey", "specs", "legion"];

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map_or_else(|| "unknown".into(), |v| v.trim().to_owned());
    println!("cargo:rustc-env=ECS_BENCH_RUSTC_VERSION={version}");

    let lock_path = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock");
    println!("cargo:rerun-if-changed={lock_path}");
    let lock = std::fs::read_to_string(lock_path).unwrap_or_default();
    let versions: Vec<String> = PEERS
        .iter()
        .map(|peer| format!("{peer} {}", locked_version(&lock, peer).unwrap_or("?")))
        .collect();
    println!(
        "cargo:rustc-env=ECS_BENCH_PEER_VERSIONS={}",
        versions.join(", ")
    );
    println!("cargo:rerun-if-changed=build.rs");
}

/// The version Cargo.lock records for the package `name`.
fn locked_version<'a>(lock: &'a str, name: &str) -> Option<&'a str> {
    let header = format!("name = \"{name}\"\nversion = \"");
    let start = lock.find(&header)? + header.len();
    let len = lock[start..].find('"')?;
    Some(&lock[start..start + len])
}
