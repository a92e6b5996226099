//! The HTML tree written out as lines: white space collapsed outside
//! `<pre>`, blocks on lines of their own, data tables as `|` rows between
//! borders.

use super::*;

/// The text being written, with HTML's white-space collapsing.
#[derive(Default)]
pub(super) struct Out {
    pub(super) buf: String,
    /// Inside `<pre>`: text is kept as it is.
    pre: usize,
    /// White space is pending (written before the next word, unless at the
    /// start of a line).
    space: bool,
}

impl Out {
    fn at_line_start(&self) -> bool {
        self.buf.is_empty() || self.buf.ends_with('\n')
    }

    fn text(&mut self, s: &str) {
        if self.pre > 0 {
            self.buf.push_str(s);
            self.space = false;
            return;
        }
        for c in s.chars() {
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c') {
                self.space = true;
            } else {
                if self.space && !self.at_line_start() {
                    self.buf.push(' ');
                }
                self.space = false;
                self.buf.push(c);
            }
        }
    }

    fn newline(&mut self) {
        let trimmed = self.buf.trim_end_matches(' ').len();
        self.buf.truncate(trimmed);
        self.buf.push('\n');
        self.space = false;
    }

    fn block(&mut self) {
        if !self.at_line_start() {
            self.newline();
        }
        self.space = false;
    }

    /// A block set off by a blank line (a `<pre>` or a data table).
    fn paragraph(&mut self) {
        self.block();
        if !self.buf.is_empty() && !self.buf.ends_with("\n\n") {
            self.buf.push('\n');
        }
    }
}

pub(super) fn render_nodes(nodes: &[Node], out: &mut Out) {
    for n in nodes {
        render(n, out);
    }
}

fn render(node: &Node, out: &mut Out) {
    let (name, children) = match node {
        Node::Text(t) => {
            out.text(t);
            return;
        }
        Node::Elem { name, children } => (name.as_str(), children),
    };
    match name {
        "br" => out.newline(),
        "pre" | "xmp" | "listing" | "plaintext" => {
            out.paragraph();
            out.pre += 1;
            let mut skip_first_newline = true;
            for c in children {
                match c {
                    Node::Text(t) if skip_first_newline => {
                        out.text(t.strip_prefix('\n').unwrap_or(t));
                    }
                    c => render(c, out),
                }
                skip_first_newline = false;
            }
            out.pre -= 1;
            out.paragraph();
        }
        "blockquote" => {
            out.block();
            let mut inner = Out {
                pre: out.pre,
                ..Out::default()
            };
            render_nodes(children, &mut inner);
            let text = inner.buf.trim_end_matches('\n');
            for line in text.split('\n') {
                if line.is_empty() {
                    out.buf.push('>');
                } else {
                    out.buf.push_str("> ");
                    out.buf.push_str(line);
                }
                out.buf.push('\n');
            }
            out.space = false;
        }
        "table" => {
            if is_data_table(children) {
                out.paragraph();
                render_data_table(children, out);
                out.paragraph();
            } else {
                out.block();
                render_nodes(children, out);
                out.block();
            }
        }
        _ if BLOCK.contains(&name) => {
            out.block();
            render_nodes(children, out);
            out.block();
        }
        _ => render_nodes(children, out),
    }
}

fn contains_elem(nodes: &[Node], names: &[&str]) -> bool {
    nodes.iter().any(|n| match n {
        Node::Text(_) => false,
        Node::Elem { name, children } => {
            names.contains(&name.as_str()) || contains_elem(children, names)
        }
    })
}

/// The rows of a table: each a list of (is a `<th>`, cell nodes).
fn table_rows(nodes: &[Node]) -> Vec<Vec<(bool, &[Node])>> {
    let mut rows = Vec::new();
    for n in nodes {
        if let Node::Elem { name, children } = n {
            match name.as_str() {
                "tr" => rows.push(
                    children
                        .iter()
                        .filter_map(|c| match c {
                            Node::Elem { name, children } if name == "td" || name == "th" => {
                                Some((name == "th", children.as_slice()))
                            }
                            _ => None,
                        })
                        .collect(),
                ),
                "thead" | "tbody" | "tfoot" => rows.extend(table_rows(children)),
                _ => {}
            }
        }
    }
    rows
}

fn is_data_table(nodes: &[Node]) -> bool {
    if contains_elem(nodes, &["table", "pre", "blockquote"]) {
        return false;
    }
    let rows = table_rows(nodes);
    rows.len() > 1 || rows.iter().any(|r| r.len() > 1)
}

/// The most text a padded HTML table may render to (see `render_data_table`).
const MAX_TABLE_BYTES: usize = 1 << 20;

fn render_data_table(nodes: &[Node], out: &mut Out) {
    let rows: Vec<(bool, Vec<String>)> = table_rows(nodes)
        .into_iter()
        .filter(|r| !r.is_empty())
        .map(|r| {
            let head = r.iter().all(|(th, _)| *th);
            let cells = r
                .iter()
                .map(|(_, children)| {
                    let mut cell = Out::default();
                    render_nodes(children, &mut cell);
                    cell.buf
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                        .replace('\u{a0}', " ")
                        .trim()
                        .to_string()
                })
                .collect();
            (head, cells)
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let ncols = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let mut widths = vec![0usize; ncols];
    for (_, cells) in &rows {
        for (i, c) in cells.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let total: usize = widths.iter().map(|w| w + 3).sum::<usize>() + 1;
    // Padding every row to every column grows as rows x columns: a hostile
    // table of a few hundred KB would need gigabytes. Past a bound, the
    // cells go out unpadded, one row a line (linear in the input).
    if rows.len().saturating_mul(total) > MAX_TABLE_BYTES {
        for (_, cells) in &rows {
            out.buf.push_str(&cells.join(" | "));
            out.buf.push('\n');
        }
        out.space = false;
        return;
    }
    let border = |out: &mut Out| {
        out.buf.push('+');
        for w in &widths {
            out.buf.push_str(&"-".repeat(w + 2));
            out.buf.push('+');
        }
        out.buf.push('\n');
    };
    let row = |out: &mut Out, cells: &[String]| {
        out.buf.push('|');
        for (i, w) in widths.iter().enumerate() {
            let c = cells.get(i).map_or("", String::as_str);
            out.buf.push(' ');
            out.buf.push_str(c);
            out.buf
                .push_str(&" ".repeat(w.saturating_sub(c.chars().count()) + 1));
            out.buf.push('|');
        }
        out.buf.push('\n');
    };
    let boxed = rows.len() > 1 && rows[0].1.len() == 1 && ncols == 1;
    if boxed {
        // A GSD box: `+- Title ---+`, its lines, a border.
        let title = &rows[0].1[0];
        let dashes = total.saturating_sub(title.chars().count() + 4).max(2);
        out.buf
            .push_str(&format!("+- {title} {}+\n", "-".repeat(dashes)));
        for (_, cells) in &rows[1..] {
            row(out, cells);
        }
        border(out);
    } else {
        let heads = rows.iter().take_while(|r| r.0).count().max(1);
        border(out);
        for (i, (_, cells)) in rows.iter().enumerate() {
            row(out, cells);
            if i + 1 == heads && rows.len() > heads {
                border(out);
            }
        }
        border(out);
    }
    out.space = false;
}
