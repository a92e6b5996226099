//! What Volume 1's own workflows in the daemon need of the kind (issue 41
//! keeps them Volume 1's: a GSD compared with mornbot's, buzzes and
//! Judgments, the bot's dice in a Play, Gambits that outlive a game, the
//! classifier's Play and GSD shapes, RULES). The daemon and the mail
//! reach Volume 1's engine and grammar only through this kind's module,
//! as they reach every other kind only through [`crate::kinds::Kind`]: the
//! engine and the grammar stay free to change behind it.

use crate::engine::coverage::{coverage, Status};
use crate::map::Map;

/// A Gambit declared in a game (Rule 1.18.2): the lounge keeps them.
pub use crate::engine::gambit::Gambit;
/// When a Soaped Token is played (a house ruling, `soaped_phase`).
pub use crate::engine::rulings::SoapedPhase;
/// One die a Play needs (its name, faces and rule).
pub use crate::engine::DieNeed;
/// The engine's verdict on a Play and its outcome.
pub use crate::engine::{Outcome, Verdict};
/// A parsed Game State Document.
pub use crate::gsd::Gsd;
/// Where a GSD stands among a mail's lines (its first line, its table, the
/// game it names).
pub use crate::gsd::Located;
/// Why a GSD or a Play did not read, with its line and column.
pub use crate::gsd::ParseError;
/// A Volume 1 Play: one player's Turn as the GSD's Play section writes it.
pub use crate::gsd::Play;

/// Reads one Play line (`Name : ...`) on `map`.
///
/// # Errors
///
/// The [`ParseError`] naming where and what was expected.
pub fn parse_play(text: &str, map: &Map) -> Result<Play, ParseError> {
    crate::gsd::parse_play(text, map)
}

/// Reads a whole GSD on `map`.
///
/// # Errors
///
/// The [`ParseError`] naming where and what was expected.
pub fn parse_gsd(text: &str, map: &Map) -> Result<Gsd, ParseError> {
    crate::gsd::parse_gsd(text, map)
}

/// A Play's canonical line.
pub fn render_play(play: &Play) -> String {
    crate::gsd::render_play(play)
}

/// A GSD's canonical text.
pub fn render_gsd(gsd: &Gsd) -> String {
    crate::gsd::render(gsd)
}

/// How a posted GSD's tables differ from the canonical one's, one line
/// each, `labels` naming the two.
pub fn table_diffs(posted: &Gsd, canonical: &Gsd, labels: (&str, &str)) -> Vec<String> {
    crate::gsd::table_diffs(posted, canonical, labels)
}

/// Where a GSD stands among `lines` (the lines not the sender's own
/// blanked), found exactly where the GSD parser will read it.
pub fn locate_gsd(lines: &[&str]) -> Option<Located> {
    crate::gsd::locate(lines)
}

/// Whether `text` reads as a Play line on `map`: how the classifier tells
/// a Play from chatter.
pub fn reads_as_play(text: &str, map: &Map) -> bool {
    crate::gsd::parse_play(text, map).is_ok()
}

/// The dice `play` needs on `state`, in the order they are drawn and
/// written ([`crate::engine::dice_needed`]).
pub fn dice_needed(map: &Map, state: &super::GameState, play: &Play) -> Vec<DieNeed> {
    crate::engine::dice_needed(map, state, play)
}

/// Whether `play` writes a roll of its player's own: any named `{rolled
/// <name> N}`, and a plain `{rolled N}` when the bot rolls the Upcoming
/// Holiday's die (RULINGS S14, E85).
pub fn rolls_own_dice(play: &Play, bot_rolls_holiday: bool) -> bool {
    use crate::gsd::Directive;
    play.directives().any(|d| match d {
        Directive::Rolled(_) => bot_rolls_holiday,
        Directive::RolledNamed { .. } => true,
        _ => false,
    })
}

/// Writes the face `value` of `need` into `play` as the `{rolled ...}`
/// comment the turn log keeps, and returns the comment's text.
pub fn write_roll(play: &mut Play, need: &DieNeed, value: u32) -> String {
    use crate::gsd::{Comment, PlayItem};
    let text = need.comment(value);
    play.after.push(PlayItem::Comment(Comment {
        text: text.clone(),
        directive: Some(need.directive(value)),
    }));
    text
}

/// RULES: every rule of Volume 1 and what mornbot does with it.
pub fn rules_text() -> String {
    let mut s = String::from("Rules of Volume 1 and what mornbot does with them:\n\n");
    for c in &coverage(None) {
        let st = match c.status {
            Status::Adjudicated => "adjudicated",
            Status::Partly => "partly adjudicated",
            Status::Data => "map/grammar data",
            Status::Speaker => "run by mornbot's Speaker automation",
            Status::Definition => "a definition: judges no play",
            Status::Ruling => "needs a human ruling",
        };
        s.push_str(&format!("  {:<8} {:<40} {st}\n", c.rule, c.title));
    }
    s
}
