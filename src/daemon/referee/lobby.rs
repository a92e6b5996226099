//! The lobby by mail (issue 17, RULINGS S16 - S20): `NEW GAME`, `JOIN`,
//! `CONFIRM`, `LEAVE`, `START`. A game waits in the lobby until it starts;
//! then it is recorded in `games` like a configured game and played the
//! same way (see `lobby_start.rs`). Every refusal goes to the sender
//! alone and changes nothing.

use chrono::{DateTime, Utc};

use super::notice::Thread;
use super::{Command, Letter, Out, Referee, RefereeError};
use crate::config::LobbyConfig;
use crate::dice::{self, Seed};
use crate::mail::lobby::{Lobby, NewGame};
use crate::speaker::join::{self, JoinAsk};
use crate::store::{Closed, Commit, JoinRow, LobbyOp, LobbyRow, Store};

/// The `meta` key of the lobby's secret (tokens and lobby games' seeds).
const SECRET_KEY: &str = "lobby_secret";

/// The lobby's settings and secret, once [`Referee::open_lobby`] ran.
#[derive(Clone)]
pub(super) struct Desk {
    pub(super) config: LobbyConfig,
    pub(super) secret: [u8; 32],
}

/// A lobby game and its requests to join, read once per command.
pub(super) struct Table {
    pub(super) game: LobbyRow,
    pub(super) joins: Vec<JoinRow>,
}

impl Table {
    /// The confirmed players, in the order they confirmed.
    pub(super) fn confirmed(&self) -> Vec<&JoinRow> {
        let mut v: Vec<&JoinRow> = self
            .joins
            .iter()
            .filter(|j| j.confirmed_at.is_some())
            .collect();
        v.sort_by_key(|j| (j.confirmed_at, j.address.clone()));
        v
    }

    /// Why `name` cannot join from `address` now (full, name taken,
    /// joined already), or `None`.
    fn bar(&self, name: &str, address: &str) -> Option<String> {
        let tag = &self.game.tag;
        let confirmed = self.confirmed();
        if let Some(me) = confirmed.iter().find(|j| j.address == address) {
            return Some(format!(
                "You have already joined {tag} as {}; LEAVE {tag} first to join under \
                 another name.",
                me.name
            ));
        }
        if confirmed.iter().any(|j| j.name.eq_ignore_ascii_case(name)) {
            return Some(format!(
                "The name {name} is already taken in {tag}: choose another (JOIN {tag} as \
                 <Name>)."
            ));
        }
        let look = crate::text::look_alike_key(name);
        if let Some(j) = confirmed
            .iter()
            .find(|j| crate::text::look_alike_key(&j.name) == look)
        {
            return Some(format!(
                "The name {name} can be taken for {}, who has joined {tag}: choose a name \
                 no one can mistake for another (JOIN {tag} as <Name>).",
                j.name
            ));
        }
        if confirmed.len() >= usize::from(self.game.players) {
            return Some(format!(
                "{tag} is full: it takes {} players, and all have joined.",
                self.game.players
            ));
        }
        None
    }
}

impl Referee {
    /// Opens the lobby: its settings (`[lobby]`) and its secret, drawn
    /// from `fresh` (the OS's randomness, at the daemon's edge) the first
    /// time and kept in the database. Until this runs, lobby commands are
    /// refused.
    ///
    /// # Errors
    ///
    /// [`RefereeError::Store`] when the database fails,
    /// [`RefereeError::Game`] when `fresh` has no randomness to give.
    pub fn open_lobby(
        &mut self,
        store: &mut Store,
        config: LobbyConfig,
        fresh: &mut dyn FnMut() -> Result<[u8; 32], String>,
    ) -> Result<(), RefereeError> {
        let stored = store
            .meta(SECRET_KEY)?
            .and_then(|hex| Seed::from_hex(&hex).ok());
        let seed = match stored {
            Some(s) => s,
            None => {
                let bytes = fresh().map_err(|detail| RefereeError::Game {
                    tag: "lobby".into(),
                    detail: format!("no randomness for the lobby's secret: {detail}"),
                })?;
                let s = Seed::from_bytes(bytes);
                store.set_meta(SECRET_KEY, &s.to_hex())?;
                s
            }
        };
        self.lobby = Some(Desk {
            config,
            secret: seed.bytes(),
        });
        Ok(())
    }

    /// Answers a mail's commands: the lobby's, then the others (HELP,
    /// STATUS...) in one reply; returns a summary.
    pub(super) fn all_commands(
        &self,
        store: &Store,
        letter: &Letter,
        cmds: &[Command],
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        if let Some(why) = self.entangled(store, letter, cmds)? {
            out.refuse(why);
            return Ok("lobby: refused whole (two commands on one game)".into());
        }
        let mut said = Vec::new();
        let mut rest = Vec::new();
        for c in cmds {
            match c {
                Command::Lobby(l) => {
                    said.push(self.lobby_command(store, letter, l, at, out, commit)?)
                }
                other => rest.push(other.clone()),
            }
        }
        if !rest.is_empty() {
            said.push(self.commands(store, &rest, out)?);
        }
        Ok(said.join("; "))
    }

    /// One lobby command: its effects in `commit`, its replies in `out`.
    fn lobby_command(
        &self,
        store: &Store,
        letter: &Letter,
        cmd: &Lobby,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let Some(desk) = &self.lobby else {
            out.refuse("This lounge does not take games by mail (its lobby is not open).");
            return Ok("lobby: closed".into());
        };
        Ok(match cmd {
            Lobby::Malformed { line, expected } => {
                out.refuse(format!("\"{line}\" could not be read: {expected}."));
                "lobby: malformed".into()
            }
            Lobby::NewGame(g) => self.new_game(store, desk, letter, g, at, out, commit)?,
            // A game of another kind under way takes late joiners by every
            // player's consent (RULINGS MX13).
            Lobby::Join { tag, name } if self.is_hosted(tag) => {
                self.hosted_join_ask(store, letter, tag, name, at, out, commit)?
            }
            Lobby::Consent { tag, name } => {
                self.hosted_consent(store, letter, tag, name, at, out, commit)?
            }
            Lobby::Join { tag, name } => {
                self.join(store, desk, letter, tag, name, at, out, commit)?
            }
            Lobby::Confirm { token } => {
                self.confirm(store, desk, letter, token, at, out, commit)?
            }
            Lobby::Leave { tag } => self.leave(store, letter, tag, at, out, commit)?,
            Lobby::Start { tag } => self.start(store, desk, letter, tag, at, out, commit)?,
            Lobby::Cancel { tag } => self.cancel_game(store, desk, letter, tag, at, out, commit)?,
        })
    }

    /// Lobby game `tag` not yet started, or the refusal sent.
    pub(super) fn open_table(
        &self,
        store: &Store,
        tag: &str,
        out: &mut Out,
    ) -> Result<Option<Table>, RefereeError> {
        let game = match store.lobby_game(tag)? {
            Some(g) if g.started_at.is_none() => g,
            Some(_) => {
                out.refuse(format!(
                    "{tag} has already started: no one joins or leaves it by the lobby now."
                ));
                return Ok(None);
            }
            None if self.has_game(tag) => {
                out.refuse(format!(
                    "{tag} is already being played: the lobby takes only games not yet started."
                ));
                return Ok(None);
            }
            None => {
                let was = match store.lobby_cancelled(tag)? {
                    Some(at) => format!(
                        "{tag} was cancelled on {}, before its start (RULINGS S35).",
                        super::fmt_time(at)
                    ),
                    None => format!("There is no game {tag} in the lobby."),
                };
                out.refuse(format!("{was} {}", self.waiting_games(store)?));
                return Ok(None);
            }
        };
        let joins = store.lobby_joins(tag)?;
        Ok(Some(Table { game, joins }))
    }

    #[allow(clippy::too_many_arguments)]
    fn new_game(
        &self,
        store: &Store,
        desk: &Desk,
        letter: &Letter,
        g: &NewGame,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let tag = &g.tag;
        if !desk.config.open_games && !self.is_speaker(&letter.from) {
            out.refuse(format!(
                "Only the Speaker creates games in this lounge ([lobby] open_games = false), \
                 so {tag} was not created. Ask the Speaker to post NEW GAME {tag}."
            ));
            return Ok("new game: not the Speaker".into());
        }
        if self.has_game(tag) || store.lobby_game(tag)?.is_some() || taken(commit, tag) {
            out.refuse(format!(
                "There is already a game {tag}: a new game needs a tag of its own."
            ));
            return Ok("new game: tag taken".into());
        }
        if let Some(why) = self.lobby_full(store, desk, letter, commit)? {
            out.refuse(format!("{tag} was not created: {why}"));
            return Ok("new game: lobby limit".into());
        }
        let rulings = super::lobby_kind::column(g);
        commit.lobby.push(LobbyOp::Create(LobbyRow {
            tag: tag.clone(),
            creator: letter.from.clone(),
            players: g.players,
            start: g.start.clone(),
            rulings,
            created_at: at,
            started_at: None,
        }));
        let seed = Seed::from_bytes(join::game_seed(&desk.secret, tag));
        let house = house_rulings(&g.rulings);
        let what = if g.kind == crate::kinds::Kind::MnVol1 {
            format!("starting at Game Time {}{house}", g.start)
        } else {
            super::lobby_kind::describe(&super::lobby_kind::options(g))
        };
        let text = format!(
            "A new game, {tag}, is open for players (Rule 1.1.8): up to {} players, \
             {what}.\n\nTo join, mail {bot} the line\n\n    JOIN {tag} as \
             <Name>\n\nand answer the confirmation mornbot sends you. {who} starts it with \
             START {tag} once two or more have joined; the order of play is then drawn (Rule \
             1.1.12).\n\nThe commitment of {tag}'s dice (RULINGS S14, S17), fixed now, before \
             anyone joins:\n\n    {tag}  {}",
            g.players,
            dice::commitment(&seed),
            bot = self.me.address,
            who = if self.is_speaker(&letter.from) {
                "The Speaker"
            } else {
                "Its creator or the Speaker"
            },
        );
        let th = Thread::answering(tag, format!("{}#lobby-{tag}", letter.message_id), letter);
        self.announce(commit, &th, "Players wanted".to_string(), text, at);
        out.sender(self.notice(format!(
            "{tag} is created and announced in the lounge; players join with JOIN {tag} as \
             <Name>, and you start it with START {tag}."
        )));
        Ok(format!("new game {tag}"))
    }

    #[allow(clippy::too_many_arguments)]
    fn join(
        &self,
        store: &Store,
        desk: &Desk,
        letter: &Letter,
        tag: &str,
        name: &str,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let Some(table) = self.open_table(store, tag, out)? else {
            return Ok("join: refused".into());
        };
        let address = letter.from.to_ascii_lowercase();
        if let Some(why) = table.bar(name, &address) {
            out.refuse(why);
            return Ok("join: refused".into());
        }
        if let Some(other) = self.games.look_alike(name, &address) {
            out.refuse(format!(
                "The name {name} can be taken for {other}, a player of this lounge: choose \
                 a name no one can mistake for another (JOIN {tag} as <Name>)."
            ));
            return Ok("join: refused (a look-alike name)".into());
        }
        let ask = JoinAsk {
            tag,
            name,
            address: &address,
            asked_ms: at.timestamp_millis(),
        };
        let token = join::token(&desk.secret, &ask);
        commit.lobby.push(LobbyOp::Ask {
            tag: tag.to_string(),
            address: address.clone(),
            name: name.to_string(),
            at,
        });
        out.sender(self.notice(format!(
            "Someone asked, from this address ({address}), to join {tag} as {name}. To \
             confirm, reply to this mail (to {bot}) with the line\n\n    CONFIRM {token}\n\n\
             within {} hours. If it was not you, ignore this mail: no one joins without the \
             confirmation, which only this address receives.",
            desk.config.confirm_hours,
            bot = self.me.address,
        )));
        Ok(format!("join {tag} as {name}: awaiting confirmation"))
    }

    #[allow(clippy::too_many_arguments)]
    fn confirm(
        &self,
        store: &Store,
        desk: &Desk,
        letter: &Letter,
        token: &str,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let address = letter.from.to_ascii_lowercase();
        let asks = store.lobby_asks_from(&address)?;
        let Some(j) = asks.iter().find(|j| tokens(&desk.secret, j, token)) else {
            let (why, summary) = self.no_join(store, desk, &address, token)?;
            out.refuse(why);
            return Ok(format!("confirm: {summary}"));
        };
        let tag = j.tag.as_str();
        let hours = desk.config.confirm_hours;
        if join::expired(j.asked_at.timestamp_millis(), at.timestamp_millis(), hours) {
            out.refuse(format!(
                "Your request to join {tag} as {} expired: a confirmation must come within \
                 {hours} hours. Send JOIN {tag} as {} again.",
                j.name, j.name
            ));
            return Ok("confirm: expired".into());
        }
        let Some(table) = self.open_table(store, tag, out)? else {
            return Ok("confirm: refused".into());
        };
        if let Some(why) = table.bar(&j.name, &address) {
            out.refuse(why);
            return Ok("confirm: refused".into());
        }
        commit.lobby.push(LobbyOp::Confirm {
            tag: tag.to_string(),
            address: address.clone(),
        });
        let n = table.confirmed().len() + 1;
        let of = table.game.players;
        let th = Thread::answering(tag, format!("{}#lobby-{tag}", letter.message_id), letter);
        self.announce(
            commit,
            &th,
            format!("{} joins", j.name),
            format!(
                "{} joins {tag} (Rule 1.1.8): {n} of {of} players. The order of play is \
                 drawn when the game starts (Rule 1.1.12).",
                j.name
            ),
            at,
        );
        out.sender(self.notice(format!(
            "You have joined {tag} as {}; your turns are accepted from {address}. The \
             lounge is told when the game starts and in which order you play.",
            j.name
        )));
        Ok(format!("confirm: {} joins {tag}", j.name))
    }

    /// Why no request to join from `address` awaits `token`, as precisely
    /// as the lobby can tell (issue 39): the join it confirms is already
    /// confirmed, was left, replaced by a later JOIN, or its game
    /// cancelled; it was mailed to another address; or it is no token of
    /// a join at all. The refusal, and a summary.
    fn no_join(
        &self,
        store: &Store,
        desk: &Desk,
        address: &str,
        token: &str,
    ) -> Result<(String, &'static str), RefereeError> {
        let matches = |j: &JoinRow| tokens(&desk.secret, j, token);
        if let Some(j) = store
            .lobby_joined_from(address)?
            .iter()
            .find(|j| matches(j))
        {
            return Ok((
                format!(
                    "You have already joined {} as {}: that token was confirmed once, and \
                     needs nothing more.",
                    j.tag, j.name
                ),
                "already confirmed",
            ));
        }
        if let Some(c) = store
            .lobby_closed_from(address)?
            .into_iter()
            .find(|c| matches(&c.join))
        {
            let (tag, name, when) = (&c.join.tag, &c.join.name, super::fmt_time(c.closed_at));
            return Ok(match c.why {
                Closed::Cancelled => (
                    format!(
                        "{tag}, which you asked to join as {name}, was cancelled on {when}, \
                         before its start (RULINGS S35), so there is nothing to confirm. {}",
                        self.waiting_games(store)?
                    ),
                    "game cancelled",
                ),
                Closed::Left => (
                    format!(
                        "You left {tag} on {when}, and that token was for the join you left. \
                         To play in {tag}, send JOIN {tag} as <Name> again and confirm with the \
                         new token."
                    ),
                    "join left",
                ),
                Closed::Replaced => (
                    format!(
                        "That token was for your request to join {tag} as {name}, which a later \
                         JOIN {tag} from this address replaced on {when}: only the token of the \
                         latest confirmation mail counts. Use that one."
                    ),
                    "join replaced",
                ),
            });
        }
        for g in store.lobby_open()? {
            if store
                .lobby_joins(&g.tag)?
                .iter()
                .any(|j| j.confirmed_at.is_none() && matches(j))
            {
                return Ok((
                    format!(
                        "That token confirms a request to join {} made from another address \
                         than {address}: a join counts only from the address that asked, so \
                         send the CONFIRM line from that address.",
                        g.tag
                    ),
                    "another address",
                ));
            }
        }
        Ok((
            format!(
                "No request to join from {address} has the token {token}. A token is the 20 \
                 hexadecimal digits in the confirmation mornbot mailed to this address after \
                 its JOIN (check it was copied whole); if you never sent JOIN from here, send \
                 JOIN <TAG> as <Name> first."
            ),
            "no such join",
        ))
    }

    /// "Games waiting for players: ..." or that there is none.
    fn waiting_games(&self, store: &Store) -> Result<String, RefereeError> {
        let open: Vec<String> = store.lobby_open()?.into_iter().map(|g| g.tag).collect();
        Ok(if open.is_empty() {
            "No game is waiting for players.".to_string()
        } else {
            format!("Games waiting for players: {}.", super::listed(open.iter()))
        })
    }

    fn leave(
        &self,
        store: &Store,
        letter: &Letter,
        tag: &str,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let Some(table) = self.open_table(store, tag, out)? else {
            return Ok("leave: refused".into());
        };
        let address = letter.from.to_ascii_lowercase();
        let Some(j) = table.joins.iter().find(|j| j.address == address) else {
            let left = store
                .lobby_closed_from(&address)?
                .into_iter()
                .find(|c| c.join.tag == tag && c.why == Closed::Left);
            out.refuse(match left {
                Some(c) => format!(
                    "You already left {tag} (as {}) on {}; there is nothing more to leave.",
                    c.join.name,
                    super::fmt_time(c.closed_at)
                ),
                None => format!("{address} has not joined {tag}, so there is nothing to leave."),
            });
            return Ok("leave: not joined".into());
        };
        commit.lobby.push(LobbyOp::Leave {
            tag: tag.to_string(),
            address: address.clone(),
        });
        if j.confirmed_at.is_some() {
            let th = Thread::answering(tag, format!("{}#lobby-{tag}", letter.message_id), letter);
            self.announce(
                commit,
                &th,
                format!("{} leaves", j.name),
                format!("{} leaves {tag} before its start.", j.name),
                at,
            );
        }
        out.sender(self.notice(format!("You have left {tag} ({}).", j.name)));
        Ok(format!("leave {tag}"))
    }
}

/// Whether `token` is the token of request to join `j`.
pub(super) fn tokens(secret: &[u8; 32], j: &JoinRow, token: &str) -> bool {
    let ask = JoinAsk {
        tag: &j.tag,
        name: &j.name,
        address: &j.address,
        asked_ms: j.asked_at.timestamp_millis(),
    };
    join::check(secret, &ask, token)
}

/// Whether an earlier command of the same mail created `tag`.
fn taken(commit: &Commit, tag: &str) -> bool {
    commit
        .lobby
        .iter()
        .any(|op| matches!(op, LobbyOp::Create(g) if g.tag == tag))
}

/// The house rulings that differ from the defaults, for an announcement.
pub(super) fn house_rulings(r: &crate::kinds::vol1::Rulings) -> String {
    let differ = crate::kinds::vol1::rulings_differing(r);
    if differ.is_empty() {
        String::new()
    } else {
        format!(", with the house rulings {}", differ.join(", "))
    }
}
