//! `mornbot verify-dice`'s check (pure): a game's recorded draws against
//! its revealed seed, and the seed against its published commitment.

use super::{check, matches_commitment, Draw, Seed};

/// What a check of one game's dice found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// The game goes on: its seed is still secret.
    Secret {
        /// The game.
        game: String,
        /// The published commitment.
        commitment: String,
        /// How many draws were made so far.
        draws: usize,
    },
    /// The seed was revealed: each draw recomputed.
    Revealed {
        /// The game.
        game: String,
        /// The published commitment.
        commitment: String,
        /// The revealed seed as recorded (hex).
        seed: String,
        /// Whether the seed is the one committed to (and reads as a seed).
        seed_ok: bool,
        /// Each recorded draw and what recomputing it gave: `Ok`, or the
        /// face the seed gives.
        draws: Vec<(Draw, Result<(), u32>)>,
    },
}

/// Checks `draws` of `game`: before the reveal (`seed` is `None`) it only
/// reports the commitment; after it, recomputes each draw from `seed`.
pub fn verify(game: &str, commitment: &str, seed: Option<&str>, draws: &[Draw]) -> Report {
    let Some(hex) = seed else {
        return Report::Secret {
            game: game.to_string(),
            commitment: commitment.to_string(),
            draws: draws.len(),
        };
    };
    let parsed = Seed::from_hex(hex).ok();
    let seed_ok = parsed
        .as_ref()
        .is_some_and(|s| matches_commitment(s, commitment));
    let draws = draws
        .iter()
        .map(|d| {
            let r = match &parsed {
                Some(s) => check(s, d),
                None => Err(0),
            };
            (d.clone(), r)
        })
        .collect();
    Report::Revealed {
        game: game.to_string(),
        commitment: commitment.to_string(),
        seed: hex.to_string(),
        seed_ok,
        draws,
    }
}

impl Report {
    /// Whether nothing failed (a secret seed fails nothing).
    pub fn ok(&self) -> bool {
        match self {
            Report::Secret { .. } => true,
            Report::Revealed { seed_ok, draws, .. } => {
                *seed_ok && draws.iter().all(|(_, r)| r.is_ok())
            }
        }
    }

    /// The report as `verify-dice` prints it, one line a draw.
    pub fn render(&self) -> String {
        match self {
            Report::Secret {
                game,
                commitment,
                draws,
            } => format!(
                "{game}: the seed is still secret (it is revealed when the game ends).\n\
                 commitment {commitment}\n{draws} draw(s) so far.\n"
            ),
            Report::Revealed {
                game,
                commitment,
                seed,
                seed_ok,
                draws,
            } => {
                let mut out = format!(
                    "{game}\nseed       {seed}\ncommitment {commitment}: {}\n",
                    if *seed_ok {
                        "OK (SHA-256 of the seed)"
                    } else {
                        "MISMATCH (not the SHA-256 of the seed)"
                    }
                );
                for (d, r) in draws {
                    let verdict = match r {
                        Ok(()) => "OK".to_string(),
                        Err(0) => "MISMATCH (the seed does not read)".to_string(),
                        Err(v) => format!("MISMATCH (the seed gives {v})"),
                    };
                    out.push_str(&format!("{}: {verdict}\n", d.describe()));
                }
                let bad = draws.iter().filter(|(_, r)| r.is_err()).count();
                out.push_str(&format!(
                    "{} draw(s), {bad} mismatch(es){}.\n",
                    draws.len(),
                    if self.ok() { ": all OK" } else { ": FAILED" }
                ));
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{commitment, draw};
    use super::*;

    fn seed() -> Seed {
        Seed::from_bytes([7; 32])
    }

    #[test]
    fn honest_records_verify() {
        let d = vec![
            draw(&seed(), "MN1", 3, "holiday", 6).unwrap(),
            draw(&seed(), "MN1", 5, "referee-0", 2).unwrap(),
        ];
        let r = verify("MN1", &commitment(&seed()), Some(&seed().to_hex()), &d);
        assert!(r.ok(), "{}", r.render());
        assert!(r.render().contains("all OK"));
    }

    #[test]
    fn a_changed_value_or_seed_fails() {
        let mut d = draw(&seed(), "MN1", 3, "holiday", 6).unwrap();
        let c = commitment(&seed());
        d.value = d.value % 6 + 1;
        let r = verify("MN1", &c, Some(&seed().to_hex()), &[d.clone()]);
        assert!(!r.ok());
        assert!(r.render().contains("MISMATCH (the seed gives"));
        let other = Seed::from_bytes([8; 32]).to_hex();
        let r = verify("MN1", &c, Some(&other), &[]);
        assert!(!r.ok());
        let r = verify("MN1", &c, Some("not hex"), &[d]);
        assert!(!r.ok());
        assert!(r.render().contains("does not read"));
    }

    #[test]
    fn before_the_reveal_the_seed_is_secret() {
        let r = verify("MN1", "abc", None, &[]);
        assert!(r.ok());
        assert!(r.render().contains("still secret"));
        assert!(r.render().contains("abc"));
    }
}
