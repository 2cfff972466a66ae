//! The lines of a settings file that TOML cannot read: found and blanked one by one, so that
//! one bad line costs only its own key and every other line keeps its number.

/// A line of the settings file that TOML cannot read.
#[derive(Debug)]
pub(super) struct BadLine {
    pub(super) line: usize,
    pub(super) key: Option<String>,
    pub(super) message: String,
}

/// `text` with the lines TOML cannot read blanked (the others keep their numbers), and what
/// was wrong with each. Each line is read on its own under its table header; what still
/// breaks the whole (a key given twice) is then blanked line by line, as the parser names it.
pub(super) fn skip_bad_lines(text: &str) -> (String, Vec<BadLine>) {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let mut bad = Vec::new();
    // The table header the lines below belong to; `Err(line)` under a header that was bad.
    let mut header: Result<String, usize> = Ok(String::new());
    let one_line = |m: &str| m.split_whitespace().collect::<Vec<_>>().join(" ");
    for (i, line) in lines.iter_mut().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let is_header = t.starts_with('[');
        let section = match &header {
            Ok(h) => h.clone(),
            Err(_) if is_header => String::new(),
            Err(at) => {
                bad.push(BadLine {
                    line: i + 1,
                    key: None,
                    message: format!("under the table header of line {at}, which is not valid"),
                });
                line.clear();
                continue;
            }
        };
        let alone = if is_header {
            t.to_string()
        } else {
            format!("{section}\n{t}")
        };
        match toml_edit::Document::parse(alone) {
            Ok(_) if is_header => header = Ok(t.to_string()),
            Ok(_) => {}
            Err(e) => {
                if is_header {
                    header = Err(i + 1);
                }
                let key = (!is_header).then(|| key_named(t, &section)).flatten();
                bad.push(BadLine {
                    line: i + 1,
                    key,
                    message: one_line(e.message()),
                });
                line.clear();
            }
        }
    }
    loop {
        let joined = lines.join("\n");
        let Err(e) = toml_edit::Document::parse(joined.as_str()) else {
            bad.sort_by_key(|b| b.line);
            return (joined, bad);
        };
        let at = e.span().map_or(0, |s| {
            joined[..s.start.min(joined.len())].matches('\n').count()
        });
        match lines.get_mut(at).filter(|l| !l.trim().is_empty()) {
            Some(line) => {
                line.clear();
                bad.push(BadLine {
                    line: at + 1,
                    key: None,
                    message: one_line(e.message()),
                });
            }
            // Nothing left to blank there: the file as a whole cannot be read.
            None => {
                bad.push(BadLine {
                    line: at + 1,
                    key: None,
                    message: format!("{} (no setting read)", one_line(e.message())),
                });
                bad.sort_by_key(|b| b.line);
                return (String::new(), bad);
            }
        }
    }
}

/// The key a broken `key = value` line names, when its key part is a plain name
/// (`keys.quit` under `[keys]`).
fn key_named(line: &str, section: &str) -> Option<String> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    let table = section
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim();
    plain.then(|| {
        if table.is_empty() {
            key.to_string()
        } else {
            format!("{table}.{key}")
        }
    })
}
