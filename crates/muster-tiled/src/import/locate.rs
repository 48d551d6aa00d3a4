//! Where things are in the TMX text. The `tiled` reader keeps no positions, so the same
//! text is also read with `roxmltree`, which keeps every element's and attribute's byte
//! range; diagnostics point there.

use std::ops::Range;

use roxmltree::{Document, Node};

/// The elements of one TMX document that diagnostics point at.
pub struct Locator<'a> {
    doc: Document<'a>,
}

/// A `<property>` element: its name, and where its name and value are written.
pub struct PropertyAt {
    pub name: String,
    pub name_span: Range<usize>,
    pub value_span: Range<usize>,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a str) -> Result<Self, roxmltree::Error> {
        Document::parse(text).map(|doc| Self { doc })
    }

    pub fn map(&self) -> Node<'_, 'a> {
        self.doc.root_element()
    }

    /// The start tag's name (`<map`), the span shown for a whole element.
    pub fn tag(node: Node) -> Range<usize> {
        let start = node.range().start;
        start..start + 1 + node.tag_name().name().len()
    }

    /// An attribute's value, else the element's tag.
    pub fn attribute(node: Node, name: &str) -> Range<usize> {
        node.attribute_node(name)
            .map_or_else(|| Self::tag(node), |a| a.range_value())
    }

    /// The `<property>` children of an element's `<properties>`, in document order.
    pub fn properties(node: Node) -> Vec<PropertyAt> {
        node.children()
            .filter(|c| c.has_tag_name("properties"))
            .flat_map(|p| p.children().filter(|c| c.has_tag_name("property")))
            .map(|p| PropertyAt {
                name: p.attribute("name").unwrap_or_default().to_string(),
                name_span: Self::attribute(p, "name"),
                value_span: Self::attribute(p, "value"),
            })
            .collect()
    }

    /// The `index`-th `<tileset>` of the map.
    pub fn tileset(&self, index: usize) -> Option<Node<'_, 'a>> {
        self.map()
            .children()
            .filter(|c| c.has_tag_name("tileset"))
            .nth(index)
    }

    /// A `<tile>` of a tileset written in the map (not one in an external `.tsx`).
    pub fn tile(&self, tileset: usize, id: u32) -> Option<Node<'_, 'a>> {
        let id = id.to_string();
        self.tileset(tileset)?
            .children()
            .find(|c| c.has_tag_name("tile") && c.attribute("id") == Some(id.as_str()))
    }

    /// The layer (of any kind) with this id, anywhere in the map.
    pub fn layer(&self, id: u32) -> Option<Node<'_, 'a>> {
        let id = id.to_string();
        self.map().descendants().find(|c| {
            matches!(
                c.tag_name().name(),
                "layer" | "objectgroup" | "imagelayer" | "group"
            ) && c.attribute("id") == Some(id.as_str())
        })
    }

    /// The object with this id.
    pub fn object(&self, id: u32) -> Option<Node<'_, 'a>> {
        let id = id.to_string();
        self.map()
            .descendants()
            .find(|c| c.has_tag_name("object") && c.attribute("id") == Some(id.as_str()))
    }
}

/// The byte offset of a 1-based line and character column in `text` (roxmltree's
/// error positions), clamped to the text.
pub fn offset_of(text: &str, row: u32, col: u32) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == row as usize {
            let chars = line.char_indices().nth(col.saturating_sub(1) as usize);
            return offset + chars.map_or(line.len(), |(at, _)| at);
        }
        offset += line.len();
    }
    text.len()
}

/// How many cells a `<layer>`'s `<data>` holds, as Tiled writes them (CSV, base64 raw,
/// zlib or gzip, or one `<tile>` per cell), and how many its size asks for; `None` when
/// the data cannot be counted. The `tiled` reader indexes the cells by the layer's size
/// without checking, so a short layer is refused before it is read.
pub fn data_cells(layer: Node, map: Node) -> Option<(usize, usize)> {
    let size = |name: &str| {
        layer
            .attribute(name)
            .or_else(|| map.attribute(name))
            .and_then(|v| v.parse::<usize>().ok())
    };
    let wanted = size("width")?.checked_mul(size("height")?)?;
    let data = layer.children().find(|c| c.has_tag_name("data"))?;
    let text: String = data
        .children()
        .filter_map(|c| c.text())
        .collect::<String>()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let found = match (data.attribute("encoding"), data.attribute("compression")) {
        (Some("csv"), None) => text.split(',').filter(|t| !t.is_empty()).count(),
        (Some("base64"), compression) => {
            let bytes = base64_decode(&text)?;
            let raw = match compression {
                None => bytes,
                Some(kind) => inflate(kind, &bytes, wanted.saturating_mul(4))?,
            };
            raw.len() / 4
        }
        (None, None) => data.children().filter(|c| c.has_tag_name("tile")).count(),
        _ => return None,
    };
    Some((found, wanted))
}

/// Decompresses at most `limit + 1` bytes (enough to tell a layer too long).
fn inflate(kind: &str, bytes: &[u8], limit: usize) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    let cap = limit as u64 + 1;
    let read = match kind {
        "zlib" => flate2::read::ZlibDecoder::new(bytes)
            .take(cap)
            .read_to_end(&mut out),
        "gzip" => flate2::read::GzDecoder::new(bytes)
            .take(cap)
            .read_to_end(&mut out),
        _ => return None,
    };
    read.ok().map(|_| out)
}

/// Standard base64 with padding, as Tiled writes it.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let body = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in body {
        acc = (acc << 6) | u32::from(value(c)?);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}
