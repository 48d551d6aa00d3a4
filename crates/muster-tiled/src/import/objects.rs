//! The object layers: `hexsides` (hexside features, access restrictions, river courses)
//! and `labels`. An object names its hexes in its properties (as export writes them) or,
//! drawn by hand, by where it lies: a label by its position, a road or a river by the
//! hex centres its points fall in.

use muster_db::Severity;
use muster_hex::{HexGrid, HexId};
use muster_model::system::RulesSystem;

use super::locate::Locator;
use super::{Report, list, unknown_property};
use crate::{codes, geometry, layer};

/// What the object layers draw, in the order written.
#[derive(Default)]
pub(crate) struct Drawn {
    /// Hexside features on single hexsides, grouped by feature in order of appearance.
    pub hexsides: Vec<(String, Vec<(HexId, HexId)>)>,
    /// Hexside features along chains of hexes (drawn through hex centres).
    pub paths: Vec<(String, Vec<HexId>)>,
    pub access: Vec<(HexId, Vec<HexId>)>,
    pub flows: Vec<Vec<HexId>>,
    pub labels: Vec<(HexId, String)>,
}

const HEXSIDE_PROPERTIES: &[&str] = &["feature", "hexes", "access", "from", "flow"];
const LABEL_PROPERTIES: &[&str] = &["hex"];

/// One object being read: its place in the text for diagnostics.
struct At<'r, 'f> {
    report: &'r mut Report,
    span: std::ops::Range<usize>,
    what: &'f str,
}

impl At<'_, '_> {
    fn bad_hex(&mut self, message: String) {
        self.report.push(
            codes::BAD_HEX,
            Severity::Error,
            self.span.clone(),
            format!("{} {message}", self.what),
            Some(
                "hexes are written `CCRR` (`0207`), space-separated, and must be on the map".into(),
            ),
        );
    }
}

fn string(object: &tiled::Object, name: &str) -> Option<String> {
    match object.properties.get(name) {
        Some(tiled::PropertyValue::StringValue(s)) => Some(s.clone()),
        _ => None,
    }
}

/// The hexes a space-separated list names, or why not.
fn hexes(text: &str, grid: &HexGrid) -> Result<Vec<HexId>, String> {
    text.split_whitespace()
        .map(|t| match HexId::parse(t) {
            Ok(h) if grid.contains(h) => Ok(h),
            Ok(h) => Err(format!("names {h}, which is off the map")),
            Err(e) => Err(format!("names `{t}`, which is not a hex: {e}")),
        })
        .collect()
}

/// The hexes an object's points fall in, consecutive repeats dropped.
fn hexes_under(object: &tiled::Object, grid: &HexGrid) -> Option<Vec<HexId>> {
    let origin = (f64::from(object.x), f64::from(object.y));
    let points: Vec<(f64, f64)> = match &object.shape {
        tiled::ObjectShape::Polyline { points } => points
            .iter()
            .map(|(x, y)| (origin.0 + f64::from(*x), origin.1 + f64::from(*y)))
            .collect(),
        _ => vec![origin],
    };
    let mut out: Vec<HexId> = Vec::new();
    for p in points {
        let h = geometry::hex_at(grid, p)?;
        if out.last() != Some(&h) {
            out.push(h);
        }
    }
    Some(out)
}

pub(crate) fn read(
    map: &tiled::Map,
    locator: &Locator,
    grid: &HexGrid,
    system: &RulesSystem,
    report: &mut Report,
) -> Drawn {
    let mut drawn = Drawn::default();
    for l in map.layers() {
        let tiled::LayerType::Objects(objects) = l.layer_type() else {
            continue;
        };
        let node = locator.layer(l.id());
        let kind = l.name.as_str();
        if kind != layer::HEXSIDES && kind != layer::LABELS {
            let help = if kind == layer::SETUP {
                "a scenario's set-up lives in its scenario file; `muster import tiled` reads maps"
            } else {
                "muster reads the object layers `hexsides` and `labels`; rename the layer if it is one of those"
            };
            report.push(
                codes::IGNORED_LAYER,
                Severity::Warning,
                node.map_or(0..0, |n| Locator::attribute(n, "name")),
                format!("the object layer `{kind}` is not read"),
                Some(help.into()),
            );
            continue;
        }
        for object in objects.objects() {
            let onode = locator.object(object.id());
            let what = format!("the object {} (`{}`)", object.id(), object.name);
            let known = if kind == layer::LABELS {
                LABEL_PROPERTIES
            } else {
                HEXSIDE_PROPERTIES
            };
            for p in onode.map(Locator::properties).unwrap_or_default() {
                unknown_property(report, &p, known, &what);
            }
            let mut at = At {
                report,
                span: onode.map_or(0..0, Locator::tag),
                what: &what,
            };
            if kind == layer::LABELS {
                label(&object, grid, &mut at, &mut drawn);
            } else {
                hexside(&object, grid, system, &mut at, &mut drawn);
            }
        }
    }
    drawn
}

fn label(object: &tiled::Object, grid: &HexGrid, at: &mut At, drawn: &mut Drawn) {
    let hex = match string(object, "hex") {
        Some(text) => match hexes(&text, grid) {
            Ok(h) if h.len() == 1 => h[0],
            Ok(_) => return at.bad_hex("names more than one hex".into()),
            Err(e) => return at.bad_hex(e),
        },
        None => match hexes_under(object, grid).and_then(|h| h.first().copied()) {
            Some(h) => h,
            None => return at.bad_hex("lies on no hex of the map".into()),
        },
    };
    if object.name.is_empty() {
        at.report.push(
            codes::UNKNOWN_OBJECT,
            Severity::Warning,
            at.span.clone(),
            format!("{} is a label without text", at.what),
            Some("write the label's text as the object's name".into()),
        );
        return;
    }
    drawn.labels.push((hex, object.name.clone()));
}

fn hexside(
    object: &tiled::Object,
    grid: &HexGrid,
    system: &RulesSystem,
    at: &mut At,
    drawn: &mut Drawn,
) {
    let listed = |name: &str, at: &mut At| -> Option<Vec<HexId>> {
        let text = string(object, name)?;
        hexes(&text, grid).map_err(|e| at.bad_hex(e)).ok()
    };
    if let Some(feature) = string(object, "feature") {
        if !system.hexside_features.iter().any(|f| f.id == feature) {
            let ids = system.hexside_features.iter().map(|f| f.id.as_str());
            let help =
                muster_db::suggest::did_you_mean(&feature, ids.clone()).unwrap_or_else(|| {
                    format!("the hexside features of `{}` are {}", system.id, list(ids))
                });
            at.report.push(
                codes::UNKNOWN_FEATURE,
                Severity::Error,
                at.span.clone(),
                format!(
                    "{} is hexside feature `{feature}`, which `{}` has not",
                    at.what, system.id
                ),
                Some(help),
            );
            return;
        }
        let chain = if object.properties.contains_key("hexes") {
            listed("hexes", at)
        } else {
            hexes_under(object, grid)
        };
        let Some(chain) = chain else {
            return at.bad_hex("lies on no hex of the map".into());
        };
        if chain.len() < 2 || chain.windows(2).any(|w| !grid.adjacent(w[0], w[1])) {
            return at.bad_hex("does not join neighbouring hexes".into());
        }
        if chain.len() == 2 {
            let side = (chain[0], chain[1]);
            match drawn.hexsides.iter_mut().find(|(f, _)| *f == feature) {
                Some((_, sides)) => sides.push(side),
                None => drawn.hexsides.push((feature, vec![side])),
            }
        } else {
            drawn.paths.push((feature, chain));
        }
    } else if let Some(hex) = string(object, "access") {
        let (Ok(hex), Some(from)) = (hexes(&hex, grid), listed("from", at)) else {
            return at.bad_hex("has no hex in `access` or no list in `from`".into());
        };
        match hex.as_slice() {
            [one] => drawn.access.push((*one, from)),
            _ => at.bad_hex("names more than one hex in `access`".into()),
        }
    } else if object.properties.contains_key("flow") || object.name == "flow" {
        let course = if object.properties.contains_key("flow") {
            listed("flow", at)
        } else {
            hexes_under(object, grid)
        };
        match course {
            Some(c) if !c.is_empty() => drawn.flows.push(c),
            _ => at.bad_hex("lies on no hex of the map".into()),
        }
    } else {
        at.report.push(
            codes::UNKNOWN_OBJECT,
            Severity::Warning,
            at.span.clone(),
            format!(
                "{} is not a hexside feature, an access restriction nor a river course",
                at.what
            ),
            Some(
                "give it a property `feature` (a hexside feature), `access` and `from`, or `flow`"
                    .into(),
            ),
        );
    }
}
