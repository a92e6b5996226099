//! Notices a person can follow (issue 13, item 8): every mail about a
//! game on its thread, under one Subject, its verdict in the first line.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::referee::{Letter, Referee, Request, Workflow};
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};

const ROOT: &str = "mn1.game@example.test";
const SUBJECT: &str = "[MN1] Game State";

fn me() -> Identity {
    Identity {
        address: "mornbot@example.test".into(),
        name: "mornbot".into(),
        lounge: "lounge@example.test".into(),
    }
}

fn game() -> GameConfig {
    GameConfig {
        tag: "MN1".into(),
        start: "Monday 0900".into(),
        players: ["Rushton", "Warren", "Acton"]
            .iter()
            .map(|n| PlayerConfig {
                name: n.to_string(),
                address: format!("{}@example.org", n.to_lowercase()),
            })
            .collect(),
        referee: None,
        rulings: Default::default(),
    }
}

fn at(min: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + chrono::Duration::minutes(min)
}

/// One mail as a reader sees it.
#[derive(Debug, Clone)]
struct Mail {
    to: String,
    subject: String,
    date: DateTime<Utc>,
    message_id: String,
    in_reply_to: Option<String>,
    references: Vec<String>,
    body: String,
}

impl Mail {
    fn parse(raw: &[u8]) -> Mail {
        let text = String::from_utf8_lossy(raw).replace("\r\n", "\n");
        let (head, body) = text.split_once("\n\n").expect("a body");
        // Unfold continued header lines.
        let head = head.replace("\n ", " ").replace("\n\t", " ");
        let header = |name: &str| {
            head.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
            })
        };
        let ids = |v: Option<String>| -> Vec<String> {
            v.unwrap_or_default()
                .split_whitespace()
                .map(|x| x.trim_matches(['<', '>']).to_string())
                .collect()
        };
        Mail {
            to: header("To").unwrap_or_default(),
            subject: header("Subject").unwrap_or_default(),
            date: DateTime::parse_from_rfc2822(&header("Date").unwrap())
                .unwrap()
                .with_timezone(&Utc),
            message_id: ids(header("Message-ID")).remove(0),
            in_reply_to: ids(header("In-Reply-To")).into_iter().next(),
            references: ids(header("References")),
            body: body.to_string(),
        }
    }

    /// The first line of the body.
    fn headline(&self) -> &str {
        self.body.lines().next().unwrap_or_default()
    }

    /// Whether the mail sits on the game's thread answering `id` (or
    /// answering nothing, under the root).
    fn on_thread(&self, answering: Option<&str>) -> bool {
        self.subject == SUBJECT
            && self.references.first().map(String::as_str) == Some(ROOT)
            && self.in_reply_to.as_deref() == Some(answering.unwrap_or(ROOT))
            && answering.is_none_or(|id| self.references.last().map(String::as_str) == Some(id))
    }
}

struct T {
    referee: Referee,
    store: Store,
    n: usize,
    seen: usize,
}

impl T {
    fn new() -> T {
        T::with(SpeakerConfig::default())
    }

    fn with(speaker: SpeakerConfig) -> T {
        let mut store = Store::in_memory().unwrap();
        let referee = Referee::load(
            Map::london_1999(),
            me(),
            speaker,
            &[game()],
            &mut store,
            at(0),
        )
        .unwrap();
        T {
            referee,
            store,
            n: 0,
            seen: 0,
        }
    }

    fn letter(&mut self, from: &str, request: Request, body: &str) -> Letter {
        self.n += 1;
        Letter {
            message_id: format!("m{}@example.org", self.n),
            from: format!("{from}@example.org"),
            subject: "Re: [MN1] Game State".into(),
            references: vec![ROOT.into()],
            game: Ok("MN1".into()),
            request,
            body: body.into(),
            auth_failed: false,
            no_reply: None,
        }
    }

    /// Sends a letter; returns its summary and the mails it caused.
    fn send(&mut self, l: Letter) -> (String, Vec<Mail>) {
        let h = self
            .referee
            .handle(&mut self.store, origin(), &l, at(self.n as i64))
            .unwrap();
        (h.summary, self.new_mail())
    }

    fn play(&mut self, from: &str, line: &str) -> (String, Vec<Mail>) {
        let req = Request::Turn {
            text: line.into(),
            gsd: false,
            line: 1,
            column: 1,
        };
        let l = self.letter(from, req, line);
        self.send(l)
    }

    fn step(&mut self, from: &str, w: Workflow, body: &str) -> (String, Vec<Mail>) {
        let l = self.letter(from, Request::Workflow(w), body);
        self.send(l)
    }

    fn tick(&mut self, now: DateTime<Utc>) -> Vec<Mail> {
        self.referee.tick(&mut self.store, now).unwrap();
        self.new_mail()
    }

    fn new_mail(&mut self) -> Vec<Mail> {
        let all = self.store.all_mail().unwrap();
        let new = all[self.seen..]
            .iter()
            .map(|m| Mail::parse(&m.raw))
            .collect();
        self.seen = all.len();
        new
    }

    fn last_id(&self) -> String {
        format!("m{}@example.org", self.n)
    }
}

fn origin() -> Origin {
    Origin {
        source: "test".into(),
        uidvalidity: None,
        uid: None,
    }
}

/// Four legal turns: Rushton, Warren, Acton, Rushton.
fn opening(t: &mut T) {
    for (who, p) in [
        ("rushton", "Rushton : Epping (CN) [Home: Hainault]"),
        ("warren", "Warren : Morden (NT) [Home: Tooting Broadway]"),
        ("acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
        ("rushton", "Rushton : [LV+1] Theydon Bois (CN)"),
    ] {
        assert_eq!(t.play(who, p).0, "legal");
    }
}

fn buzz(turn: u64, reason: &str) -> Workflow {
    Workflow::Buzz {
        player: None,
        turn: Some(turn),
        reason: reason.into(),
    }
}

fn contest(text: &str) -> Workflow {
    Workflow::Contest { text: text.into() }
}

mod thread {
    use super::*;

    #[test]
    fn verdicts_answer_the_turn_under_the_games_root_and_subject() {
        let mut t = T::new();
        let (_, m) = t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        assert_eq!(m.len(), 1);
        assert!(m[0].on_thread(Some("m1@example.org")), "{:#?}", m[0]);
        assert_eq!(m[0].references, vec![ROOT, "m1@example.org"]);
        assert_eq!(m[0].headline(), "Turn 1: Rushton (legal)");
        assert_eq!(m[0].date, at(1));
        assert!(m[0].message_id.ends_with("@example.test"));
        // A turn posted without References still joins the thread.
        let mut l = t.letter(
            "warren",
            Request::Turn {
                text: "Warren : [LV+1] Tooting Broadway (NT)".into(),
                gsd: false,
                line: 1,
                column: 1,
            },
            "",
        );
        l.references.clear();
        l.subject = "[MN1] my turn".into();
        let (s, m) = t.send(l);
        assert_eq!(s, "illegal");
        assert!(m[0].on_thread(Some("m2@example.org")), "{:#?}", m[0]);
        assert_eq!(m[0].headline(), "BUZZ: Warren's turn 2 is illegal");
    }

    #[test]
    fn the_buzz_workflow_is_on_the_thread_from_buzz_to_judgment() {
        let mut t = T::new();
        opening(&mut t);
        let (_, m) = t.step("acton", buzz(4, "no LV for that"), "");
        assert!(m[0].on_thread(Some(&t.last_id())), "{:#?}", m[0]);
        assert_eq!(m[0].headline(), "Turn 4 is Questionable");
        let (_, m) = t.step("rushton", contest("LV 1 is enough"), "");
        assert!(m[0].on_thread(Some(&t.last_id())), "{:#?}", m[0]);
        // The buzzer contests: to Judgment, a Referee drawn, told privately.
        let (_, m) = t.step("acton", contest("it is not"), "");
        let contest_id = t.last_id();
        let heads: Vec<&str> = m.iter().map(Mail::headline).collect();
        assert_eq!(
            heads,
            vec![
                "Turn 4: to Judgment",
                "Turn 4: Warren is Referee",
                "You are Referee of turn 4"
            ]
        );
        assert!(m.iter().all(|x| x.on_thread(Some(&contest_id))), "{m:#?}");
        assert_eq!(m[2].to, "warren@example.org");
        let (_, m) = t.step("warren", Workflow::Judgment { legal: true }, "");
        assert_eq!(m[0].headline(), "Turn 4 is Legal");
        assert!(m[0].on_thread(Some(&t.last_id())), "{m:#?}");
        // Distinct mails, distinct ids.
        let mut ids: Vec<String> = t
            .store
            .all_mail()
            .unwrap()
            .iter()
            .map(|x| x.message_id.clone())
            .collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n);
    }

    #[test]
    fn clock_notices_reminder_timeout_resignation_are_under_the_root() {
        let mut t = T::new();
        let day = |d: u32, h: u32| Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap();
        let m = t.tick(day(17, 9));
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].to, "rushton@example.org");
        assert!(
            m[0].headline()
                .starts_with("Reminder: your turn 1 is due by Tue 17 Nov 2026 21:00"),
            "{:#?}",
            m[0]
        );
        assert!(m[0].on_thread(None), "{:#?}", m[0]);
        assert_eq!(m[0].references, vec![ROOT]);
        let m = t.tick(day(17, 22));
        assert_eq!(m[0].headline(), "Turn 1: Rushton timed out");
        assert!(m[0].on_thread(None), "{:#?}", m[0]);
        let m = t.tick(Utc.with_ymd_and_hms(2027, 1, 16, 9, 0, 1).unwrap());
        let resigned: Vec<&Mail> = m
            .iter()
            .filter(|x| x.headline().ends_with("has Resigned"))
            .collect();
        assert!(!resigned.is_empty(), "{m:#?}");
        assert!(resigned.iter().all(|x| x.on_thread(None)), "{resigned:#?}");
        assert!(m.iter().all(|x| x.subject == SUBJECT), "{m:#?}");
    }

    #[test]
    fn the_end_of_a_game_is_on_the_thread() {
        let mut t = T::new();
        t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        assert!(t
            .referee
            .edit_game("MN1", |g| g.game.state.winner = Some("Rushton".into())));
        let due = t.referee.next_due().unwrap();
        let m = t.tick(due);
        assert_eq!(m[0].headline(), "Game over: Rushton wins");
        assert!(m[0].on_thread(None), "{:#?}", m[0]);
    }

    #[test]
    fn private_replies_keep_the_senders_subject() {
        let mut t = T::new();
        let mut l = t.letter(
            "warren",
            Request::Turn {
                text: "Warren : Pass".into(),
                gsd: false,
                line: 1,
                column: 1,
            },
            "",
        );
        l.subject = "[MN1] my go".into();
        let (s, m) = t.send(l);
        assert_eq!(s, "out of turn");
        assert_eq!(m[0].subject, "Re: [MN1] my go");
        assert_eq!(m[0].in_reply_to.as_deref(), Some("m1@example.org"));
    }
}

/// The prose of a body: its lines before the GSD (`Game MN1`) and the
/// signature, but for tables, quotes and indented blocks.
fn prose(body: &str) -> Vec<&str> {
    body.lines()
        .take_while(|l| *l != "-- " && !l.starts_with("Game MN1"))
        .filter(|l| !l.starts_with("    ") && !l.starts_with(['|', '+', '>']))
        .collect()
}

mod wrapping {
    use super::*;

    #[test]
    fn notices_wrap_their_prose_at_72_and_leave_the_gsd_alone() {
        let mut t = T::new();
        opening(&mut t);
        // A long reason, as one line from a client that does not wrap.
        let reason = "Rushton's LV was 0 when the turn began and the move to Theydon Bois \
                      needs LV 1, which e only set in the same turn, and I believe Rule \
                      1.6.2 says the LV change applies from the next turn onwards only.";
        let (_, m) = t.step("acton", buzz(4, reason), "");
        let body = &m[0].body;
        assert!(
            prose(body).iter().all(|l| l.chars().count() <= 72),
            "{body}"
        );
        assert!(prose(body).len() > 6, "{body}");
        assert!(body.contains("applies from the next turn"), "{body}");
        // The reminder: its sentence is wrapped, the GSD kept whole.
        let mut t = T::new();
        t.play("rushton", "Rushton : [LV+1] Epping (CN) [Home: Hainault]");
        let m = t.tick(Utc.with_ymd_and_hms(2026, 11, 17, 9, 30, 0).unwrap());
        let body = &m[0].body;
        assert!(
            prose(body).iter().all(|l| l.chars().count() <= 72),
            "{body}"
        );
        assert!(
            body.contains("\nRushton : [LV+1] Epping (CN) [Home: Hainault]\n"),
            "{body}"
        );
        let table = body.lines().find(|l| l.starts_with("| Rushton")).unwrap();
        assert!(table.chars().count() > 40, "{body}");
    }

    #[test]
    fn what_changed_items_wrap_under_their_text() {
        let mut t = T::new();
        let (_, m) = t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        let body = &m[0].body;
        assert!(
            prose(body).iter().all(|l| l.chars().count() <= 72),
            "{body}"
        );
        assert!(
            body.contains("\n    Rushton : Epping (CN) [Home: Hainault]\n"),
            "{body}"
        );
    }
}

mod referee_request {
    use super::*;
    use mornbot::config::Config;
    use mornbot::daemon::letter::{letter, Context};

    #[test]
    fn the_referee_gets_the_play_the_buzz_the_defence_and_the_contest_without_sign_offs() {
        let mut t = T::new();
        opening(&mut t);
        t.step(
            "acton",
            buzz(4, "Rushton had LV 0 when e moved.\n\nCheers,\nAlan"),
            "",
        );
        t.step(
            "rushton",
            contest("[LV+1] comes before the Move, so LV 1 applies.\nRegards\nRushton"),
            "",
        );
        let (_, m) = t.step(
            "acton",
            contest("Rule 1.6.2 says otherwise.\n-- \nAlan Acton\n07700 900000"),
            "",
        );
        let req = m
            .iter()
            .find(|x| x.headline() == "You are Referee of turn 4")
            .unwrap_or_else(|| panic!("{m:#?}"));
        let b = &req.body;
        for want in [
            "\n    Rushton : [LV+1] Theydon Bois (CN)\n",
            "Acton's Buzz:\n\n> Rushton had LV 0 when e moved.\n",
            "Rushton's defence:\n\n> [LV+1] comes before the Move, so LV 1 applies.\n",
            "Acton's contest of the defence:\n\n> Rule 1.6.2 says otherwise.\n\nReply by",
            "\"Judgment: Legal\"",
        ] {
            assert!(b.contains(want), "{want:?} in\n{b}");
        }
        for gone in ["Cheers", "Alan", "Regards", "07700"] {
            assert!(!b.contains(gone), "{gone:?} in\n{b}");
        }
        // The lounge saw each of them quoted too.
        let all = t
            .store
            .all_mail()
            .unwrap()
            .iter()
            .map(|x| Mail::parse(&x.raw).body)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            all.contains("Acton's reason:\n\n> Rushton had LV 0"),
            "{all}"
        );
        assert!(!all.contains("Cheers"), "{all}");
        assert!(
            all.contains("> [LV+1] comes before the Move, so LV 1 applies.\n"),
            "{all}"
        );
    }

    #[test]
    fn a_contest_by_mail_reaches_the_referee_in_its_own_words() {
        let mut t = T::new();
        opening(&mut t);
        let mut cfg = Config::default();
        cfg.bot.address = "mornbot@example.test".into();
        cfg.bot.lounge = "lounge@example.test".into();
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        let post = |t: &mut T, n: usize, from: &str, body: &str| {
            let raw = format!(
                "From: {from}@example.org\r\nTo: lounge@example.test\r\n\
                 Subject: Re: [MN1] Game State\r\nMessage-ID: <p{n}@example.org>\r\n\
                 References: <{ROOT}>\r\n\r\n{}\r\n",
                body.replace('\n', "\r\n")
            );
            let l = letter(raw.as_bytes(), &ctx, &t.referee);
            t.n += 1;
            t.send(l).1
        };
        post(
            &mut t,
            1,
            "acton",
            "Buzz turn 4: no LV for that\n\nCheers,\nAlan",
        );
        post(
            &mut t,
            2,
            "rushton",
            "Contest: the LV was set first.\n\nThanks,\nR.",
        );
        let m = post(&mut t, 3, "acton", "Contest: not in time.\n\nBest,\nAlan");
        let req = m
            .iter()
            .find(|x| x.headline() == "You are Referee of turn 4")
            .unwrap_or_else(|| panic!("{m:#?}"));
        let b = &req.body;
        assert!(b.contains("> no LV for that\n"), "{b}");
        assert!(b.contains("> the LV was set first.\n"), "{b}");
        assert!(b.contains("> not in time.\n"), "{b}");
        assert!(!b.contains("Cheers") && !b.contains("Thanks"), "{b}");
    }
}

mod what_changed {
    use super::*;

    /// The "What changed:" list of a verdict, each item on one line.
    fn changes(body: &str) -> Vec<String> {
        let mut items: Vec<String> = Vec::new();
        let list = body.split("What changed:\n").nth(1).unwrap_or_default();
        for l in list.lines() {
            if let Some(item) = l.strip_prefix("  - ") {
                items.push(item.to_string());
            } else if let Some(more) = l.strip_prefix("    ") {
                let last = items.last_mut().expect("an item before");
                last.push(' ');
                last.push_str(more);
            } else {
                break;
            }
        }
        items
    }

    #[test]
    fn tokens_paid_with_their_reason_and_where_the_spent_ones_went() {
        let mut t = T::new();
        t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        let (s, m) = t.play(
            "warren",
            "Warren : Morden (NT) [Home: Tooting Broadway] [Blocking South Wimbledon]",
        );
        assert_eq!(s, "legal", "{:#?}", m);
        let c = changes(&m[0].body);
        assert!(
            c.iter().any(|x| x.starts_with("Warren pays 1 Red for ")
                && x.contains("[Blocking South Wimbledon]")
                && x.ends_with("(Rule 1.9.1)")),
            "{c:#?}"
        );
        assert!(
            c.iter().any(|x| x.starts_with(
                "the Tokens spent (1 Red) are discarded: the play names no Stack for them"
            )),
            "{c:#?}"
        );
    }

    #[test]
    fn lv_and_charge_changes_are_listed_for_every_player() {
        let mut t = T::new();
        let mut charged = false;
        for (who, p) in [
            ("rushton", "Rushton : Epping (CN) [Home: Hainault]"),
            ("warren", "Warren : Morden (NT) [Home: Tooting Broadway]"),
            ("acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
            ("rushton", "Rushton : [LV+1] Theydon Bois (CN)"),
            ("warren", "Warren : [LV+1] South Wimbledon (NT)"),
            ("acton", "Acton : [LV+2] Hornchurch (DS)"),
        ] {
            let before = t.referee.games["MN1"].game.state.players.clone();
            let (s, m) = t.play(who, p);
            assert_eq!(s, "legal", "{p}: {:#?}", m);
            let after = &t.referee.games["MN1"].game.state.players;
            let c = changes(&m[0].body);
            for (a, b) in before.iter().zip(after) {
                let lv = format!("{}'s LV {} -> {}", a.name, a.lv, b.lv);
                let charge = format!("{}'s Charge {} -> {}", a.name, a.charge, b.charge);
                assert_eq!(c.contains(&lv), a.lv != b.lv, "{p}: {lv}: {c:#?}");
                assert_eq!(
                    c.contains(&charge),
                    a.charge != b.charge,
                    "{p}: {charge}: {c:#?}"
                );
                charged |= a.charge != b.charge;
            }
        }
        assert!(charged, "no move changed a Charge: the test proves nothing");
    }
}

mod take_back {
    use super::*;

    fn turn(line: &str) -> Request {
        Request::Turn {
            text: line.into(),
            gsd: false,
            line: 1,
            column: 1,
        }
    }

    fn two_turns() -> T {
        let mut t = T::new();
        t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
        t
    }

    const WITHDRAWN: &str = "\n    Warren : Morden (NT) [Home: Tooting Broadway]\n";

    #[test]
    fn a_replacement_says_what_it_replaces_not_a_second_turn_2() {
        let mut t = two_turns();
        let r = turn("Warren : Edgware (NT) [Home: Burnt Oak]");
        let l = t.letter("warren", Request::TakeBack(Some(Box::new(r))), "");
        let (s, m) = t.send(l);
        assert_eq!(s, "taken back; replacement legal");
        assert_eq!(m.len(), 1, "{m:#?}");
        assert_eq!(
            m[0].headline(),
            "Turn 2: Warren took it back and plays again (legal)"
        );
        let b = &m[0].body;
        assert!(b.contains(WITHDRAWN), "{b}");
        assert!(
            b.contains("and plays instead:\n\n    Warren : Edgware (NT) [Home: Burnt Oak]\n"),
            "{b}"
        );
    }

    #[test]
    fn a_take_back_alone_quotes_the_play_withdrawn() {
        let mut t = two_turns();
        let l = t.letter("warren", Request::TakeBack(None), "");
        let (_, m) = t.send(l);
        assert_eq!(m[0].headline(), "Warren took back turn 2");
        assert!(m[0].body.contains(WITHDRAWN), "{}", m[0].body);
        assert!(m[0].on_thread(Some(&t.last_id())), "{:#?}", m[0]);
    }

    #[test]
    fn an_illegal_replacement_is_buzzed_saying_what_was_taken_back() {
        let mut t = two_turns();
        let r = turn("Warren : [LV+1] Tooting Broadway (NT)");
        let l = t.letter("warren", Request::TakeBack(Some(Box::new(r))), "");
        let (s, m) = t.send(l);
        assert_eq!(s, "taken back; replacement illegal");
        assert_eq!(m[0].headline(), "BUZZ: Warren's turn 2 is illegal");
        assert!(m[0].body.contains(WITHDRAWN), "{}", m[0].body);
    }

    #[test]
    fn a_refused_replacement_is_announced_first_then_refused() {
        let mut t = two_turns();
        let r = turn("Warren : Edgware (NT) [Home: Burnt Oka]");
        let l = t.letter("warren", Request::TakeBack(Some(Box::new(r))), "");
        let (s, m) = t.send(l);
        assert!(s.starts_with("taken back; replacement parse error"), "{s}");
        assert_eq!(m[0].headline(), "Warren took back turn 2", "{m:#?}");
        assert!(m[0].body.contains(WITHDRAWN), "{}", m[0].body);
        assert!(m[0].body.contains("The replacement was not accepted"));
        assert_eq!(m[1].to, "warren@example.org");
    }
}

mod held {
    use super::*;

    #[test]
    fn held_turns_are_judged_after_the_settlement_which_names_no_player_to_move() {
        let mut t = T::new();
        opening(&mut t);
        t.step("acton", buzz(4, "no LV for that"), "");
        let (s, _) = t.play("warren", "Warren : [LV+1] South Wimbledon (NT)");
        assert_eq!(s, "mistimed: held");
        let (_, m) = t.step("acton", Workflow::Withdraw, "");
        let heads: Vec<&str> = m.iter().map(Mail::headline).collect();
        assert_eq!(heads, vec!["Turn 4 is Legal", "Turn 5: Warren (legal)"]);
        // "It is Warren's turn" would be untrue by the next mail.
        assert!(!m[0].body.contains("It is Warren's turn"), "{}", m[0].body);
        assert!(m[0].body.contains("judged now"), "{}", m[0].body);
        assert!(m[1].body.contains("Next to play: Acton"), "{}", m[1].body);
        // Read in date order, the verdict still follows the settlement.
        assert!(m[1].date >= m[0].date, "{m:#?}");
        assert!(m[1].on_thread(Some("m6@example.org")), "{:#?}", m[1]);
    }

    #[test]
    fn with_nothing_held_the_settlement_says_who_plays() {
        let mut t = T::new();
        opening(&mut t);
        t.step("acton", buzz(4, "no LV for that"), "");
        let (_, m) = t.step("acton", Workflow::Withdraw, "");
        assert_eq!(m.len(), 1);
        assert!(m[0].body.contains("It is Warren's turn."), "{}", m[0].body);
    }
}

mod speakers_notices {
    use super::*;
    use mornbot::daemon::referee::Command;

    #[test]
    fn a_void_by_the_speaker_is_on_the_thread_with_its_gsd_whole() {
        let mut t = T::with(SpeakerConfig {
            addresses: vec!["speaker@example.org".into()],
            ..SpeakerConfig::default()
        });
        // A play line longer than 72 columns, as the GSD carries it.
        let long = "Rushton : Epping (CN) [Home: Hainault] {a comment long enough to pass \
                    the seventy-two columns of prose}";
        assert_eq!(t.play("rushton", long).0, "legal");
        t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
        let l = t.letter(
            "speaker",
            Request::Commands(vec![Command::Speaker("VOID MN1".into())]),
            "VOID MN1",
        );
        let (_, m) = t.send(l);
        let void = m
            .iter()
            .find(|x| x.headline() == "Turn 2 voided by the Speaker")
            .unwrap_or_else(|| panic!("{m:#?}"));
        // The Speaker's command came privately: the notice answers no
        // message of the lounge's.
        assert!(void.on_thread(None), "{void:#?}");
        let played = t.referee.games["MN1"].turns[0].play.clone();
        assert!(played.chars().count() > 72, "{played}");
        assert!(
            void.body.contains(&format!("\n{played}\n")),
            "{}",
            void.body
        );
    }
}
