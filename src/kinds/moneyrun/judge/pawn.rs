//! Moving the pawn (How to Play 4; Moving your Pawn; RULINGS MR9, MR10,
//! MR11, MR16): a path of steps, each to a neighbouring square with
//! coins; diagonal only from a stack of 2 or more; the first step climbs
//! at most one level; every later step goes strictly down.

use super::super::board::Square;
use super::Judging;

/// `pawn [own square] s1 s2 ...`: the pawn walks the path.
pub(super) fn walk(j: &mut Judging<'_, '_>, path: &[Square]) {
    let actor = j.actor;
    let name = j.name();
    let start = j.state.pawns[actor].at;
    let steps = match path.first() {
        Some(&s) if s == start => &path[1..],
        _ => path,
    };
    if steps.is_empty() {
        j.violate(
            "H4",
            None,
            format!("the pawn stays on {start}: a pawn move is pawn {start} <square>..."),
        );
        return;
    }
    let clean = j.violations.is_empty();
    let mut at = start;
    let mut walked = vec![format!("{start} ({})", j.state.stack(start).height())];
    for (k, &to) in steps.iter().enumerate() {
        step(j, k, at, to);
        at = to;
        j.state.pawns[actor].at = to;
        walked.push(format!("{to} ({})", j.state.stack(to).height()));
        let goal = j.state.pawns[actor].goal();
        if clean && j.violations.is_empty() && goal.holds(to) {
            j.changes
                .push(format!("{name}'s pawn moves {}.", walked.join(" - ")));
            j.changes.push(format!(
                "{name}'s pawn reaches {goal} at {to}: {name} wins (How to Play 6, MR11)."
            ));
            let void = steps.len() - k - 1;
            if void > 0 {
                j.changes.push(format!(
                    "The rest of the path is void (MR11): {void} step{} not taken.",
                    if void == 1 { "" } else { "s" }
                ));
            }
            j.won = true;
            return;
        }
    }
    j.changes
        .push(format!("{name}'s pawn moves {}.", walked.join(" - ")));
}

/// Judges step `k` (0: the first) from `at` to `to`.
fn step(j: &mut Judging<'_, '_>, k: usize, at: Square, to: Square) {
    let h = j.state.stack(at).height();
    let dest = j.state.stack(to).height();
    if !at.neighbours(to, true) {
        j.violate(
            "H4",
            None,
            format!("{at} to {to} is not one step: a pawn steps to a neighbouring square"),
        );
    } else if at.is_diagonal_to(to) && h < 2 {
        j.violate(
            "M2",
            Some("MR9"),
            format!(
                "the diagonal step {at} to {to} needs a stack of 2 or more under the pawn; {at} has {h}"
            ),
        );
    }
    if dest == 0 {
        j.violate(
            "M1",
            Some("MR16"),
            format!("{to} has no coin: a pawn moves only to squares with coins"),
        );
    } else if k == 0 && dest > h + 1 {
        j.violate(
            "M3",
            None,
            format!(
                "{at} (height {h}) to {to} (height {dest}) climbs {} levels: a pawn climbs at most one",
                dest - h
            ),
        );
    } else if k > 0 && dest >= h {
        j.violate(
            "M7",
            Some("MR9"),
            format!(
                "{at} (height {h}) to {to} (height {dest}): after the first step a pawn keeps moving only to a lower stack"
            ),
        );
    }
    if !j.state.rulings.shared_squares {
        let actor = j.actor;
        let others: Vec<String> = j
            .state
            .pawns_at(to)
            .filter(|&i| i != actor)
            .map(|i| j.state.pawns[i].name.clone())
            .collect();
        if !others.is_empty() {
            j.violate(
                "H4",
                Some("MR10"),
                format!(
                    "{to} holds {}'s pawn: two pawns may not share a square in this game (shared_squares = false)",
                    others.join(" and ")
                ),
            );
        }
    }
}
