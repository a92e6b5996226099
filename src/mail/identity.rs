//! Who wrote a post that a list re-sent under its own From.
//!
//! Lists that meet DMARC `p=reject` senders (Mailman 3's `munge_from`,
//! Google Groups, many others) rewrite `From: Barry Cryer
//! <cryer@example.org>` to `From: "Barry Cryer via lounge"
//! <lounge@lists.example.org>` and keep the author in `X-Original-From`
//! and/or `Reply-To`. When a post came through the configured list (its
//! `List-Id`, when one is configured) and From is the list's own address,
//! the author is the address the list's `X-Original-From` names or, when
//! the list writes none, the first of `Reply-To`; the post is a player's
//! only when that address is the player's (RULINGS L1). A display name is
//! chosen by its writer and proves nothing: it never names the author
//! (issue 40). The list's own authentication (its DKIM signature on the
//! lounge's domain) is what vouches for that header: with a trusted
//! authserv-id, a post whose list signature does not pass is refused as
//! any unauthenticated post is. The list itself is never taken for the
//! author, so no refusal is ever posted to the whole lounge.

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
/// player.
pub fn author(msg: &Inbound, list: &List<'_>, registered: &dyn Fn(&str) -> bool) -> Author {
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
    let usable = |a: &String| {
        let a = normalize(a);
        (a != lounge && a != bot && !a.is_empty()).then_some(a)
    };
    // The list's original-sender header decides when the list wrote one;
    // Reply-To only when it did not (Mailman 3 keeps the author there).
    let named = match msg.original_from.as_ref().and_then(usable) {
        Some(a) => Some((a, "X-Original-From")),
        None => msg
            .reply_to
            .iter()
            .find_map(usable)
            .map(|a| (a, "Reply-To")),
    };
    match named {
        Some((address, how)) if registered(&address) => Author::ViaList { address, how },
        Some((address, _)) => Author::Unknown(Some(address)),
        None => Author::Unknown(None),
    }
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

    #[test]
    fn a_direct_post_is_its_own_author() {
        let m = msg("cryer@example.org", None, None, &[]);
        assert_eq!(author(&m, &LIST, &registered), Author::Direct);
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
            author(&m, &LIST, &registered),
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
            author(&m, &LIST, &registered),
            Author::ViaList {
                address: "rushton@example.org".into(),
                how: "Reply-To"
            }
        );
        // A display name proves nothing: never the author (issue 40).
        let m = msg(
            "lounge@example.test",
            Some("'Barry Cryer' via lounge"),
            None,
            &[],
        );
        assert_eq!(author(&m, &LIST, &registered), Author::Unknown(None));
    }

    /// A list member calling emself "Tim Rushton" is not Rushton: the
    /// list's header names the real author, a stranger (issue 40, finding
    /// 1); and a Reply-To cannot overrule the list's X-Original-From.
    #[test]
    fn a_display_name_never_makes_a_stranger_a_player() {
        let m = msg(
            "lounge@example.test",
            Some("Tim Rushton via lounge"),
            Some("mallory@example.net"),
            &["rushton@example.org"],
        );
        assert_eq!(
            author(&m, &LIST, &registered),
            Author::Unknown(Some("mallory@example.net".into()))
        );
        let m = msg(
            "lounge@example.test",
            Some("Tim Rushton via lounge"),
            None,
            &["mallory@example.net"],
        );
        assert_eq!(
            author(&m, &LIST, &registered),
            Author::Unknown(Some("mallory@example.net".into()))
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
            author(&m, &LIST, &registered),
            Author::Unknown(Some("someone@example.net".into()))
        );
        let m = msg("lounge@example.test", Some("lounge"), None, &[]);
        assert_eq!(author(&m, &LIST, &registered), Author::Unknown(None));
    }

    #[test]
    fn another_lists_post_is_not_rewritten_when_a_list_id_is_configured() {
        let mut m = msg("lounge@example.test", None, Some("cryer@example.org"), &[]);
        m.list_id = Some("other.example.test".into());
        assert_eq!(author(&m, &LIST, &registered), Author::Unknown(None));
    }
}
