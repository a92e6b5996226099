//! The answers about ended games, to the sender alone: `POINTS` (Rule
//! 1.1.9), `ARCHIVE` and `ARCHIVE <game>` (Rule 1.1.5). The Game Archive is
//! what the store already keeps of every game (its definition, its turn
//! log, its events): nothing is copied when a game ends but the line of
//! the `endings` table that says how and when.

use std::fmt::Write as _;

use super::{Command, Event, Live, Referee, RefereeError};
use crate::mail::wrap::verbatim;
use crate::store::{EndedRow, Store};

impl Referee {
    /// The answer to `POINTS`, `ARCHIVE [game]` (or a Stalemate step that
    /// reached the plain command path, which cannot happen but is answered).
    pub(super) fn ending_answer(&self, store: &Store, c: &Command) -> Result<String, RefereeError> {
        Ok(match c {
            Command::Points => points_text(store)?,
            Command::Archive(None) => archive_list(&store.endings()?),
            Command::Archive(Some(t)) => {
                let tag = t.to_uppercase();
                if !self.has_game(&tag) {
                    format!("There is no game {t} in the Game Archive or in play.\n")
                } else if self.is_hosted(&tag) {
                    let h = self.hosted(store, &tag)?;
                    format!("{}\n{}", h.document(), h.history())
                } else {
                    let live = self.live(store, &tag)?;
                    let row = store.endings()?.into_iter().find(|e| e.game == tag);
                    self.archive_record(store, &live, row.as_ref())?
                }
            }
            other => format!("{other:?} was not done: send it on its own.\n"),
        })
    }

    /// One ended game's record: how it ended, the final GSD, and its log of
    /// plays with their verdicts.
    fn archive_record(
        &self,
        store: &Store,
        live: &Live,
        row: Option<&EndedRow>,
    ) -> Result<String, RefereeError> {
        let tag = &live.game.tag;
        if !live.ended {
            return Ok(format!(
                "{tag} has not ended, so it is not in the Game Archive yet (Rule 1.1.5). \
                 STATUS {tag}, GSD {tag} and HISTORY {tag} show it as it stands.\n"
            ));
        }
        let events: Vec<Event> = store
            .events(tag)?
            .iter()
            .filter_map(|r| Event::decode(r).ok())
            .collect();
        let mut s = format!("The Game Archive: {tag} (Rule 1.1.5)\n\n");
        let outcome = match &live.game.state.winner {
            Some(w) => format!("won by {w}"),
            None => "a Stalemate: no winner (Rule 1.1.11)".into(),
        };
        let _ = writeln!(s, "Outcome:  {outcome}");
        let _ = writeln!(s, "Started:  {}", super::fmt_time(live.created_at));
        if let Some(r) = row {
            let _ = writeln!(s, "Ended:    {}", super::fmt_time(r.ended));
        }
        let players: Vec<&str> = live.def.players.iter().map(|(n, _)| n.as_str()).collect();
        let _ = writeln!(s, "Players:  {}", players.join(", "));
        for (n, p) in &live.game.resigned {
            let _ = writeln!(s, "Resigned: {p}, after turn {n}");
        }
        let _ = write!(
            s,
            "\nThe final GSD (it replays with `mornbot check`):\n\n{}\n\n",
            verbatim(&crate::kinds::vol1::document(&live.game, self.map))
        );
        let _ = writeln!(
            s,
            "The log, {} turns, with each verdict:\n",
            live.turns.len()
        );
        s.push_str(&self.verdicts(live, &events));
        Ok(s)
    }

    /// Each logged turn with its verdict (the engine's, or a Judgment's),
    /// and the attempts at it the bot refused first.
    fn verdicts(&self, live: &Live, events: &[Event]) -> String {
        let mut s = String::new();
        let mut changes: Vec<(bool, Vec<String>)> = Vec::new();
        // The log replayed when the game was loaded; a failure here only
        // shortens the verdicts, never the log.
        let _ = live.game.steps(self.map, |step| {
            changes.push((step.judged, step.outcome.changes.clone()));
        });
        for (i, t) in live.turns.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:>4}  {}  {}\n      {}",
                t.n,
                t.submitted_at.format("%Y-%m-%d %H:%M UTC"),
                t.player,
                t.play
            );
            for e in events {
                let (r, what) = match e {
                    Event::BotBuzz(r) => (r, "Illegal, buzzed by the bot"),
                    Event::NeedsRuling(r) => (r, "sent to a human ruling"),
                    _ => continue,
                };
                if r.turn as u64 != t.n {
                    continue;
                }
                let _ = writeln!(s, "      first tried: {} ({what})", r.play);
                for v in r.violations.iter().chain(&r.rulings) {
                    let _ = writeln!(s, "        Rule {}: {}", v.rule, v.message);
                }
            }
            match changes.get(i) {
                Some((true, _)) => s.push_str("      Legal by Judgment\n"),
                Some((false, c)) if c.is_empty() => s.push_str("      Legal\n"),
                Some((false, c)) => {
                    let _ = writeln!(s, "      Legal: {}", c.join("; "));
                }
                None => s.push_str("      logged\n"),
            }
        }
        s
    }
}

/// The Points table (Rule 1.1.9): most first; the Grandmaster named.
fn points_text(store: &Store) -> Result<String, RefereeError> {
    let rows = store.points()?;
    if rows.is_empty() {
        return Ok("The Points table (Rule 1.1.9) is empty: no game has ended yet.\n".into());
    }
    let mut s = String::from("The Points table (Rule 1.1.9), from every ended game:\n\n");
    for r in &rows {
        let _ = writeln!(
            s,
            "  {:<24} {:>4}   ({} game{})",
            r.player,
            r.points,
            r.games,
            if r.games == 1 { "" } else { "s" }
        );
    }
    let top = rows[0].points;
    if rows.iter().filter(|r| r.points == top).count() == 1 && top > 0 {
        let _ = writeln!(
            s,
            "\n{} has more Points than any other player: the Grandmaster.",
            rows[0].player
        );
    }
    Ok(s)
}

/// The list of ended games (Rule 1.1.5).
fn archive_list(rows: &[EndedRow]) -> String {
    if rows.is_empty() {
        return "The Game Archive (Rule 1.1.5) is empty: no game has ended yet.\n".into();
    }
    let mut s = String::from(
        "The Game Archive (Rule 1.1.5): the ended games. ARCHIVE <game> sends one's record.\n\n",
    );
    for r in rows {
        let outcome = match &r.winner {
            Some(w) => format!("won by {w}"),
            None => r.outcome.clone(),
        };
        let _ = writeln!(
            s,
            "  {:<8} {} to {}  {:>4} turns  {outcome}",
            r.game,
            r.started.format("%Y-%m-%d"),
            r.ended.format("%Y-%m-%d"),
            r.turns
        );
    }
    s
}
