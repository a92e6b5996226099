//! Players arriving and leaving a hosted game under way (issue 41;
//! RULINGS MX13, MX15): a late `JOIN` is asked in the lounge and takes
//! effect once every player sent `CONSENT <TAG> <Name>`; `RESIGN` takes a
//! player out. Asks and consents are the game's events; a join and a
//! resignation are lines of its log (`#join Name`, `#resign Name`), folded
//! by the kind like turns.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::notice::Thread;
use super::{Hosted, Letter, Out, Referee, RefereeError};
use crate::kinds::Position;
use crate::store::{Commit, EventRow, Store, TurnRow};

/// The event of a late join asked.
pub(super) const ASK: &str = "hosted-join-ask";
/// The event of a player's consent to it.
const CONSENT: &str = "hosted-consent";

/// A late joiner's ask, or a consent to one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct JoinEvent {
    /// The joiner's name.
    pub(super) name: String,
    /// The joiner's address (an ask), or the consenting player (a consent).
    pub(super) by: String,
}

/// The event of the Speaker pausing (`true`) or resuming (`false`).
pub(super) const PAUSE: &str = "hosted-pause";

/// What a hosted game's events come to: the late joins asked and
/// consented to, whether it is paused (and when last resumed), and the
/// absences.
#[derive(Clone, Debug, Default)]
pub(super) struct Events {
    /// Late joiners' asks (name, address), oldest first.
    pub(super) asks: Vec<JoinEvent>,
    /// Consents (joiner's name, consenting player), oldest first.
    pub(super) consents: Vec<JoinEvent>,
    /// Whether the Speaker paused the game.
    pub(super) paused: bool,
    /// When the Speaker last resumed it.
    pub(super) resumed_at: Option<DateTime<Utc>>,
    /// The absences, as set and cut (RULINGS S27).
    pub(super) absences: Vec<crate::speaker::absence::Absence>,
}

/// Folds hosted game `tag`'s event rows, read once.
///
/// # Errors
///
/// [`RefereeError::Game`] when an absence's event does not decode.
pub(super) fn fold_events(tag: &str, rows: &[EventRow]) -> Result<Events, RefereeError> {
    let mut e = Events::default();
    let mut away = Vec::new();
    for row in rows {
        match row.kind.as_str() {
            ASK | CONSENT => {
                if let Ok(j) = serde_json::from_str::<JoinEvent>(&row.data) {
                    if row.kind == ASK {
                        e.asks.push(j);
                    } else {
                        e.consents.push(j);
                    }
                }
            }
            PAUSE => {
                e.paused = row.data == "true";
                if !e.paused {
                    e.resumed_at = Some(row.at);
                }
            }
            "away" | "away-cut" => away.push(row.clone()),
            _ => {}
        }
    }
    let decoded = super::Event::decode_all(&away).map_err(|detail| RefereeError::Game {
        tag: tag.to_string(),
        detail,
    })?;
    e.absences = super::absence::load(&decoded);
    Ok(e)
}

/// Records a late join's ask or consent in `commit`.
fn record(commit: &mut Commit, tag: &str, kind: &str, e: &JoinEvent) {
    commit.events.push((
        tag.to_string(),
        kind.to_string(),
        serde_json::to_string(e).expect("serialisable"),
    ));
}

impl Referee {
    /// The Speaker's `PAUSE` (`pause`) or `RESUME` of hosted game `h`,
    /// into `commit`: no turn is due while paused; on resuming, the
    /// awaited turn's clock starts again.
    pub(super) fn hosted_pause(
        &self,
        h: &mut Hosted,
        pause: bool,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> bool {
        let tag = h.def.tag.clone();
        if h.events.paused == pause {
            out.refuse(format!(
                "{tag} is {} already.",
                if pause { "paused" } else { "not paused" }
            ));
            return false;
        }
        h.events.paused = pause;
        if !pause {
            h.events.resumed_at = Some(at);
        }
        commit
            .events
            .push((tag.clone(), PAUSE.to_string(), pause.to_string()));
        commit.snapshots.push(self.hosted_snapshot(h));
        let text = if pause {
            format!("The Speaker paused {tag}: no turn is due until it is resumed.")
        } else {
            let due = h.deadline().map(super::fmt_time).unwrap_or_default();
            format!("The Speaker resumed {tag}: the awaited turn is due by {due}.")
        };
        out.game(
            &tag,
            if pause { "Paused" } else { "Resumed" },
            self.notice(text),
        );
        true
    }

    /// `JOIN <TAG> as <Name>` for a hosted game under way: asked in the
    /// lounge; every player consents with `CONSENT`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hosted_join_ask(
        &self,
        store: &Store,
        letter: &Letter,
        tag: &str,
        name: &str,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let h = self.hosted(store, tag)?;
        if h.position
            .players()
            .iter()
            .any(|p| p.eq_ignore_ascii_case(name))
            || h.def
                .players
                .iter()
                .any(|(_, a)| crate::mail::address::same(a, &letter.from))
        {
            out.refuse(format!(
                "{name} cannot join {tag}: the name or your address is already in the game."
            ));
            return Ok("late join: taken".into());
        }
        if let Some(other) = self.games.look_alike(name, &letter.from) {
            out.refuse(format!(
                "{name} cannot join {tag}: it can be taken for {other}, another player's name."
            ));
            return Ok("late join: look-alike".into());
        }
        let e = JoinEvent {
            name: name.to_string(),
            by: letter.from.to_ascii_lowercase(),
        };
        record(commit, tag, ASK, &e);
        let players = h.position.players();
        let th = Thread::answering(tag, format!("{}#join-{tag}", letter.message_id), letter);
        self.announce(
            commit,
            &th,
            format!("{name} asks to join"),
            format!(
                "{name} asks to join {tag}, under way. In {} ({}), new players join only if \
                 all players agree (RULINGS MX13): {name} joins, last in the order of play \
                 and with nothing, once each of {} mails\n\n    CONSENT {tag} {name}\n",
                h.def.kind.title(),
                h.def.kind.id(),
                players.join(", ")
            ),
            at,
        );
        out.sender(self.notice(format!(
            "Your ask to join {tag} as {name} is announced in the lounge; you join once every \
             player consents."
        )));
        Ok(format!("late join asked: {name}"))
    }

    /// `CONSENT <TAG> <Name>` from a player of hosted game `tag`; the last
    /// consent makes the join.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hosted_consent(
        &self,
        store: &Store,
        letter: &Letter,
        tag: &str,
        name: &str,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        if !self.is_hosted(tag) {
            out.refuse(format!(
                "There is no game {tag} under way that takes late joiners by consent."
            ));
            return Ok("consent: no game".into());
        }
        let mut h = self.hosted(store, tag)?;
        let players = h.position.players();
        let Some(me) = h
            .player_of(&letter.from)
            .filter(|p| players.iter().any(|q| q == p))
            .map(str::to_string)
        else {
            out.refuse(format!("Only a player of {tag} consents to a join."));
            return Ok("consent: not a player".into());
        };
        let Some(ask) = h
            .events
            .asks
            .iter()
            .rev()
            .find(|a| a.name.eq_ignore_ascii_case(name))
            .cloned()
        else {
            out.refuse(format!("No one asked to join {tag} as {name}."));
            return Ok("consent: no ask".into());
        };
        let mut agreed: Vec<String> = h
            .events
            .consents
            .iter()
            .filter(|c| c.name.eq_ignore_ascii_case(name))
            .map(|c| c.by.clone())
            .collect();
        agreed.push(me.clone());
        let consent = JoinEvent {
            name: ask.name.clone(),
            by: me.clone(),
        };
        record(commit, tag, CONSENT, &consent);
        let waiting: Vec<&String> = players
            .iter()
            .filter(|p| !agreed.iter().any(|a| a.eq_ignore_ascii_case(p)))
            .collect();
        if !waiting.is_empty() {
            let list: Vec<&str> = waiting.iter().map(|s| s.as_str()).collect();
            out.sender(self.notice(format!(
                "Your consent to {} joining {tag} is recorded; still to consent: {}.",
                ask.name,
                list.join(", ")
            )));
            return Ok(format!("consent: {me} to {}", ask.name));
        }
        let joined = match h.position.join(&ask.name) {
            Ok(p) => p,
            Err(e) => {
                out.refuse(format!("{} cannot join {tag}: {e}.", ask.name));
                return Ok("consent: join refused".into());
            }
        };
        let n = h.turns.len() as u64 + 1;
        let row = TurnRow {
            n,
            player: ask.name.clone(),
            play: Position::join_line(&ask.name),
            message_id: letter.message_id.clone(),
            submitted_at: at,
        };
        h.position = joined;
        h.turns.push(row.clone());
        h.def.players.push((ask.name.clone(), ask.by.clone()));
        commit.turns.push((tag.to_string(), row));
        commit.snapshots.push(self.hosted_snapshot(&h));
        let th = Thread::answering(tag, format!("{}#join-{tag}", letter.message_id), letter);
        self.announce(
            commit,
            &th,
            format!("{} joins", ask.name),
            format!(
                "Every player consented: {} joins {tag}, last in the order of play, at the \
                 start with nothing (RULINGS MX13).\n\n{}",
                ask.name,
                crate::mail::wrap::verbatim(&h.document())
            ),
            at,
        );
        Ok(format!("late join: {} joins {tag}", ask.name))
    }

    /// A player resigns from hosted game `tag` (RULINGS MX15): the line
    /// logged and announced, into `commit`.
    pub(super) fn hosted_resign(
        &self,
        h: &mut Hosted,
        name: &str,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> bool {
        let tag = h.def.tag.clone();
        let resigned = match h.position.resign(name) {
            Ok(p) => p,
            Err(e) => {
                out.refuse(format!("{name} cannot resign from {tag}: {e}."));
                return false;
            }
        };
        let n = h.turns.len() as u64 + 1;
        let row = TurnRow {
            n,
            player: name.to_string(),
            play: Position::resign_line(name),
            message_id: letter.message_id.clone(),
            submitted_at: at,
        };
        h.position = resigned;
        h.turns.push(row.clone());
        commit.turns.push((tag.clone(), row));
        commit.snapshots.push(self.hosted_snapshot(h));
        out.game(
            &tag,
            &format!("{name} resigns"),
            format!(
                "{name} resigns from {tag} (RULINGS MX15): eir train leaves the map with \
                 all it held.\n\n{}",
                crate::mail::wrap::verbatim(&h.document())
            ),
        );
        self.end_if_over(h, letter, at, commit);
        true
    }
}

impl Referee {
    /// A player's own `RESIGN` (or a Stalemate step, which only Volume 1
    /// has) for hosted game `tag`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hosted_ending(
        &self,
        store: &Store,
        tag: &str,
        acts: &[super::ending::Act],
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let mut h = self.hosted(store, tag)?;
        let mut said = Vec::new();
        for act in acts {
            match act {
                super::ending::Act::Resign(_) => {
                    let Some(me) = h.player_of(&letter.from).map(str::to_string) else {
                        out.refuse(format!("{} plays no part in {tag}.", letter.from));
                        said.push("resign: not a player".to_string());
                        continue;
                    };
                    if self.hosted_resign(&mut h, &me, letter, at, out, commit) {
                        said.push(format!("{me} resigned"));
                    }
                }
                super::ending::Act::Stalemate(..) => {
                    out.refuse(format!(
                        "{tag} is a game of {}: a Stalemate (Rule 1.1.11) is Volume 1's.",
                        h.def.kind.id()
                    ));
                    said.push("stalemate: not this kind".to_string());
                }
            }
        }
        Ok(said.join("; "))
    }
}

impl super::absence::Seats for Hosted {
    fn tag(&self) -> String {
        self.def.tag.clone()
    }
    fn over(&self) -> Option<String> {
        match self.position.next() {
            crate::kinds::Next::Over { winners } => Some(format!(
                "{} is over: {}.",
                self.def.tag,
                super::hosted::won(&winners)
            )),
            crate::kinds::Next::Act { .. } => None,
        }
    }
    fn player_at(&self, address: &str) -> Option<String> {
        self.player_of(address).map(str::to_string)
    }
    fn address_for(&self, player: &str) -> Option<String> {
        self.address_of(player).map(str::to_string)
    }
    fn registered(&self) -> Vec<String> {
        self.def.players.iter().map(|p| p.0.clone()).collect()
    }
    fn still_plays(&self, player: &str) -> bool {
        self.position
            .players()
            .iter()
            .any(|p| p.eq_ignore_ascii_case(player))
    }
    fn absences(&self) -> &[crate::speaker::absence::Absence] {
        &self.events.absences
    }
    fn absences_mut(&mut self) -> &mut Vec<crate::speaker::absence::Absence> {
        &mut self.events.absences
    }
    fn due(&self) -> Option<DateTime<Utc>> {
        self.deadline()
    }
    fn awaited(&self) -> (String, usize) {
        (
            Hosted::awaited(self).unwrap_or_default(),
            self.turns.len() + 1,
        )
    }
}
