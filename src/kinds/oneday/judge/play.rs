//! The orders of a turn (OD6): `TAKE` in one mail, `DRAW` and the rest of
//! the turn in two; the discard rule (OD7), the reshuffle (OD8), the win
//! at the end of a turn and of set-up (OD9).

use super::{illegal, rule, verdict, Verdict, Violation};
use crate::kinds::oneday::deck::{CardId, RACK};
use crate::kinds::oneday::journey::check_rack;
use crate::kinds::oneday::order::Order;
use crate::kinds::oneday::state::{shuffle, Phase, State};
use crate::kinds::Draws;

/// The pile a discard must go onto (OD7): the lowest-numbered empty one,
/// None when no pile is empty.
pub fn forced_pile(piles: &[Vec<crate::kinds::oneday::CardId>; 3]) -> Option<u8> {
    piles.iter().position(Vec::is_empty).map(|k| k as u8 + 1)
}

/// The turn's orders from seat `seat` in play.
pub(super) fn play(state: &State, seat: usize, order: &Order, draws: &mut dyn Draws) -> Verdict {
    let Phase::Play { mover, drawn } = state.phase else {
        return illegal(rule::PLAY, None, "the game is not in play".into());
    };
    if mover != seat {
        return illegal(
            rule::PLAY,
            None,
            format!("it is {}'s turn, not yours", state.name(mover)),
        );
    }
    match (order, drawn) {
        (Order::Draw, None) => draw(state, seat, draws),
        (Order::Take { pile, put, discard }, None) => take(state, seat, *pile, *put, *discard),
        (Order::Finish { put, discard }, Some(card)) => finish(state, seat, card, *put, *discard),
        (Order::Finish { .. }, None) => illegal(
            rule::PLAY,
            Some("OD6"),
            "you have drawn no card: send DRAW first, or TAKE <pile> [PUT <slot>] DISCARD <pile>"
                .into(),
        ),
        (_, Some(card)) => illegal(
            rule::PLAY,
            Some("OD6"),
            format!(
                "you have drawn {} already: finish the turn with PUT <slot> DISCARD <pile> or DISCARD <pile>",
                state.card_name(card)
            ),
        ),
        _ => illegal(rule::PLAY, None, "that is no order of a turn".into()),
    }
}

/// The range checks of a slot and of piles.
fn ranges(slot: Option<u8>, piles: &[(&str, u8)]) -> Vec<Violation> {
    let mut out = Vec::new();
    if let Some(s) = slot.filter(|s| !(1..=RACK as u8).contains(s)) {
        out.push(Violation::new(
            rule::PLAY,
            None,
            format!("there is no slot {s}: the slots are 1 - 10"),
        ));
    }
    for (what, p) in piles.iter().filter(|(_, p)| !(1..=3).contains(p)) {
        out.push(Violation::new(
            rule::PLAY,
            None,
            format!("there is no pile {p} to {what}: the piles are 1 - 3"),
        ));
    }
    out
}

/// The discard rule (OD7) for a discard onto `pile`, the piles as they are
/// once the turn's card is taken; `taken`: the pile taken from, if any.
fn discard_rule(
    state_piles: &[Vec<crate::kinds::oneday::CardId>; 3],
    pile: u8,
    taken: Option<u8>,
) -> Option<Violation> {
    let empty: Vec<u8> = (1..=3u8)
        .filter(|&p| state_piles[p as usize - 1].is_empty())
        .collect();
    let forced = *empty.first()?;
    if pile == forced {
        return None;
    }
    let by_take = if taken == Some(forced) {
        " once you take its card"
    } else {
        ""
    };
    let text = match empty.as_slice() {
        [_] => format!("pile {forced} is empty{by_take}, so the discard must go onto it"),
        _ => {
            let list: Vec<String> = empty.iter().map(u8::to_string).collect();
            format!(
                "piles {} are empty, so the discard must go onto pile {forced}, the lowest of them",
                list.join(" and ")
            )
        }
    };
    Some(Violation::new(rule::PLAY, Some("OD7"), text))
}

/// `TAKE <pile> [PUT <slot>] DISCARD <pile>`: a whole turn.
fn take(state: &State, seat: usize, pile: u8, put: Option<u8>, discard: u8) -> Verdict {
    let mut bad = ranges(put, &[("take from", pile), ("discard onto", discard)]);
    if !bad.is_empty() {
        return Verdict::Illegal(bad);
    }
    let mut next = state.clone();
    let Some(card) = next.piles[pile as usize - 1].pop() else {
        bad.push(Violation::new(
            rule::PLAY,
            None,
            format!("pile {pile} is empty: there is no card to take"),
        ));
        bad.extend(discard_rule(&next.piles, discard, None));
        return Verdict::Illegal(bad);
    };
    if let Some(v) = discard_rule(&next.piles, discard, Some(pile)) {
        return Verdict::Illegal(vec![v]);
    }
    let who = state.name(seat).to_string();
    let name = state.card_name(card);
    // A card taken face up is exposed in the rack (OD4).
    let line = match exchange(&mut next, seat, card, put, discard, true) {
        Some((slot, old)) => format!(
            "{who} took {name} from pile {pile}, put it in slot {slot} and discarded {} onto pile {discard}",
            state.card_name(old)
        ),
        None => format!("{who} took {name} from pile {pile} and discarded it onto pile {discard}"),
    };
    let changes = end_turn(&mut next, seat, vec![line]);
    verdict(next, changes)
}

/// `DRAW`: the top of the draw pile, reshuffled first when it is empty
/// (OD8); the turn stays open.
fn draw(state: &State, seat: usize, draws: &mut dyn Draws) -> Verdict {
    let mut next = state.clone();
    let mut changes = Vec::new();
    if next.draw.is_empty() {
        match reshuffle(&mut next, draws) {
            Ok(line) => changes.push(line),
            Err(v) => return *v,
        }
    }
    let card = next.draw.pop().expect("a reshuffle leaves cards");
    next.phase = Phase::Play {
        mover: seat,
        drawn: Some(card),
    };
    changes.push(format!(
        "{} drew from the draw pile ({} left)",
        state.name(seat),
        next.draw.len()
    ));
    verdict(next, changes)
}

/// The reshuffle (OD8, the state module's notes): every pile but its top
/// card becomes the new draw pile.
fn reshuffle(next: &mut State, draws: &mut dyn Draws) -> Result<String, Box<Verdict>> {
    let mut cards = Vec::new();
    for p in next.piles.iter_mut() {
        let under = p.len().saturating_sub(1);
        cards.extend(p.drain(..under));
    }
    if cards.is_empty() {
        return Err(Box::new(illegal(
            rule::PLAY,
            Some("OD8"),
            "the draw pile is empty and the discard piles hold no card under their tops to reshuffle: take from a discard pile".into(),
        )));
    }
    let k = next.reshuffles + 1;
    let turn = u64::from(next.turns) + 1;
    shuffle(&mut cards, turn, &format!("reshuffle-{k}-"), draws)
        .map_err(|e| Box::new(Verdict::NoDraw(e)))?;
    next.reshuffles = k;
    next.draw = cards.iter().rev().copied().collect();
    Ok(format!(
        "The draw pile was empty: the {} cards under the piles' tops were shuffled into a new draw pile (reshuffle {k}, OD8)",
        cards.len()
    ))
}

/// `[PUT <slot>] DISCARD <pile>`: the rest of a turn after `DRAW`.
fn finish(
    state: &State,
    seat: usize,
    card: crate::kinds::oneday::CardId,
    put: Option<u8>,
    discard: u8,
) -> Verdict {
    let bad = ranges(put, &[("discard onto", discard)]);
    if !bad.is_empty() {
        return Verdict::Illegal(bad);
    }
    if let Some(v) = discard_rule(&state.piles, discard, None) {
        return Verdict::Illegal(vec![v]);
    }
    let mut next = state.clone();
    let who = state.name(seat).to_string();
    // A card from the draw pile is hidden in the rack (OD4).
    let line = match exchange(&mut next, seat, card, put, discard, false) {
        Some((slot, old)) => format!(
            "{who} put the drawn card in slot {slot} and discarded {} onto pile {discard}",
            state.card_name(old)
        ),
        None => format!(
            "{who} discarded the drawn card, {}, onto pile {discard}",
            state.card_name(card)
        ),
    };
    let changes = end_turn(&mut next, seat, vec![line]);
    verdict(next, changes)
}

/// A missed rest of a turn (OD11): the drawn card discarded onto the pile
/// the discard rule forces, else pile 1.
pub(super) fn discard_drawn(
    state: &State,
    seat: usize,
    card: crate::kinds::oneday::CardId,
) -> Verdict {
    let pile = forced_pile(&state.piles).unwrap_or(1);
    let mut next = state.clone();
    next.piles[pile as usize - 1].push(card);
    let line = format!(
        "{} missed the rest of the turn: the drawn card, {}, is discarded onto pile {pile} (OD11)",
        state.name(seat),
        state.card_name(card)
    );
    let changes = end_turn(&mut next, seat, vec![line]);
    verdict(next, changes)
}

/// Ends seat `seat`'s turn: counts it, checks its rack (OD9), passes the
/// turn on or ends the game.
pub(super) fn end_turn(next: &mut State, seat: usize, mut changes: Vec<String>) -> Vec<String> {
    next.turns += 1;
    if is_journey(next, seat) {
        wins(next, seat, &mut changes);
        return changes;
    }
    let after = (seat + 1) % next.seats.len();
    next.phase = Phase::Play {
        mover: after,
        drawn: None,
    };
    changes
}

/// Seat `seat`'s rack is a continuous journey: the game is over, and
/// the seat wins.
fn wins(next: &mut State, seat: usize, changes: &mut Vec<String>) {
    next.phase = Phase::Over {
        winners: vec![seat],
    };
    let name = next.name(seat);
    changes.push(format!(
        "{name}'s rack is a continuous journey: {name} wins"
    ));
}

/// Whether seat `seat`'s rack is a continuous journey.
fn is_journey(state: &State, seat: usize) -> bool {
    let rack: Option<Vec<_>> = state.seats[seat].rack.iter().copied().collect();
    rack.is_some_and(|r| check_rack(state.deck(), &r, &state.rulings.journey).is_ok())
}

/// Every rack is full: the three piles are dealt, the rest is the draw
/// pile, and every rack is checked in order of play (OD5, OD9).
pub(super) fn deal_piles(next: &mut State, changes: &mut Vec<String>) {
    let stock = std::mem::take(&mut next.stock);
    for (k, &card) in stock.iter().take(3).enumerate() {
        next.piles[k] = vec![card];
    }
    next.draw = stock.iter().skip(3).rev().copied().collect();
    let tops: Vec<String> = (0..3)
        .filter_map(|k| next.piles[k].last().map(|&c| (k, c)))
        .map(|(k, c)| format!("pile {} {}", k + 1, next.card_name(c)))
        .collect();
    changes.push(format!(
        "Every rack is full: the discard piles are dealt face up ({}); the draw pile holds {} cards",
        tops.join(", "),
        next.draw.len()
    ));
    if let Some(seat) = (0..next.seats.len()).find(|&k| is_journey(next, k)) {
        wins(next, seat, changes);
    } else {
        next.phase = Phase::Play {
            mover: 0,
            drawn: None,
        };
        changes.push(format!("Play starts: {} to move", next.name(0)));
    }
}

/// The exchange that ends a turn: `card` into rack slot `put` of `seat`
/// (exposed or not), the slot's card onto pile `discard`; or, with no
/// slot, `card` itself onto the pile. The slot and the card it gave up.
fn exchange(
    next: &mut State,
    seat: usize,
    card: CardId,
    put: Option<u8>,
    discard: u8,
    exposed: bool,
) -> Option<(u8, CardId)> {
    let pile = discard as usize - 1;
    let Some(slot) = put else {
        next.piles[pile].push(card);
        return None;
    };
    let s = &mut next.seats[seat];
    let k = slot as usize - 1;
    let old = s.rack[k].replace(card).expect("a full rack in play");
    s.exposed[k] = exposed;
    next.piles[pile].push(old);
    Some((slot, old))
}
