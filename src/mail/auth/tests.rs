//! Unit tests of the authentication reading and the gate.

use super::results::aligned;
use super::*;

fn h(lines: &[(&str, &str)]) -> Vec<(String, String)> {
    lines
        .iter()
        .map(|(n, v)| (n.to_ascii_lowercase(), v.to_string()))
        .collect()
}

const NETS: &[Network] = &[];

fn verdict(headers: &[(&str, &str)]) -> AuthVerdict {
    let trust = Trust {
        authserv_id: "mx.example.net",
        internal_networks: &[Network {
            addr: IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 0)),
            prefix: 8,
        }],
    };
    read(&h(headers), "tim@example.org", Some(&trust)).verdict
}

const PASS: (&str, &str) = (
    "Authentication-Results",
    "mx.example.net; dkim=pass header.d=example.org",
);
const OUTSIDE: (&str, &str) = (
    "Received",
    "from mail.example.org (mail.example.org [198.51.100.7]) by mx.example.net with ESMTPS id 1; Tue, 14 Jan 2025 14:20:01 +0000",
);

#[test]
fn results_on_top_count() {
    assert_eq!(verdict(&[PASS, OUTSIDE]), AuthVerdict::Pass);
    assert_eq!(
        verdict(&[("Return-Path", "<tim@example.org>"), PASS, OUTSIDE]),
        AuthVerdict::Pass
    );
}

#[test]
fn results_under_a_received_from_outside_do_not() {
    let r = read(
        &h(&[OUTSIDE, PASS]),
        "tim@example.org",
        Some(&Trust {
            authserv_id: "mx.example.net",
            internal_networks: NETS,
        }),
    );
    assert_eq!(r.verdict, AuthVerdict::Unknown);
    assert!(matches!(r.boundary, Boundary::Received(_)));
}

#[test]
fn results_under_another_servers_do_not() {
    let other = ("Authentication-Results", "mx.other.test; none");
    assert_eq!(verdict(&[other, PASS, OUTSIDE]), AuthVerdict::Unknown);
    // ... nor do a trusted block's followers after another server's.
    let fail = ("Authentication-Results", "mx.example.net; dkim=none");
    assert_eq!(verdict(&[fail, other, PASS]), AuthVerdict::Fail);
}

#[test]
fn internal_hops_are_passed_over() {
    for hop in [
        "from mx.example.net ([10.0.0.2]) by imap.example.net with LMTP id x; Tue, 14 Jan 2025 14:20:02 +0000",
        "from mx.example.net (mx.example.net [192.0.2.9]) by imap.example.net with LMTPS; x",
        "from localhost (localhost [127.0.0.1]) by lists.example.net (Postfix) with ESMTP; x",
        "from relay.example.net (relay.example.net [10.1.2.3]) by mx.example.net with ESMTP; x",
        "by mx.example.net (Postfix, from userid 0) id 4AB; Tue, 14 Jan 2025 14:20:01 +0000",
        "from [10.1.2.3] (helo=relay) by mx.example.net with esmtp (Exim 4.96); x",
        "from relay ([IPv6:::1]) by mx.example.net with ESMTP; x",
    ] {
        assert!(received_is_internal(hop, &[
            "10.0.0.0/8".parse().unwrap()
        ]), "{hop}");
        assert_eq!(
            verdict(&[("Received", hop), PASS, OUTSIDE]),
            AuthVerdict::Pass,
            "{hop}"
        );
    }
}

#[test]
fn a_helo_never_makes_a_hop_internal() {
    for hop in [
        "from [127.0.0.1] (evil.test [203.0.113.9]) by mx.example.net with ESMTP; x",
        "from evil.test ([203.0.113.9] helo=[127.0.0.1]) by mx.example.net with esmtp; x",
        "from [127.0.0.1] by mx.example.net with ESMTP; x",
        "from evil.test (HELO [127.0.0.1]) by mx.example.net; x",
        "from mx.example.net by mx.example.net; x",
    ] {
        assert!(!received_is_internal(hop, &[]), "{hop}");
    }
}

#[test]
fn quoted_semicolons_do_not_split_results() {
    let tricky = (
        "Authentication-Results",
        "mx.example.net; dkim=fail reason=\"bad; dkim=pass header.d=example.org\"",
    );
    assert_eq!(verdict(&[tricky, OUTSIDE]), AuthVerdict::Fail);
}

#[test]
fn comments_and_alignment() {
    let (id, pass) = read_auth_results(
        "mx.example.net (version 1); dkim=pass (2048-bit key) header.d=mail.example.org header.s=s1; spf=fail smtp.mailfrom=x@evil.test",
        "example.org",
    );
    assert_eq!(id, "mx.example.net");
    assert!(pass);
    assert!(!aligned("org", "example.org"));
    assert!(!aligned("example.org", "badexample.org"));
    assert!(aligned("example.org", "example.org"));
}

#[test]
fn networks() {
    let n: Network = "192.0.2.0/24".parse().unwrap();
    assert!(n.contains("192.0.2.200".parse().unwrap()));
    assert!(!n.contains("192.0.3.1".parse().unwrap()));
    assert!(!n.contains("::1".parse().unwrap()));
    let all: Network = "0.0.0.0/0".parse().unwrap();
    assert!(all.contains("203.0.113.9".parse().unwrap()));
    let one: Network = "2001:db8::1".parse().unwrap();
    assert!(one.contains("2001:db8::1".parse().unwrap()));
    assert!(!one.contains("2001:db8::2".parse().unwrap()));
    assert!("10.0.0.0/33".parse::<Network>().is_err());
    assert!("ten".parse::<Network>().is_err());
}

#[test]
fn the_gate() {
    assert_eq!(gate(AuthVerdict::Unknown, None), Ok(()));
    assert_eq!(gate(AuthVerdict::Pass, Some("mx")), Ok(()));
    assert!(matches!(
        gate(AuthVerdict::Fail, Some("mx")),
        Err(AuthRefusal::NoAlignedPass { .. })
    ));
    let e = gate(AuthVerdict::Unknown, Some("mx")).unwrap_err();
    assert!(e.to_string().contains("(mx)"), "{e}");
}
