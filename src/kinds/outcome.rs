//! What the kind interface answers: who a rendering is for ([`Viewer`]),
//! what an order comes to ([`Judged`], with each [`Breach`]) and who must
//! act next ([`Next`]).

use std::fmt;

use super::kind::Position;

/// Who a rendering is for: kinds with hidden information show each player
/// only what is eirs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The lounge, the archive, anyone.
    Public,
    /// One player, by name.
    Player(String),
}

/// One way an order breaks the rules: the rule, the ruling that reads it,
/// and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breach {
    /// The rule of the kind's ruleset whose words the order breaks.
    pub rule: String,
    /// The ruling of RULINGS.md that reads those words, if one does.
    pub ruling: Option<String>,
    /// What is wrong, for the player.
    pub text: String,
}

impl Breach {
    /// A breach from a kind's core's violation: its rule, its ruling and
    /// its text.
    pub(crate) fn of(rule: &str, ruling: Option<&str>, text: String) -> Breach {
        Breach {
            rule: rule.to_string(),
            ruling: ruling.map(str::to_string),
            text,
        }
    }
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.ruling {
            Some(r) => write!(f, "Rule {} ({r}): {}", self.rule, self.text),
            None => write!(f, "Rule {}: {}", self.rule, self.text),
        }
    }
}

/// What an order comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// It stands: the position after it and what changed, one line each.
    Legal {
        /// The position after it.
        position: Position,
        /// What changed.
        changes: Vec<String>,
    },
    /// It ended the game.
    Over {
        /// The final position.
        position: Position,
        /// What changed.
        changes: Vec<String>,
    },
    /// Refused whole: every rule it breaks.
    Illegal(Vec<Breach>),
    /// It depends on a rule the kind does not judge: the rules a person
    /// must rule on (never Legal, never nothing).
    NeedsRuling(Vec<Breach>),
}

/// Who must act now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// These players, for this step ("turn").
    Act {
        /// Who.
        players: Vec<String>,
        /// The kind of step awaited ("turn"; "second action" of an open
        /// turn).
        step: &'static str,
        /// Lines of the log the awaited turn already has: an open turn's
        /// steps sent so far (0 for a fresh turn). The turn's deadline
        /// counts from before the first of them: it covers every step.
        lines_in: usize,
    },
    /// The game is over: its winners.
    Over {
        /// Who won.
        winners: Vec<String>,
    },
}
