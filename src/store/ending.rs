//! How games end, as stored (Rules 1.1.5, 1.1.9, 1.1.11; RULINGS
//! S22 - S24): the Stalemate agreements standing, each ended game once
//! (its outcome and when), and the Points ledger its end wrote. A game's
//! end is written once: the `endings` row is its key, so a replay or a
//! restart never awards its Points twice.

use std::collections::BTreeMap;

use super::*;
use crate::speaker::points::{award, key, Field, Outcome};
use crate::speaker::stalemate::Agreement;

/// A change to the ending tables, written by [`Store::commit`] with the
/// rest of a message's effects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndingOp {
    /// A player agrees a Stalemate (replacing eir earlier agreement).
    Agree {
        /// The game.
        game: String,
        /// The agreement.
        agreement: Agreement,
    },
    /// A player withdraws eir agreement.
    Withdraw {
        /// The game.
        game: String,
        /// The player.
        player: String,
    },
    /// Every agreement of a game is void (the Speaker refused, or the game
    /// ended).
    Clear {
        /// The game.
        game: String,
    },
    /// A game ended: recorded once, with the Points it gives.
    Ended(Ending),
    /// A game of a kind without Points (Points are Volume 1's, Rule 1.1.9)
    /// was won: recorded once, for the Game Archive's list.
    Finished {
        /// The game.
        game: String,
        /// Who won.
        winner: String,
        /// The log's length at the end.
        turns: usize,
    },
}

/// A game's end as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The game.
    pub game: String,
    /// Won, or a Stalemate.
    pub outcome: Outcome,
    /// Its players, as Points see them.
    pub field: Field,
    /// The log's length at the end.
    pub turns: usize,
}

/// An ended game as the archive lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndedRow {
    /// The game.
    pub game: String,
    /// The winner (none for a Stalemate).
    pub winner: Option<String>,
    /// `won` or `stalemate`.
    pub outcome: String,
    /// The log's length at the end.
    pub turns: usize,
    /// When the game was first stored.
    pub started: DateTime<Utc>,
    /// When it ended.
    pub ended: DateTime<Utc>,
}

/// A line of the Points table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointsRow {
    /// The player, as first recorded.
    pub player: String,
    /// Eir Points (never below zero).
    pub points: i64,
    /// The ended games e played in.
    pub games: usize,
}

impl Store {
    /// A game's Stalemate agreements, oldest first.
    pub fn stalemate_agreements(&self, game: &str) -> Result<Vec<Agreement>> {
        let mut st = self.conn.prepare_cached(
            "SELECT player, turns, last FROM stalemate WHERE game = ?1 ORDER BY at, player",
        )?;
        let rows = st.query_map(params![game], |r| {
            Ok(Agreement {
                player: r.get(0)?,
                turns: r.get::<_, i64>(1)? as usize,
                last: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The games whose end was logged (an `ended` event) but never scored
    /// (no `endings` row): ended before this build kept Points. With when
    /// each ended, oldest first.
    pub fn endings_missing(&self) -> Result<Vec<(String, DateTime<Utc>)>> {
        let mut st = self.conn.prepare_cached(
            "SELECT game, MAX(at) FROM events
             WHERE kind = 'ended' AND game NOT IN (SELECT game FROM endings)
             GROUP BY game ORDER BY MAX(at), game",
        )?;
        let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, from_ms(r.get(1)?))))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every ended game, with its outcome and dates, in the order they ended.
    pub fn endings(&self) -> Result<Vec<EndedRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT e.game, e.winner, e.outcome, e.turns, g.created_at, e.at
             FROM endings e JOIN games g ON g.tag = e.game ORDER BY e.at, e.game",
        )?;
        let rows = st.query_map([], |r| {
            Ok(EndedRow {
                game: r.get(0)?,
                winner: r.get(1)?,
                outcome: r.get(2)?,
                turns: r.get::<_, i64>(3)? as usize,
                started: from_ms(r.get(4)?),
                ended: from_ms(r.get(5)?),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The Points table: every player of an ended game, most Points first
    /// (then by name).
    pub fn points(&self) -> Result<Vec<PointsRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT MIN(player), SUM(delta), COUNT(*) FROM points GROUP BY pkey
             ORDER BY SUM(delta) DESC, pkey",
        )?;
        let rows = st.query_map([], |r| {
            Ok(PointsRow {
                player: r.get(0)?,
                points: r.get::<_, i64>(1)?.max(0),
                games: r.get::<_, i64>(2)? as usize,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

/// Everyone's Points, by [`key`].
fn totals(tx: &rusqlite::Transaction<'_>) -> Result<BTreeMap<String, i64>> {
    let mut st = tx.prepare_cached("SELECT pkey, SUM(delta) FROM points GROUP BY pkey")?;
    let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Writes a [`Commit`]'s ending changes.
pub(super) fn commit(tx: &rusqlite::Transaction<'_>, c: &Commit, now: DateTime<Utc>) -> Result<()> {
    for op in &c.ending {
        match op {
            EndingOp::Agree { game, agreement: a } => {
                tx.execute(
                    "INSERT OR REPLACE INTO stalemate (game, player, turns, last, at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![game, a.player, a.turns as i64, a.last, ms(now)],
                )?;
            }
            EndingOp::Withdraw { game, player } => {
                tx.execute(
                    "DELETE FROM stalemate WHERE game = ?1 AND player = ?2",
                    params![game, player],
                )?;
            }
            EndingOp::Clear { game } => {
                tx.execute("DELETE FROM stalemate WHERE game = ?1", params![game])?;
            }
            EndingOp::Ended(e) => ended(tx, e, now)?,
            EndingOp::Finished {
                game,
                winner,
                turns,
            } => {
                tx.execute(
                    "INSERT OR IGNORE INTO endings (game, outcome, winner, turns, at) \
                     VALUES (?1, 'won', ?2, ?3, ?4)",
                    params![game, winner, *turns as i64, ms(now)],
                )?;
            }
        }
    }
    Ok(())
}

/// Records a game's end, once, and the Points it gives (computed against
/// the ledger as it stands inside this transaction).
fn ended(tx: &rusqlite::Transaction<'_>, e: &Ending, now: DateTime<Utc>) -> Result<()> {
    let (outcome, winner) = match &e.outcome {
        Outcome::Won(w) => ("won", Some(w.as_str())),
        Outcome::Stalemate => ("stalemate", None),
    };
    let new = tx.execute(
        "INSERT OR IGNORE INTO endings (game, outcome, winner, turns, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![e.game, outcome, winner, e.turns as i64, ms(now)],
    )?;
    if new == 0 {
        return Ok(());
    }
    let before = totals(tx)?;
    for (player, delta) in award(&e.outcome, &e.field, &before) {
        tx.execute(
            "INSERT OR IGNORE INTO points (game, player, pkey, delta, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![e.game, player, key(&player), delta, ms(now)],
        )?;
    }
    tx.execute("DELETE FROM stalemate WHERE game = ?1", params![e.game])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 20, h, 0, 0).unwrap()
    }

    fn won(game: &str, winner: &str, finishers: &[&str]) -> Commit {
        Commit {
            received_at: Some(at(12)),
            ending: vec![EndingOp::Ended(Ending {
                game: game.into(),
                outcome: Outcome::Won(winner.into()),
                field: Field {
                    finishers: finishers.iter().map(|s| s.to_string()).collect(),
                    resigned: Vec::new(),
                },
                turns: 9,
            })],
            ..Commit::default()
        }
    }

    #[test]
    fn a_game_is_scored_once_against_the_ledger_before_it() {
        let mut s = Store::in_memory().unwrap();
        for g in ["MN1", "MN2"] {
            s.ensure_game(g, "{}", at(9)).unwrap();
        }
        s.commit(&won("MN1", "Warren", &["Rushton", "Warren", "Drone"]))
            .unwrap();
        // Again (a replay): nothing more.
        s.commit(&won("MN1", "Warren", &["Rushton", "Warren"]))
            .unwrap();
        // Rushton, poorer, beats Warren: two and one for Warren.
        s.commit(&won("MN2", "rushton", &["rushton", "Warren"]))
            .unwrap();
        let p: Vec<(String, i64, usize)> = s
            .points()
            .unwrap()
            .into_iter()
            .map(|r| (r.player, r.points, r.games))
            .collect();
        assert_eq!(p, vec![("Rushton".into(), 3, 2), ("Warren".into(), 1, 2)]);
        let e = s.endings().unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].winner.as_deref(), Some("Warren"));
    }

    #[test]
    fn a_game_without_points_is_listed_once_and_scores_nothing() {
        let mut s = Store::in_memory().unwrap();
        s.ensure_game("MX1", "{}", at(9)).unwrap();
        let fin = Commit {
            received_at: Some(at(12)),
            ending: vec![EndingOp::Finished {
                game: "MX1".into(),
                winner: "Ann".into(),
                turns: 31,
            }],
            ..Commit::default()
        };
        s.commit(&fin).unwrap();
        s.commit(&fin).unwrap();
        let e = s.endings().unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].winner.as_deref(), e[0].turns), (Some("Ann"), 31));
        assert_eq!(e[0].outcome, "won");
        assert!(s.points().unwrap().is_empty());
        assert!(s.endings_missing().unwrap().is_empty());
    }

    #[test]
    fn agreements_are_kept_withdrawn_and_cleared() {
        let mut s = Store::in_memory().unwrap();
        s.ensure_game("MN1", "{}", at(9)).unwrap();
        let agree = |p: &str| EndingOp::Agree {
            game: "MN1".into(),
            agreement: Agreement {
                player: p.into(),
                turns: 3,
                last: "<t3>".into(),
            },
        };
        let c = |ops: Vec<EndingOp>| Commit {
            received_at: Some(at(10)),
            ending: ops,
            ..Commit::default()
        };
        s.commit(&c(vec![
            agree("Rushton"),
            agree("Warren"),
            agree("Rushton"),
        ]))
        .unwrap();
        assert_eq!(s.stalemate_agreements("MN1").unwrap().len(), 2);
        s.commit(&c(vec![EndingOp::Withdraw {
            game: "MN1".into(),
            player: "Warren".into(),
        }]))
        .unwrap();
        let a = s.stalemate_agreements("MN1").unwrap();
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].player, "Rushton");
        s.commit(&c(vec![EndingOp::Clear { game: "MN1".into() }]))
            .unwrap();
        assert!(s.stalemate_agreements("MN1").unwrap().is_empty());
    }
}
