//! Choices a play leaves unwritten (RULINGS.md E134). Where a rule lets the
//! Actioning Player choose (a Token of eir choice, a number up to eir LV,
//! which Package), the play writes the choice in a comment (`{tithes Red
//! from Bob}`, `{LV 3}`) or in the Action (`[Detonating Euston Package]`);
//! when the state leaves one legal choice there is nothing to write and the
//! play takes it, and when it leaves several the play "needs a choice",
//! Illegal under the Action's rule, naming each.

use super::*;

impl Turn<'_> {
    /// The choice a play did not write: the only one of `options` (each
    /// with the words that would write it); with several, Illegal under
    /// `rule`, "`what` needs a choice: a, b or c"; `None` with none, the
    /// caller saying why.
    pub(super) fn only_choice<T: Clone>(
        &mut self,
        rule: &str,
        what: &str,
        options: &[(T, String)],
    ) -> Option<T> {
        match options {
            [] => None,
            [(one, _)] => Some(one.clone()),
            several => {
                let written: Vec<String> = several.iter().map(|(_, w)| w.clone()).collect();
                self.illegal(rule, format!("{what} needs a choice: {}", either(&written)));
                None
            }
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
pub(super) fn either(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::either;

    #[test]
    fn options_are_listed_as_a_sentence() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(either(&s(&[])), "");
        assert_eq!(either(&s(&["{LV 0}"])), "{LV 0}");
        assert_eq!(either(&s(&["a", "b"])), "a or b");
        assert_eq!(either(&s(&["a", "b", "c"])), "a, b or c");
    }
}
