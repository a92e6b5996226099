//! The never-reply markers ([`AutoKind`]): loops, the bot's own mail,
//! bounces, the list software's notices, auto-replies and bulk mail.

use super::*;

const MANAGER_WORDS: [&str; 13] = [
    "owner",
    "request",
    "bounces",
    "bounce",
    "admin",
    "help",
    "confirm",
    "subscribe",
    "unsubscribe",
    "join",
    "leave",
    "probe",
    "moderators",
];

/// Is `from` an address of the manager of the list `list` (its
/// `lounge+owner@`, `lounge-request@`, `owner-lounge@`, ...)?
pub(crate) fn is_manager_of(from: &str, list: &str) -> bool {
    let (local, domain) = split_addr(from);
    let list = address::normalize(list);
    let (l_local, l_domain) = split_addr(&list);
    if l_local.is_empty() || domain != l_domain {
        return false;
    }
    if local == format!("owner-{l_local}") {
        return true;
    }
    ['+', '-'].iter().any(|&sep| {
        local
            .strip_prefix(l_local)
            .and_then(|r| r.strip_prefix(sep))
            .is_some_and(|rest| {
                let word = rest.split(['+', '-', '=', '.']).next().unwrap_or("");
                MANAGER_WORDS.contains(&word)
            })
    })
}

/// Is `from` an address of the list software (see [`AutoKind::ListNotice`])?
pub(super) fn is_list_manager(from: &str, list: Option<&str>) -> bool {
    if list.is_some_and(|l| is_manager_of(from, l)) {
        return true;
    }
    let (local, _) = split_addr(from);
    let generic = (local.starts_with("owner-") && local.len() > 6)
        || local.ends_with("-owner")
        || local.ends_with("+owner")
        || local.ends_with("-request")
        || local.ends_with("-bounces")
        || local.contains("-bounces+")
        || local.contains("+bounces-");
    generic && !local.starts_with(['-', '+'])
}

const AUTO_SUBJECTS: [&str; 8] = [
    "auto:",
    "automatic reply:",
    "auto-reply:",
    "autoreply:",
    "out of office:",
    "out of office autoreply:",
    "abwesenheitsnotiz:",
    "automatische antwort:",
];

pub(super) fn auto_kind(
    msg: &Message<'_>,
    headers: &[(String, String)],
    from: Option<&str>,
    subject: &str,
    limits: &Limits,
) -> Option<AutoKind> {
    let first_word = |v: &str| {
        v.split([';', ' ', '('])
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    };
    if let Some(token) = limits.loop_token.as_deref() {
        if header(headers, "x-loop").any(|v| v.eq_ignore_ascii_case(token.trim())) {
            return Some(AutoKind::Loop);
        }
    }
    if let Some(from) = from {
        if limits.own_addresses.iter().any(|a| address::same(a, from)) {
            return Some(AutoKind::Own);
        }
    }
    let report = msg.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    let null_return = header(headers, "return-path")
        .any(|v| v.chars().filter(|c| !c.is_whitespace()).collect::<String>() == "<>");
    let daemon = from.is_some_and(|f| {
        matches!(
            split_addr(f).0,
            "mailer-daemon" | "postmaster" | "mail-daemon" | "mailerdaemon"
        )
    });
    if report || null_return || daemon || header(headers, "x-failed-recipients").next().is_some() {
        return Some(AutoKind::Bounce);
    }
    if header(headers, "x-list-administrivia").any(|v| first_word(v) == "yes")
        || from.is_some_and(|f| is_list_manager(f, limits.list_address.as_deref()))
    {
        return Some(AutoKind::ListNotice);
    }
    if header(headers, "auto-submitted").any(|v| first_word(v) != "no") {
        return Some(AutoKind::AutoSubmitted);
    }
    let precedence = header(headers, "precedence")
        .any(|v| matches!(first_word(v).as_str(), "bulk" | "junk" | "auto_reply"));
    let autoreply = ["x-autoreply", "x-autorespond", "x-autoresponder"]
        .iter()
        .any(|h| header(headers, h).any(|v| first_word(v) != "no"));
    let lower = subject.to_lowercase();
    let auto_subject = AUTO_SUBJECTS.iter().any(|p| lower.starts_with(p));
    if precedence || autoreply || auto_subject {
        return Some(AutoKind::Bulk);
    }
    None
}
