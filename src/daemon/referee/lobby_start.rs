//! `START <TAG>` (issue 17, RULINGS S17, S19): the order of play drawn
//! (Rule 1.1.12) and the lobby game recorded in `games` like a configured
//! game, with its dice; once committed, the referee adopts it and play
//! starts.

use chrono::{DateTime, Utc};

use super::lobby::{house_rulings, Desk, Table};
use super::notice::Thread;
use super::{Definition, GameConfigDef, Letter, Out, Referee, RefereeError};
use crate::dice::{self, Seed};
use crate::speaker::join;
use crate::speaker::order::{self, best_orders, by_face, Best, Follows};
use crate::store::{Commit, DrawRow, LobbyOp, Store};

/// The most tied orders an announcement lists one by one.
const LISTED_ORDERS: usize = 24;

impl Referee {
    /// Starts lobby game `tag`: checks who asks and who joined, draws the
    /// order of play and records the game.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn start(
        &self,
        store: &Store,
        desk: &Desk,
        letter: &Letter,
        tag: &str,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let Some(table) = self.open_table(store, tag, out)? else {
            return Ok("start: refused".into());
        };
        let creator = crate::mail::address::same(&table.game.creator, &letter.from);
        let may = self.is_speaker(&letter.from) || (desk.config.open_games && creator);
        if !may {
            out.refuse(format!(
                "Only the Speaker{} may start {tag}.",
                if desk.config.open_games {
                    " or the game's creator"
                } else {
                    ""
                }
            ));
            return Ok("start: not allowed".into());
        }
        let confirmed = table.confirmed();
        let names: Vec<String> = confirmed.iter().map(|j| j.name.clone()).collect();
        if names.len() < 2 {
            out.refuse(format!(
                "{tag} needs at least two players who confirmed their joining to start; it \
                 has {}{}.",
                names.len(),
                if names.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", names.join(", "))
                }
            ));
            return Ok("start: too few players".into());
        }
        let seed = Seed::from_bytes(join::game_seed(&desk.secret, tag));
        let (best, d, order) = match self.draw_order(&seed, tag, &names) {
            Ok(drawn) => drawn,
            Err(why) => {
                out.refuse(format!("{tag} cannot start: {why}."));
                return Ok("start: no order".into());
            }
        };
        let (rulings, options) =
            super::lobby_kind::read(&table.game.rulings).map_err(|e| RefereeError::Game {
                tag: tag.to_string(),
                detail: format!("its house rulings do not read: {e}"),
            })?;
        let address = |n: &String| {
            confirmed
                .iter()
                .find(|j| &j.name == n)
                .map(|j| j.address.clone())
                .unwrap_or_default()
        };
        let def = GameConfigDef {
            tag: tag.to_string(),
            start: table.game.start.clone(),
            players: order.iter().map(|n| (n.clone(), address(n))).collect(),
            referee: None,
            rulings,
            picture: true,
            kind: options.kind,
            deadline: options.deadline,
            kind_rulings: options.kind_rulings,
        };
        if let Err(e) = def.check(self.map) {
            out.refuse(format!("{tag} cannot start: {e}."));
            return Ok("start: invalid".into());
        }
        // What the kind draws to start (a bag's opening coins, Money Run's
        // first player), recorded for verify-dice; the position itself is
        // folded from the seed. The first to play is the started
        // position's, not always the order's first (RULINGS MR4).
        let mut first = (vec![order.first().cloned().unwrap_or_default()], "turn");
        if !def.is_vol1() {
            let names: Vec<String> = def.players.iter().map(|p| p.0.clone()).collect();
            let mut draws = super::dice::SeedDraws::new(Some(&seed), tag);
            match def
                .kind
                .start_drawing(&names, &def.kind_rulings, &mut draws)
            {
                Ok(started) => {
                    if let crate::kinds::Next::Act { players, step, .. } = started.next() {
                        first = (players, step);
                    }
                    // A kind with hidden information deals now: each
                    // player's first private document, in the commit that
                    // starts the game.
                    let h = super::hosted::Hosted {
                        def: def.clone(),
                        position: started,
                        turns: Vec::new(),
                        created_at: at,
                        reminded: Vec::new(),
                        events: Default::default(),
                        dice: Some(seed.clone()),
                    };
                    self.private_mails(&h, None, "start", at, commit);
                }
                Err(e) => {
                    out.refuse(format!("{tag} cannot start: {e}."));
                    return Ok("start: invalid".into());
                }
            }
            commit.draws.extend(draws.made);
        }
        let text = if def.is_vol1() {
            self.order_notice(&table, &def, &best, &d, at)
        } else {
            self.kind_order_notice(&def, &d, &first, at)
        };
        let definition = serde_json::to_string(&Definition { config: def }).expect("serialisable");
        commit.lobby.push(LobbyOp::Start {
            tag: tag.to_string(),
            definition,
            seed: seed.to_hex(),
            commitment: dice::commitment(&seed),
        });
        commit.draws.push(DrawRow {
            game: d.game.clone(),
            turn: d.turn,
            name: d.name.clone(),
            sides: d.sides,
            value: d.value,
        });
        let th = Thread::answering(tag, format!("{}#lobby-{tag}", letter.message_id), letter);
        self.announce(
            commit,
            &th,
            "Started: the order of play".to_string(),
            text,
            at,
        );
        out.sender(self.notice(format!(
            "{tag} has started; the order of play is announced in the lounge: {}.",
            order.join(", ")
        )));
        Ok(format!("start {tag}: {}", order.join(", ")))
    }

    /// The best orders of `names` given every game's order in the lounge
    /// (Rule 1.1.12), the die that picked one, and the order picked.
    fn draw_order(
        &self,
        seed: &Seed,
        tag: &str,
        names: &[String],
    ) -> Result<(Best, dice::Draw, Vec<String>), String> {
        let history: Vec<Vec<String>> = self
            .games
            .defs
            .values()
            .map(|d| d.players.iter().map(|p| p.0.clone()).collect())
            .collect();
        let follows = Follows::of(history.iter().map(Vec::as_slice));
        let best = best_orders(names, &follows).map_err(|e| e.to_string())?;
        let sides = u32::try_from(best.orders.len()).unwrap_or(u32::MAX);
        let d = dice::draw(seed, tag, 0, order::DRAW_NAME, sides).map_err(|e| e.to_string())?;
        let order = by_face(&best, d.value)
            .ok_or("no order of play could be drawn")?
            .to_vec();
        Ok((best, d, order))
    }

    /// The lounge's notice of a start: the order, and how it was drawn.
    fn order_notice(
        &self,
        table: &Table,
        def: &GameConfigDef,
        best: &Best,
        d: &dice::Draw,
        at: DateTime<Utc>,
    ) -> String {
        let tag = &def.tag;
        let order: String = def
            .players
            .iter()
            .enumerate()
            .map(|(i, (n, _))| format!("    {}. {n}\n", i + 1))
            .collect();
        let n = def.players.len();
        let tied = if best.orders.len() <= LISTED_ORDERS {
            let list: String = best
                .orders
                .iter()
                .enumerate()
                .map(|(i, o)| format!("    {:>2}. {}\n", i + 1, o.join(", ")))
                .collect();
            format!(":\n\n{list}")
        } else {
            " (listed in order of their names, first player first).".to_string()
        };
        format!(
            "{tag} starts (Rule 1.1.8) with {n} players{house}, at Game Time {start}. The \
             order of play (Rule 1.1.12):\n\n{order}    {}. Drone\n\nHow it was drawn \
             (RULINGS S17): counting, in every game of the lounge, how often each player \
             has followed each other (cyclically, the Drone aside), {k} of the orders make \
             no player follow the same player more than {worst} time(s), this game included, \
             with {rep} earlier pair(s) repeated, the fewest{tied}\nmornbot's dice picked \
             one: {} (face k is the k-th order above). {hint}\n\nIt is {}'s turn, due by {}.",
            n + 1,
            d.describe(),
            def.players[0].0,
            super::fmt_time(crate::speaker::turn_deadline(at)),
            house = house_rulings(&def.rulings),
            start = table.game.start,
            k = best.orders.len(),
            worst = best.worst,
            rep = best.repeats,
            hint = super::dice::verify_hint(tag),
        )
    }

    /// The lounge's notice of the start of a game of a kind other than
    /// Volume 1: the order of play, drawn as Volume 1's is (RULINGS MX13).
    /// `first` is who the started position awaits and for what step
    /// (Money Run draws its first player, RULINGS MR4; One Day in London
    /// starts with every player placing, OD5).
    fn kind_order_notice(
        &self,
        def: &GameConfigDef,
        d: &dice::Draw,
        first: &(Vec<String>, &str),
        at: DateTime<Utc>,
    ) -> String {
        let order: String = def
            .players
            .iter()
            .enumerate()
            .map(|(i, (n, _))| format!("    {}. {n}\n", i + 1))
            .collect();
        let (players, step) = first;
        let policy = def
            .kind
            .step_deadline(step, &def.kind_rulings, def.deadline);
        let due = super::fmt_time(policy.due(at, &[]));
        let policy = def.kind.deadlines_said(&def.kind_rulings, def.deadline);
        let awaited = match &players[..] {
            [one] if *step == "turn" => format!("It is {one}'s turn, due by {due}."),
            [one] => format!("{one}'s {step} is due by {due}."),
            many => format!(
                "Every player's {step} is awaited now ({}), each due by {due}.",
                many.join(", ")
            ),
        };
        format!(
            "{tag}, a game of {title} ({id}), starts with {n} players; {policy}. The order of \
             play, drawn as the lounge draws it (RULINGS S17, MX13):\n\n{order}\nmornbot's \
             dice picked it: {}. {hint}\n\n{awaited}",
            d.describe(),
            tag = def.tag,
            title = def.kind.title(),
            id = def.kind.id(),
            n = def.players.len(),
            hint = super::dice::verify_hint(&def.tag),
        )
    }

    /// Adopts the games a committed mail started: each is loaded from the
    /// database as a configured game is at start-up, its snapshot written
    /// and its deadlines scheduled.
    ///
    /// # Errors
    ///
    /// As [`Referee::live`].
    pub(super) fn adopt_started(
        &mut self,
        store: &mut Store,
        commit: &Commit,
    ) -> Result<(), RefereeError> {
        for op in &commit.lobby {
            let LobbyOp::Start {
                tag, definition, ..
            } = op
            else {
                continue;
            };
            let def = serde_json::from_str::<Definition>(definition)
                .map_err(|e| RefereeError::Game {
                    tag: tag.clone(),
                    detail: e.to_string(),
                })?
                .config;
            let hosted = !def.is_vol1();
            self.games.add(tag.clone(), def);
            if hosted {
                let h = self.hosted(store, tag)?;
                store.put_snapshots(&[self.hosted_snapshot(&h)])?;
                self.reschedule_hosted(&h);
                continue;
            }
            let live = self.live(store, tag)?;
            store.put_snapshots(&[self.snapshot_row(&live)])?;
            self.reschedule_live(&live);
        }
        Ok(())
    }
}
