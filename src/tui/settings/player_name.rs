//! The player's name as the `name` setting and PGN headers take it, and where its default
//! comes from. The club cleans its members' names by its own, stricter rule
//! (`club::text::member_name`: no bidi or zero-width characters, shorter).

/// The longest player name the `name` setting takes, in characters.
pub const NAME_MAX: usize = 40;

/// The login name from the environment (`USER`, then `LOGNAME`), else "Player": the
/// `name` setting's default. `var` reads a variable (the process's environment in use).
pub fn login_name(var: impl Fn(&str) -> Option<String>) -> String {
    ["USER", "LOGNAME"]
        .iter()
        .filter_map(|k| var(k))
        .map(|v| clean_name(&v))
        .find(|v| !v.is_empty())
        .unwrap_or_else(|| "Player".to_string())
}

/// A name as PGN headers may carry it: no control characters, at most `NAME_MAX`
/// characters, trimmed.
pub fn clean_name(text: &str) -> String {
    let kept: String = text.chars().filter(|c| !c.is_control()).collect();
    kept.trim()
        .chars()
        .take(NAME_MAX)
        .collect::<String>()
        .trim()
        .to_string()
}
