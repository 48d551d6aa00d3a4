use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that every hex id in a map or scenario is four digits, `CCRR` (two-digit
    /// column, two-digit row, from `0101`).
    ///
    /// ## Why is this bad?
    /// An id such as `903` or `09-03` cannot be placed on the map; the unit or overlay
    /// using it is lost.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["903", "1004"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub META = ("geometry::malformed-hex", Error, "a hex id that is not `CCRR`");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    for r in cx.hexes() {
        if let Err((text, err)) = &r.hex {
            let help = match text.trim().len() {
                3 if text.trim().chars().all(|c| c.is_ascii_digit()) => {
                    format!("did you mean `0{}`?", text.trim())
                }
                _ => "write the column and the row with two digits each, e.g. `0903`".to_string(),
            };
            sink.push(
                Report::new(&META, r.place(), format!("`{text}` is not a hex id: {err}"))
                    .help(help),
            );
        }
    }
}
