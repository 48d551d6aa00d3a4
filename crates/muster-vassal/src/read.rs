//! Reading a module back: its boards with their grids, its predefined set-ups and, in
//! each, the pieces with their map, position and muster's properties. Also the merge of
//! muster's components into a designer's `buildFile.xml` for `--into`.

use crate::grid::Grid;
use crate::pieces::{ReadPiece, read as read_piece};
use crate::{savefile, seq, zipfile};

/// A board of a module.
#[derive(Debug, Clone)]
pub struct ReadBoard {
    pub map: String,
    pub name: String,
    pub image: String,
    pub grid: Option<Grid>,
}

/// A predefined set-up and what it holds.
#[derive(Debug, Clone)]
pub struct ReadSetup {
    pub name: String,
    pub file: String,
    /// (map, board) per board-choice line.
    pub boards: Vec<(String, String)>,
    pub pieces: Vec<ReadPiece>,
}

/// A module read back.
#[derive(Debug, Clone)]
pub struct ReadModule {
    pub entries: Vec<(String, Vec<u8>)>,
    pub build_file: String,
    pub boards: Vec<ReadBoard>,
    pub setups: Vec<ReadSetup>,
}

impl ReadModule {
    pub fn entry(&self, name: &str) -> Option<&[u8]> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }

    /// The board `name` of map `map`.
    pub fn board(&self, map: &str, name: &str) -> Option<&ReadBoard> {
        self.boards.iter().find(|b| b.map == map && b.name == name)
    }
}

const GRID: &str = "VASSAL.build.module.map.boardPicker.board.HexGrid";
const NUMBERING: &str = "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering";

fn grid_of(board: roxmltree::Node<'_, '_>) -> Result<Option<Grid>, String> {
    let Some(g) = board.children().find(|c| c.has_tag_name(GRID)) else {
        return Ok(None);
    };
    let Some(numbering) = g.children().find(|c| c.has_tag_name(NUMBERING)) else {
        return Err("a HexGrid without numbering".to_string());
    };
    let attr = |node: roxmltree::Node<'_, '_>, key: &str| -> Result<String, String> {
        node.attribute(key)
            .map(str::to_string)
            .ok_or_else(|| format!("no `{key}` on {}", node.tag_name().name()))
    };
    let num = |node, key| -> Result<f64, String> {
        attr(node, key)?
            .parse::<f64>()
            .map_err(|e| format!("`{key}`: {e}"))
    };
    for (key, want) in [
        ("sideways", "false"),
        ("stagger", "false"),
        ("hDescend", "false"),
        ("vDescend", "false"),
        ("first", "H"),
        ("sep", ""),
        ("hType", "N"),
        ("vType", "N"),
        ("hLeading", "1"),
        ("vLeading", "1"),
        ("locationFormat", "$gridLocation$"),
    ] {
        let node = if key == "sideways" { g } else { numbering };
        let got = attr(node, key)?;
        if got != want {
            return Err(format!("`{key}` is `{got}`; muster reads `{want}` only"));
        }
    }
    Ok(Some(Grid {
        x0: num(g, "x0")? as i32,
        y0: num(g, "y0")? as i32,
        dx: num(g, "dx")?,
        dy: num(g, "dy")?,
        h_off: num(numbering, "hOff")? as i32,
        v_off: num(numbering, "vOff")? as i32,
    }))
}

/// Reads a module's boards, set-ups and their pieces.
pub fn module(bytes: &[u8]) -> Result<ReadModule, String> {
    let entries = zipfile::read(bytes)?;
    let build_file = entries
        .iter()
        .find(|(n, _)| n == "buildFile.xml" || n == "buildFile")
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .ok_or("the module has no buildFile.xml")?;
    let doc = roxmltree::Document::parse(&build_file).map_err(|e| e.to_string())?;
    let mut boards = Vec::new();
    let mut setups = Vec::new();
    for node in doc.descendants() {
        let tag = node.tag_name().name();
        if tag == "VASSAL.build.module.map.boardPicker.Board" {
            let map = node
                .ancestors()
                .find(|a| a.has_tag_name("VASSAL.build.module.Map"))
                .and_then(|m| m.attribute("mapName"))
                .unwrap_or_default();
            boards.push(ReadBoard {
                map: map.to_string(),
                name: node.attribute("name").unwrap_or_default().to_string(),
                image: node.attribute("image").unwrap_or_default().to_string(),
                grid: grid_of(node)?,
            });
        }
        if tag == "VASSAL.build.module.PredefinedSetup"
            && node.attribute("useFile") == Some("true")
            && let Some(file) = node.attribute("file")
        {
            let vsav = entries
                .iter()
                .find(|(n, _)| n == file)
                .map(|(_, b)| b.as_slice())
                .ok_or_else(|| format!("set-up `{file}` is not in the module"))?;
            let mut setup = saved_game(vsav)?;
            setup.name = node.attribute("name").unwrap_or_default().to_string();
            setup.file = file.to_string();
            setups.push(setup);
        }
    }
    Ok(ReadModule {
        entries,
        build_file,
        boards,
        setups,
    })
}

/// Reads a saved game's board choices and pieces.
pub fn saved_game(vsav: &[u8]) -> Result<ReadSetup, String> {
    let entries = zipfile::read(vsav)?;
    let saved = entries
        .iter()
        .find(|(n, _)| n == "savedGame")
        .ok_or("no savedGame in the set-up")?;
    let text = savefile::deobfuscate(&saved.1)?;
    let commands = seq::decode(&text, savefile::SEPARATOR);
    if commands.first().map(String::as_str) != Some("begin_save")
        || commands.last().map(String::as_str) != Some("end_save")
    {
        return Err("the saved game does not run from begin_save to end_save".to_string());
    }
    let mut setup = ReadSetup {
        name: String::new(),
        file: String::new(),
        boards: Vec::new(),
        pieces: Vec::new(),
    };
    for command in &commands[1..commands.len() - 1] {
        if let Some(rest) = command.strip_prefix("+/") {
            let parts = seq::decode(rest, '/');
            let [_, ty, state] = parts.as_slice() else {
                return Err(format!("a piece with {} parts", parts.len()));
            };
            setup.pieces.push(read_piece(ty, state)?);
        } else {
            let parts = seq::decode(command, '\t');
            if let Some(map) = parts.first().and_then(|p| p.strip_suffix("BoardPicker"))
                && let Some(board) = parts.get(1)
            {
                setup.boards.push((map.to_string(), board.clone()));
            }
        }
    }
    Ok(setup)
}

/// `old` (a module's `buildFile.xml`) with muster's `components` (element, name, xml)
/// put in: a top-level component of the same element and name is replaced where it
/// stands; the others are added at the end. Prototypes go into the module's prototypes
/// container, replacing definitions of the same name.
pub fn merge_build_file(
    old_module: &[u8],
    components: &[(String, String, String)],
) -> Result<String, String> {
    let old = module(old_module)?.build_file;
    let doc = roxmltree::Document::parse(&old).map_err(|e| e.to_string())?;
    let root = doc.root_element();
    let name_of = |n: roxmltree::Node<'_, '_>| {
        n.attribute("name")
            .or_else(|| n.attribute("mapName"))
            .unwrap_or_default()
            .to_string()
    };
    // Edits as (range, replacement), applied back to front.
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut appended = String::new();
    for (element, name, xml) in components {
        if element == "VASSAL.build.module.PrototypesContainer" {
            let Some(container) = root.children().find(|c| c.has_tag_name(element.as_str())) else {
                appended.push_str(xml);
                continue;
            };
            let ours = roxmltree::Document::parse(xml).map_err(|e| e.to_string())?;
            let mut added = String::new();
            for def in ours.root_element().children().filter(|c| c.is_element()) {
                let text = &xml[def.range()];
                match container
                    .children()
                    .find(|c| c.is_element() && name_of(*c) == name_of(def))
                {
                    Some(old_def) => edits.push((old_def.range(), text.to_string())),
                    None => {
                        added.push_str(text);
                        added.push('\n');
                    }
                }
            }
            let end = container.range().end;
            let close = old[..end].rfind("</").unwrap_or(end);
            if old[container.range()].ends_with("/>") {
                edits.push((
                    container.range(),
                    format!("<{element}>\n{added}</{element}>"),
                ));
            } else {
                edits.push((close..close, added));
            }
            continue;
        }
        match root
            .children()
            .find(|c| c.has_tag_name(element.as_str()) && name_of(*c) == *name)
        {
            Some(node) => edits.push((node.range(), xml.trim_end().to_string())),
            None => appended.push_str(xml),
        }
    }
    let close = old.rfind("</").ok_or("the buildFile has no closing tag")?;
    edits.push((close..close, appended));
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = old.clone();
    for (range, text) in edits {
        out.replace_range(range, &text);
    }
    Ok(out)
}
