//! The club itself: who is online, the rooms by name, seeks and challenges.

/// The club.
pub struct Club {}

/// One viewer's hold on the club.
pub struct Viewer {}

/// The lobby as a viewer draws it.
#[derive(Clone, Debug, Default)]
pub struct LobbyView {}
