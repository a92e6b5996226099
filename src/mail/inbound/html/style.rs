//! Whether style declarations hide their element (issue 40), whether an
//! inline `style` or a sheet's rule ([`super::sheet`]) states them.

/// Whether `decls` (`display: none; color: red`) hide their element from a
/// reader: `display: none`, `visibility: hidden` or `collapse`,
/// `content-visibility: hidden`, a font size of 1px or less, an opacity of
/// (almost) 0, a transparent colour, a scale of 0, a height or width of 0
/// with the overflow hidden, a clip to nothing, a box put far off the page,
/// Outlook's `mso-hide: all`. A property stated twice hides when either
/// statement would: which one a reader's client keeps is not known.
pub(super) fn declarations_hide(decls: &str) -> bool {
    let style: String = super::decode_entities(decls)
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let values = |p: &'static str| {
        style
            .split(';')
            .filter_map(|d| d.split_once(':'))
            .filter(move |(k, _)| *k == p)
            .map(|(_, v)| v.trim_end_matches("!important"))
    };
    let is = |p: &'static str, words: &[&str]| values(p).any(|v| words.contains(&v));
    let any = |p: &'static str, f: &dyn Fn(&str) -> bool| values(p).any(f);
    let positioned = is("position", &["absolute", "fixed"]);
    is("display", &["none"])
        || is("visibility", &["hidden", "collapse"])
        || is("content-visibility", &["hidden"])
        || is("mso-hide", &["all"])
        || is("color", &["transparent"])
        || any("font-size", &|v| zero(v))
        || any("opacity", &|v| {
            number(v.trim_end_matches('%')).is_some_and(|o| o <= 0.01)
        })
        || any("transform", &|v| {
            v.contains("scale(0)") || v.contains("scale(0,") || v.contains("scale3d(0,")
        })
        || any("clip", &|v| v.starts_with("rect(") && clipped(&v[5..]))
        || any("clip-path", &|v| {
            v.strip_prefix("inset(")
                .and_then(|r| number(r.trim_end_matches([')', '%'])))
                .is_some_and(|n| n >= 50.0)
        })
        || any("text-indent", &far_off)
        || (positioned && (any("left", &far_off) || any("top", &far_off)))
        || (is("overflow", &["hidden"])
            && (any("height", &|v| zero(v))
                || any("max-height", &|v| zero(v))
                || any("width", &|v| zero(v))
                || any("max-width", &|v| zero(v))))
}

/// A length of 0, or of 1px or less.
fn zero(v: &str) -> bool {
    let num: String = v
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let unit = &v[num.len()..];
    num.parse::<f64>()
        .is_ok_and(|n| n == 0.0 || (n <= 1.0 && unit == "px"))
}

/// The number `v` is, whole.
fn number(v: &str) -> Option<f64> {
    v.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// A negative offset that puts a box off any page: 1000px or more, 100em,
/// 100% or a screen's width.
fn far_off(v: &str) -> bool {
    let Some(v) = v.strip_prefix('-') else {
        return false;
    };
    let num: String = v
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let Some(n) = number(&num) else {
        return false;
    };
    match &v[num.len()..] {
        "px" | "pt" => n >= 1000.0,
        "em" | "rem" | "ex" | "ch" | "pc" | "cm" | "in" => n >= 50.0,
        "%" | "vw" | "vh" | "vmin" | "vmax" => n >= 100.0,
        _ => false,
    }
}

/// Whether a `clip: rect(...)`'s inside (after `rect(`) leaves a box at
/// most a pixel high or wide: `rect(0,0,0,0)`, `rect(1px 1px 1px 1px)`.
fn clipped(inside: &str) -> bool {
    let inside = inside.trim_end_matches(')');
    let edges: Vec<&str> = inside.split(',').filter(|e| !e.is_empty()).collect();
    let edges = if edges.len() == 4 {
        edges
    } else {
        // (Whitespace was removed: `rect(1px 1px 1px 1px)` reads `1px1px1px1px`.)
        inside.split_inclusive("px").collect()
    };
    edges.len() == 4
        && {
            let n: Vec<Option<f64>> = edges
                .iter()
                .map(|e| number(e.trim_end_matches("px")))
                .collect();
            matches!(n[..], [Some(t), Some(r), Some(b), Some(l)] if (b - t).abs() <= 1.0 || (r - l).abs() <= 1.0)
        }
}

#[cfg(test)]
mod tests {
    use super::declarations_hide;

    #[test]
    fn styles_that_hide_and_styles_that_do_not() {
        for hidden in [
            "display:none",
            "DISPLAY : none !important",
            "display:none; display:block",
            "visibility: hidden",
            "content-visibility:hidden",
            "font-size:0px",
            "font-size:1px",
            "opacity:0",
            "opacity:0%",
            "color:transparent",
            "transform:scale(0)",
            "max-height:0;overflow:hidden",
            "width:0; overflow:hidden",
            "position:absolute; clip:rect(0,0,0,0)",
            "clip: rect(1px 1px 1px 1px)",
            "clip-path: inset(50%)",
            "text-indent:-9999px",
            "position:absolute; left:-10000px",
            "position:fixed; top:-100vh",
            "mso-hide:all",
        ] {
            assert!(declarations_hide(hidden), "{hidden}");
        }
        for shown in [
            "color:red",
            "font-size:10px",
            "opacity:0.9",
            "transform:scale(1.5)",
            "overflow:hidden",
            "height:0",
            "clip:rect(0,100px,20px,0)",
            "clip-path: inset(10%)",
            "text-indent:-1em",
            "left:-10000px",
            "position:relative; left:-2px",
        ] {
            assert!(!declarations_hide(shown), "{shown}");
        }
    }
}
