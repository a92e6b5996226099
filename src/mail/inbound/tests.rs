//! Unit tests of the inbound parser: the HTML converter, format=flowed, ids, list managers.

use super::auto::is_list_manager;
use super::body::delete_soft_spaces;
use super::headers::fnv1a;
use super::*;

#[test]
fn a_table_too_wide_to_pad_is_rendered_unpadded() {
    // One row of N cells, then N rows of one: padded, N x N cells.
    let n = 3000;
    let mut html = String::from("<table><tr>");
    for i in 0..n {
        html.push_str(&format!("<td>c{i}</td>"));
    }
    html.push_str("</tr>");
    for _ in 0..n {
        html.push_str("<tr><td>x</td></tr>");
    }
    html.push_str("</table>");
    let text = html_to_text(&html);
    assert!(text.len() < 4 * html.len(), "{} bytes", text.len());
    assert!(text.contains("c0 | c1 | c2"));
}

#[test]
fn fnv_is_stable_and_spreads() {
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_ne!(synthesized_message_id(b"x"), synthesized_message_id(b"y"));
}

#[test]
fn html_pre_keeps_spaces_and_lines() {
    let t = html_to_text("<html><body><pre>\n| a  |  b |\n|  c | d  |\n</pre>ok</body></html>");
    assert_eq!(t, "| a  |  b |\n|  c | d  |\n\nok");
}

#[test]
fn html_br_nbsp_and_paragraphs() {
    let t = html_to_text(
        "<div>Hello&nbsp;&nbsp;there</div><div><br></div><p class=MsoNormal>a<o:p></o:p></p><p>b<br>c</p>",
    );
    assert_eq!(t, "Hello  there\n\na\nb\nc");
}

#[test]
fn html_collapses_white_space_outside_pre() {
    assert_eq!(html_to_text("  a \n\t b  <b> c </b>d"), "a b c d");
}

#[test]
fn html_blockquote_is_quoted() {
    assert_eq!(
        html_to_text("<p>mine</p><blockquote><p>theirs</p><p>more</p></blockquote>"),
        "mine\n> theirs\n> more"
    );
}

#[test]
fn html_data_table_has_borders() {
    let t = html_to_text(
        "<table><tr><th>Player</th><th>LV</th></tr><tr><td>Rushton</td><td>3</td></tr></table>",
    );
    assert_eq!(
        t,
        "+---------+----+\n| Player  | LV |\n+---------+----+\n| Rushton | 3  |\n+---------+----+"
    );
}

#[test]
fn html_single_column_table_is_a_box() {
    let t = html_to_text("<table><tr><td>Wild Stations</td></tr><tr><td>Euston</td></tr></table>");
    assert!(t.starts_with("+- Wild Stations --"), "{t}");
    assert!(t.contains("| Euston"), "{t}");
}

#[test]
fn html_layout_table_is_not_piped() {
    let t = html_to_text("<table><tr><td><pre>x  y</pre></td></tr></table>");
    assert_eq!(t, "x  y");
}

#[test]
fn html_entities_comments_scripts() {
    assert_eq!(
        html_to_text(
            "<!-- c --><style>p{}</style><script>x<y</script>a &amp; b &lt; &#65;&#x42; &bogus; &"
        ),
        "a & b < AB &bogus; &"
    );
    assert_eq!(html_to_text("1 < 2 <3"), "1 < 2 <3");
}

#[test]
fn html_survives_deep_nesting() {
    let deep = "<div>".repeat(10_000) + "x" + &"</div>".repeat(10_000);
    assert_eq!(html_to_text(&deep), "x");
}

#[test]
fn delsp_removes_the_soft_space() {
    assert_eq!(
        super::flowed::unflow(&delete_soft_spaces("abc \ndef\n> q \n> r\nend")),
        "abcdef\n> qr\nend"
    );
    assert_eq!(delete_soft_spaces("\n\nx"), "\n\nx");
}

#[test]
fn list_manager_addresses() {
    let list = Some("lounge@lists.example.org");
    for a in [
        "lounge+owner@lists.example.org",
        "lounge-owner@lists.example.org",
        "lounge+help@lists.example.org",
        "lounge-bounces@lists.example.org",
        "lounge+bounces-12-tim=example.org@lists.example.org",
        "owner-lounge@lists.example.org",
        "lounge-request@lists.example.org",
    ] {
        assert!(is_list_manager(a, list), "{a}");
    }
    for a in [
        "lounge@lists.example.org",
        "tim@example.org",
        "lounge+help@elsewhere.org",
        "helpful@lists.example.org",
    ] {
        assert!(!is_list_manager(a, list), "{a}");
    }
    assert!(is_list_manager("games-request@other.org", None));
    assert!(!is_list_manager("jane-admin@other.org", None));
}

/// What its reader does not see is not read (issue 40): a Play hidden by
/// the `hidden` attribute or a style is no text, however it is written.
#[test]
fn html_hidden_text_is_not_read() {
    for hidden in [
        "<div hidden>Cryer : Euston (NT)</div>",
        "<div HIDDEN=\"hidden\">Cryer : Euston (NT)</div>",
        "<span style=\"display:none\">Cryer : Euston (NT)</span>",
        "<span style='DISPLAY : none !important'>Cryer : Euston (NT)</span>",
        "<p style=\"color:red; visibility: hidden\">Cryer : Euston (NT)</p>",
        "<font style=\"font-size:0px\">Cryer : Euston (NT)</font>",
        "<span style=\"font-size:0\">Cryer : Euston (NT)</span>",
        "<span style=\"font-size:1px\">Cryer : Euston (NT)</span>",
        "<div style=\"opacity:0\">Cryer : Euston (NT)</div>",
        "<div style=\"max-height:0;overflow:hidden\">Cryer : Euston (NT)</div>",
        "<div style=\"mso-hide:all\">Cryer : Euston (NT)</div>",
        "<div style=\"display:none\"><p>Cryer : <b>Euston</b> (NT)</p></div>",
    ] {
        let t = html_to_text(&format!("<p>Rushton : Pass</p>{hidden}<p>end</p>"));
        assert!(!t.contains("Cryer"), "{hidden}: {t}");
        assert!(
            t.starts_with("Rushton : Pass") && t.ends_with("end"),
            "{hidden}: {t}"
        );
    }
    // Visible look-alikes are read.
    for shown in [
        "<div data-hidden=\"1\">Cryer : Euston (NT)</div>",
        "<div style=\"font-size:10px\">Cryer : Euston (NT)</div>",
        "<div style=\"opacity:0.9\">Cryer : Euston (NT)</div>",
        "<div title=\"hidden\">Cryer : Euston (NT)</div>",
    ] {
        let t = html_to_text(shown);
        assert_eq!(t, "Cryer : Euston (NT)", "{shown}");
    }
}

/// Text a `<style>` sheet hides is not read either (issue 40): rules on a
/// class (any of an element's several), an id or a name, several selectors
/// to a rule, inside `@media`, before or after the element.
#[test]
fn html_hidden_by_a_sheet_is_not_read() {
    let play = "Cryer : Euston (NT)";
    for hidden in [
        format!("<style>.x{{display:none}}</style><div class=\"x\">{play}</div>"),
        format!("<style>#y {{ visibility: hidden }}</style><p id=y>{play}</p>"),
        format!("<style>.a, .b{{display:none}}</style><span class=\"c b\">{play}</span>"),
        format!("<div class=\"late\">{play}</div><style>.late{{display:none}}</style>"),
        format!("<style>.Hide{{display:none}}</style><div class=\"hIDE\">{play}</div>"),
        format!(
            "<style>@media screen and (min-width:1px){{.m{{display:none}}}}</style>\
             <div class=m>{play}</div>"
        ),
        format!(
            "<style type=\"text/css\"><!-- p.MsoNormal{{margin:0cm}} \
             .h{{mso-hide:all}} --></style><p class=\"MsoNormal h\">{play}</p>"
        ),
        format!("<style>div.z > p.w:first-child {{ font-size:0 }}</style><p class=w>{play}</p>"),
        format!("<style>u{{display:none !important}}</style><u>{play}</u>"),
        format!("<style>#o{{opacity:0}}</style><div id=o><p>{play}</p></div>"),
    ] {
        let t = html_to_text(&format!("<p>Rushton : Pass</p>{hidden}<p>end</p>"));
        assert!(!t.contains("Cryer"), "{hidden}: {t}");
        assert!(
            t.starts_with("Rushton : Pass") && t.ends_with("end"),
            "{hidden}: {t}"
        );
    }
    // What a sheet does not hide on a screen is read.
    for shown in [
        format!("<style>@media print{{.p{{display:none}}}}</style><div class=p>{play}</div>"),
        format!("<style media=\"print\">.p{{display:none}}</style><div class=p>{play}</div>"),
        format!("<style>.x{{display:none}}</style><div class=\"xx\" id=x>{play}</div>"),
        format!("<style>.n{{color:red}} #n{{display:block}}</style><p class=n id=n>{play}</p>"),
        format!("<style>p::after{{display:none}}</style><p>{play}</p>"),
        format!("<style>.s{{content:'}} .p{{display:none'}}</style><p class=p>{play}</p>"),
    ] {
        assert_eq!(html_to_text(&shown), play, "{shown}");
    }
}
