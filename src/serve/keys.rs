//! The keys the server reads and keeps: the players' authorized_keys file, the server's own
//! host key (made on first start, kept private to its owner) and a player's id from a key.

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use anyhow::Context;
use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, HashAlg, PrivateKey, PublicKey};

/// The keys let in, as an OpenSSH authorized_keys file lists them, with the file they
/// were read from (read again on SIGHUP).
#[derive(Clone, Debug, Default)]
pub struct AuthorizedKeys {
    entries: Vec<AuthorizedKey>,
    file: Option<PathBuf>,
}

/// One line of the file: a key, and where it may log in from.
#[derive(Clone, Debug)]
pub struct AuthorizedKey {
    key: PublicKey,
    /// `from="…"`: the addresses it may come from (none: anywhere).
    from: Option<FromList>,
    /// The line's number in the file (1 for the first).
    line: usize,
}

/// Whether a key may log in from an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    /// No line of the file lists the key.
    NotListed,
    /// Listed on these lines, and each one's `from=` leaves the address out.
    NotFrom(Vec<usize>),
}

impl AuthorizedKeys {
    /// These keys, from anywhere (no file behind them).
    pub fn of(keys: Vec<PublicKey>) -> AuthorizedKeys {
        let entries = keys
            .into_iter()
            .enumerate()
            .map(|(i, key)| AuthorizedKey {
                key,
                from: None,
                line: i + 1,
            })
            .collect();
        AuthorizedKeys {
            entries,
            file: None,
        }
    }

    /// The keys of the file at `path`; an error names the file and the line.
    pub fn read(path: &Path) -> anyhow::Result<AuthorizedKeys> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let entries =
            parse_authorized_keys(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(AuthorizedKeys {
            entries,
            file: Some(path.to_path_buf()),
        })
    }

    /// The file the keys were read from, if any.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// May `key` log in from `ip`? As sshd decides: any line listing the key whose
    /// options allow the address lets it in.
    pub fn verdict(&self, key: &PublicKey, ip: IpAddr) -> Verdict {
        let mut refused = Vec::new();
        for e in self
            .entries
            .iter()
            .filter(|e| e.key.key_data() == key.key_data())
        {
            match &e.from {
                Some(from) if !from.allows(ip) => refused.push(e.line),
                _ => return Verdict::Allowed,
            }
        }
        if refused.is_empty() {
            Verdict::NotListed
        } else {
            Verdict::NotFrom(refused)
        }
    }
}

/// The lines of an OpenSSH authorized_keys file, each a key with its options. Blank lines
/// and `#` comments are skipped. A line that is not a key, or has an option the club cannot
/// honour, is an error naming its number, so a typo never silently locks someone out and a
/// restriction is never silently dropped.
pub fn parse_authorized_keys(text: &str) -> Result<Vec<AuthorizedKey>, String> {
    let mut keys = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let entry = parse_line(line, n + 1).map_err(|e| format!("line {}: {e}", n + 1))?;
        keys.push(entry);
    }
    if keys.is_empty() {
        return Err("no keys: nobody could log in (use --open to let anyone in)".into());
    }
    Ok(keys)
}

fn parse_line(line: &str, number: usize) -> Result<AuthorizedKey, String> {
    let first = line.split_whitespace().next().unwrap_or("");
    // Options come first unless the line starts with the key's type.
    let (options, key_text) = if first.parse::<Algorithm>().is_ok() {
        ("", line)
    } else {
        let end = options_end(line)?;
        (&line[..end], line[end..].trim_start())
    };
    let key = PublicKey::from_openssh(key_text).map_err(|e| format!("not a public key ({e})"))?;
    let mut from = None;
    for option in split_options(options)? {
        let (name, value) = match option.split_once('=') {
            Some((name, value)) => (name, Some(unquote(value)?)),
            None => (option, None),
        };
        match (name.to_ascii_lowercase().as_str(), value) {
            ("from", Some(patterns)) => from = Some(FromList::parse(&patterns)?),
            // What these deny, the club never grants: no forwarding of any kind, no agent,
            // no X11, no rc file, and no program on a terminal of the server's (the board
            // is drawn by ox88 itself into the channel).
            (
                "restrict"
                | "no-agent-forwarding"
                | "no-port-forwarding"
                | "no-x11-forwarding"
                | "no-user-rc"
                | "no-pty"
                | "pty",
                None,
            ) => {}
            ("command", _) => {
                return Err(
                    "command=\"…\" cannot be honoured: the club runs no commands (remove the \
                     option, or the line)"
                        .into(),
                );
            }
            _ => {
                return Err(format!(
                    "option {option:?} cannot be honoured here (the club knows from=\"…\", \
                     restrict and the no-… options): remove it, or the line"
                ));
            }
        }
    }
    Ok(AuthorizedKey {
        key,
        from,
        line: number,
    })
}

/// The double quote, which encloses an option's value (named: a quote character literal
/// reads as the start of a string to simple tools).
const QUOTE: char = '\u{22}';

/// Where the options end: the first blank outside double quotes.
fn options_end(line: &str) -> Result<usize, String> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            QUOTE => quoted = !quoted,
            c if c.is_whitespace() && !quoted => return Ok(i),
            _ => {}
        }
    }
    Err(if quoted {
        "a quote in the options is never closed".into()
    } else {
        "no key after the options".into()
    })
}

/// The options, split at the commas outside double quotes.
fn split_options(options: &str) -> Result<Vec<&str>, String> {
    if options.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let (mut quoted, mut escaped, mut start) = (false, false, 0);
    for (i, c) in options.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            QUOTE => quoted = !quoted,
            ',' if !quoted => {
                out.push(&options[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&options[start..]);
    if out.iter().any(|o| o.is_empty()) {
        return Err("an empty option (two commas, or one at an end)".into());
    }
    Ok(out)
}

/// An option's value: `"text"` with `\"` for a quote inside.
fn unquote(value: &str) -> Result<String, String> {
    let inner = value
        .strip_prefix(QUOTE)
        .and_then(|v| v.strip_suffix(QUOTE))
        .filter(|_| value.len() >= 2)
        .ok_or_else(|| format!("{value}: an option's value is written in double quotes"))?;
    Ok(inner.replace("\\\"", "\""))
}

/// A `from="…"` list as sshd reads it: patterns separated by commas, each an address with
/// `*` and `?` wildcards or an address block in CIDR form (`10.0.0.0/8`), either negated
/// by a leading `!`. A connection is let in when some pattern matches its address and no
/// negated one does. Host names are not looked up (as sshd does by default, `UseDNS no`):
/// a pattern is matched against the address written out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromList {
    patterns: Vec<(bool, AddrPattern)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum AddrPattern {
    /// A wildcard pattern over the address's text (lower case).
    Text(String),
    /// An address block: the network and its prefix length.
    Block(IpAddr, u8),
}

impl FromList {
    pub fn parse(list: &str) -> Result<FromList, String> {
        let mut patterns = Vec::new();
        for p in list.split(',') {
            let p = p.trim();
            let (negated, p) = match p.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, p),
            };
            if p.is_empty() {
                return Err(format!("from=\"{list}\": an empty pattern"));
            }
            let pattern = match p.split_once('/') {
                Some((addr, len)) => {
                    block(addr, len).map_err(|e| format!("from=\"{list}\": {p}: {e}"))?
                }
                None => AddrPattern::Text(p.to_ascii_lowercase()),
            };
            patterns.push((negated, pattern));
        }
        Ok(FromList { patterns })
    }

    /// Whether a connection from `ip` is let in.
    pub fn allows(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        let text = ip.to_string();
        let mut matched = false;
        for (negated, p) in &self.patterns {
            let hit = match p {
                AddrPattern::Text(pattern) => wildcard(pattern.as_bytes(), text.as_bytes()),
                AddrPattern::Block(net, len) => in_block(ip, *net, *len),
            };
            if hit && *negated {
                return false;
            }
            matched |= hit;
        }
        matched
    }
}

fn block(addr: &str, len: &str) -> Result<AddrPattern, String> {
    let net: IpAddr = addr
        .parse()
        .map_err(|_| "not an address block (like 10.0.0.0/8)".to_string())?;
    let bits = if net.is_ipv4() { 32 } else { 128 };
    let len: u8 = len
        .parse()
        .ok()
        .filter(|&l| l <= bits)
        .ok_or_else(|| format!("the prefix length is 0 to {bits}"))?;
    if masked(net, len) != bits_of(net) {
        return Err("bits are set past the prefix length (the block starts lower)".into());
    }
    Ok(AddrPattern::Block(net, len))
}

fn bits_of(ip: IpAddr) -> u128 {
    match ip {
        IpAddr::V4(a) => u32::from(a) as u128,
        IpAddr::V6(a) => u128::from(a),
    }
}

/// `ip`'s bits with all past the first `len` cleared.
fn masked(ip: IpAddr, len: u8) -> u128 {
    let width = if ip.is_ipv4() { 32 } else { 128 };
    let keep = u32::from(len.min(width));
    let drop = u32::from(width) - keep;
    if drop >= 128 {
        0
    } else {
        bits_of(ip) >> drop << drop
    }
}

fn in_block(ip: IpAddr, net: IpAddr, len: u8) -> bool {
    ip.is_ipv4() == net.is_ipv4() && masked(ip, len) == masked(net, len)
}

/// `*` (any run of characters) and `?` (any one) over `text`; case as given.
fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    // Where the last `*` was, and the text position it is tried from next.
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
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
