//! What one mail of One Day in London says (RULINGS OD5, OD6, OD13), and
//! its canonical text.

/// One mail's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// `PLACE <slot>`: the dealt card into an empty slot (set-up, OD5).
    Place(u8),
    /// `DRAW`: the top of the draw pile; the turn stays open (OD6).
    Draw,
    /// `TAKE <pile> [PUT <slot>] DISCARD <pile>`: a face-up card, a whole
    /// turn in one mail (OD6).
    Take {
        /// The pile taken from, 1 - 3.
        pile: u8,
        /// The rack slot it goes into (its card discarded); None: the
        /// taken card is discarded again.
        put: Option<u8>,
        /// The pile discarded onto, 1 - 3.
        discard: u8,
    },
    /// `[PUT <slot>] DISCARD <pile>`: the rest of a turn after `DRAW`.
    Finish {
        /// The rack slot the drawn card goes into; None: it is discarded.
        put: Option<u8>,
        /// The pile discarded onto, 1 - 3.
        discard: u8,
    },
    /// `STALEMATE`: the sender agrees to end the game with no winner
    /// (OD13).
    Stalemate,
    /// A missed step (OD11): never read from a mail.
    Timeout,
}

/// The order's canonical text, which reads back as the same order;
/// `#timeout` for [`Order::Timeout`] (the interface writes that line).
pub fn canonical(order: &Order) -> String {
    let put = |p: &Option<u8>| p.map(|s| format!("PUT {s} ")).unwrap_or_default();
    match order {
        Order::Place(s) => format!("PLACE {s}"),
        Order::Draw => "DRAW".into(),
        Order::Take {
            pile,
            put: p,
            discard,
        } => {
            format!("TAKE {pile} {}DISCARD {discard}", put(p))
        }
        Order::Finish { put: p, discard } => format!("{}DISCARD {discard}", put(p)),
        Order::Stalemate => "STALEMATE".into(),
        Order::Timeout => "#timeout".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_texts() {
        assert_eq!(canonical(&Order::Place(7)), "PLACE 7");
        assert_eq!(
            canonical(&Order::Take {
                pile: 1,
                put: Some(4),
                discard: 3
            }),
            "TAKE 1 PUT 4 DISCARD 3"
        );
        assert_eq!(
            canonical(&Order::Finish {
                put: None,
                discard: 2
            }),
            "DISCARD 2"
        );
        assert_eq!(canonical(&Order::Timeout), "#timeout");
    }
}
