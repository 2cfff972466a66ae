//! Who is who in the club. With keys (`--authorized-keys`) a person is an account: the key
//! they first came with, and any key added to it with a one-time code. The first login name
//! a key uses (cleaned, see [`text::member_name`]) becomes its account's name, for good: no
//! other account may take it, compared without case, whoever is online; a login under
//! another name is the key's account all the same, and is told so. With `--open` a
//! visitor's name belongs to the session only and is never an account's: a visitor who
//! logs in under an account's name is shown as `name~`.

use chrono::{TimeDelta, Utc};
use rand::RngExt;

use super::lobby::{Club, Viewer};
use super::store::{Account, CODE_TRIES, CodeRefused, StoreError};
use super::text::OPEN_MARK;
use super::{ClubError, Member, text};

/// What joins a name and a one-time code in a login name (`alice+K7QX2MPA`): never in a
/// name, so the login name says both.
pub const CODE_MARK: char = '+';

/// How long a one-time code adds a key.
pub const CODE_MINUTES: i64 = 10;

/// The characters of a code: capitals and digits, without those read as others (0 and O,
/// 1, I and L).
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// The length of a code: 31^8, about 8·10^11 codes, of which a guesser gets
/// [`CODE_TRIES`] tries in [`CODE_MINUTES`].
const CODE_LEN: usize = 8;

/// What a banned member reads, at login and when a running session is closed for the ban.
pub const BANNED: &str = "this account is banned from the club by its operator";

/// Who logs in.
#[derive(Clone, Copy, Debug)]
pub enum Login<'a> {
    /// A listed key (its id, as `serve::player_id` gives it) and the login name, which may
    /// carry a one-time code (`alice+CODE`).
    Key { key: &'a str, login: &'a str },
    /// An open visitor (their id for this session) and the login name.
    Open { visitor: &'a str, login: &'a str },
}

/// Who signed in, and what their screen tells them first. The lines travel with the
/// session that signed in: another session of the same member, starting at that moment,
/// never takes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedIn {
    pub member: Member,
    pub told: Vec<String>,
}

impl From<Member> for SignedIn {
    /// A member with nothing to be told.
    fn from(member: Member) -> SignedIn {
        SignedIn {
            member,
            told: Vec::new(),
        }
    }
}

impl Club {
    /// Who this login is here: the key's account (made at its first login, with the login
    /// name), or an open visitor under a name of the session's own. Refused, with the line
    /// to say to the person, when the name cannot be one, is another account's, or a code
    /// adds no key. What the person must be told (another name than the one they typed, a
    /// rename, a key added) comes with the member, for their screen: see [`Club::connect`].
    pub fn sign_in(&self, login: Login<'_>) -> Result<SignedIn, ClubError> {
        let (member, told) = match login {
            Login::Key { key, login } => self.key_sign_in(key, login),
            Login::Open { visitor, login } => self.open_sign_in(visitor, login),
        }?;
        // The operator's ban (`ox88 club ban`) holds whichever of the account's keys comes.
        if member.rated && self.store().is_banned(&member.id).map_err(failed)? {
            return Err(ClubError::new(BANNED));
        }
        Ok(SignedIn { member, told })
    }

    fn key_sign_in(&self, key: &str, login: &str) -> Result<(Member, Vec<String>), ClubError> {
        let store = self.store();
        let (asked, code) = match login.split_once(CODE_MARK) {
            Some((name, code)) => (name, Some(code)),
            None => (login, None),
        };
        if let Some(account) = store.key_login(key).map_err(failed)? {
            let mut lines = Vec::new();
            if let Some(old) = &account.renamed_from {
                lines.push(format!(
                    "your name here is now {}: '{}' was another player's first, or is not \
                     a name here",
                    account.name,
                    shown(old)
                ));
            } else if !text::member_name(asked).is_ok_and(|n| text::same_name(&n, &account.name)) {
                lines.push(format!(
                    "you are {} here: this key's account has that name (you logged in as '{}')",
                    account.name,
                    shown(asked)
                ));
            }
            if code.is_some() {
                lines.push(format!(
                    "this key is {}'s already, so the code added nothing",
                    account.name
                ));
            }
            return Ok((member_of(&account), lines));
        }
        let name = text::member_name(asked)?;
        if let Some(code) = code {
            return self.add_key(key, &name, code);
        }
        match store.new_account(key, &name).map_err(failed)? {
            Some(account) => {
                let line = format!(
                    "welcome, {}: the name is yours here, for this key (:key code adds another)",
                    account.name
                );
                Ok((member_of(&account), vec![line]))
            }
            None => {
                // Said as the account spells it.
                let name = match store.account_named(&name) {
                    Ok(Some(owner)) => owner.name,
                    _ => name,
                };
                Err(ClubError::new(format!(
                    "the name {name} is another player's here. If it is yours, add this key to \
                 it: with your first key type :key code, then log in with this key as \
                 ssh {name}{CODE_MARK}CODE@HOST. Otherwise log in under a name of your own \
                 (ssh NAME@HOST)"
                )))
            }
        }
    }

    /// A new key with the account `name`'s one-time code: added to that account.
    fn add_key(
        &self,
        key: &str,
        name: &str,
        code: &str,
    ) -> Result<(Member, Vec<String>), ClubError> {
        let store = self.store();
        let account = store
            .add_key_by_code(name, code, key)
            .map_err(failed)?
            .map_err(|why| code_refused(name, why))?;
        let keys = store.keys_of(&account.id).map_err(failed)?;
        let line = format!(
            "this key is now one of {}'s ({keys} keys): next time log in as {}",
            account.name, account.name
        );
        Ok((member_of(&account), vec![line]))
    }

    fn open_sign_in(&self, visitor: &str, login: &str) -> Result<(Member, Vec<String>), ClubError> {
        let name = text::member_name(login)?;
        let mut lines = Vec::new();
        let name = match self.store().account_named(&name).map_err(failed)? {
            Some(account) => {
                let shown = format!("{name}{OPEN_MARK}");
                lines.push(format!(
                    "{} is a member's name here; you are {shown} (a visitor's name is the \
                     session's only)",
                    account.name
                ));
                shown
            }
            None => name,
        };
        let member = Member {
            id: visitor.to_string(),
            name,
            rated: false,
        };
        Ok((member, lines))
    }
}

impl Viewer {
    /// A new one-time code that adds a key to this viewer's account: logging in with the
    /// new key as `NAME+CODE` within [`CODE_MINUTES`] adds it (once). A new code replaces
    /// the one before.
    pub fn key_code(&self) -> Result<String, ClubError> {
        let member = self.member();
        if !member.rated {
            return Err(ClubError::new(
                "a visitor without a key has no account to add a key to",
            ));
        }
        let mut rng = rand::rng();
        let code: String = (0..CODE_LEN)
            .map(|_| char::from(CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())]))
            .collect();
        let expires = Utc::now() + TimeDelta::minutes(CODE_MINUTES);
        self.store()
            .put_key_code(&member.id, &code, expires)
            .map_err(failed)?;
        Ok(code)
    }
}

fn member_of(account: &Account) -> Member {
    Member {
        id: account.id.clone(),
        name: account.name.clone(),
        rated: true,
    }
}

/// A name as the person typed it, safe to show them: what chat would show, or nothing.
fn shown(typed: &str) -> String {
    text::chat_line(typed).unwrap_or_default()
}

/// A database failure at sign-in: written down for the server, said plainly to the person.
fn failed(e: StoreError) -> ClubError {
    eprintln!("ox88 serve: {e}");
    ClubError::new("the club's database failed; try again in a moment")
}

/// Why a code added no key, for the person who typed it.
fn code_refused(name: &str, why: CodeRefused) -> ClubError {
    ClubError::new(match why {
        CodeRefused::NoSuchAccount => format!(
            "no one here is named {name}: a code adds a key to an account that exists \
             (log in without {CODE_MARK}CODE to make one)"
        ),
        CodeRefused::NoCode => format!(
            "{name} has no key code now (a code lasts {CODE_MINUTES} minutes and is used \
             once): with {name}'s first key type :key code for a new one"
        ),
        CodeRefused::WrongCode => format!(
            "that is not {name}'s key code: type it as :key code showed it (after \
             {CODE_TRIES} wrong tries a code is thrown away)"
        ),
        CodeRefused::KeyTaken(owner) => {
            format!("this key is {owner}'s already: a key belongs to one account")
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Instant;

    use super::*;
    use crate::club::store::SqliteStore;

    fn club() -> Arc<Club> {
        Club::new(Arc::new(SqliteStore::in_memory().expect("a database"))).expect("a club")
    }

    fn key<'a>(key: &'a str, login: &'a str) -> Login<'a> {
        Login::Key { key, login }
    }

    /// Signs in and connects: the member and what their screen is told first.
    fn enter(club: &Arc<Club>, login: Login<'_>) -> (Viewer, Vec<String>) {
        let who = club.sign_in(login).expect("signed in");
        let viewer = club.connect(who, Arc::new(|| {}));
        let told = viewer.take_notices();
        (viewer, told)
    }

    #[test]
    fn a_keys_first_name_is_its_own_and_no_other_key_takes_it() {
        let club = club();
        let (alice, told) = enter(&club, key("key-a", "alice"));
        assert_eq!(
            (alice.member().id.as_str(), alice.name()),
            ("key-a", "alice".into())
        );
        assert!(told[0].contains("welcome, alice"), "{told:?}");
        // Another key under the name, in any case: refused, saying what to do.
        for login in ["alice", "ALICE", "Alice\u{200B}"] {
            let err = club.sign_in(key("key-m", login)).unwrap_err().to_string();
            assert!(
                err.contains("the name alice is another player's here"),
                "{err}"
            );
            assert!(err.contains("ssh alice+CODE@HOST"), "{err}");
        }
        assert_eq!(
            club.store().account_named("alice").unwrap().unwrap().id,
            "key-a"
        );
        // Never seen under it: mallory's key has no account at all.
        assert!(club.store().key_login("key-m").unwrap().is_none());
        let online: Vec<String> = alice
            .lobby(Instant::now())
            .online
            .iter()
            .map(|o| o.name.clone())
            .collect();
        assert_eq!(online, ["alice"]);
        // The owner comes back under another login name: still alice, and told so.
        drop(alice);
        let (again, told) = enter(&club, key("key-a", "bob"));
        assert_eq!(
            (again.member().id.as_str(), again.name()),
            ("key-a", "alice".into())
        );
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(
            told[0].contains("you are alice here") && told[0].contains("'bob'"),
            "{told:?}"
        );
        // Under the name itself, nothing to tell.
        let (_, told) = enter(&club, key("key-a", "Alice"));
        assert!(told.is_empty(), "{told:?}");
        // A name that cannot be one makes no account.
        let err = club.sign_in(key("key-j", "José")).unwrap_err().to_string();
        assert!(err.contains("not '\\u{e9}'"), "{err}");
        assert!(club.store().key_login("key-j").unwrap().is_none());
    }

    #[test]
    fn what_a_sign_in_tells_goes_to_its_own_session() {
        let club = club();
        enter(&club, key("key-a", "alice"));
        // Two logins of one key, signed in before either screen connects: the one under
        // another name is told, whichever screen comes first.
        let plain = club.sign_in(key("key-a", "alice")).expect("signed in");
        let other = club.sign_in(key("key-a", "bob")).expect("signed in");
        let first = club.connect(plain, Arc::new(|| {}));
        let second = club.connect(other, Arc::new(|| {}));
        assert_eq!(first.take_notices(), Vec::<String>::new());
        let told = second.take_notices();
        assert!(
            told.len() == 1 && told[0].contains("you are alice here"),
            "{told:?}"
        );
    }

    #[test]
    fn an_open_visitor_never_takes_an_accounts_name() {
        let club = club();
        enter(&club, key("key-a", "alice"));
        let (visitor, told) = enter(
            &club,
            Login::Open {
                visitor: "open:1",
                login: "ALICE",
            },
        );
        assert_eq!(visitor.name(), "ALICE~");
        assert!(!visitor.member().rated);
        assert!(
            told[0].contains("alice is a member's name here; you are ALICE~"),
            "{told:?}"
        );
        let (other, told) = enter(
            &club,
            Login::Open {
                visitor: "open:2",
                login: "carol",
            },
        );
        assert_eq!(other.name(), "carol");
        assert!(told.is_empty());
        // A second visitor under the same account's name is marked, and numbered.
        let (third, _) = enter(
            &club,
            Login::Open {
                visitor: "open:3",
                login: "alice",
            },
        );
        assert_eq!(third.name(), "alice~2");
        // Nothing an open visitor does makes an account.
        assert!(club.store().account_named("carol").unwrap().is_none());
        assert!(visitor.key_code().is_err());
    }

    #[test]
    fn a_one_time_code_adds_a_second_key_to_the_account() {
        let club = club();
        let (alice, _) = enter(&club, key("key-a", "alice"));
        let code = alice.key_code().unwrap();
        assert_eq!(code.len(), CODE_LEN);
        assert!(code.bytes().all(|b| CODE_ALPHABET.contains(&b)), "{code}");
        // A wrong code, or one for an account that is not there, adds nothing.
        let wrong = club
            .sign_in(key("key-a2", "alice+AAAAAAAA"))
            .unwrap_err()
            .to_string();
        assert!(wrong.contains("not alice's key code"), "{wrong}");
        let nobody = club
            .sign_in(key("key-a2", &format!("zed+{code}")))
            .unwrap_err()
            .to_string();
        assert!(nobody.contains("no one here is named zed"), "{nobody}");
        // The right one (typed in small letters) makes the new key alice's.
        let login = format!("Alice+{}", code.to_ascii_lowercase());
        let (second, told) = enter(&club, key("key-a2", &login));
        assert_eq!(
            (second.member().id.as_str(), second.name()),
            ("key-a", "alice".into())
        );
        assert!(told[0].contains("one of alice's (2 keys)"), "{told:?}");
        // Used once: the next key cannot use it again.
        let used = club
            .sign_in(key("key-a3", &format!("alice+{code}")))
            .unwrap_err()
            .to_string();
        assert!(used.contains("alice has no key code now"), "{used}");
        // The new key is alice's from now on, whatever name it logs in under.
        let (later, _) = enter(&club, key("key-a2", "whoever"));
        assert_eq!(later.member().id, "key-a");
        // A key that has an account keeps it: the code adds nothing.
        let (_, told) = enter(&club, key("key-b", "bob"));
        assert!(told[0].contains("welcome, bob"));
        let code = alice.key_code().unwrap();
        let (bob, told) = enter(&club, key("key-b", &format!("alice+{code}")));
        assert_eq!(bob.name(), "bob");
        assert!(
            told.iter().any(|t| t.contains("the code added nothing")),
            "{told:?}"
        );
    }

    /// Whatever a peer sends as its login name: refused with a clean line, or signed in
    /// under a name that is a name, never alice's unless it is alice's key.
    fn any_login(login: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        use proptest::prelude::*;
        let club = club();
        enter(&club, key("key-a", "alice"));
        let clean = |line: &str| !line.chars().any(text::is_hidden);
        for who in [
            key("key-x", login),
            Login::Open {
                visitor: "open:1",
                login,
            },
        ] {
            match club.sign_in(who) {
                Ok(who) => {
                    let viewer = club.connect(who, Arc::new(|| {}));
                    let told = viewer.take_notices();
                    let name = viewer.name();
                    prop_assert!(!text::same_name(&name, "alice"), "{name}");
                    // A name, and for a visitor perhaps its mark and a number.
                    let (plain, mark) = name.split_once(OPEN_MARK).unwrap_or((&name, ""));
                    let cleaned = text::member_name(plain).ok();
                    prop_assert_eq!(cleaned.as_deref(), Some(plain));
                    prop_assert!(mark.chars().all(|c| c.is_ascii_digit()), "{name}");
                    prop_assert!(told.iter().all(|t| clean(t)), "{told:?}");
                }
                Err(e) => prop_assert!(clean(&e.to_string()), "{e}"),
            }
        }
        Ok(())
    }

    proptest::proptest! {
        #[test]
        fn any_login_name_is_a_name_or_refused_cleanly(login in proptest::prelude::any::<String>()) {
            any_login(&login)?;
        }

        #[test]
        fn logins_near_a_taken_name_never_pass_for_it(
            login in "(alice|ALICE|Al1ce|al)?[+ ~.\u{202E}\u{200B}\u{430}]{0,3}[A-Za-z0-9]{0,9}"
        ) {
            any_login(&login)?;
        }
    }

    #[test]
    fn wrong_codes_use_a_code_up() {
        let club = club();
        let (alice, _) = enter(&club, key("key-a", "alice"));
        let code = alice.key_code().unwrap();
        for _ in 0..CODE_TRIES {
            assert!(club.sign_in(key("key-m", "alice+WRONG")).is_err());
        }
        let late = club
            .sign_in(key("key-m", &format!("alice+{code}")))
            .unwrap_err()
            .to_string();
        assert!(late.contains("has no key code now"), "{late}");
        // A new code works again.
        let code = alice.key_code().unwrap();
        assert!(club.sign_in(key("key-m", &format!("alice+{code}"))).is_ok());
    }
}
