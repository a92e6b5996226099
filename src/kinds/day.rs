//! One Day in London (`one-day`, issue 43) as the interface sees it: the
//! pure core of [`super::oneday`] answering in [`Position`]s, [`Order`]s
//! and [`Judged`]s. It is the kind with hidden information: each player's
//! rack and the draw pile are rendered for the viewer who may see them
//! ([`Position::private`], [`Position::secrets`]), everything public for
//! the public, and all of it once the game is over. Its deadlines are per
//! step (RULINGS OD14): a placement's and a turn's, each a ruling of its
//! own.

use super::draws::Draws;
use super::kind::KindError;
use super::oneday::{self, State};
use super::outcome::{Breach, Judged, Next, Viewer};
use super::position::{Order, Position};
use crate::picture::RackSlot;
use crate::speaker::policy::Policy;

/// The version of One Day in London's encoded position.
pub const ENCODING: &str = "one-day/1";

/// The rulings naming a step's deadline (RULINGS OD14), and each one's
/// default: a placement 24 hours, a turn 48, counted as the lounge counts
/// (weekends left out).
const DEADLINES: [(&str, u32); 2] = [("placement_deadline", 24), ("turn_deadline", 48)];

/// A deadline ruling's value: a policy, its words joined by `_` or `-`
/// as a ruling's one word must be (`24h_plain`).
fn deadline(v: &str) -> Result<Policy, crate::speaker::policy::PolicyError> {
    Policy::parse(v).or_else(|_| Policy::parse(&v.replace(['_', '-'], " ")))
}

/// The kind's own rulings (the journey's readings, OD10), the deadlines
/// taken out.
fn game_rulings(rulings: &[(String, String)]) -> Result<oneday::Rulings, KindError> {
    for (k, v) in rulings {
        if DEADLINES.iter().any(|(d, _)| d == k) {
            deadline(v).map_err(|e| KindError::Ruling(format!("{k}: {e}")))?;
        }
    }
    oneday::Rulings::from_pairs(
        rulings
            .iter()
            .filter(|(k, _)| !DEADLINES.iter().any(|(d, _)| d == k))
            .map(|(k, v)| (k.as_str(), v.as_str())),
    )
    .map_err(|e| {
        KindError::Ruling(format!(
            "{e} (or placement_deadline, turn_deadline: a deadline such as 24h)"
        ))
    })
}

/// Checks `rulings` against One Day in London's.
pub(super) fn check_rulings(rulings: &[(String, String)]) -> Result<(), KindError> {
    game_rulings(rulings).map(|_| ())
}

/// The deadline of `step` (RULINGS OD14): its ruling, else the game's,
/// else the step's default.
pub(super) fn step_deadline(
    step: &str,
    rulings: &[(String, String)],
    game: Option<Policy>,
) -> Policy {
    let (key, hours) = if step == "placement" {
        DEADLINES[0]
    } else {
        DEADLINES[1]
    };
    rulings
        .iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| deadline(v).ok())
        .or(game)
        .unwrap_or(Policy::PerTurn {
            hours,
            counted: true,
        })
}

/// The start: the deck shuffled from the game's draws (RULINGS OD5), the
/// players' first cards dealt.
pub(super) fn start(
    players: &[String],
    rulings: &[(String, String)],
    draws: &mut dyn Draws,
) -> Result<Position, KindError> {
    let r = game_rulings(rulings)?;
    State::start(players, r, draws)
        .map(|s| Position::OneDay(Box::new(s)))
        .map_err(|e| KindError::Players(e.to_string()))
}

/// The order in a mail body.
pub(super) fn read(body: &str) -> Result<(Order, Vec<String>), KindError> {
    oneday::read(body)
        .map(|o| (Order::OneDay(o), Vec::new()))
        .map_err(|e| KindError::Read {
            line: e.line,
            text: e.to_string(),
        })
}

/// Whether a body holds what One Day in London reads as an order: a line
/// of the sender's own starting with one of its words (any case).
pub(super) fn holds_order(body: &str) -> bool {
    super::words::a_line_starts_with(body, &oneday::read::VERBS)
}

/// Judges `order` by `sender`, a draw pile's reshuffle drawn from `draws`.
pub(super) fn judge(
    s: &State,
    order: &oneday::Order,
    sender: &str,
    draws: &mut dyn Draws,
) -> Judged {
    judged(oneday::judge(s, order, sender, draws))
}

/// The interface's verdict of the core's.
fn judged(v: oneday::Verdict) -> Judged {
    match v {
        oneday::Verdict::Legal { state, changes } => Judged::Legal {
            position: Position::OneDay(Box::new(state)),
            changes,
        },
        oneday::Verdict::Won { state, changes } => Judged::Over {
            position: Position::OneDay(Box::new(state)),
            changes,
        },
        oneday::Verdict::Illegal(v) => Judged::Illegal(
            v.into_iter()
                .map(|v| Breach::of(v.rule, v.ruling, v.text))
                .collect(),
        ),
        // A reshuffle the game's source cannot draw is never guessed.
        oneday::Verdict::NoDraw(name) => Judged::NeedsRuling(vec![Breach {
            rule: "The Play".into(),
            ruling: Some("OD8".into()),
            text: format!(
                "the draw {name:?} needs the game's dice (its committed seed), and this game \
                 has none"
            ),
        }]),
    }
}

/// Who acts next.
pub(super) fn next(s: &State) -> Next {
    match s.next() {
        oneday::Next::Act { players, step } => Next::Act {
            players,
            step: step.as_str(),
            // The rest of a turn after DRAW: the turn's first line is in.
            lines_in: usize::from(step == oneday::Step::SecondStep),
        },
        oneday::Next::Over { winners } => Next::Over { winners },
    }
}

/// A Timeout of `player` (RULINGS OD11), if awaited.
pub(super) fn timeout_of(s: &State, player: &str) -> Option<(Order, Judged)> {
    oneday::timeout(s, player).map(|v| (Order::OneDay(oneday::Order::Timeout), judged(v)))
}

/// The state document for `viewer`: a player's own, or the public's.
pub(super) fn render(s: &State, viewer: &Viewer, deadline: Option<&str>) -> String {
    match viewer {
        Viewer::Player(p) if s.seat(p).is_some() => oneday::private_document(s, p, deadline),
        _ => oneday::public_document(s, deadline),
    }
}

/// `player`'s private document, if ey plays.
pub(super) fn private(s: &State, player: &str, deadline: Option<&str>) -> Option<String> {
    s.seat(player)?;
    Some(oneday::private_document(s, player, deadline))
}

/// What `player` alone knows: eir rack, the card ey is to place and the
/// card ey drew.
pub(super) fn secrets(s: &State, player: &str) -> Option<String> {
    let seat = s.seat(player)?;
    let mover = matches!(s.phase(), oneday::Phase::Play { mover, .. } if *mover == seat);
    let drawn = if mover { s.drawn() } else { None };
    Some(format!(
        "{:?} {:?} {:?}",
        s.rack(player),
        s.to_place(player),
        drawn
    ))
}

/// RULES: the seed's sections and what mornbot does with each.
pub(super) fn rules_text() -> String {
    "Rules of One Day in London and what mornbot does with them (the deck is a \
     reconstruction from the map, RULINGS OD1 - OD3):\n\n\
     \x20 Setup: adjudicated; dealt from the committed deck, placed by mail in parallel \
     (OD5)\n\
     \x20 The Play: adjudicated; TAKE in one mail, DRAW then the rest in a second (OD6 - \
     OD8)\n\
     \x20 Game End: adjudicated; the mover's rack after each turn, every rack after set-up \
     (OD9); STALEMATE by all (OD13)\n\
     \x20 Continuous Journey: adjudicated as the text reads it (OD10)\n\
     \x20 Hidden racks: each player's cards by private mail only (OD4, OD12); steps have \
     deadlines of their own (OD11, OD14)\n"
        .to_string()
}

/// The public table as the picture shows it: each pile's top and size,
/// the draw pile's size, and each rack's slots as the public sees them.
/// Each pile's top card and size.
type Piles = [(Option<oneday::CardId>, usize); 3];
/// Each player's rack as the public sees it.
type Racks = Vec<(String, [RackSlot; oneday::RACK])>;

fn table(s: &State) -> (Piles, usize, Racks) {
    let seen = s.visible(None);
    let piles = [1u8, 2, 3].map(|k| (s.pile(k).last().copied(), s.pile(k).len()));
    let racks = s
        .players()
        .into_iter()
        .map(|p| {
            let rack = s.rack(&p).unwrap_or([None; oneday::RACK]);
            let slots = rack.map(|c| match c {
                None => RackSlot::Empty,
                Some(c) if seen.contains(&c) => RackSlot::Card(c),
                Some(_) => RackSlot::Hidden,
            });
            (p, slots)
        })
        .collect();
    (piles, s.draw_pile().len(), racks)
}

/// The public picture, as SVG.
pub(super) fn picture_svg(s: &State) -> String {
    let (piles, draw, racks) = table(s);
    crate::picture::oneday_table_svg(s.deck(), &piles, draw, &racks)
}

/// The picture for `viewer`, as PNG: a player's own rack drawn as a
/// journey, or the public table.
pub(super) fn picture_png(s: &State, viewer: &Viewer) -> Result<Vec<u8>, String> {
    match viewer {
        Viewer::Player(p) if s.seat(p).is_some() => {
            let rack = s.rack(p).unwrap_or([None; oneday::RACK]);
            crate::picture::oneday_rack_png(s.deck(), &rack, &s.rulings().journey)
        }
        _ => {
            let (piles, draw, racks) = table(s);
            crate::picture::oneday_table_png(s.deck(), &piles, draw, &racks)
        }
    }
    .map_err(|e| e.to_string())
}
