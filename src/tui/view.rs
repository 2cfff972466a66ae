//! The views the right-hand side can show: the log and sort pane (the default), the
//! evaluation, the E chart or the lab. F8 cycles them and `:view` names one; at 120×40 and
//! larger the evaluation and the chart have places of their own, and a view other than the
//! log gives their strip its full height (the lab takes it).

/// Which view the screen gives the right-hand side (at 80×24 it replaces the log and sort
/// panes; on larger screens the evaluation and the chart have panes of their own, which a
/// view shows in full).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View {
    #[default]
    Log,
    Lab,
    Eval,
    Chart,
}

impl View {
    pub const ALL: [View; 4] = [View::Log, View::Eval, View::Chart, View::Lab];

    pub fn name(self) -> &'static str {
        match self {
            View::Log => "log",
            View::Lab => "lab",
            View::Eval => "eval",
            View::Chart => "chart",
        }
    }

    /// The next view in the cycle of the view key.
    pub fn next(self) -> View {
        let i = View::ALL.iter().position(|v| *v == self).unwrap_or(0);
        View::ALL[(i + 1) % View::ALL.len()]
    }

    pub fn parse(text: &str) -> Result<View, String> {
        let t = text.trim().to_ascii_lowercase();
        View::ALL
            .into_iter()
            .find(|v| v.name() == t)
            .ok_or_else(|| format!("{text}: not a view (log, eval, chart, lab)"))
    }
}
