//! The bot's own dice (issue 16 item 1, RULINGS S14) through the referee:
//! the commitment published when the game is recorded, the Upcoming
//! Holiday's die rolled by the bot and stated in the verdict, the seed
//! revealed when the game ends, and `mornbot verify-dice` rechecking every
//! roll (and catching a tampered database).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::process::Command;

use mornbot::dice::{self, Seed};
use support::fake_referee::*;

const SEED: [u8; 32] = [42; 32];

fn seeded(game: GameConfig) -> (T, Vec<Mail>) {
    let mut t = T::with_game(SpeakerConfig::default(), game);
    let n = t
        .referee
        .commit_dice(&mut t.store, at(0), &mut || Ok(SEED))
        .unwrap();
    assert_eq!(n, 1);
    let mails = t.new_mail();
    (t, mails)
}

/// Gives Rushton the Blue Token `[Upcoming Holiday]` costs (players start
/// without one).
fn blue_for_rushton(referee: &mut Referee, store: &mut Store) {
    assert!(referee
        .edit_game(store, "MN1", |g| g.game.state.players[0]
            .tokens
            .set(mornbot::gsd::Colour::Blue, 1))
        .unwrap());
}

/// The die the bot must roll for MN1's turn 1, computed independently.
fn expected_roll() -> u32 {
    dice::draw(&Seed::from_bytes(SEED), "MN1", 1, dice::HOLIDAY, 6)
        .unwrap()
        .value
}

fn verify(db: &std::path::Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(["verify-dice", "MN1", "--db"])
        .arg(db)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A game on a database file: commitment, a bot-rolled Holiday, a win and
/// its end, the reveal. Returns the file's directory (kept by the caller).
fn played_game() -> (tempdir::Dir, Vec<Mail>) {
    played_game_with("Rushton : [Upcoming Holiday] Epping (CN) [Home: Hainault]")
}

/// [`played_game`] with `line` for Rushton's first turn, which must be
/// legal.
fn played_game_with(line: &str) -> (tempdir::Dir, Vec<Mail>) {
    let dir = tempdir::Dir::new();
    let db = dir.path.join("mornbot.db");
    let mut store = Store::open(&db).unwrap();
    let mut referee = Referee::load(
        Map::london_1999(),
        me(),
        SpeakerConfig::default(),
        &[game()],
        &mut store,
        at(0),
    )
    .unwrap();
    referee
        .commit_dice(&mut store, at(0), &mut || Ok(SEED))
        .unwrap();
    let mut t = T {
        referee,
        store,
        n: 0,
        seen: 0,
    };
    let mut mails = t.new_mail();
    // A verify before the end: the seed is still secret.
    let (code, out) = verify(&db);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("still secret"), "{out}");
    assert!(!out.contains(&Seed::from_bytes(SEED).to_hex()), "{out}");
    blue_for_rushton(&mut t.referee, &mut t.store);
    let (s, m) = t.play("rushton", line);
    assert_eq!(s, "legal", "{m:#?}");
    mails.extend(m);
    assert!(t
        .referee
        .edit_game(&mut t.store, "MN1", |g| g.game.state.winner =
            Some("Rushton".into()))
        .unwrap());
    for who in ["warren", "acton"] {
        let l = t.letter(who, Request::Workflow(Workflow::NoBuzz), "No buzz");
        mails.extend(t.send(l).1);
    }
    (dir, mails)
}

#[test]
fn the_commitment_is_published_once_when_the_game_is_recorded() {
    let (mut t, mails) = seeded(game());
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let c = dice::commitment(&Seed::from_bytes(SEED));
    assert_eq!(mails[0].headline(), "Dice: the commitment");
    assert!(
        mails[0].body.contains(&format!("MN1  {c}")),
        "{}",
        mails[0].body
    );
    assert!(!mails[0].body.contains(&Seed::from_bytes(SEED).to_hex()));
    assert!(mails[0].on_thread(None), "{:#?}", mails[0]);
    // A second start seeds and publishes nothing more: the seed stays.
    let n = t
        .referee
        .commit_dice(&mut t.store, at(5), &mut || Ok([1; 32]))
        .unwrap();
    assert_eq!(n, 0);
    assert!(t.new_mail().is_empty());
    assert_eq!(t.store.dice("MN1").unwrap().unwrap().commitment, c);
}

#[test]
fn no_randomness_is_an_error_not_a_panic() {
    let mut t = T::new();
    let r = t
        .referee
        .commit_dice(&mut t.store, at(0), &mut || Err("no entropy".into()));
    assert!(r.unwrap_err().to_string().contains("no entropy"));
}

#[test]
fn the_bot_rolls_the_holiday_and_the_verdict_says_so() {
    let (mut t, _) = seeded(game());
    let roll = expected_roll();
    blue_for_rushton(&mut t.referee, &mut t.store);
    let (s, m) = t.play(
        "rushton",
        "Rushton : [Upcoming Holiday] Epping (CN) [Home: Hainault]",
    );
    assert_eq!(s, "legal", "{m:#?}");
    let body = &m[0].body;
    assert!(body.contains(&format!("{{rolled {roll}}}")), "{body}");
    assert!(
        body.contains(&format!("d6 \"holiday\" of MN1 turn 1 = {roll}")),
        "{body}"
    );
    assert!(body.contains("mornbot verify-dice MN1"), "{body}");
    let day = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
    ][roll as usize - 1];
    assert!(body.contains(&format!("Upcoming Holiday: {day}")), "{body}");
    // The turn log keeps the roll, and the draw is recorded.
    let live = t.referee.live(&t.store, "MN1").unwrap();
    assert!(live.turns[0].play.contains(&format!("{{rolled {roll}}}")));
    let draws = t.store.draws("MN1").unwrap();
    assert_eq!(draws.len(), 1);
    assert_eq!(
        (draws[0].turn, draws[0].sides, draws[0].value),
        (1, 6, roll)
    );
}

#[test]
fn a_players_own_roll_is_refused_where_the_bot_rolls() {
    let (mut t, _) = seeded(game());
    let (s, m) = t.play(
        "rushton",
        "Rushton : [Upcoming Holiday] Epping (CN) [Home: Hainault] {rolled 6}",
    );
    assert_eq!(s, "a roll of the player's own", "{m:#?}");
    assert!(
        m[0].body.contains("mornbot rolls the dice"),
        "{}",
        m[0].body
    );
    assert!(t.store.draws("MN1").unwrap().is_empty());
}

#[test]
fn a_play_out_of_turn_learns_no_roll() {
    let (mut t, _) = seeded(game());
    let (s, m) = t.play(
        "warren",
        "Warren : [Upcoming Holiday] Morden (NT) [Home: Tooting Broadway]",
    );
    assert_eq!(s, "out of turn", "{m:#?}");
    assert!(!m[0].body.contains("{rolled"), "{}", m[0].body);
    assert!(t.store.draws("MN1").unwrap().is_empty());
}

#[test]
fn where_the_house_rules_players_roll_the_bot_does_not() {
    let mut g = game();
    g.rulings.bot_rolls_holiday = false;
    let (mut t, _) = seeded(g);
    blue_for_rushton(&mut t.referee, &mut t.store);
    let (s, m) = t.play(
        "rushton",
        "Rushton : [Upcoming Holiday] Epping (CN) [Home: Hainault]",
    );
    assert_eq!(s, "legal", "{m:#?}");
    assert!(!m[0].body.contains("The bot's dice"), "{}", m[0].body);
    assert!(
        m[0].body.contains("the player rolls a die"),
        "{}",
        m[0].body
    );
    assert!(t.store.draws("MN1").unwrap().is_empty());
}

#[test]
fn a_game_from_commitment_to_reveal_verifies() {
    let (dir, mails) = played_game();
    let roll = expected_roll();
    let heads: Vec<&str> = mails.iter().map(|m| m.headline()).collect();
    assert_eq!(heads[0], "Dice: the commitment", "{heads:#?}");
    assert!(heads.contains(&"Game over: Rushton wins"), "{heads:#?}");
    let reveal = mails
        .iter()
        .find(|m| m.headline() == "Dice: the seed revealed")
        .unwrap_or_else(|| panic!("{heads:#?}"));
    let seed = Seed::from_bytes(SEED);
    assert!(reveal.body.contains(&seed.to_hex()), "{}", reveal.body);
    assert!(reveal.body.contains(&dice::commitment(&seed)));
    // How to check every roll, in the notice itself: scripts/verify_dice.py's
    // own Python, not a pointer to a README players have not got.
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/verify_dice.py"),
    )
    .unwrap();
    for line in script
        .lines()
        .skip_while(|l| !l.starts_with("import hashlib"))
        .take_while(|l| !l.starts_with("if __name__"))
        .filter(|l| !l.is_empty())
    {
        assert!(
            reveal.body.contains(&format!("    {line}\n")),
            "{line:?} not in\n{}",
            reveal.body
        );
    }
    assert!(!reveal.body.contains("README"), "{}", reveal.body);
    let (code, out) = verify(&dir.path.join("mornbot.db"));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("commitment") && out.contains("OK (SHA-256 of the seed)"),
        "{out}"
    );
    assert!(
        out.contains(&format!("d6 \"holiday\" of MN1 turn 1 = {roll}: OK")),
        "{out}"
    );
    assert!(out.contains("1 draw(s), 0 mismatch(es): all OK"), "{out}");
}

/// Issue 16's "done when": a `[Courier Call (Random)]` by mail in a game
/// with the bot's dice. The commitment comes first; the verdict states both
/// d295 and how to verify them; the GSD's Courier box shows the two
/// stations; after the reveal `verify-dice` rechecks both draws.
#[test]
fn a_random_courier_call_by_mail_states_its_rolls_and_verifies() {
    let (dir, mails) =
        played_game_with("Rushton : Epping (CN) [Home: Hainault] [Courier Call (Random)]");
    let seed = Seed::from_bytes(SEED);
    let roll = |name: &str| dice::draw(&seed, "MN1", 1, name, 295).unwrap().value;
    let (p, d) = (roll(dice::COURIER_PICKUP), roll(dice::COURIER_DESTINATION));
    let map = Map::london_1999();
    let station = |v: u32| {
        let id = map
            .by_venbacker(mornbot::map::Venbacker::new(v).unwrap())
            .unwrap();
        map.station(id).name.clone()
    };
    let heads: Vec<&str> = mails.iter().map(|m| m.headline()).collect();
    assert_eq!(heads[0], "Dice: the commitment", "{heads:#?}");
    let verdict = mails
        .iter()
        .find(|m| m.body.contains("{rolled courier-pickup"))
        .unwrap_or_else(|| panic!("{mails:#?}"));
    let body = verdict.body.replace("\n    ", " ").replace('\n', " ");
    for (name, v) in [("courier-pickup", p), ("courier-destination", d)] {
        assert!(
            body.contains(&format!("d295 \"{name}\" of MN1 turn 1 = {v}")),
            "{body}"
        );
        assert!(body.contains(&format!("{{rolled {name} {v}}}")), "{body}");
    }
    assert!(body.contains("mornbot verify-dice MN1"), "{body}");
    let courier = format!("Pick-up: {}, Destination: {}", station(p), station(d));
    assert!(verdict.body.contains(&courier), "{}", verdict.body);
    assert!(verdict.body.contains("+- Courier "), "{}", verdict.body);
    let (code, out) = verify(&dir.path.join("mornbot.db"));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!("d295 \"courier-pickup\" of MN1 turn 1 = {p}: OK")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "d295 \"courier-destination\" of MN1 turn 1 = {d}: OK"
        )),
        "{out}"
    );
    assert!(out.contains("2 draw(s), 0 mismatch(es): all OK"), "{out}");
}

#[test]
fn a_players_own_named_roll_is_refused_where_the_bot_rolls() {
    let (mut t, _) = seeded(game());
    let (s, m) = t.play(
        "rushton",
        "Rushton : Epping (CN) [Home: Hainault] [Gold Rush] {rolled gold-rush 7}",
    );
    assert_eq!(s, "a roll of the player's own", "{m:#?}");
    assert!(t.store.draws("MN1").unwrap().is_empty());
}

#[test]
fn a_tampered_database_fails_verification() {
    let (dir, _) = played_game();
    let db = dir.path.join("mornbot.db");
    let roll = expected_roll();
    let conn = sql(&db);
    // A changed roll.
    conn(&format!(
        "UPDATE draws SET value = {} WHERE game = 'MN1'",
        roll % 6 + 1
    ));
    let (code, out) = verify(&db);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("MISMATCH (the seed gives {roll})")),
        "{out}"
    );
    // A changed seed: its commitment no longer matches.
    conn(&format!(
        "UPDATE draws SET value = {roll} WHERE game = 'MN1'; \
         UPDATE dice SET seed = '{}' WHERE game = 'MN1'",
        "01".repeat(32)
    ));
    let (code, out) = verify(&db);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("MISMATCH (not the SHA-256 of the seed)"),
        "{out}"
    );
    // Garbage for a seed is reported, not a crash.
    conn("UPDATE dice SET seed = 'nonsense' WHERE game = 'MN1'");
    let (code, out) = verify(&db);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("does not read"), "{out}");
}

#[test]
fn verify_dice_refuses_an_unknown_game_or_database() {
    let (dir, _) = played_game();
    let out = Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(["verify-dice", "MN9", "--db"])
        .arg(dir.path.join("mornbot.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(["verify-dice", "MN1", "--db"])
        .arg(dir.path.join("missing.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.path.join("missing.db").exists());
}

/// A temporary directory removed on drop.
mod tempdir {
    pub struct Dir {
        pub path: std::path::PathBuf,
    }

    impl Dir {
        pub fn new() -> Dir {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static N: AtomicUsize = AtomicUsize::new(0);
            let path = std::env::temp_dir().join(format!(
                "mornbot-dice-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::SeqCst)
            ));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            Dir { path }
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// Runs SQL on the database file, as someone tampering with it would.
fn sql(db: &std::path::Path) -> impl Fn(&str) + '_ {
    move |text: &str| {
        let c = rusqlite::Connection::open(db).unwrap();
        c.execute_batch(text).unwrap();
    }
}

mod referee_draw {
    use super::*;

    fn to_judgment(t: &mut T) -> Vec<Mail> {
        opening(t);
        t.step("acton", buzz(4, "Rushton had LV 0 when e moved."), "");
        t.step("rushton", contest("[LV+1] comes first."), "");
        t.step("acton", contest("Rule 1.6.2 says otherwise."), "").1
    }

    #[test]
    fn the_referee_is_drawn_with_the_games_dice() {
        let (mut t, _) = seeded(game());
        let m = to_judgment(&mut t);
        let who = m
            .iter()
            .find(|x| x.headline() == "Turn 4: Warren is Referee")
            .unwrap_or_else(|| panic!("{m:#?}"));
        // Warren is the one candidate (Acton buzzed Rushton): a d1.
        let b = who.body.replace("\n    ", " ").replace('\n', " ");
        assert!(
            b.contains("by mornbot's dice, d1 \"referee-0\" of MN1 turn 4 = 1"),
            "{b}"
        );
        assert!(b.contains("mornbot verify-dice MN1"), "{b}");
        let draws = t.store.draws("MN1").unwrap();
        assert_eq!(draws.len(), 1);
        assert_eq!((draws[0].turn, draws[0].name.as_str()), (4, "referee-0"));
        assert_eq!((draws[0].sides, draws[0].value), (1, 1));
    }

    #[test]
    fn a_game_without_dice_keeps_the_seeded_draw_of_s8() {
        let mut t = T::new();
        let m = to_judgment(&mut t);
        let who = m
            .iter()
            .find(|x| x.headline() == "Turn 4: Warren is Referee")
            .unwrap_or_else(|| panic!("{m:#?}"));
        assert!(who.body.contains("Drawn seed "), "{}", who.body);
        assert!(t.store.draws("MN1").unwrap().is_empty());
    }
}
