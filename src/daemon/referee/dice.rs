//! The bot's dice at the referee's edge (RULINGS S14): each game's seed
//! recorded with the game, its commitment published in the lounge, the
//! draws a verdict uses made from it and recorded, and the seed revealed
//! when the game ends. The draws themselves are [`crate::dice`]'s, pure.

use super::*;
use crate::dice::{self, Draw, Seed};
use crate::kinds::vol1::{self as vol1, Play};
use crate::store::DrawRow;

/// The most games one commitment notice lists: a lounge of 100,000 games
/// recorded at once gets 100 notices, not 100,000 (RULINGS S14).
pub const COMMITMENTS_PER_NOTICE: usize = 1000;

/// How anyone checks a game's rolls once its seed is revealed.
pub(super) fn verify_hint(tag: &str) -> String {
    format!(
        "Check it once the game ends and its seed is revealed: `mornbot verify-dice {tag}`, \
         or Python 3 alone, as the notice revealing the seed shows."
    )
}

/// The Python that recomputes the bot's dice, to the letter
/// `scripts/verify_dice.py`'s own (one source): the notice revealing a
/// seed shows it, so a player needs nothing but Python 3 to check every
/// roll (no README, no mornbot).
fn python() -> String {
    let script = include_str!("../../../scripts/verify_dice.py");
    let start = script.find("import hashlib").unwrap_or(0);
    let end = script.find("if __name__").unwrap_or(script.len());
    script[start..end]
        .trim_end()
        .lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("    {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The store's record of a draw.
fn row(d: &Draw) -> DrawRow {
    DrawRow {
        game: d.game.clone(),
        turn: d.turn,
        name: d.name.clone(),
        sides: d.sides,
        value: d.value,
    }
}

/// A game's seed as the store holds it (`None`: no dice, or a value that
/// does not read, which leaves the game to the rules' old ways).
pub(super) fn seed_of(store: &Store, tag: &str) -> Result<Option<Seed>, RefereeError> {
    Ok(store
        .dice(tag)?
        .and_then(|row| Seed::from_hex(&row.seed).ok()))
}

/// A game's draws answered from its committed seed ([`crate::kinds::Draws`]):
/// each one made is kept, to be recorded with the turn that needed it (an
/// order refused records none; asked again, the same seed gives the same
/// values). Without a seed there are no draws.
pub(super) struct SeedDraws<'a> {
    seed: Option<&'a Seed>,
    game: &'a str,
    /// The draws made, as the store records them.
    pub made: Vec<DrawRow>,
}

impl<'a> SeedDraws<'a> {
    /// The draws of game `game` from `seed`.
    pub(super) fn new(seed: Option<&'a Seed>, game: &'a str) -> SeedDraws<'a> {
        SeedDraws {
            seed,
            game,
            made: Vec::new(),
        }
    }
}

impl crate::kinds::Draws for SeedDraws<'_> {
    fn draw(&mut self, turn: u64, name: &str, sides: u32) -> Option<u32> {
        let d = dice::draw(self.seed?, self.game, turn, name, sides)
            .inspect_err(
                |e| tracing::error!(game = %self.game, draw = %name, error = %e, "not drawn"),
            )
            .ok()?;
        self.made.push(row(&d));
        // Face k of the die is the k-th of what is drawn from.
        d.value.checked_sub(1)
    }
}

impl Referee {
    /// Gives every recorded game without dice a seed from `fresh` (the OS's
    /// randomness, at the daemon's edge), then publishes the commitments not
    /// yet published, at most [`COMMITMENTS_PER_NOTICE`] games to a lounge
    /// notice, each notice committed with its games marked published. A
    /// crash between the two publishes at the next start; a seed is never
    /// replaced. Returns how many commitments were published.
    ///
    /// # Errors
    ///
    /// [`RefereeError::Store`] when the database fails,
    /// [`RefereeError::Game`] when `fresh` has no randomness to give.
    pub fn commit_dice(
        &mut self,
        store: &mut Store,
        now: DateTime<Utc>,
        fresh: &mut dyn FnMut() -> Result<[u8; 32], String>,
    ) -> Result<usize, RefereeError> {
        let mut seeds = Vec::new();
        for tag in store.games_without_dice()? {
            let bytes = fresh().map_err(|detail| RefereeError::Game {
                tag: tag.clone(),
                detail: format!("no randomness for its dice: {detail}"),
            })?;
            let seed = Seed::from_bytes(bytes);
            let c = dice::commitment(&seed);
            seeds.push((tag, seed.to_hex(), c));
        }
        store.ensure_dice(&seeds, now)?;
        // Cached games learn their seeds when next loaded.
        self.games.forget_all();
        let todo = store.dice_unpublished()?;
        for chunk in todo.chunks(COMMITMENTS_PER_NOTICE) {
            let mut commit = Commit {
                received_at: Some(now),
                ..Commit::default()
            };
            let first = &chunk[0].0;
            let th = Thread::clock(first, format!("dice-commitment-{first}"));
            let (headline, body) = commitment_notice(chunk);
            self.announce(&mut commit, &th, headline, body, now);
            commit.dice_published = chunk.iter().map(|(tag, _)| tag.clone()).collect();
            store.commit(&commit)?;
        }
        Ok(todo.len())
    }

    /// Reveals the ended game's seed in the lounge (RULINGS S14), in the
    /// commit that ends it.
    pub(super) fn reveal_dice(
        &self,
        live: &Live,
        commit: &mut Commit,
        th: &Thread,
        at: DateTime<Utc>,
    ) {
        self.reveal_seed(&live.game.tag, live.dice.as_ref(), commit, th, at);
    }

    /// Reveals game `tag`'s seed, if it has one, in the lounge (RULINGS
    /// S14), in the commit that ends the game: a Volume 1 game's or a
    /// hosted game's.
    pub(super) fn reveal_seed(
        &self,
        tag: &str,
        seed: Option<&Seed>,
        commit: &mut Commit,
        th: &Thread,
        at: DateTime<Utc>,
    ) {
        let Some(seed) = seed else {
            return;
        };
        let tag = tag.to_string();
        commit.dice_revealed.push(tag.clone());
        let body = format!(
            "{tag} is over, so mornbot reveals the seed of its dice (RULINGS S14):\n\n    \
             seed        {}\n    commitment  {}\n\nThe commitment, published when the game \
             was recorded, is the SHA-256 of the seed's 32 bytes. Every roll the verdicts \
             stated is HMAC-SHA-256 of the seed and (game, turn, name, sides); anyone can \
             recompute them all with `mornbot verify-dice {tag}`, or with Python 3 alone:\n\n\
             {}\n\ncommitment(bytes.fromhex(SEED)) gives the commitment above, and \
             draw(bytes.fromhex(SEED), \"{tag}\", TURN, NAME, SIDES) each roll, named as the \
             verdicts name it (the Upcoming Holiday's d6 is \"holiday\").",
            seed.to_hex(),
            dice::commitment(seed),
            python()
        );
        self.announce(
            commit,
            &th.sub("#dice"),
            "Dice: the seed revealed".to_string(),
            body,
            at,
        );
    }

    /// The Referee of Rule 1.16.4 drawn by the game's dice: a die with one
    /// face per candidate, sorted by name, face `k` the `k`-th; the draw
    /// is recorded in `commit`. The Referee, the face and how the
    /// announcement states it; `None` with no candidate.
    pub(super) fn referee_by_dice(
        &self,
        seed: &Seed,
        (tag, turn, attempt): (&str, u64, usize),
        pool: &[String],
        commit: &mut Commit,
    ) -> Option<(String, u32, String)> {
        let sorted = crate::speaker::referee::sorted_candidates(pool);
        let sides = u32::try_from(sorted.len()).ok().filter(|n| *n > 0)?;
        let d = dice::draw(seed, tag, turn, &dice::referee_draw_name(attempt), sides).ok()?;
        let name = crate::speaker::referee::referee_by_face(&sorted, d.value)?;
        commit.draws.push(row(&d));
        let how = format!(
            "by mornbot's dice, {} (face k is the k-th of {} by name). {}",
            d.describe(),
            sorted.join(", "),
            verify_hint(tag)
        );
        Some((name, d.value, how))
    }

    /// The bot's dice for the Play (RULINGS S14, E85): in a game with
    /// dice, a roll of the player's own is refused (the reason is the
    /// error): any named `{rolled <name> N}`, and a plain `{rolled N}` where
    /// the bot rolls the Upcoming Holiday's die (`bot_rolls_holiday`). The
    /// Play of the player due gets each die [`crate::kinds::vol1::dice_needed`]
    /// lists, in order, as a `{rolled ...}` comment the turn log keeps, and
    /// each draw is recorded. Returns the Play and the lines the verdict
    /// states the draws in. The Holiday's d6 is among them only with
    /// `bot_rolls_holiday`.
    pub(super) fn roll_dice(
        &self,
        live: &Live,
        mut play: Play,
        turn: u64,
        commit: &mut Commit,
    ) -> Result<(Play, Vec<String>), String> {
        let Some(seed) = live.dice.as_ref() else {
            return Ok((play, Vec::new()));
        };
        let tag = &live.game.tag;
        let bot_holiday = live.def.rulings.bot_rolls_holiday;
        if vol1::rolls_own_dice(&play, bot_holiday) {
            return Err(format!(
                "In {tag} mornbot rolls the dice (RULINGS S14, E85): a {{rolled ...}} of \
                 your own is not accepted. Post the play without it; the bot rolls the dice \
                 of [Upcoming Holiday], [Courier Call (Random)], [Gold Rush], [Finding], \
                 [fFrobisher fFlourish] and the PoID at Mornington Crescent when it judges \
                 the turn."
            ));
        }
        // Only the turn due is rolled for: a play out of turn is refused
        // unjudged, and must not learn the turn's dice.
        if !play.player.eq_ignore_ascii_case(live.game.to_play()) {
            return Ok((play, Vec::new()));
        }
        let needs = vol1::dice_needed(self.map, &live.game.state, &play);
        let mut lines = Vec::new();
        for need in needs
            .iter()
            .filter(|n| bot_holiday || n.name != dice::HOLIDAY)
        {
            // The engine never asks for a die without faces; were it to, the
            // die is left unrolled and the adjudicator refers the play to a
            // human ruling rather than the daemon stopping.
            let d = match dice::draw(seed, tag, turn, &need.name, need.sides) {
                Ok(d) => d,
                Err(e) => {
                    tracing::error!(game = %tag, die = %need.name, error = %e, "die not rolled");
                    continue;
                }
            };
            let text = vol1::write_roll(&mut play, need, d.value);
            commit.draws.push(row(&d));
            let what = if need.name == dice::HOLIDAY {
                "the Upcoming Holiday's die (Rule 1.13.7: 1 Monday ... 6 Saturday)".to_string()
            } else {
                format!("a die of Rule {}", need.rule)
            };
            lines.push(format!(
                "mornbot rolled {what}: {}, written {{{text}}} in the play. {}",
                d.describe(),
                verify_hint(tag)
            ));
        }
        Ok((play, lines))
    }
}

/// The notice publishing `games`' commitments, `(tag, commitment)`.
fn commitment_notice(games: &[(String, String)]) -> (String, String) {
    let how = "mornbot rolls its own dice (RULINGS S14). Each game has a secret 32-byte \
               seed; below is its commitment, the SHA-256 of the seed. Every roll is \
               HMAC-SHA-256 of the seed and (game, turn, name, sides), stated in the verdict \
               that uses it; the seed is revealed when the game ends, so anyone can check \
               the commitment and recompute every roll (`mornbot verify-dice GAME`, or \
               Python 3 alone, as the notice revealing the seed shows).";
    let list: String = games
        .iter()
        .map(|(tag, c)| format!("    {tag}  {c}\n"))
        .collect();
    let headline = match games {
        [_] => "Dice: the commitment".to_string(),
        _ => format!(
            "Dice: the commitments of {} games ({} - {})",
            games.len(),
            games[0].0,
            games[games.len() - 1].0
        ),
    };
    (headline, format!("{how}\n\n{list}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::Draws;

    #[test]
    fn a_kind_is_answered_in_0_to_sides_and_the_face_is_recorded() {
        let seed = Seed::from_bytes([7; 32]);
        let mut draws = SeedDraws::new(Some(&seed), "MR1");
        for (name, sides) in [("first-player", 3), ("bag-1", 42), ("bag-2", 1)] {
            let face = dice::draw(&seed, "MR1", 0, name, sides).unwrap().value;
            assert_eq!(draws.draw(0, name, sides), Some(face - 1), "{name}");
            assert_eq!(draws.made.last().unwrap().value, face, "{name}");
        }
        assert_eq!(SeedDraws::new(None, "MR1").draw(0, "bag-1", 42), None);
    }
}
