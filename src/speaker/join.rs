//! Joining by mail (issue 17, RULINGS S18): a join counts only when its
//! confirmation token comes back from the address that asked. The token
//! is an HMAC over a secret the lounge keeps, so no one can guess it; the
//! secret and the time come in as values (the daemon's edge draws the
//! secret once and keeps it in the database).

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The domain separating join tokens from every other HMAC of the secret.
const TOKEN_DOMAIN: &[u8] = b"mornbot-join-v1\0";
/// The domain of a lobby game's dice seed.
const SEED_DOMAIN: &[u8] = b"mornbot-lobby-seed-v1\0";

/// How many hex digits a token has (80 bits).
pub const TOKEN_HEX: usize = 20;

/// A request to join, as the token binds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinAsk<'a> {
    /// The game, upper case.
    pub tag: &'a str,
    /// The name asked for.
    pub name: &'a str,
    /// The address that asked, lower case.
    pub address: &'a str,
    /// When it asked, ms since the epoch.
    pub asked_ms: i64,
}

fn mac(secret: &[u8; 32], domain: &[u8], fields: &[&[u8]]) -> [u8; 32] {
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(secret).expect("any key length");
    m.update(domain);
    for f in fields {
        m.update(&u32::try_from(f.len()).unwrap_or(u32::MAX).to_be_bytes());
        m.update(f);
    }
    m.finalize().into_bytes().into()
}

/// The join's token: the first [`TOKEN_HEX`] hex digits of HMAC-SHA-256
/// of the secret and (tag, name, address, time asked).
pub fn token(secret: &[u8; 32], ask: &JoinAsk<'_>) -> String {
    let h = mac(
        secret,
        TOKEN_DOMAIN,
        &[
            ask.tag.as_bytes(),
            ask.name.as_bytes(),
            ask.address.as_bytes(),
            &ask.asked_ms.to_be_bytes(),
        ],
    );
    h.iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
        .chars()
        .take(TOKEN_HEX)
        .collect()
}

/// Whether `given` is the join's token (compared in constant time).
pub fn check(secret: &[u8; 32], ask: &JoinAsk<'_>, given: &str) -> bool {
    let want = token(secret, ask);
    let given = given.trim().to_ascii_lowercase();
    want.len() == given.len()
        && want
            .bytes()
            .zip(given.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Whether a join asked at `asked_ms` has expired at `now_ms`, `hours`
/// later or more.
pub fn expired(asked_ms: i64, now_ms: i64, hours: u32) -> bool {
    now_ms.saturating_sub(asked_ms) >= i64::from(hours) * 3_600_000
}

/// The dice seed of lobby game `tag` (RULINGS S17): HMAC-SHA-256 of the
/// secret and the tag. Its commitment is announced when the game is
/// created, before anyone joins; the seed is revealed when the game ends,
/// which tells nothing of the secret.
pub fn game_seed(secret: &[u8; 32], tag: &str) -> [u8; 32] {
    mac(secret, SEED_DOMAIN, &[tag.as_bytes()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(address: &str) -> JoinAsk<'_> {
        JoinAsk {
            tag: "MN20",
            name: "Rushton",
            address,
            asked_ms: 1_700_000_000_000,
        }
    }

    #[test]
    fn a_token_checks_only_for_its_own_join() {
        let secret = [7u8; 32];
        let t = token(&secret, &ask("rushton@example.org"));
        assert_eq!(t.len(), TOKEN_HEX);
        assert!(check(&secret, &ask("rushton@example.org"), &t));
        assert!(check(
            &secret,
            &ask("rushton@example.org"),
            &t.to_uppercase()
        ));
        assert!(!check(&secret, &ask("forger@example.org"), &t));
        assert!(!check(&[8u8; 32], &ask("rushton@example.org"), &t));
        assert!(!check(
            &secret,
            &ask("rushton@example.org"),
            &t[..TOKEN_HEX - 1]
        ));
        let later = JoinAsk {
            asked_ms: 1_700_000_000_001,
            ..ask("rushton@example.org")
        };
        assert_ne!(token(&secret, &later), t);
    }

    #[test]
    fn joins_expire() {
        assert!(!expired(0, 47 * 3_600_000, 48));
        assert!(expired(0, 48 * 3_600_000, 48));
    }

    #[test]
    fn seeds_differ_by_game() {
        let s = [1u8; 32];
        assert_ne!(game_seed(&s, "MN20"), game_seed(&s, "MN21"));
        assert_eq!(game_seed(&s, "MN20"), game_seed(&s, "MN20"));
    }
}
