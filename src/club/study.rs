//! A study in the club: chapters of move trees shared by everyone in it, with one cursor that
//! every member follows, and the rights that say who may change them.
//!
//! The owner may move (play, step the shared cursor, comment, mark, promote, delete, add
//! chapters) and gives that right to contributors or takes it back; the owner's own right is
//! never taken. Everyone else follows the cursor, and may step away to browse on their own
//! screen (that is the screen's business: nothing of it reaches the study). Plain data with
//! no thread, no clock and no store: the club's owner thread holds each study and decides
//! who is asking; [`StudyRecord`] is what the database keeps, each chapter as PGN with its
//! cursor as the moves that reach it, so a restart opens the study where its cursor was.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::ClubError;
use crate::chess::{Board, Move};
use crate::engine::Score;
use crate::game::study::{Arrow, Glyph, Mark, NodeId, Notes, ROOT, StudyTree, pgn};

/// A study's caps (the server's flags set them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StudyLimits {
    /// Studies one member may own.
    pub per_member: usize,
    /// Chapters in one study.
    pub chapters: usize,
    /// Moves in one chapter (variations included).
    pub moves: usize,
    /// Characters in one comment.
    pub comment: usize,
    /// Members in one study at once.
    pub members: usize,
}

impl Default for StudyLimits {
    fn default() -> StudyLimits {
        StudyLimits {
            per_member: 20,
            chapters: 64,
            moves: 2000,
            comment: 1000,
            members: 100,
        }
    }
}

/// The most characters a chapter's name keeps.
pub const CHAPTER_NAME_MAX: usize = 40;

/// A pasted or read PGN's cap.
pub const PGN_MAX: usize = 64 * 1024;

/// One chapter: its tree and the shared cursor in it.
#[derive(Clone)]
pub struct Chapter {
    name: String,
    tree: StudyTree,
    cursor: NodeId,
    /// How deep the evaluation kept on a node was searched (a deeper one replaces it).
    eval_depths: HashMap<NodeId, u32>,
}

impl Chapter {
    fn new(name: String, tree: StudyTree) -> Chapter {
        Chapter {
            name,
            tree,
            cursor: ROOT,
            eval_depths: HashMap::new(),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn tree(&self) -> &StudyTree {
        &self.tree
    }

    /// The shared cursor.
    pub fn cursor(&self) -> NodeId {
        self.cursor
    }
}

/// Where the shared cursor steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// One move back.
    Back,
    /// One move on, along the main line of what follows.
    Forward,
    /// To the chapter's start.
    First,
    /// To the end of the line the cursor is on.
    Last,
    /// To a node of the chapter (a member's browsing brought back to the room).
    To(NodeId),
}

/// Where a new chapter starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The standard start position.
    Start,
    /// A position as FEN.
    Fen(String),
    /// A game as PGN (its first game; variations and comments kept).
    Pgn(String),
}

/// What a member asks of a study.
#[derive(Clone, Debug, PartialEq)]
pub enum StudyAction {
    /// A move (SAN or coordinates) at the cursor: followed if it is there, else a variation.
    Play(String),
    Step(Step),
    Comment(String),
    Glyph(Glyph),
    Square(crate::chess::Square, Mark),
    Arrow(Arrow),
    /// The cursor's variation made the main line.
    Promote,
    /// The cursor's move and all after it deleted.
    Delete,
    Chapter {
        name: String,
        source: Source,
    },
    /// To chapter `n` (from 0).
    Switch(usize),
    /// Only the owner and contributors may come in (`true`), or every member.
    Private(bool),
    /// What the room's analysis found at a node, kept when deeper than what was there.
    Eval {
        chapter: usize,
        node: NodeId,
        score: Score,
        depth: u32,
    },
}

impl StudyAction {
    /// Does this action need the right to move? (An evaluation from the room's shared
    /// search does not: it changes nobody's view.)
    pub fn needs_right(&self) -> bool {
        !matches!(self, StudyAction::Eval { .. })
    }
}

/// A study: its chapters, who owns it and who may move.
#[derive(Clone)]
pub struct Study {
    name: String,
    owner: String,
    owner_name: String,
    /// `(member id, name)` of those given the right to move.
    contributors: Vec<(String, String)>,
    private: bool,
    chapters: Vec<Chapter>,
    current: usize,
    limits: StudyLimits,
    /// Raised on every change: a screen copies the study again when it differs.
    version: u64,
    /// Names of the members in it now (the club keeps it).
    present: Vec<String>,
}

impl std::fmt::Debug for Study {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Study")
            .field("name", &self.name)
            .field("owner", &self.owner_name)
            .field("chapters", &self.chapters.len())
            .field("version", &self.version)
            .finish()
    }
}

/// A study's name: as a room's (letters, digits, `-`, `_`).
pub fn study_name(text: &str) -> Result<String, ClubError> {
    super::text::room_name(text)
        .map_err(|e| ClubError::new(e.0.replace("a room name", "a study's name")))
}

/// A chapter's name, cleaned as chat is and cut to [`CHAPTER_NAME_MAX`].
fn chapter_name(text: &str) -> Result<String, ClubError> {
    let clean = super::text::chat_line(text)
        .map_err(|_| ClubError::new("a chapter needs a name: :chapter NAME [FEN | file.pgn]"))?;
    Ok(clean.chars().take(CHAPTER_NAME_MAX).collect())
}

impl Study {
    /// A new study of `owner`'s with one chapter from the start position.
    pub fn new(name: &str, owner: &str, owner_name: &str, limits: StudyLimits) -> Study {
        Study {
            name: name.to_string(),
            owner: owner.to_string(),
            owner_name: owner_name.to_string(),
            contributors: Vec::new(),
            private: false,
            chapters: vec![Chapter::new(
                "Chapter 1".into(),
                StudyTree::new(Board::startpos(), limits.moves),
            )],
            current: 0,
            limits,
            version: 1,
            present: Vec::new(),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The owner's member id.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    pub fn owner_name(&self) -> &str {
        &self.owner_name
    }

    /// Those given the right to move, by name.
    pub fn contributors(&self) -> impl Iterator<Item = &str> {
        self.contributors.iter().map(|(_, n)| n.as_str())
    }

    /// Those given the right to move, by member id.
    pub fn contributor_ids(&self) -> impl Iterator<Item = &str> {
        self.contributors.iter().map(|(id, _)| id.as_str())
    }

    pub fn is_private(&self) -> bool {
        self.private
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn chapters(&self) -> &[Chapter] {
        &self.chapters
    }

    /// The chapter everyone is on, and its number (from 0).
    pub fn current(&self) -> (usize, &Chapter) {
        (self.current, &self.chapters[self.current])
    }

    /// The names of the members in it now.
    pub fn present(&self) -> &[String] {
        &self.present
    }

    /// The club says who is in it now.
    pub fn set_present(&mut self, names: Vec<String>) {
        if self.present != names {
            self.present = names;
            self.version += 1;
        }
    }

    /// May member `id` move (play, step, write, add chapters)?
    pub fn may_move(&self, id: &str) -> bool {
        id == self.owner || self.contributors.iter().any(|(c, _)| c == id)
    }

    /// May member `id` come in?
    pub fn may_enter(&self, id: &str) -> bool {
        !self.private || self.may_move(id)
    }

    /// The board at the shared cursor.
    pub fn board(&self) -> Board {
        let (_, ch) = self.current();
        ch.tree
            .board_at(ch.cursor)
            .unwrap_or_else(|_| ch.tree.start().clone())
    }

    /// The notes at the shared cursor.
    pub fn notes(&self) -> Notes {
        let (_, ch) = self.current();
        ch.tree.notes(ch.cursor).cloned().unwrap_or_default()
    }

    /// Member `by` gives `id` (shown as `name`) the right to move.
    pub fn give(&mut self, by: &str, id: &str, name: &str) -> Result<String, ClubError> {
        self.owner_only(by, "give the right to move")?;
        if self.may_move(id) {
            return Err(ClubError::new(format!("{name} may already move here")));
        }
        self.contributors.push((id.to_string(), name.to_string()));
        self.version += 1;
        Ok(format!("{name} may move in study {} now", self.name))
    }

    /// Member `by` takes the right to move from `id` (the owner keeps theirs).
    pub fn take(&mut self, by: &str, id: &str, name: &str) -> Result<String, ClubError> {
        self.owner_only(by, "take the right to move")?;
        if id == self.owner {
            return Err(ClubError::new(
                "the owner always keeps the right to move in their study",
            ));
        }
        let before = self.contributors.len();
        self.contributors.retain(|(c, _)| c != id);
        if self.contributors.len() == before {
            return Err(ClubError::new(format!("{name} has no right to move here")));
        }
        self.version += 1;
        Ok(format!(
            "{name} follows study {} now, without moving",
            self.name
        ))
    }

    fn owner_only(&self, by: &str, what: &str) -> Result<(), ClubError> {
        if by == self.owner {
            Ok(())
        } else {
            Err(ClubError::new(format!(
                "only the study's owner ({}) may {what}",
                self.owner_name
            )))
        }
    }

    /// Does `action` for member `by`: refused, with why, when they may not, or when the
    /// chapter refuses it (an illegal move, a full chapter).
    pub fn act(&mut self, by: &str, action: StudyAction) -> Result<String, ClubError> {
        if action.needs_right() && !self.may_move(by) {
            return Err(ClubError::new(format!(
                "only {} and those given the right may move here: ask them for :give, or \
                 press Ctrl+B to browse on your own",
                self.owner_name
            )));
        }
        let limits = self.limits;
        let said = match action {
            StudyAction::Play(text) => self.play(&text)?,
            StudyAction::Step(step) => self.step(step)?,
            StudyAction::Comment(text) => {
                let text = super::text::chat_line(&text).ok();
                let count = text.as_ref().map_or(0, |t| t.chars().count());
                if count > limits.comment {
                    return Err(ClubError::new(format!(
                        "a comment is at most {} characters (this one has {count})",
                        limits.comment
                    )));
                }
                let said = if text.is_some() {
                    "comment written"
                } else {
                    "comment removed"
                };
                let ch = self.chapter_mut();
                ch.tree.set_comment(ch.cursor, text).map_err(tree_error)?;
                said.into()
            }
            StudyAction::Glyph(g) => {
                let ch = self.chapter_mut();
                ch.tree.toggle_glyph(ch.cursor, g).map_err(tree_error)?;
                format!("glyph {}", g.text())
            }
            StudyAction::Square(sq, mark) => {
                let ch = self.chapter_mut();
                ch.tree
                    .toggle_square(ch.cursor, sq, mark)
                    .map_err(tree_error)?;
                format!("{sq} marked")
            }
            StudyAction::Arrow(a) => {
                let ch = self.chapter_mut();
                ch.tree.toggle_arrow(ch.cursor, a).map_err(tree_error)?;
                format!("arrow {}{}", a.from, a.to)
            }
            StudyAction::Promote => {
                let ch = self.chapter_mut();
                ch.tree.promote(ch.cursor).map_err(tree_error)?;
                "the variation is the main line now".into()
            }
            StudyAction::Delete => {
                let ch = self.chapter_mut();
                let back = ch.tree.delete(ch.cursor).map_err(tree_error)?;
                ch.cursor = back;
                ch.eval_depths.retain(|n, _| ch.tree.contains(*n));
                "the move and all after it deleted".into()
            }
            StudyAction::Chapter { name, source } => self.add_chapter(&name, source)?,
            StudyAction::Switch(n) => {
                let ch = self.chapters.get(n).ok_or_else(|| {
                    ClubError::new(format!(
                        "there is no chapter {} (the study has {})",
                        n + 1,
                        self.chapters.len()
                    ))
                })?;
                let said = format!("chapter {}: {}", n + 1, ch.name);
                self.current = n;
                said
            }
            StudyAction::Private(private) => {
                self.owner_only(by, "make the study private or open")?;
                self.private = private;
                if private {
                    "the study is private: only you and its contributors may come in".into()
                } else {
                    "the study is open to every member".into()
                }
            }
            StudyAction::Eval {
                chapter,
                node,
                score,
                depth,
            } => {
                let Some(ch) = self.chapters.get_mut(chapter) else {
                    return Ok(String::new());
                };
                if !ch.tree.contains(node) || ch.eval_depths.get(&node).is_some_and(|&d| d >= depth)
                {
                    return Ok(String::new());
                }
                ch.eval_depths.insert(node, depth);
                ch.tree
                    .edit(node, |n| n.eval = Some(score))
                    .map_err(tree_error)?;
                String::new()
            }
        };
        self.version += 1;
        Ok(said)
    }

    fn chapter_mut(&mut self) -> &mut Chapter {
        &mut self.chapters[self.current]
    }

    fn play(&mut self, text: &str) -> Result<String, ClubError> {
        let board = self.board();
        let mv: Move = board
            .parse_move(text.trim())
            .map_err(|e| ClubError::new(format!("{}: {e}", text.trim())))?;
        let san = board.san(mv);
        let ch = self.chapter_mut();
        let existed = ch
            .tree
            .children(ch.cursor)
            .iter()
            .any(|&c| ch.tree.mv(c) == Some(mv));
        let had_moves = !ch.tree.children(ch.cursor).is_empty();
        ch.cursor = ch.tree.play(ch.cursor, mv).map_err(tree_error)?;
        Ok(match (existed, had_moves) {
            (true, _) => format!("{san}: followed"),
            (false, true) => format!("{san}: a new variation"),
            (false, false) => san,
        })
    }

    fn step(&mut self, step: Step) -> Result<String, ClubError> {
        let ch = self.chapter_mut();
        let to = match step {
            Step::Back => ch.tree.parent(ch.cursor),
            Step::Forward => ch.tree.next(ch.cursor),
            Step::First => Some(ROOT),
            Step::Last => {
                let mut at = ch.cursor;
                while let Some(n) = ch.tree.next(at) {
                    at = n;
                }
                Some(at)
            }
            Step::To(n) => {
                if !ch.tree.contains(n) {
                    return Err(tree_error(crate::game::study::StudyError::Gone));
                }
                Some(n)
            }
        };
        match to {
            Some(n) if n != ch.cursor => {
                ch.cursor = n;
                Ok(String::new())
            }
            _ => Err(ClubError::new(match step {
                Step::Back | Step::First => "at the chapter's start",
                _ => "at the end of this line",
            })),
        }
    }

    fn add_chapter(&mut self, name: &str, source: Source) -> Result<String, ClubError> {
        if self.chapters.len() >= self.limits.chapters {
            return Err(ClubError::new(format!(
                "a study holds at most {} chapters",
                self.limits.chapters
            )));
        }
        let name = chapter_name(name)?;
        let tree = match source {
            Source::Start => StudyTree::new(Board::startpos(), self.limits.moves),
            Source::Fen(fen) => {
                let board = Board::from_fen(fen.trim())
                    .map_err(|e| ClubError::new(format!("that FEN is not a position: {e}")))?;
                StudyTree::new(board, self.limits.moves)
            }
            Source::Pgn(text) => {
                if text.len() > PGN_MAX {
                    return Err(ClubError::new(format!(
                        "a chapter's PGN is at most {} KB (this one has {} KB)",
                        PGN_MAX / 1024,
                        text.len().div_ceil(1024)
                    )));
                }
                let (tree, _) = pgn::read(&text, self.limits.moves)
                    .map_err(|e| ClubError::new(format!("that PGN cannot be read: {e}")))?;
                tree
            }
        };
        // A study's first chapter, made with it and left empty, gives way to the first one
        // someone adds.
        let untouched = self.chapters.len() == 1
            && self.chapters[0].tree.is_empty()
            && self.chapters[0]
                .tree
                .notes(ROOT)
                .is_some_and(Notes::is_empty);
        if untouched {
            self.chapters.clear();
        }
        self.chapters.push(Chapter::new(name.clone(), tree));
        self.current = self.chapters.len() - 1;
        Ok(format!("chapter {}: {name}", self.chapters.len()))
    }

    /// Every chapter as one PGN game, in order (tags as lichess writes a study's).
    pub fn pgn(&self) -> String {
        let mut out = String::new();
        for (i, ch) in self.chapters.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let tags = vec![
                ("Event".to_string(), format!("{}: {}", self.name, ch.name)),
                ("Site".to_string(), "ox88 club".to_string()),
                ("Annotator".to_string(), self.owner_name.clone()),
                ("StudyName".to_string(), self.name.clone()),
                ("ChapterName".to_string(), ch.name.clone()),
            ];
            out.push_str(&pgn::write(&ch.tree, &tags));
        }
        out
    }

    /// What the database keeps.
    pub fn record(&self) -> StudyRecord {
        StudyRecord {
            name: self.name.clone(),
            owner: self.owner.clone(),
            owner_name: self.owner_name.clone(),
            contributors: self.contributors.clone(),
            private: self.private,
            current: self.current,
            chapters: self
                .chapters
                .iter()
                .map(|ch| ChapterRecord {
                    name: ch.name.clone(),
                    pgn: pgn::write(&ch.tree, &[]),
                    cursor: ch
                        .tree
                        .moves_to(ch.cursor)
                        .iter()
                        .map(|m| m.to_string())
                        .collect(),
                })
                .collect(),
        }
    }

    /// A study from what the database kept, under today's caps (a chapter longer than
    /// they allow is cut where the cap falls).
    pub fn from_record(record: &StudyRecord, limits: StudyLimits) -> Result<Study, String> {
        let mut chapters = Vec::new();
        for ch in &record.chapters {
            let (tree, _) = pgn::read(&ch.pgn, limits.moves)
                .map_err(|e| format!("chapter {}: {e}", ch.name))?;
            let mut cursor = ROOT;
            for uci in &ch.cursor {
                let next = tree
                    .children(cursor)
                    .iter()
                    .copied()
                    .find(|&c| tree.mv(c).is_some_and(|m| m.to_string() == *uci));
                match next {
                    Some(n) => cursor = n,
                    None => break,
                }
            }
            let mut chapter = Chapter::new(ch.name.clone(), tree);
            chapter.cursor = cursor;
            chapters.push(chapter);
        }
        if chapters.is_empty() {
            return Err("a study without chapters".into());
        }
        Ok(Study {
            name: record.name.clone(),
            owner: record.owner.clone(),
            owner_name: record.owner_name.clone(),
            contributors: record.contributors.clone(),
            private: record.private,
            current: record.current.min(chapters.len() - 1),
            chapters,
            limits,
            version: 1,
            present: Vec::new(),
        })
    }
}

/// Where one member's screen is in a study: on the shared cursor (following), or away,
/// browsing on their own. Being away is the screen's alone: nothing of it reaches the study
/// or the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Follow {
    /// The chapter and node browsed while away.
    away: Option<(usize, NodeId)>,
}

/// How a member who stepped away stands against the shared cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behind {
    /// On the shared cursor's line, this many moves before it.
    Moves(usize),
    /// Ahead of the shared cursor on its line, or on another line or chapter.
    Elsewhere,
}

impl Follow {
    /// Is the screen away from the shared cursor?
    pub fn is_away(&self) -> bool {
        self.away.is_some()
    }

    /// The chapter and node the screen shows: the node browsed while away (while it is
    /// still in the chapter: a deleted one brings the screen back), else the cursor.
    pub fn at(&self, study: &Study) -> (usize, NodeId) {
        match self.away {
            Some((chapter, node))
                if study
                    .chapters()
                    .get(chapter)
                    .is_some_and(|c| c.tree().contains(node)) =>
            {
                (chapter, node)
            }
            _ => {
                let (n, ch) = study.current();
                (n, ch.cursor())
            }
        }
    }

    /// Steps the screen's own position (away from the cursor from now on): refused at
    /// either end of the line.
    pub fn step(&mut self, study: &Study, step: Step) -> Result<(), ClubError> {
        let (chapter, node) = self.at(study);
        let tree = study.chapters()[chapter].tree();
        let to = match step {
            Step::Back => tree.parent(node),
            Step::Forward => tree.next(node),
            Step::First => Some(ROOT).filter(|&r| r != node),
            Step::Last => {
                let mut at = node;
                while let Some(n) = tree.next(at) {
                    at = n;
                }
                Some(at).filter(|&n| n != node)
            }
            Step::To(n) => Some(n).filter(|&n| tree.contains(n)),
        };
        match to {
            Some(n) => {
                self.away = Some((chapter, n));
                Ok(())
            }
            None => Err(ClubError::new(match step {
                Step::Back | Step::First => "at the chapter's start",
                _ => "at the end of this line",
            })),
        }
    }

    /// Away at the node the screen shows now (a key that leaves the cursor in place).
    pub fn stay(&mut self, study: &Study) {
        self.away = Some(self.at(study));
    }

    /// Back to the shared cursor.
    pub fn come_back(&mut self) {
        self.away = None;
    }

    /// How far behind the shared cursor an away screen is (`None` while following).
    pub fn behind(&self, study: &Study) -> Option<Behind> {
        self.away?;
        let (chapter, node) = self.at(study);
        let (current, ch) = study.current();
        if chapter != current {
            return Some(Behind::Elsewhere);
        }
        let line = ch.tree().path(ch.cursor());
        if node == ROOT {
            return Some(Behind::Moves(line.len()));
        }
        Some(match line.iter().position(|&n| n == node) {
            Some(i) => Behind::Moves(line.len() - 1 - i),
            None => Behind::Elsewhere,
        })
    }
}

fn tree_error(e: crate::game::study::StudyError) -> ClubError {
    ClubError::new(e.to_string())
}

/// A study as the database keeps it (JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyRecord {
    pub name: String,
    pub owner: String,
    pub owner_name: String,
    pub contributors: Vec<(String, String)>,
    pub private: bool,
    pub current: usize,
    pub chapters: Vec<ChapterRecord>,
}

/// A chapter as the database keeps it: PGN, and the shared cursor as the moves from the
/// start (coordinates) along the tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChapterRecord {
    pub name: String,
    pub pgn: String,
    pub cursor: Vec<String>,
}

impl StudyRecord {
    /// The study's chapters as PGN ([`Study::pgn`]), straight from the record, whole
    /// whatever caps the server that kept it had.
    pub fn pgn(&self) -> Result<String, String> {
        let uncapped = StudyLimits {
            moves: usize::MAX,
            ..StudyLimits::default()
        };
        Study::from_record(self, uncapped).map(|s| s.pgn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWNER: &str = "key:owner";
    const GUEST: &str = "key:guest";

    fn study() -> Study {
        Study::new("opening", OWNER, "olga", StudyLimits::default())
    }

    fn play(s: &mut Study, moves: &[&str]) {
        for m in moves {
            s.act(OWNER, StudyAction::Play(m.to_string())).unwrap();
        }
    }

    #[test]
    fn only_the_owner_and_contributors_move_and_the_refusal_says_why() {
        let mut s = study();
        let e = s.act(GUEST, StudyAction::Play("e4".into())).unwrap_err();
        assert!(e.0.contains("olga"), "{e}");
        assert_eq!(s.current().1.tree().len(), 0);
        s.give(OWNER, GUEST, "gus").unwrap();
        s.act(GUEST, StudyAction::Play("e4".into())).unwrap();
        assert!(
            s.give(GUEST, "key:x", "x").is_err(),
            "a contributor cannot give"
        );
        s.take(OWNER, GUEST, "gus").unwrap();
        assert!(s.act(GUEST, StudyAction::Play("e5".into())).is_err());
        assert!(
            s.take(OWNER, OWNER, "olga").is_err(),
            "the owner keeps the right"
        );
        assert!(s.act(OWNER, StudyAction::Play("e5".into())).is_ok());
    }

    #[test]
    fn moving_where_a_move_exists_follows_it_and_a_new_one_branches() {
        let mut s = study();
        play(&mut s, &["e4", "e5", "Nf3"]);
        for _ in 0..2 {
            s.act(OWNER, StudyAction::Step(Step::Back)).unwrap();
        }
        let said = s.act(OWNER, StudyAction::Play("e5".into())).unwrap();
        assert!(said.contains("followed"), "{said}");
        s.act(OWNER, StudyAction::Step(Step::Back)).unwrap();
        let said = s.act(OWNER, StudyAction::Play("c5".into())).unwrap();
        assert!(said.contains("variation"), "{said}");
        let (_, ch) = s.current();
        assert_eq!(ch.tree().len(), 4);
        assert_eq!(ch.tree().main_line().len(), 3);
        s.act(OWNER, StudyAction::Promote).unwrap();
        let (_, ch) = s.current();
        let first_black = ch.tree().main_line()[1];
        assert_eq!(ch.tree().mv(first_black).unwrap().to_string(), "c7c5");
    }

    #[test]
    fn a_record_brings_back_chapters_notes_rights_and_the_cursor() {
        let mut s = study();
        play(&mut s, &["d4", "d5", "c4"]);
        s.act(OWNER, StudyAction::Comment("the Queen's Gambit".into()))
            .unwrap();
        s.act(OWNER, StudyAction::Glyph(Glyph::Interesting))
            .unwrap();
        s.act(OWNER, StudyAction::Step(Step::Back)).unwrap();
        s.give(OWNER, GUEST, "gus").unwrap();
        s.act(
            OWNER,
            StudyAction::Chapter {
                name: "endgame".into(),
                source: Source::Fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1".into()),
            },
        )
        .unwrap();
        s.act(OWNER, StudyAction::Switch(0)).unwrap();
        let json = serde_json::to_string(&s.record()).unwrap();
        let back: StudyRecord = serde_json::from_str(&json).unwrap();
        let r = Study::from_record(&back, StudyLimits::default()).unwrap();
        assert_eq!(r.chapters().len(), 2);
        assert_eq!(r.current().0, 0);
        assert!(r.may_move(GUEST));
        let (_, ch) = r.current();
        assert_eq!(ch.tree().depth(ch.cursor()), 2, "the cursor where it was");
        let c4 = ch.tree().main_line()[2];
        let notes = ch.tree().notes(c4).unwrap();
        assert_eq!(notes.comment.as_deref(), Some("the Queen's Gambit"));
        assert_eq!(notes.glyph, Some(Glyph::Interesting));
        assert_eq!(r.pgn(), s.pgn());
    }

    #[test]
    fn an_evaluation_is_kept_only_when_deeper_and_needs_no_right() {
        let mut s = study();
        play(&mut s, &["e4"]);
        let node = s.current().1.cursor();
        let eval = |score, depth| StudyAction::Eval {
            chapter: 0,
            node,
            score: Score::Cp(score),
            depth,
        };
        s.act(GUEST, eval(30, 12)).unwrap();
        s.act(GUEST, eval(90, 8)).unwrap();
        assert_eq!(s.notes().eval, Some(Score::Cp(30)));
        s.act(GUEST, eval(25, 14)).unwrap();
        assert_eq!(s.notes().eval, Some(Score::Cp(25)));
    }

    #[test]
    fn bad_chapters_are_refused_and_change_nothing() {
        let mut s = study();
        for source in [
            Source::Fen("not a fen".into()),
            Source::Pgn("1. e4 e5 2. Kxe8".into()),
            Source::Pgn("x".repeat(PGN_MAX + 1)),
        ] {
            let before = s.version();
            assert!(
                s.act(
                    OWNER,
                    StudyAction::Chapter {
                        name: "bad".into(),
                        source
                    }
                )
                .is_err()
            );
            assert_eq!(s.chapters().len(), 1);
            assert_eq!(s.version(), before);
        }
    }
}
