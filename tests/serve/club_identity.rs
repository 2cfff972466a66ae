//! Who is who in the club, through the real SSH path (the russh client): a key's first
//! login name is its own for good, another key is refused under it and never seen as it,
//! a key under another login name is its own account (and told so), a one-time code adds
//! a second key to an account, and an open visitor never takes an account's name.

use crate::common;

use std::net::SocketAddr;

use common::TempDir;
use common::ssh::{SshClient, TestServer, config, new_key};
use ox88::club::{SqliteStore, Store};
use ox88::serve::{Access, player_id};
use russh::keys::PrivateKey;

const COLS: u16 = 120;
const ROWS: u16 = 40;

/// `user` logs in with `key` and joins `room` (`ssh -t HOST ROOM`), or the lobby.
async fn enter(addr: SocketAddr, user: &str, key: &PrivateKey, room: Option<&str>) -> SshClient {
    let (mut c, ok) = SshClient::login_as(addr, user, key).await;
    assert!(ok, "{user:?}'s key is let in");
    match room {
        Some(r) => c.open_room(COLS, ROWS, r.as_bytes()).await.unwrap(),
        None => c.open_shell(COLS, ROWS).await.unwrap(),
    }
    c
}

/// `user` with `key` is turned away with a line containing `why`, and the session closes.
async fn refused(addr: SocketAddr, user: &str, key: &PrivateKey, room: Option<&str>, why: &str) {
    let mut c = enter(addr, user, key, room).await;
    c.wait_for(&format!("{user:?} refused: {why}"), |s| {
        s.text().contains(why)
    })
    .await;
    c.wait_closed("the refused session to close").await;
}

async fn keys_server(dir: &TempDir, keys: &[PrivateKey]) -> TestServer {
    let listed = keys.iter().map(|k| k.public_key().clone()).collect();
    TestServer::start(config(dir.path(), Access::keys(listed))).await
}

fn store(dir: &TempDir) -> SqliteStore {
    SqliteStore::open(&dir.path().join("club.sqlite")).unwrap()
}

/// The lobby's line of who is online.
fn online(c: &SshClient) -> String {
    c.screen()
        .rows()
        .into_iter()
        .find(|r| r.contains("Online ("))
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_key_under_a_taken_name_is_refused_and_never_seen_under_it() {
    let dir = TempDir::new("identity-taken");
    let keys: Vec<PrivateKey> = (0..3).map(|_| new_key()).collect();
    let server = keys_server(&dir, &keys).await;
    let addr = server.addr();
    let mut alice = enter(addr, "alice", &keys[0], Some("den")).await;
    alice
        .wait_for("alice seated", |s| s.status().contains("you: White"))
        .await;
    let mut carol = enter(addr, "carol", &keys[2], None).await;
    carol
        .wait_for("the lobby", |s| s.text().contains("Online (2)"))
        .await;
    // Mallory's key under alice's name, in any case, to her room or the lobby: refused.
    let taken = "the name alice is another player's here";
    refused(addr, "alice", &keys[1], Some("den"), taken).await;
    refused(addr, "ALICE", &keys[1], None, taken).await;
    refused(addr, "alice\u{200B}", &keys[1], None, taken).await;
    let line = online(&carol);
    assert!(line.contains("Online (2)"), "{line}");
    assert!(
        line.contains("alice") && !line.contains("alice-2"),
        "{line}"
    );
    // In the room only the real alice speaks as alice.
    carol.send(":join den\r").await;
    carol
        .wait_for("carol seated", |s| s.status().contains("you: Black"))
        .await;
    refused(addr, "alice", &keys[1], Some("den"), taken).await;
    alice.send("'it is me\r").await;
    carol
        .wait_for("alice's chat", |s| s.text().contains("alice: it is me"))
        .await;
    // Alice away, the name is still hers; back, she has her seat under it.
    alice.disconnect().await;
    refused(addr, "alice", &keys[1], Some("den"), taken).await;
    let mut alice = enter(addr, "alice", &keys[0], None).await;
    alice
        .wait_for("alice back in her seat", |s| {
            s.status().contains("room den") && s.status().contains("you: White")
        })
        .await;
    let db = store(&dir);
    let owner = db.account_named("ALICE").unwrap().unwrap();
    assert_eq!(owner.id, player_id(keys[0].public_key()));
    assert_eq!(db.keys_of(&owner.id).unwrap(), 1);
    assert_eq!(
        db.key_login(&player_id(keys[1].public_key())).unwrap(),
        None,
        "the refused key has no account"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_under_another_login_name_plays_under_its_own_and_is_told() {
    let dir = TempDir::new("identity-other-name");
    let keys: Vec<PrivateKey> = (0..2).map(|_| new_key()).collect();
    let server = keys_server(&dir, &keys).await;
    let addr = server.addr();
    let mut first = enter(addr, "alice", &keys[0], None).await;
    // Quit, not only gone: the session has ended (and let go of her saved game) once the
    // channel closes.
    first.send(":quit\r").await;
    first.wait_closed("alice's first session to end").await;
    first.disconnect().await;
    // Alice's key says it is bob: it is alice, and she is told so.
    let mut alice = enter(addr, "bob", &keys[0], Some("den")).await;
    alice
        .wait_for("told her name", |s| {
            s.text().contains("you are alice here") && s.status().contains("you: White")
        })
        .await;
    // Her "bob" took nothing: the name is free for bob's own key.
    let mut bob = enter(addr, "bob", &keys[1], Some("den")).await;
    bob.wait_for("bob seated", |s| s.status().contains("you: Black"))
        .await;
    bob.wait_for("alice as White", |s| s.text().contains("alice"))
        .await;
    alice.send("e2e4\r").await;
    bob.wait_for("the move", |s| s.status().contains("ply 1 "))
        .await;
    // Read once the server has stopped: its queued writes are all done by then, and the
    // unfinished game is kept (adjourned) for its players.
    server.stop().await;
    let games = store(&dir)
        .games_of(&player_id(keys[0].public_key()), 5)
        .unwrap();
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(
        (games[0].white_name.as_str(), games[0].black_name.as_str()),
        ("alice", "bob")
    );
    assert!(
        games[0].pgn.contains("[White \"alice\"]"),
        "{}",
        games[0].pgn
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_time_code_adds_a_second_key_that_then_logs_in_as_the_account() {
    let dir = TempDir::new("identity-code");
    let keys: Vec<PrivateKey> = (0..3).map(|_| new_key()).collect();
    let server = keys_server(&dir, &keys).await;
    let addr = server.addr();
    let mut alice = enter(addr, "alice", &keys[0], None).await;
    alice
        .wait_for("the lobby", |s| s.text().contains("Lobby — alice"))
        .await;
    alice.send(":key code\r").await;
    alice
        .wait_for("the code", |s| s.message().contains("ssh alice+"))
        .await;
    let message = alice.screen().message();
    let code: String = message
        .split("ssh alice+")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    assert_eq!(code.len(), 8, "{message}");
    // Without the code, the phone's key is refused under alice's name.
    refused(addr, "alice", &keys[1], None, "another player's here").await;
    let wrong = format!("alice+{}", "Z".repeat(8));
    refused(addr, &wrong, &keys[1], None, "not alice's key code").await;
    // With it, the phone's key is alice's.
    let mut phone = enter(addr, &format!("alice+{code}"), &keys[1], None).await;
    phone
        .wait_for("the phone as alice", |s| {
            s.text().contains("Lobby — alice") && s.text().contains("one of alice's (2 keys)")
        })
        .await;
    phone.disconnect().await;
    // Used once: a third key cannot use it again.
    let used = format!("alice+{code}");
    refused(addr, &used, &keys[2], None, "alice has no key code now").await;
    // The phone's key, under any name, is alice from now on.
    let mut phone = enter(addr, "someone", &keys[1], None).await;
    phone
        .wait_for("the phone as alice again", |s| {
            s.text().contains("Lobby — alice") && s.text().contains("you are alice here")
        })
        .await;
    let db = store(&dir);
    assert_eq!(db.keys_of(&player_id(keys[0].public_key())).unwrap(), 2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_visitor_never_takes_an_accounts_name() {
    let dir = TempDir::new("identity-open");
    let key = new_key();
    let server = keys_server(&dir, std::slice::from_ref(&key)).await;
    enter(server.addr(), "alice", &key, None)
        .await
        .disconnect()
        .await;
    server.stop().await;
    // The same club's database, now open to anyone.
    let server = TestServer::start(config(dir.path(), Access::Open)).await;
    let mut visitor = enter(server.addr(), "Alice", &new_key(), None).await;
    visitor
        .wait_for("the visitor's own name", |s| {
            s.text().contains("Lobby — Alice~") && s.text().contains("you are Alice~")
        })
        .await;
    let mut other = enter(server.addr(), "dora", &new_key(), None).await;
    other
        .wait_for("both online", |s| s.text().contains("Online (2)"))
        .await;
    let line = online(&other);
    assert!(line.contains("Alice~") && line.contains("dora"), "{line}");
    // The visitor made no account, and the key's account is as it was.
    let db = store(&dir);
    assert!(db.account_named("dora").unwrap().is_none());
    assert_eq!(
        db.account_named("alice").unwrap().unwrap().id,
        player_id(key.public_key())
    );
    server.stop().await;
}
