//! The lobby (issue 17, RULINGS S16): games created by mail and not yet
//! started, and who asked to join them. A game leaves the lobby at its
//! start, recorded in `games` like any configured game (with its dice),
//! in the commit of the `START` mail.

use super::*;

/// A game in the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRow {
    /// The tag, upper case.
    pub tag: String,
    /// The address that created it.
    pub creator: String,
    /// How many players it takes (besides the Drone).
    pub players: u8,
    /// Game Time at the start.
    pub start: String,
    /// The house rulings, as JSON.
    pub rulings: String,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it started, if it has.
    pub started_at: Option<DateTime<Utc>>,
}

/// A request to join a lobby game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinRow {
    /// The game.
    pub tag: String,
    /// The address that asked, lower case.
    pub address: String,
    /// The name asked for.
    pub name: String,
    /// When it asked (the token binds it).
    pub asked_at: DateTime<Utc>,
    /// When it was confirmed, if it was.
    pub confirmed_at: Option<DateTime<Utc>>,
}

/// Why a request to join ended without a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// The address sent `LEAVE`.
    Left,
    /// A later `JOIN` from the address replaced it (and its token).
    Replaced,
    /// Its game was cancelled (RULINGS S35).
    Cancelled,
}

impl Closed {
    fn as_str(self) -> &'static str {
        match self {
            Closed::Left => "left",
            Closed::Replaced => "replaced",
            Closed::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> Closed {
        match s {
            "left" => Closed::Left,
            "replaced" => Closed::Replaced,
            _ => Closed::Cancelled,
        }
    }
}

/// A request to join that ended without a game, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosedJoin {
    /// The request as it was (never confirmed when replaced).
    pub join: JoinRow,
    /// Why it ended.
    pub why: Closed,
    /// When.
    pub closed_at: DateTime<Utc>,
}

/// A change to the lobby, made in a [`Commit`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyOp {
    /// A new game in the lobby.
    Create(LobbyRow),
    /// A request to join (replacing the address's earlier, unconfirmed one).
    Ask {
        /// The game.
        tag: String,
        /// The address.
        address: String,
        /// The name.
        name: String,
        /// When it asked.
        at: DateTime<Utc>,
    },
    /// A join confirmed.
    Confirm {
        /// The game.
        tag: String,
        /// The address.
        address: String,
    },
    /// A join withdrawn.
    Leave {
        /// The game.
        tag: String,
        /// The address.
        address: String,
    },
    /// The game starts: recorded in `games` with its definition, and its
    /// dice (whose commitment the lounge was told at its creation).
    Start {
        /// The game.
        tag: String,
        /// Its definition, JSON.
        definition: String,
        /// Its dice seed, 64 hex digits.
        seed: String,
        /// The seed's commitment.
        commitment: String,
    },
    /// The game is cancelled before its start: it leaves the lobby with its
    /// joins (RULINGS S35).
    Cancel {
        /// The game.
        tag: String,
    },
}

fn lobby_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<LobbyRow> {
    Ok(LobbyRow {
        tag: r.get(0)?,
        creator: r.get(1)?,
        players: r.get(2)?,
        start: r.get(3)?,
        rulings: r.get(4)?,
        created_at: from_ms(r.get(5)?),
        started_at: r.get::<_, Option<i64>>(6)?.map(from_ms),
    })
}

fn join_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<JoinRow> {
    Ok(JoinRow {
        tag: r.get(0)?,
        address: r.get(1)?,
        name: r.get(2)?,
        asked_at: from_ms(r.get(3)?),
        confirmed_at: r.get::<_, Option<i64>>(4)?.map(from_ms),
    })
}

impl Store {
    /// Lobby game `tag` (upper case), started or not.
    pub fn lobby_game(&self, tag: &str) -> Result<Option<LobbyRow>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT tag, creator, players, start, rulings, created_at, started_at
                 FROM lobby WHERE tag = ?1",
            )?
            .query_row(params![tag], lobby_row)
            .optional()?)
    }

    /// The lobby games not yet started, by tag.
    pub fn lobby_open(&self) -> Result<Vec<LobbyRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT tag, creator, players, start, rulings, created_at, started_at
             FROM lobby WHERE started_at IS NULL ORDER BY tag",
        )?;
        let rows = st.query_map([], lobby_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every request to join game `tag`, oldest first.
    pub fn lobby_joins(&self, tag: &str) -> Result<Vec<JoinRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT tag, address, name, asked_at, confirmed_at FROM lobby_joins
             WHERE tag = ?1 ORDER BY asked_at, address",
        )?;
        let rows = st.query_map(params![tag], join_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The confirmed joins from `address` of games not yet started.
    pub fn lobby_joined_from(&self, address: &str) -> Result<Vec<JoinRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT j.tag, j.address, j.name, j.asked_at, j.confirmed_at FROM lobby_joins j
             JOIN lobby g ON g.tag = j.tag
             WHERE j.address = ?1 AND j.confirmed_at IS NOT NULL AND g.started_at IS NULL
             ORDER BY j.asked_at, j.tag",
        )?;
        let rows = st.query_map(params![address], join_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The requests to join from `address` that ended without a game
    /// (left, replaced, cancelled), the latest first.
    pub fn lobby_closed_from(&self, address: &str) -> Result<Vec<ClosedJoin>> {
        let mut st = self.conn.prepare_cached(
            "SELECT tag, address, name, asked_at, why, closed_at FROM lobby_closed
             WHERE address = ?1 ORDER BY closed_at DESC, tag",
        )?;
        let rows = st.query_map(params![address], |r| {
            Ok(ClosedJoin {
                join: JoinRow {
                    tag: r.get(0)?,
                    address: r.get(1)?,
                    name: r.get(2)?,
                    asked_at: from_ms(r.get(3)?),
                    confirmed_at: None,
                },
                why: Closed::parse(&r.get::<_, String>(4)?),
                closed_at: from_ms(r.get(5)?),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// When lobby game `tag` was last cancelled, if it was.
    pub fn lobby_cancelled(&self, tag: &str) -> Result<Option<DateTime<Utc>>> {
        Ok(self
            .conn
            .prepare_cached("SELECT MAX(cancelled_at) FROM lobby_cancelled WHERE tag = ?1")?
            .query_row(params![tag], |r| r.get::<_, Option<i64>>(0))?
            .map(from_ms))
    }

    /// The unconfirmed requests to join from `address`, oldest first.
    pub fn lobby_asks_from(&self, address: &str) -> Result<Vec<JoinRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT tag, address, name, asked_at, confirmed_at FROM lobby_joins
             WHERE address = ?1 AND confirmed_at IS NULL ORDER BY asked_at, tag",
        )?;
        let rows = st.query_map(params![address], join_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

/// Writes a commit's lobby changes (before its draws: a started game's
/// row must exist when its order's draw is recorded).
pub(super) fn commit(tx: &rusqlite::Transaction<'_>, c: &Commit, now: DateTime<Utc>) -> Result<()> {
    for op in &c.lobby {
        match op {
            LobbyOp::Create(g) => {
                tx.execute(
                    "INSERT INTO lobby (tag, creator, players, start, rulings, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        g.tag,
                        g.creator,
                        g.players,
                        g.start,
                        g.rulings,
                        ms(g.created_at)
                    ],
                )?;
            }
            LobbyOp::Ask {
                tag,
                address,
                name,
                at,
            } => {
                close(tx, tag, Some(address), Closed::Replaced, now)?;
                tx.execute(
                    "INSERT INTO lobby_joins (tag, address, name, asked_at) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (tag, address) DO UPDATE SET name = ?3, asked_at = ?4
                     WHERE confirmed_at IS NULL",
                    params![tag, address, name, ms(*at)],
                )?;
            }
            LobbyOp::Confirm { tag, address } => {
                tx.execute(
                    "UPDATE lobby_joins SET confirmed_at = ?3
                     WHERE tag = ?1 AND address = ?2 AND confirmed_at IS NULL",
                    params![tag, address, ms(now)],
                )?;
            }
            LobbyOp::Leave { tag, address } => {
                close(tx, tag, Some(address), Closed::Left, now)?;
                tx.execute(
                    "DELETE FROM lobby_joins WHERE tag = ?1 AND address = ?2",
                    params![tag, address],
                )?;
            }
            LobbyOp::Start {
                tag,
                definition,
                seed,
                commitment,
            } => {
                tx.execute(
                    "UPDATE lobby SET started_at = ?2 WHERE tag = ?1",
                    params![tag, ms(now)],
                )?;
                tx.execute(
                    "INSERT INTO games (tag, definition, created_at) VALUES (?1, ?2, ?3)",
                    params![tag, definition, ms(now)],
                )?;
                tx.execute(
                    "INSERT OR IGNORE INTO dice (game, seed, commitment, created_at, published_at)
                     VALUES (?1, ?2, ?3, ?4, ?4)",
                    params![tag, seed, commitment, ms(now)],
                )?;
            }
            LobbyOp::Cancel { tag } => {
                close(tx, tag, None, Closed::Cancelled, now)?;
                tx.execute(
                    "INSERT INTO lobby_cancelled (tag, cancelled_at) VALUES (?1, ?2)",
                    params![tag, ms(now)],
                )?;
                tx.execute("DELETE FROM lobby_joins WHERE tag = ?1", params![tag])?;
                tx.execute(
                    "DELETE FROM lobby WHERE tag = ?1 AND started_at IS NULL",
                    params![tag],
                )?;
            }
        }
    }
    Ok(())
}

/// Keeps the requests to join `tag` (from `address`, or all) that end now
/// `why`: a replaced one only while unconfirmed (a confirmed join is never
/// replaced by a JOIN).
fn close(
    tx: &rusqlite::Transaction<'_>,
    tag: &str,
    address: Option<&str>,
    why: Closed,
    now: DateTime<Utc>,
) -> Result<()> {
    tx.execute(
        "INSERT INTO lobby_closed (tag, address, name, asked_at, why, closed_at)
         SELECT tag, address, name, asked_at, ?3, ?4 FROM lobby_joins
         WHERE tag = ?1 AND (?2 IS NULL OR address = ?2)
           AND (?3 <> 'replaced' OR confirmed_at IS NULL)",
        params![tag, address, why.as_str(), ms(now)],
    )?;
    Ok(())
}
