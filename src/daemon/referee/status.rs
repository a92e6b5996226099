//! What `STATUS` says beyond whose turn it is (issue 17, item 6): every
//! open request of a game with its deadline, and the lobby's games. And
//! which games a `STATUS` naming none answers: never every game (issue 20:
//! an idle game costs nothing), but the sender's, the Speaker's most
//! urgent, and the lobby's (RULINGS S32).

use chrono::{DateTime, Utc};

use super::late::{stalemate_tally, wait_of};
use super::{fmt_time, Live, Referee, RefereeError, LISTED};
use crate::speaker::buzz::Stage;
use crate::speaker::waiting::waited;
use crate::store::Store;

/// The games a `STATUS` (or `GSD`, `HISTORY`) naming no game answers, and
/// how many other games there are.
pub(super) struct Unnamed {
    /// The games answered, in order.
    pub(super) tags: Vec<String>,
    /// How many games the lounge has besides.
    pub(super) others: usize,
}

impl Referee {
    /// The games a command naming none answers for `asker`: the games e
    /// plays in; for the Speaker's addresses, then the games soonest due
    /// in the agenda (every game with an open request is there); in a
    /// lounge of one game, that game. At most [`LISTED`].
    pub(super) fn unnamed(&self, asker: &str) -> Unnamed {
        let mut tags: Vec<String> = self
            .games
            .defs
            .iter()
            .filter(|(_, d)| {
                d.players
                    .iter()
                    .any(|(_, a)| crate::mail::address::same(a, asker))
            })
            .map(|(t, _)| t.clone())
            .take(LISTED)
            .collect();
        if self.is_speaker(asker) {
            for (_, tag) in &self.agenda {
                if tags.len() >= LISTED {
                    break;
                }
                if !tags.contains(tag) {
                    tags.push(tag.clone());
                }
            }
        }
        if tags.is_empty() && self.games.defs.len() == 1 {
            tags.extend(self.tags().cloned());
        }
        Unnamed {
            others: self.games.defs.len().saturating_sub(tags.len()),
            tags,
        }
    }

    /// The line naming how many games a reply left out, and how to ask
    /// for one.
    pub(super) fn others_line(&self, others: usize, shown: &[String]) -> Option<String> {
        if others == 0 {
            return None;
        }
        let example = self
            .tags()
            .find(|t| !shown.contains(t))
            .cloned()
            .unwrap_or_default();
        Some(format!(
            "{others} other game{} in this lounge not shown here; STATUS <game> shows any \
             of them, e.g. STATUS {example}.\n",
            if others == 1 { "" } else { "s" }
        ))
    }

    /// Every request open in `live` at `now`, one line each, with its
    /// deadline or since when it waits: a pause, a Judgment the Speaker
    /// owes, a Questionable Turn's step, a Stalemate's agreements, a
    /// winning turn's acknowledgements.
    pub(super) fn open_requests(&self, live: &Live, now: DateTime<Utc>) -> Vec<String> {
        let mut lines = Vec::new();
        let tag = &live.game.tag;
        if live.paused {
            lines.push(format!(
                "Paused by the Speaker: no turn is due until the Speaker's RESUME {tag}."
            ));
        }
        if let Some(p) = live
            .pending
            .as_ref()
            .filter(|_| live.questionable.is_none())
        {
            lines.push(format!(
                "Turn {} ({}'s) awaits the Speaker's Judgment ({}) since {}.",
                p.turn,
                p.player,
                if p.ruling {
                    "it needs a human ruling"
                } else {
                    "the engine found it Illegal"
                },
                fmt_time(p.submitted_at)
            ));
        }
        if let Some(q) = &live.questionable {
            lines.push(match &q.stage {
                Stage::Defence { until }
                | Stage::Reply { until }
                | Stage::Judgment { until, .. } => {
                    format!(
                        "Questionable turn {}: {}, by {}.",
                        q.turn,
                        crate::speaker::buzz::describe(q),
                        fmt_time(*until)
                    )
                }
                Stage::Draw | Stage::OnHold => format!(
                    "Questionable turn {}: {}.",
                    q.turn,
                    crate::speaker::buzz::describe(q)
                ),
            });
        }
        // Absences under way or to come (RULINGS S27).
        for a in live.absences.iter().filter(|a| a.to > now) {
            lines.push(format!(
                "{} is away {}: eir turn's clock stops meanwhile (Rule 1.3.5).",
                a.player,
                crate::speaker::absence::describe(a.from, a.to)
            ));
        }
        lines.extend(self.stalemate_line(live));
        lines.extend(self.win_line(live));
        if let Some(w) = wait_of(live) {
            lines.push(format!(
                "Waiting on {} since {} ({}).",
                w.who,
                fmt_time(w.since),
                waited(w.since, now)
            ));
        }
        lines
    }

    /// Where a Stalemate stands, when anyone agrees one.
    fn stalemate_line(&self, live: &Live) -> Option<String> {
        let t = stalemate_tally(live);
        if t.agreed.is_empty() || live.ended {
            return None;
        }
        let tag = &live.game.tag;
        Some(if t.complete() {
            format!(
                "Every Active non-Drone player agrees a Stalemate ({}): the Speaker decides, \
                 with CONFIRM STALEMATE {tag} or REFUSE STALEMATE {tag} (Rule 1.1.11).",
                t.agreed.join(", ")
            )
        } else {
            format!(
                "Stalemate agreed by {}; still to agree: {} (Rule 1.1.11).",
                t.agreed.join(", "),
                t.missing.join(", ")
            )
        })
    }

    /// A winning turn waiting on acknowledgements, and when its window
    /// ends.
    fn win_line(&self, live: &Live) -> Option<String> {
        let winner = live.game.state.winner.as_ref()?;
        if live.ended || live.questionable.is_some() {
            return None;
        }
        let missing: Vec<&str> = live
            .game
            .state
            .players
            .iter()
            .filter(|p| {
                p.active
                    && !p.name.eq_ignore_ascii_case(winner)
                    && !crate::kinds::vol1::is_reserved(&p.name)
                    && !live.acks.iter().any(|a| a.eq_ignore_ascii_case(&p.name))
            })
            .map(|p| p.name.as_str())
            .collect();
        let ends = match self.win_window_end(live) {
            Some(t) => format!("unless it is buzzed by {}", fmt_time(t)),
            None => "once every other Active player replies \"No buzz\"".to_string(),
        };
        Some(format!(
            "{winner}'s winning turn {} ends the game {ends} (Rule 1.1.1); still to \
             acknowledge: {}.",
            live.turns.len(),
            if missing.is_empty() {
                "no one".to_string()
            } else {
                missing.join(", ")
            }
        ))
    }

    /// The lobby's games not yet started (at most [`LISTED`]): players
    /// wanted, who joined, who has still to CONFIRM; `None` when there is
    /// none.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub(super) fn lobby_status(&self, store: &Store) -> Result<Option<String>, RefereeError> {
        let open = store.lobby_open()?;
        if open.is_empty() {
            return Ok(None);
        }
        let mut s = String::from("Games waiting for players (the lobby):\n\n");
        for g in open.iter().take(LISTED) {
            s.push_str(&self.lobby_line(store, &g.tag, g.players)?);
        }
        if open.len() > LISTED {
            s.push_str(&format!("  and {} more\n", open.len() - LISTED));
        }
        Ok(Some(s))
    }

    /// One lobby game's line.
    pub(super) fn lobby_line(
        &self,
        store: &Store,
        tag: &str,
        wanted: u8,
    ) -> Result<String, RefereeError> {
        let joins = store.lobby_joins(tag)?;
        let names = |confirmed: bool| {
            let n: Vec<&str> = joins
                .iter()
                .filter(|j| j.confirmed_at.is_some() == confirmed)
                .map(|j| j.name.as_str())
                .collect();
            if n.is_empty() {
                "no one".to_string()
            } else {
                n.join(", ")
            }
        };
        Ok(format!(
            "  {tag}: {wanted} players wanted; joined: {}; still to CONFIRM: {}. JOIN {tag} \
             as <Name> to play.\n",
            names(true),
            names(false)
        ))
    }
}
