//! format=flowed (RFC 3676), undone as mail is read: a mail concern, so it
//! lives with the mail (it was in `src/gsd` until issue 41's layering).

/// Decodes format=flowed text (RFC 3676) as the mail is read: soft-broken
/// lines (ending in a space) are joined, space-stuffing is removed, and
/// quoted flowed lines are joined at the same quote depth.
pub fn unflow(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending: Option<(usize, String)> = None;
    for raw in text.replace("\r\n", "\n").split('\n') {
        let depth = raw.chars().take_while(|c| *c == '>').count();
        let mut body = &raw[depth..];
        if let Some(stripped) = body.strip_prefix(' ') {
            body = stripped; // space-stuffing
        }
        let soft = body.ends_with(' ') && body != "-- ";
        match pending.take() {
            Some((d, mut acc)) if d == depth => {
                acc.push_str(body);
                if soft {
                    pending = Some((d, acc));
                } else {
                    push_line(&mut out, d, &acc);
                }
            }
            other => {
                if let Some((d, acc)) = other {
                    push_line(&mut out, d, &acc);
                }
                if soft {
                    pending = Some((depth, body.to_string()));
                } else {
                    push_line(&mut out, depth, body);
                }
            }
        }
    }
    if let Some((d, acc)) = pending {
        push_line(&mut out, d, &acc);
    }
    out.pop(); // the split's last line carried no newline
    out
}

fn push_line(out: &mut String, depth: usize, body: &str) {
    for _ in 0..depth {
        out.push('>');
    }
    if depth > 0 && !body.is_empty() {
        out.push(' ');
    }
    out.push_str(body);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unflow_joins_soft_breaks() {
        assert_eq!(
            unflow("Rushton : Euston (VC \r\nvia: CN,NT)\r\nnext"),
            "Rushton : Euston (VC via: CN,NT)\nnext"
        );
        assert_eq!(unflow("> a \n> b\nc"), "> a b\nc");
        assert_eq!(unflow(" >not a quote"), ">not a quote");
    }
}
