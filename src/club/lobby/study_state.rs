//! The club's studies as the owner's thread holds them: each shared as an `Arc`, so a
//! screen's copy costs nothing until the study changes (see `studies.rs` for what is done
//! with them).

use std::sync::Arc;

use crate::club::study::{Study, StudyLimits, StudyRecord};

/// The studies the club holds, by name in lower case (names are the club's, in any case).
#[derive(Default)]
pub(in crate::club) struct Studies {
    all: std::collections::HashMap<String, Arc<Study>>,
    limits: StudyLimits,
}

impl Studies {
    /// The studies the database kept, under today's `limits`.
    pub(super) fn restored(records: &[StudyRecord], limits: StudyLimits) -> Studies {
        let mut all = std::collections::HashMap::new();
        for r in records {
            match Study::from_record(r, limits) {
                Ok(s) => {
                    all.insert(r.name.to_lowercase(), Arc::new(s));
                }
                Err(e) => eprintln!("ox88 serve: study {} cannot be read: {e}", r.name),
            }
        }
        Studies { all, limits }
    }

    pub(super) fn get(&self, name: &str) -> Option<&Arc<Study>> {
        self.all.get(&name.to_lowercase())
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &Arc<Study>> {
        self.all.values()
    }

    pub(super) fn limits(&self) -> StudyLimits {
        self.limits
    }

    pub(super) fn get_mut(&mut self, name: &str) -> Option<&mut Arc<Study>> {
        self.all.get_mut(&name.to_lowercase())
    }

    /// A new study under `name`.
    pub(super) fn insert(&mut self, name: &str, study: Study) {
        self.all.insert(name.to_lowercase(), Arc::new(study));
    }

    pub(super) fn owned_by(&self, member: &str) -> usize {
        self.all.values().filter(|s| s.owner() == member).count()
    }
}
