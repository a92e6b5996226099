//! Who vouches for a sender: `Authentication-Results` (RFC 8601) read the
//! way RFC 8601 sections 4, 5 and 7 allow, and the one authentication gate.
//!
//! Any sender can write an `Authentication-Results` header claiming any
//! authserv-id; only the receiving server's own can be believed. A server
//! adds its header *at the top*, above the trace (`Received:`) header it
//! prepends for the hop (section 4), and is required to delete forged ones
//! naming its own authserv-id (section 5) — but mornbot cannot know that it
//! did. So [`read`] believes only what stands where nobody outside could
//! have written it:
//!
//! - It walks the header section from the top down. `Received:` headers of
//!   hops *inside* the trust boundary (see [`received_is_internal`]) are
//!   passed over; the first `Received:` from outside ends the walk: every
//!   header below it came with the message from outside.
//! - The first `Authentication-Results` met must carry the trusted
//!   authserv-id; those that follow it (before the boundary) and carry it
//!   too are part of the same block (a server may add one header per
//!   method). Another server's header ends the walk: a trusted-looking one
//!   under it was not added on top by the trusted server.
//! - Other headers (`Return-Path`, `Delivered-To`, `DKIM-Filter`, spam
//!   scores...) are passed over.
//!
//! A server that writes its `Authentication-Results` *below* its own
//! `Received:` (as some large providers do) cannot be told from a sender who
//! forged one there: its results read as [`AuthVerdict::Unknown`].
//!
//! Within a counted header, a result counts only when it is `pass` and its
//! authenticated domain is aligned with the `From` domain (see
//! [`AuthVerdict::Pass`]). Comments are removed and `;` inside quoted
//! strings does not split results, so a `reason="...; dkim=pass"` quoting
//! the sender's text is not read as a result.

use std::net::IpAddr;

mod received;
mod results;
#[cfg(test)]
mod tests;

pub use crate::config::Network;
pub use received::received_is_internal;
use results::read_auth_results;

/// What the trusted `Authentication-Results` say of the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum AuthVerdict {
    /// A counted header shows `dkim=pass` with `header.d` or `header.i` in
    /// the `From` domain, `spf=pass` with `smtp.mailfrom` in the `From`
    /// domain, or `dmarc=pass` with `header.from` in the `From` domain. "In
    /// the domain" is equality or one being a sub-domain of the other (the
    /// shorter having at least two labels), DMARC's relaxed alignment
    /// without a public-suffix list.
    Pass,
    /// A counted header exists and shows no such aligned pass.
    Fail,
    /// No header counts (see the module docs), or no trusted authserv-id
    /// is configured.
    Unknown,
}

/// Whom [`read`] trusts.
#[derive(Clone, Copy, Debug)]
pub struct Trust<'a> {
    /// The authserv-id of the receiving server (any case).
    pub authserv_id: &'a str,
    /// Networks whose hops are inside the trust boundary, besides loopback.
    pub internal_networks: &'a [Network],
}

/// Where [`read`] stopped walking down the header section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Boundary {
    /// At a `Received:` header from outside (its value).
    Received(String),
    /// At another server's `Authentication-Results` (its authserv-id).
    OtherServer(String),
    /// At the end of the header section.
    End,
}

/// What [`read`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The verdict.
    pub verdict: AuthVerdict,
    /// The counted headers' values (comments kept), top first.
    pub counted: Vec<String>,
    /// Where the walk stopped.
    pub boundary: Boundary,
}

/// Reads the `Authentication-Results` of a header section (see the module
/// docs). `headers` are `(lowercased name, unfolded value)`, top first;
/// `from` is the `From` address. Without `trust`, the verdict is
/// [`AuthVerdict::Unknown`].
pub fn read(headers: &[(String, String)], from: &str, trust: Option<&Trust<'_>>) -> Reading {
    let unknown = |boundary| Reading {
        verdict: AuthVerdict::Unknown,
        counted: Vec::new(),
        boundary,
    };
    let Some(trust) = trust else {
        return unknown(Boundary::End);
    };
    let trusted = trust.authserv_id.trim().to_ascii_lowercase();
    let from_domain = from
        .rsplit_once('@')
        .map_or("", |(_, d)| d)
        .trim_end_matches('.')
        .to_ascii_lowercase();
    let mut counted = Vec::new();
    let mut pass = false;
    let mut boundary = Boundary::End;
    for (name, value) in headers {
        match name.as_str() {
            "received" if received_is_internal(value, trust.internal_networks) => {}
            "received" => {
                boundary = Boundary::Received(value.clone());
                break;
            }
            "authentication-results" => {
                let (id, aligned_pass) = read_auth_results(value, &from_domain);
                if id != trusted {
                    boundary = Boundary::OtherServer(id);
                    break;
                }
                pass |= aligned_pass;
                counted.push(value.clone());
            }
            _ => {}
        }
    }
    let verdict = match (counted.is_empty(), pass) {
        (true, _) => AuthVerdict::Unknown,
        (false, true) => AuthVerdict::Pass,
        (false, false) => AuthVerdict::Fail,
    };
    Reading {
        verdict,
        counted,
        boundary,
    }
}

/// Why [`gate`] refuses a message that would change a game's state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuthRefusal {
    /// No counted header.
    #[error(
        "the receiving server ({authserv_id}) did not authenticate it: no Authentication-Results \
         of its own stand above the first Received: header from outside"
    )]
    NoTrustedResults {
        /// The trusted authserv-id.
        authserv_id: String,
    },
    /// Counted headers, but no aligned pass.
    #[error(
        "the receiving server ({authserv_id}) reports no DKIM, SPF or DMARC pass for the From \
         address's domain"
    )]
    NoAlignedPass {
        /// The trusted authserv-id.
        authserv_id: String,
    },
}

/// The one authentication gate for every message that changes state (a
/// turn, a workflow step, a take-back, a Judgment, a Speaker or lifecycle
/// command): with a trusted authserv-id configured, only an
/// [`AuthVerdict::Pass`] goes through; without one, nothing can be
/// authenticated and everything goes through.
pub fn gate(verdict: AuthVerdict, trusted_authserv_id: Option<&str>) -> Result<(), AuthRefusal> {
    let Some(id) = trusted_authserv_id else {
        return Ok(());
    };
    let authserv_id = id.trim().to_string();
    match verdict {
        AuthVerdict::Pass => Ok(()),
        AuthVerdict::Fail => Err(AuthRefusal::NoAlignedPass { authserv_id }),
        AuthVerdict::Unknown => Err(AuthRefusal::NoTrustedResults { authserv_id }),
    }
}
