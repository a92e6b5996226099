//! Who wrote a post that a list re-sent under its own From.
//!
//! Lists that meet DMARC `p=reject` senders (Mailman 3's `munge_from`,
//! Google Groups, many others) rewrite `From: Barry Cryer
//! <cryer@example.org>` to `From: "Barry Cryer via lounge"
//! <lounge@lists.example.org>` and keep the author in `X-Original-From`
//! and/or `Reply-To`. When a post came through the configured list (its
//! `List-Id`, when one is configured) and From is the list's own address,
//! the author is taken from `X-Original-From`, then `Reply-To`, then the
//! display name before ` via `, and only if that resolves to a registered
//! player (RULINGS L1). The list itself is never taken for the author, so
//! no refusal is ever posted to the whole lounge.

use crate::mail::address::normalize;
use crate::mail::inbound::Inbound;

/// The configured list, as identity resolution needs it.
#[derive(Clone, Copy, Debug)]
pub struct List<'a> {
    /// The list's posting address.
    pub lounge: &'a str,
    /// The list's `List-Id`, when configured: a rewritten From counts only
    /// on posts carrying it.
    pub list_id: Option<&'a str>,
    /// The bot's own address (never an author).
    pub bot: &'a str,
}

/// The author of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Author {
    /// From is the author (no list rewrite).
    Direct,
    /// The list rewrote From; the author is this registered address, found
    /// by `how` (`X-Original-From`, `Reply-To` or `display name`).
    ViaList {
        /// The author's registered address.
        address: String,
        /// Which header told.
        how: &'static str,
    },
    /// The list rewrote From and no registered player could be found; the
    /// address named by the headers, if any, to answer privately.
    Unknown(Option<String>),
}

/// Who wrote `msg`. `registered` says whether an address belongs to a
/// player; `by_name` finds a player's address from a display name.
pub fn author(
    msg: &Inbound,
    list: &List<'_>,
    registered: &dyn Fn(&str) -> bool,
    by_name: &dyn Fn(&str) -> Option<String>,
) -> Author {
    let lounge = normalize(list.lounge);
    if normalize(&msg.from) != lounge {
        return Author::Direct;
    }
    if let Some(id) = list.list_id {
        let ok = msg
            .list_id
            .as_deref()
            .is_some_and(|l| l.trim().eq_ignore_ascii_case(id.trim()));
        if !ok {
            // The lounge's address on a post that did not come through the
            // lounge: no author to trust, and never one to answer.
            return Author::Unknown(None);
        }
    }
    let bot = normalize(list.bot);
    let candidates: Vec<(String, &'static str)> = msg
        .original_from
        .iter()
        .map(|a| (normalize(a), "X-Original-From"))
        .chain(msg.reply_to.iter().map(|a| (normalize(a), "Reply-To")))
        .filter(|(a, _)| *a != lounge && *a != bot && !a.is_empty())
        .collect();
    if let Some((address, how)) = candidates.iter().find(|(a, _)| registered(a)) {
        return Author::ViaList {
            address: address.clone(),
            how,
        };
    }
    if let Some(address) = msg
        .from_name
        .as_deref()
        .and_then(via_name)
        .and_then(by_name)
    {
        return Author::ViaList {
            address: normalize(&address),
            how: "display name",
        };
    }
    Author::Unknown(candidates.into_iter().next().map(|(a, _)| a))
}

/// The author's name in a rewritten display name: `Barry Cryer via
/// lounge` and Google Groups' `'Barry Cryer' via lounge` give `Barry
/// Cryer`; a name without ` via ` gives nothing.
pub fn via_name(display: &str) -> Option<&str> {
    let lower = display.to_ascii_lowercase();
    let i = lower.rfind(" via ")?;
    let name = display[..i].trim().trim_matches(['\'', '"']).trim();
    (!name.is_empty()).then_some(name)
}

/// Whether a display name (`Barry Cryer`) names the player `player`
/// (`Cryer`, or `Barry Cryer`): the whole name, or one of its words.
pub fn names_player(display: &str, player: &str) -> bool {
    let player = player.trim();
    name_forms(display).any(|w| w.eq_ignore_ascii_case(player))
}

/// What of a display name may name a player: the whole name, then each of
/// its words (`Barry Cryer`, `Barry`, `Cryer`).
pub fn name_forms(display: &str) -> impl Iterator<Item = &str> {
    std::iter::once(display.trim()).chain(display.split(|c: char| c.is_whitespace() || c == ','))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(from: &str, name: Option<&str>, xof: Option<&str>, reply: &[&str]) -> Inbound {
        Inbound {
            message_id: "m@x".into(),
            in_reply_to: None,
            references: vec![],
            from: from.into(),
            from_name: name.map(str::to_string),
            to: vec![],
            subject: String::new(),
            date: None,
            body: String::new(),
            auto: None,
            auth: crate::mail::auth::AuthVerdict::Unknown,
            list_id: Some("lounge.example.test".into()),
            raw_size: 0,
            reply_to: reply.iter().map(|s| s.to_string()).collect(),
            original_from: xof.map(str::to_string),
            read_as: None,
        }
    }

    const LIST: List<'static> = List {
        lounge: "lounge@example.test",
        list_id: Some("lounge.example.test"),
        bot: "bot@example.test",
    };

    fn registered(a: &str) -> bool {
        matches!(a, "cryer@example.org" | "rushton@example.org")
    }

    fn by_name(n: &str) -> Option<String> {
        names_player(n, "Cryer").then(|| "cryer@example.org".to_string())
    }

    #[test]
    fn a_direct_post_is_its_own_author() {
        let m = msg("cryer@example.org", None, None, &[]);
        assert_eq!(author(&m, &LIST, &registered, &by_name), Author::Direct);
    }

    #[test]
    fn x_original_from_then_reply_to_then_the_via_name() {
        let m = msg(
            "lounge@example.test",
            Some("Barry Cryer via lounge"),
            Some("Cryer@Example.org"),
            &["lounge@example.test"],
        );
        assert_eq!(
            author(&m, &LIST, &registered, &by_name),
            Author::ViaList {
                address: "cryer@example.org".into(),
                how: "X-Original-From"
            }
        );
        let m = msg(
            "lounge@example.test",
            None,
            None,
            &["lounge@example.test", "rushton@example.org"],
        );
        assert_eq!(
            author(&m, &LIST, &registered, &by_name),
            Author::ViaList {
                address: "rushton@example.org".into(),
                how: "Reply-To"
            }
        );
        let m = msg(
            "lounge@example.test",
            Some("'Barry Cryer' via lounge"),
            None,
            &[],
        );
        assert_eq!(
            author(&m, &LIST, &registered, &by_name),
            Author::ViaList {
                address: "cryer@example.org".into(),
                how: "display name"
            }
        );
    }

    #[test]
    fn an_unregistered_author_is_unknown_and_never_the_list() {
        let m = msg(
            "lounge@example.test",
            Some("Someone via lounge"),
            Some("someone@example.net"),
            &[],
        );
        assert_eq!(
            author(&m, &LIST, &registered, &by_name),
            Author::Unknown(Some("someone@example.net".into()))
        );
        let m = msg("lounge@example.test", Some("lounge"), None, &[]);
        assert_eq!(
            author(&m, &LIST, &registered, &by_name),
            Author::Unknown(None)
        );
    }

    #[test]
    fn another_lists_post_is_not_rewritten_when_a_list_id_is_configured() {
        let mut m = msg("lounge@example.test", None, Some("cryer@example.org"), &[]);
        m.list_id = Some("other.example.test".into());
        assert_eq!(
            author(&m, &LIST, &registered, &by_name),
            Author::Unknown(None)
        );
    }

    #[test]
    fn via_names_as_lists_write_them() {
        assert_eq!(via_name("Barry Cryer via lounge"), Some("Barry Cryer"));
        assert_eq!(via_name("'Barry Cryer' via Lounge"), Some("Barry Cryer"));
        assert_eq!(via_name("\"Cryer\" VIA lounge"), Some("Cryer"));
        assert_eq!(via_name("Barry Cryer"), None);
        assert!(names_player("Barry Cryer", "Cryer"));
        assert!(names_player("Cryer, Barry", "cryer"));
        assert!(!names_player("Barry Cryers", "Cryer"));
    }
}
