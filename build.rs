//! Puts the git commit into `ox88 --version` when built from a git checkout. Without git, or
//! from a source tarball, the version is the plain package version.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    // Only this checkout's own .git (a directory, or a file in a worktree): a source tarball
    // unpacked inside some other repository must not take that repository's commit.
    let commit = dir
        .join(".git")
        .exists()
        .then(|| git(&dir, &["rev-parse", "--short=10", "HEAD"]))
        .flatten();
    // Rebuild when HEAD moves: HEAD itself (a checkout) and the branch it names (a commit).
    // A worktree keeps HEAD in its own git dir and branches in the common one.
    if commit.is_some() {
        let abs = |p: String| {
            let p = PathBuf::from(p);
            if p.is_absolute() { p } else { dir.join(p) }
        };
        if let Some(git_dir) = git(&dir, &["rev-parse", "--git-dir"]).map(abs) {
            println!("cargo:rerun-if-changed={}", git_dir.join("HEAD").display());
        }
        if let Some(common) = git(&dir, &["rev-parse", "--git-common-dir"]).map(abs) {
            if let Some(branch) = git(&dir, &["symbolic-ref", "-q", "HEAD"]) {
                let file = common.join(branch);
                if file.exists() {
                    println!("cargo:rerun-if-changed={}", file.display());
                }
            }
            let packed = common.join("packed-refs");
            if packed.exists() {
                println!("cargo:rerun-if-changed={}", packed.display());
            }
        }
    }
    let full = match commit {
        Some(c) => format!("{version} (git {c})"),
        None => version,
    };
    println!("cargo:rustc-env=OX88_VERSION={full}");
}
