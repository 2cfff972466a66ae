//! The club's studies on the owner's thread: opened or joined by name, left, acted on by
//! those with the right, and everyone in one woken when it changes. A viewer is in the
//! lobby, a room or a study, never two at once. Every change is handed to the writer, so a
//! restart opens each study where its cursor was.

use std::sync::Arc;

use super::owner::Owner;
use crate::club::ClubError;
use crate::club::study::{Study, StudyAction, StudyRecord};

impl Owner {
    /// The study viewer `id` is in, by name.
    pub(super) fn study_of(&self, id: u64) -> Option<String> {
        self.viewers.get(&id).and_then(|e| e.study.clone())
    }

    /// The study viewer `id` is in, as it stands.
    pub(super) fn study_view(&self, id: u64) -> Option<Arc<Study>> {
        let name = self.study_of(id)?;
        self.studies.get(&name).cloned()
    }

    /// Viewer `id` opens study `name` (made theirs if there is none by that name) or joins
    /// it: out of their room, or the study they were in, first.
    pub(super) fn study_open(&mut self, id: u64, name: &str) -> Result<String, ClubError> {
        let Some(e) = self.viewers.get(&id) else {
            return Err(ClubError::new("you have left the club"));
        };
        let member = e.member.clone();
        if e.study
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case(name))
        {
            return Ok(format!("you are in study {name}"));
        }
        let limits = self.studies.limits();
        let said = match self.studies.get(name) {
            Some(s) => {
                if !s.may_enter(&member.id) {
                    return Err(ClubError::new(format!(
                        "study {} is private: only {} and those given the right come in",
                        s.name(),
                        s.owner_name()
                    )));
                }
                if s.present().len() >= limits.members {
                    return Err(ClubError::new(format!(
                        "study {} holds as many members as it may ({})",
                        s.name(),
                        limits.members
                    )));
                }
                let right = if s.may_move(&member.id) {
                    "you may move"
                } else {
                    "you follow its cursor (Ctrl+B browses on your own)"
                };
                format!("study {} of {}: {right}", s.name(), s.owner_name())
            }
            None => {
                if member.is_visitor() || member.is_bot() {
                    return Err(ClubError::new(
                        "only members with a key keep studies: sign in with your SSH key",
                    ));
                }
                if self.studies.owned_by(&member.id) >= limits.per_member {
                    return Err(ClubError::new(format!(
                        "you own {} studies, the most a member may: ox88 club studies lists them",
                        limits.per_member
                    )));
                }
                let s = Study::new(name, &member.id, &member.name, limits);
                self.studies.insert(name, s.clone());
                self.keep_study(s.record());
                format!(
                    "study {name} is yours: moves you play are kept; :give NAME lets another move"
                )
            }
        };
        if let Some(room) = self.room_name(id) {
            self.leave_seat(id, &room);
        }
        self.study_leave(id);
        let key = name.to_lowercase();
        if let Some(e) = self.viewers.get_mut(&id) {
            e.study = Some(key.clone());
        }
        self.study_present(&key);
        Ok(said)
    }

    /// Viewer `id` leaves their study, to the lobby.
    pub(super) fn study_leave(&mut self, id: u64) {
        let Some(name) = self.study_of(id) else {
            return;
        };
        if let Some(e) = self.viewers.get_mut(&id) {
            e.study = None;
        }
        self.wake_all(vec![id]);
        self.study_present(&name);
    }

    /// Who is in study `name` is said again, and they are woken.
    fn study_present(&mut self, name: &str) {
        let mut names: Vec<String> = self
            .viewers
            .values()
            .filter(|e| e.study.as_deref() == Some(name))
            .map(|e| e.member.name.clone())
            .collect();
        names.sort();
        names.dedup();
        if let Some(s) = self.studies.get_mut(name) {
            Arc::make_mut(s).set_present(names);
        }
        self.study_changed(name);
    }

    /// Everyone in study `name` is woken, and the lobby lists it again.
    fn study_changed(&mut self, name: &str) {
        let inside: Vec<u64> = self
            .viewers
            .iter()
            .filter(|(_, e)| e.study.as_deref() == Some(name))
            .map(|(&id, _)| id)
            .collect();
        self.wake_all(inside);
        self.lobby_changed();
    }

    /// Does what viewer `id` asks of their study.
    pub(super) fn study_act(&mut self, id: u64, action: StudyAction) -> Result<String, ClubError> {
        let name = self
            .study_of(id)
            .ok_or_else(|| ClubError::new("you are in no study: :study NAME opens one"))?;
        let member = self.viewers[&id].member.id.clone();
        let keep = action.needs_right();
        let s = self
            .studies
            .get_mut(&name)
            .ok_or_else(|| ClubError::new("the study is gone"))?;
        let before = s.version();
        let said = Arc::make_mut(s).act(&member, action)?;
        let changed = s.version() != before;
        let record = (changed && keep).then(|| s.record());
        if let Some(record) = record {
            self.keep_study(record);
        }
        if changed {
            self.study_changed(&name);
        }
        Ok(said)
    }

    /// The owner of viewer `id`'s study gives (`give`) or takes the right to move to
    /// member `who` (`(member id, name)`, found by the viewer's handle).
    pub(super) fn study_right(
        &mut self,
        id: u64,
        who: (String, String),
        give: bool,
    ) -> Result<String, ClubError> {
        let name = self
            .study_of(id)
            .ok_or_else(|| ClubError::new("you are in no study: :study NAME opens one"))?;
        let member = self.viewers[&id].member.id.clone();
        let s = self
            .studies
            .get_mut(&name)
            .ok_or_else(|| ClubError::new("the study is gone"))?;
        let s = Arc::make_mut(s);
        let said = if give {
            s.give(&member, &who.0, &who.1)?
        } else {
            s.take(&member, &who.0, &who.1)?
        };
        let record = s.record();
        self.keep_study(record);
        // The one given or denied the right is told, wherever they are.
        self.tell(vec![(who.0, said.clone())]);
        self.study_changed(&name);
        Ok(said)
    }

    /// The study handed to the writer's thread: kept in the database after the screens
    /// are told.
    fn keep_study(&self, record: StudyRecord) {
        self.writer.post(move |store| {
            if let Err(e) = store.save_study(&record) {
                eprintln!("ox88 serve: study {}: {e}", record.name);
            }
        });
    }

    /// The member online under `name` (any case): `(member id, name)`.
    pub(super) fn member_named(&self, name: &str) -> Option<(String, String)> {
        self.viewers
            .values()
            .find(|e| crate::club::text::same_name(&e.member.name, name))
            .map(|e| (e.member.id.clone(), e.member.name.clone()))
    }
}
