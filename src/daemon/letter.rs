//! Raw mail to the referee's [`Letter`]s: parsing ([`crate::mail::inbound`],
//! [`crate::mail::digest`]) and classification ([`crate::mail::classify`])
//! glued to the games the referee knows.

use crate::config::Config;
use crate::daemon::referee::{Letter, Referee};
use crate::mail::classify::{self, ClassifyContext, GameRef};
use crate::mail::digest;
use crate::mail::identity;
use crate::mail::inbound::{self, Inbound, InboundError, Limits};
use crate::mail::outbound::Identity;
use crate::mail::request::Request;
use crate::map::Map;

/// What reading a message needs besides its bytes.
pub struct Context {
    /// The map, to recognise play lines.
    pub map: &'static Map,
    /// Size limit, loop token, own addresses, trusted authserv-id.
    pub limits: Limits,
    /// The bot's address.
    pub bot: String,
    /// The Speaker's clock.
    pub clock: crate::daemon::clock::Clock,
    /// The lounge list's posting address.
    pub lounge: String,
    /// The lounge list's `List-Id`, when configured.
    pub list_id: Option<String>,
}

impl Context {
    /// The context for a configuration.
    pub fn new(map: &'static Map, me: &Identity, cfg: &Config) -> Context {
        Context {
            map,
            limits: Limits {
                max_bytes: cfg.bot.max_message_bytes,
                own_addresses: vec![me.address.clone()],
                loop_token: Some(me.loop_token().to_string()),
                trusted_authserv_id: cfg.bot.trusted_authserv_id.clone(),
                internal_networks: cfg.bot.internal_networks.clone(),
                list_address: Some(me.lounge.clone()),
            },
            bot: me.address.clone(),
            clock: crate::daemon::clock::Clock::System,
            lounge: me.lounge.clone(),
            list_id: cfg.bot.list_id.clone(),
        }
    }
}

/// A message that could not be read, as a letter asking for a polite
/// refusal (or for silence, when it must not be answered).
fn unreadable(e: &InboundError, raw: &[u8]) -> Letter {
    let env = e.envelope();
    let reason = match e {
        InboundError::Oversize { bytes, limit, .. } => format!(
            "Your message is {bytes} bytes, over mornbot's limit of {limit}: it was not read. \
             Please post the turn as plain text."
        ),
        InboundError::Unreadable { reason, .. } => {
            format!("mornbot could not read your message ({reason}).")
        }
    };
    Letter {
        message_id: env
            .map(|e| e.message_id.clone())
            .unwrap_or_else(|| inbound::synthesized_message_id(raw)),
        from: env.and_then(|e| e.from.clone()).unwrap_or_default(),
        subject: env.map(|e| e.subject.clone()).unwrap_or_default(),
        references: env.map(|e| e.references.clone()).unwrap_or_default(),
        game: Err(Vec::new()),
        request: Request::Refuse(reason),
        body: String::new(),
        date: None,
        posted: None,
        auth_failed: false,
        no_reply: match env {
            Some(e) if e.auto.is_some() => Some(format!("not answered: {:?}", e.auto)),
            Some(e) if e.from.is_some() => None,
            _ => Some("not answered: no sender address".into()),
        },
        read_as: None,
    }
}

/// A message too large to download, from its headers alone.
pub fn oversize(headers: &[u8], size: usize, ctx: &Context) -> Letter {
    let mut limits = ctx.limits.clone();
    limits.max_bytes = usize::MAX;
    let env = inbound::parse(headers, &limits)
        .ok()
        .map(|m| inbound::Envelope {
            message_id: m.message_id,
            in_reply_to: m.in_reply_to,
            references: m.references,
            from: Some(m.from),
            from_name: m.from_name,
            subject: m.subject,
            auto: m.auto,
            list_id: m.list_id,
        });
    let e = InboundError::Oversize {
        bytes: size,
        limit: ctx.limits.max_bytes,
        envelope: env.map(Box::new),
    };
    unreadable(&e, headers)
}

/// Reads and classifies one message (a digest as one message: see
/// [`letters`]).
pub fn letter(raw: &[u8], ctx: &Context, referee: &Referee) -> Letter {
    match inbound::parse(raw, &ctx.limits) {
        Ok(m) => read(m, ctx, referee),
        Err(e) => unreadable(&e, raw),
    }
}

/// Reads one raw mail into the letters it holds, in the order they are to
/// be judged: for a MIME digest ([`crate::mail::digest`]) each of its posts,
/// then the mail itself (RULINGS L6). The posts of a digest a player
/// forwarded are read only when they are players' own. The digest itself is
/// never answered when the lounge sent it, nor for not being understood
/// when a player forwarded it.
pub fn letters(raw: &[u8], ctx: &Context, referee: &Referee) -> (Vec<Letter>, Letter) {
    let msg = match inbound::parse(raw, &ctx.limits) {
        Ok(m) => m,
        Err(e) => return (Vec::new(), unreadable(&e, raw)),
    };
    let Some(d) = digest::read(raw, &msg, &ctx.limits) else {
        return (Vec::new(), read(msg, ctx, referee));
    };
    let mut out = Vec::with_capacity(d.posts.len() + 1);
    let mut others = 0;
    for p in d.posts {
        let mut l = match p.read {
            Ok(post) => read(post, ctx, referee),
            Err(e) => unreadable(&e, &p.raw),
        };
        l.posted = p.arrived.map(|d| ctx.clock.map(d));
        if !d.from_list && !referee.is_registered(&l.from) {
            others += 1;
            continue;
        }
        out.push(l);
    }
    let note = format!(
        "a digest of {} post(s), each judged on its own{}{}",
        out.len(),
        if others > 0 {
            format!("; {others} not a player's, not read")
        } else {
            String::new()
        },
        if d.unread > 0 {
            format!(
                "; {} past the first {}, not read",
                d.unread,
                digest::MAX_POSTS
            )
        } else {
            String::new()
        },
    );
    tracing::info!(id = %msg.message_id, from_list = d.from_list, "{note}");
    let mut itself = read(msg, ctx, referee);
    if d.from_list {
        itself.no_reply = Some(note);
    } else if matches!(itself.request, Request::NotUnderstood { .. }) {
        itself.request = Request::Chatter;
    }
    (out, itself)
}

/// Classifies a message read by [`inbound::parse`].
fn read(msg: Inbound, ctx: &Context, referee: &Referee) -> Letter {
    let cctx = ClassifyContext {
        map: ctx.map,
        games: referee.roster(),
        bot_address: ctx.bot.clone(),
    };
    let c = classify::classify(&msg, &cctx);
    let game = match c.game {
        GameRef::Tagged(t) | GameRef::Named(t) | GameRef::Only(t) => Ok(t),
        GameRef::Ambiguous(v) => Err(v),
        GameRef::Unknown => Err(Vec::new()),
    };
    // A post the list re-sent under its own From (DMARC): find its author,
    // and never answer the list itself.
    let list = identity::List {
        lounge: &ctx.lounge,
        list_id: ctx.list_id.as_deref(),
        bot: &ctx.bot,
    };
    let (from, mut no_reply) = match identity::author(&msg, &list, &|a| referee.is_registered(a)) {
        identity::Author::Direct => (msg.from.clone(), None),
        identity::Author::ViaList { address, how } => {
            tracing::info!(id = %msg.message_id, author = %address, how, "author of a list-rewritten post");
            (address, None)
        }
        identity::Author::Unknown(Some(address)) => (address, None),
        identity::Author::Unknown(None) => (
            msg.from.clone(),
            Some("not answered: the list's own From, and no author found".to_string()),
        ),
    };
    if let Some(a) = msg.auto {
        no_reply = Some(format!("not answered: {a:?}"));
    }
    // Mail to the bot is answered when not understood; in the lounge,
    // only a registered player's failed attempt (RULINGS L5).
    let request = match c.request {
        Request::NotUnderstood { .. } if !(c.direct || referee.is_registered(&from)) => {
            Request::Chatter
        }
        r => r,
    };
    let mut references = msg.references.clone();
    if let Some(r) = &msg.in_reply_to {
        if !references.contains(r) {
            references.push(r.clone());
        }
    }
    Letter {
        message_id: msg.message_id,
        from,
        subject: msg.subject,
        references,
        game,
        request,
        body: msg.body,
        // On the daemon's clock, like the time the server received it.
        date: msg.date.map(|d| ctx.clock.map(d)),
        posted: None,
        // With a trusted authserv-id configured, a turn needs an aligned
        // pass: a missing header is no better than a failed one.
        auth_failed: crate::mail::auth::gate(msg.auth, ctx.limits.trusted_authserv_id.as_deref())
            .is_err(),
        no_reply,
        read_as: msg.read_as.map(str::to_string),
    }
}
