//! Directives as players write them.

use super::*;

fn d(text: &str) -> Result<Option<Directive>, DirectiveErr> {
    directive(text, Map::london_1999())
}

#[test]
fn prose_is_not_a_directive() {
    assert_eq!(d("careful, Oval is Damaged"), Ok(None));
    assert_eq!(d("Round 2"), Ok(None));
    assert_eq!(d("spent a fortune"), Ok(None));
    assert_eq!(d(""), Ok(None));
}

#[test]
fn directives_read_typed() {
    assert_eq!(d("LV 3"), Ok(Some(Directive::Lv(3))));
    assert_eq!(d("waits 2 hours"), Ok(Some(Directive::Waits(120))));
    assert_eq!(d("waits 0130."), Ok(Some(Directive::Waits(90))));
    assert_eq!(
        d("pays 10 Red Tokens"),
        Ok(Some(Directive::Pays(Colour::Red)))
    );
    assert_eq!(d("takes Blue"), Ok(Some(Directive::Takes(Colour::Blue))));
    assert_eq!(
        d("claims a Red Token from Chapman"),
        Ok(Some(Directive::Claims {
            what: Claim::Token(Colour::Red),
            from: Some("Chapman".into())
        }))
    );
    assert_eq!(d("yodels"), Ok(Some(Directive::Yodels)));
    assert_eq!(d("rolled a 2"), Ok(Some(Directive::Rolled(2))));
    assert_eq!(
        d("rolled courier-pickup 123"),
        Ok(Some(Directive::RolledNamed {
            name: "courier-pickup".into(),
            value: 123
        }))
    );
    assert_eq!(
        d("rolled Frobisher-6 3"),
        Ok(Some(Directive::RolledNamed {
            name: "frobisher-6".into(),
            value: 3
        }))
    );
    assert!(d("rolled gold-rush").is_err());
    match d("Pick-up: Acton Town, Destination: Upminster") {
        Ok(Some(Directive::Courier {
            pickup,
            destination,
        })) => {
            assert_eq!(pickup.station, "Acton Town");
            assert_eq!(destination.station, "Upminster");
        }
        other => panic!("{other:?}"),
    }
    assert!(d("pick-up Acton Town").is_err());
    assert_eq!(d("specifies 40"), Ok(Some(Directive::Specifies(40))));
    assert!(matches!(
        d("recycles 3 Red"),
        Ok(Some(Directive::Recycles(Recycle::Tokens(3, Colour::Red))))
    ));
    match d("Tokens to Morden") {
        Ok(Some(Directive::TokensTo(t))) => assert_eq!(t.station, "Morden"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        d("generates Gold"),
        Ok(Some(Directive::Generates(Colour::Gold)))
    );
    assert_eq!(
        d("tithes Red from Bob Smith"),
        Ok(Some(Directive::Tithes {
            colour: Colour::Red,
            from: "Bob Smith".into()
        }))
    );
    assert_eq!(d("Rat to Bob"), Ok(Some(Directive::RatTo("Bob".into()))));
    assert!(d("tithes Red").is_err());
    assert!(d("tithes Purple from Bob").is_err());
    assert!(d("generates").is_err());
    assert!(d("Rat to").is_err());
    assert!(matches!(
        d("into Nantucket Rover Card"),
        Ok(Some(Directive::IntoNantucket(_)))
    ));
    assert!(matches!(
        d("out of Nantucket Chocolate Bar"),
        Ok(Some(Directive::OutOfNantucket(_)))
    ));
    assert_eq!(d("out of time"), Ok(None));
    assert!(matches!(d("loses 2Go, 2Si"), Ok(Some(Directive::Loses(_)))));
    assert_eq!(
        d("attracts Gold from Euston"),
        Ok(Some(Directive::Attracts {
            colour: Colour::Gold,
            from: "Euston".into()
        }))
    );
    assert_eq!(
        d("magnifies S for Bob"),
        Ok(Some(Directive::Magnifies {
            class: 'S',
            on: "Bob".into()
        }))
    );
    assert!(d("magnifies X for Bob").is_err());
    assert!(d("attracts Gold").is_err());
    assert!(d("into Nantucket").is_err());
    assert!(matches!(
        d("spent tokens to Euston"),
        Ok(Some(Directive::TokensTo(_)))
    ));
}

#[test]
fn a_malformed_directive_is_an_error_with_its_column() {
    let (at, msg, _) = d("takes Purple").unwrap_err();
    assert_eq!(at, 6);
    assert!(msg.contains("colour"), "{msg}");
    let (at, _, near) = d("Tokens to Mordn").unwrap_err();
    assert_eq!(at, 10);
    assert!(near.contains(&"Morden".to_string()), "{near:?}");
    assert!(d("LV high").is_err());
    assert!(d("waits a while").is_err());
}

#[test]
fn a_cascade_transfer_names_its_tokens_and_a_malformed_one_says_what_was_expected() {
    assert_eq!(
        d("cascades 2Re, 1Bk"),
        Ok(Some(Directive::Cascades(TokenList(vec![
            (2, Colour::Red),
            (1, Colour::Black)
        ]))))
    );
    for bad in ["cascades", "cascades two Red", "cascades 2Xx"] {
        let (at, expected, _) = d(bad).unwrap_err();
        assert_eq!(at, bad.len().min(9), "{bad}: the offset of the Tokens");
        assert!(expected.contains("{cascades 2Re,1Bk}"), "{bad}: {expected}");
    }
}
