//! The keys the server reads and keeps: the players' authorized_keys file, the server's own
//! host key (made on first start, kept private to its owner) and a player's id from a key.

use std::path::Path;

use anyhow::Context;
use russh::keys::ssh_key::{self, LineEnding};
use russh::keys::{Algorithm, HashAlg, PrivateKey, PublicKey};

/// The keys of an OpenSSH authorized_keys file (options such as `from=` are not enforced:
/// the file names who may play, nothing more). A line that is not a key is an error naming
/// its number, so a typo never silently locks someone out.
pub fn parse_authorized_keys(text: &str) -> Result<Vec<PublicKey>, String> {
    let mut keys = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let entry = ssh_key::authorized_keys::AuthorizedKeys::new(line)
            .next()
            .ok_or_else(|| format!("line {}: no key", n + 1))?
            .map_err(|e| format!("line {}: not a public key ({e})", n + 1))?;
        keys.push(entry.public_key().clone());
    }
    if keys.is_empty() {
        return Err("no keys: nobody could log in (use --open to let anyone in)".into());
    }
    Ok(keys)
}

/// The host key at `path`, made (ed25519, mode 0600) if there is none yet, so clients see
/// the same server every time.
pub fn load_or_make_host_key(path: &Path) -> anyhow::Result<PrivateKey> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            warn_if_readable_by_others(path);
            return PrivateKey::from_openssh(text.as_bytes()).map_err(|e| {
                anyhow::anyhow!("{}: not an OpenSSH private key ({e})", path.display())
            });
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(anyhow::anyhow!("cannot read {}: {e}", path.display())),
    }
    let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)
        .map_err(|e| anyhow::anyhow!("cannot make a host key: {e}"))?;
    let text = key
        .to_openssh(LineEnding::LF)
        .map_err(|e| anyhow::anyhow!("cannot encode the host key: {e}"))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    write_private(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!(
        "ox88 serve: made the host key {} ({})",
        path.display(),
        key.public_key().fingerprint(HashAlg::Sha256)
    );
    Ok(key)
}

/// A host key others can read is a key others can use to pose as this server.
fn warn_if_readable_by_others(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::metadata(path) {
            let mode = meta.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                eprintln!(
                    "ox88 serve: warning: {} has mode {mode:o}; others may read the host key (chmod 600 it)",
                    path.display()
                );
            }
        }
    }
}

/// Creates `path` readable by its owner only; never replaces an existing file.
fn write_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options.open(path)?;
    f.write_all(contents)?;
    f.sync_all()
}

/// A player's directory name: the key's SHA-256 fingerprint in hex (no `/` or `+`).
pub fn player_id(key: &PublicKey) -> String {
    let fp = key.fingerprint(HashAlg::Sha256);
    let hex: String = fp.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
    format!("key-{hex}")
}
