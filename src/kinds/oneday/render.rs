//! The state documents of One Day in London (RULINGS OD4): the lounge's,
//! which names only public cards until the end, and each player's own,
//! which adds eir rack, eir card to place or drawn, and the orders ey can
//! send now.

use std::fmt::Write;

use super::deck::{CardId, RACK};
use super::journey::check_rack;
use super::judge::forced_pile;
use super::state::{Next, Phase, State, Step};

/// A card's name with its lines and which way they run ("Bank: Central
/// line 7|4, Northern line 2|13"): the stations before and after it.
fn card_facts(state: &State, card: CardId) -> String {
    let deck = state.deck();
    let Some(c) = deck.card(card) else {
        return state.card_name(card).to_string();
    };
    let st = deck.station(c.station);
    let lines: Vec<String> = st
        .stops
        .iter()
        .map(|s| format!("{} line {}|{}", deck.line(s.line).name, s.before, s.after))
        .collect();
    format!("{}: {}", st.name, lines.join(", "))
}

fn header(state: &State, deadline: Option<&str>, out: &mut String) {
    out.push_str("One Day in London\n");
    let phase = match state.phase {
        Phase::Setup => "set-up: the players place their dealt cards".to_string(),
        Phase::Play { .. } => format!("play, turn {}", state.turns + 1),
        Phase::Over { .. } => format!("over after {} turns", state.turns),
    };
    let _ = writeln!(out, "Phase: {phase}");
    match state.next() {
        Next::Act { players, step } => {
            let what = match step {
                Step::Placement => "still to place".to_string(),
                Step::Turn => "to move".to_string(),
                Step::SecondStep => "to finish the turn (a card drawn)".to_string(),
            };
            let _ = writeln!(out, "Awaited ({what}): {}", players.join(", "));
            if let Some(d) = deadline {
                let _ = writeln!(out, "Deadline: {d}");
            }
        }
        Next::Over { winners } if winners.is_empty() => {
            out.push_str("Result: a stalemate agreed by every player, no winner\n");
        }
        Next::Over { winners } => {
            let _ = writeln!(out, "Winner: {}", winners.join(", "));
        }
    }
}

fn piles(state: &State, out: &mut String) {
    if state.phase == Phase::Setup {
        let _ = writeln!(
            out,
            "Discard piles: dealt when every rack is full\nUndealt: {} cards",
            state.all_cards().len()
                - state
                    .seats
                    .iter()
                    .map(|s| s.rack.iter().flatten().count())
                    .sum::<usize>()
        );
        return;
    }
    out.push_str("Discard piles (face up):\n");
    for k in 1..=3u8 {
        let pile = state.pile(k);
        match pile.last() {
            Some(&top) => {
                let _ = writeln!(
                    out,
                    "  pile {k}: {} on top ({} card{})",
                    state.card_name(top),
                    pile.len(),
                    if pile.len() == 1 { "" } else { "s" }
                );
            }
            None => {
                let _ = writeln!(out, "  pile {k}: empty");
            }
        }
    }
    let _ = writeln!(out, "Draw pile: {} cards (face down)", state.draw.len());
}

/// The racks: exposed cards named, hidden ones `?`, empty slots `-`; every
/// card named once the game is over.
fn racks(state: &State, out: &mut String) {
    let over = matches!(state.phase, Phase::Over { .. });
    out.push_str(if over {
        "Racks (revealed):\n"
    } else {
        "Racks (? a hidden card, - an empty slot):\n"
    });
    for seat in &state.seats {
        let slots: Vec<String> = (0..RACK)
            .map(|k| match seat.rack[k] {
                None => format!("{} -", k + 1),
                Some(c) if over || seat.exposed[k] => format!("{} {}", k + 1, state.card_name(c)),
                Some(_) => format!("{} ?", k + 1),
            })
            .collect();
        let _ = writeln!(out, "  {}: {}", seat.name, slots.join(" | "));
    }
}

fn ending(state: &State, out: &mut String) {
    let agreed = state.stalemate_agreed();
    if !agreed.is_empty() && !matches!(state.phase, Phase::Over { .. }) {
        let _ = writeln!(
            out,
            "Stalemate agreed by: {} ({} of {})",
            agreed.join(", "),
            agreed.len(),
            state.seats.len()
        );
    }
    let Phase::Over { winners } = &state.phase else {
        return;
    };
    let deck = state.deck();
    for &w in winners {
        let seat = &state.seats[w];
        let rack: Vec<CardId> = seat.rack.iter().flatten().copied().collect();
        let Ok(j) = check_rack(deck, &rack, &state.rulings.journey) else {
            continue;
        };
        let legs: Vec<String> = j
            .legs
            .iter()
            .map(|l| {
                format!(
                    "{} to {} on the {} line",
                    state.card_name(rack[l.from - 1]),
                    state.card_name(rack[l.to - 1]),
                    deck.line(l.line).name
                )
            })
            .collect();
        let _ = writeln!(out, "{}'s journey: {}", seat.name, legs.join("; "));
    }
}

/// The lounge's document: what everyone may see (OD4); every rack and the
/// winner's journey once the game is over.
pub fn public_document(state: &State, deadline: Option<&str>) -> String {
    let mut out = String::new();
    header(state, deadline, &mut out);
    piles(state, &mut out);
    racks(state, &mut out);
    ending(state, &mut out);
    out
}

/// The orders `seat` can send now.
fn orders_now(state: &State, seat: usize) -> Vec<String> {
    let mut out = Vec::new();
    let forced = forced_pile(&state.piles)
        .map(|p| format!(" (pile {p} is empty: a discard must go onto it)"))
        .unwrap_or_default();
    match state.phase {
        Phase::Setup if !state.seats[seat].deal.is_empty() => {
            let empty: Vec<String> = (0..RACK)
                .filter(|&k| state.seats[seat].rack[k].is_none())
                .map(|k| (k + 1).to_string())
                .collect();
            out.push(format!(
                "PLACE <slot>: an empty slot, one of {}",
                empty.join(", ")
            ));
        }
        Phase::Play { mover, drawn: None } if mover == seat => {
            out.push(format!("TAKE <pile> PUT <slot> DISCARD <pile>{forced}"));
            out.push(format!("TAKE <pile> DISCARD <pile>{forced}"));
            out.push("DRAW (the card is mailed to you; then the rest of the turn)".into());
        }
        Phase::Play {
            mover,
            drawn: Some(_),
        } if mover == seat => {
            out.push(format!("PUT <slot> DISCARD <pile>{forced}"));
            out.push(format!("DISCARD <pile> (the drawn card){forced}"));
        }
        Phase::Over { .. } => return out,
        _ => {}
    }
    if !state.seats[seat].stalemate {
        out.push(
            "STALEMATE (at any time: the game ends with no winner when every player agrees)".into(),
        );
    }
    out
}

/// What a player's rack comes to: a journey, or where it first breaks.
fn rack_verdict(state: &State, seat: usize, out: &mut String) {
    let rack: Option<Vec<CardId>> = state.seats[seat].rack.iter().copied().collect();
    let Some(rack) = rack else {
        return;
    };
    match check_rack(state.deck(), &rack, &state.rulings.journey) {
        Ok(j) => {
            let _ = writeln!(
                out,
                "Your rack is a continuous journey ({} changes)",
                j.changes()
            );
        }
        Err(super::JourneyError::Break(b)) => {
            let _ = writeln!(
                out,
                "Your rack is no journey yet: it first breaks at {}",
                b.explain(state.deck())
            );
        }
        Err(e) => {
            let _ = writeln!(out, "Your rack cannot be judged: {e}");
        }
    }
}

/// A player's own document: the public one, eir rack named slot by slot
/// with each card's lines, the card to place or drawn, whether the rack is
/// a journey yet, and the orders ey can send now. An unknown player gets
/// the public document.
pub fn private_document(state: &State, player: &str, deadline: Option<&str>) -> String {
    let mut out = public_document(state, deadline);
    let Some(seat) = state.seat(player) else {
        return out;
    };
    let s = &state.seats[seat];
    let _ = writeln!(out, "\nYour rack ({}), left to right:", s.name);
    for k in 0..RACK {
        match s.rack[k] {
            Some(c) => {
                let shown = if s.exposed[k] {
                    " (exposed: everyone saw it)"
                } else {
                    ""
                };
                let _ = writeln!(out, "  {:>2}  {}{shown}", k + 1, card_facts(state, c));
            }
            None => {
                let _ = writeln!(out, "  {:>2}  -", k + 1);
            }
        }
    }
    if let Some(c) = state.to_place(&s.name) {
        let _ = writeln!(
            out,
            "Your card to place ({} of 10): {}",
            RACK - s.deal.len() + 1,
            card_facts(state, c)
        );
    }
    if let Phase::Play {
        mover,
        drawn: Some(c),
    } = state.phase
    {
        if mover == seat {
            let _ = writeln!(out, "The card you drew: {}", card_facts(state, c));
        }
    }
    rack_verdict(state, seat, &mut out);
    let orders = orders_now(state, seat);
    if orders.is_empty() {
        out.push_str("Orders you can send now: none\n");
    } else {
        out.push_str("Orders you can send now:\n");
        for o in orders {
            let _ = writeln!(out, "  {o}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_up_documents() {
        let players = vec!["Ann".to_string(), "Bob".to_string()];
        let mut d = |_: u64, _: &str, s: u32| Some(s - 1);
        let s = State::start(&players, Default::default(), &mut d).unwrap();
        let public = public_document(&s, Some("tomorrow"));
        assert!(public.contains("Phase: set-up"), "{public}");
        assert!(public.contains("Awaited (still to place): Ann, Bob"));
        assert!(public.contains("Undealt: 72 cards"), "{public}");
        assert!(public.contains("  Ann: 1 - | 2 - |"));
        let mine = private_document(&s, "Ann", None);
        let first = s.card_name(CardId(1));
        assert!(
            mine.contains(&format!("Your card to place (1 of 10): {first}")),
            "{mine}"
        );
        assert!(mine.contains("PLACE <slot>: an empty slot, one of 1, 2, 3"));
        assert!(!public.contains(first));
    }
}
