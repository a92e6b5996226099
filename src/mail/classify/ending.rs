//! The commands that end games (Rules 1.1.5, 1.1.9, 1.1.11): `STALEMATE
//! [game]`, `WITHDRAW STALEMATE [game]`, `CONFIRM STALEMATE <game>`,
//! `REFUSE STALEMATE <game>`, `POINTS`, `ARCHIVE [game]`. A player's
//! `RESIGN [game]` is read as the Speaker's `RESIGN` line is (see
//! [`super::kinds::parse_command`]) and told apart by the referee.

use super::kinds::game_arg;
use super::ClassifyContext;
use crate::mail::request::{Command, StalemateStep};

/// One of the commands above, from a line's upper-cased verb and its other
/// words; `None` when the line is not one of them (or has words they do
/// not take).
pub(super) fn parse_ending(
    verb: &str,
    args: &[&str],
    ctx: &ClassifyContext<'_>,
) -> Option<Command> {
    let stalemate = |step: StalemateStep, rest: &[&str]| match rest {
        [] => Some(Command::Stalemate(step, None)),
        [tag] => game_arg(Some(tag), ctx).map(|g| Command::Stalemate(step, g)),
        _ => None,
    };
    let second = |rest: &[&str]| {
        rest.first()
            .is_some_and(|w| w.eq_ignore_ascii_case("STALEMATE"))
    };
    match verb {
        "STALEMATE" => stalemate(StalemateStep::Agree, args),
        "WITHDRAW" if second(args) => stalemate(StalemateStep::Withdraw, &args[1..]),
        "CONFIRM" if second(args) => stalemate(StalemateStep::Confirm, &args[1..]),
        "REFUSE" if second(args) => stalemate(StalemateStep::Refuse, &args[1..]),
        "POINTS" if args.is_empty() => Some(Command::Points),
        "ARCHIVE" if args.len() <= 1 => game_arg(args.first().copied(), ctx).map(Command::Archive),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::kinds::parse_command;
    use super::super::tests::ctx;
    use super::*;

    fn read(line: &str) -> Option<Command> {
        parse_command(line, &ctx())
    }

    #[test]
    fn the_ending_commands_read() {
        use StalemateStep::*;
        assert_eq!(read("STALEMATE"), Some(Command::Stalemate(Agree, None)));
        assert_eq!(
            read("stalemate mn12"),
            Some(Command::Stalemate(Agree, Some("MN12".into())))
        );
        assert_eq!(
            read("WITHDRAW STALEMATE [MN12]"),
            Some(Command::Stalemate(Withdraw, Some("MN12".into())))
        );
        assert_eq!(
            read("CONFIRM STALEMATE MN12"),
            Some(Command::Stalemate(Confirm, Some("MN12".into())))
        );
        assert_eq!(
            read("Refuse Stalemate MN12."),
            Some(Command::Stalemate(Refuse, Some("MN12".into())))
        );
        assert_eq!(read("POINTS"), Some(Command::Points));
        assert_eq!(read("ARCHIVE"), Some(Command::Archive(None)));
        assert_eq!(
            read("ARCHIVE MN12"),
            Some(Command::Archive(Some("MN12".into())))
        );
    }

    #[test]
    fn what_they_do_not_take_is_not_them() {
        // A join's confirmation is the lobby's.
        assert!(matches!(read("CONFIRM 7f3a9c"), Some(Command::Lobby(_))));
        assert_eq!(read("STALEMATE MN12 now please"), None);
        assert_eq!(read("POINTS MN12"), None);
        assert_eq!(read("ARCHIVE MN12 MN13"), None);
        assert_eq!(read("STALEMATE <script>"), None);
        // A bare WITHDRAW is the buzzer's, not a command.
        assert_eq!(read("WITHDRAW"), None);
    }
}
