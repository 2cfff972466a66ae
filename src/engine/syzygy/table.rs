//! One table file parsed: which men it holds and in what order, its sub-tables (one per
//! side to move that it stores, and for pawnful tables one per file of the leading pawn),
//! and the lookup of a position's stored value.

use std::path::Path;
use std::sync::Arc;

use super::TableError;
use super::encode::{Layout, Leaders, MAX_MEN, pawn_file};
use super::huffman::Decoder;
use super::reader::{BlockCache, Cursor, TableFile};

/// The first four bytes of a WDL and of a DTZ file.
const WDL_MAGIC: [u8; 4] = [0x71, 0xE8, 0x23, 0x5D];
const DTZ_MAGIC: [u8; 4] = [0xD7, 0x66, 0x0C, 0xA5];

/// Header flags of a DTZ sub-table: the side it stores (bit 0), values through a map
/// (bit 1), wins and losses in plies rather than moves (bits 2, 3), 16-bit maps (bit 4).
const DTZ_BLACK_STORED: u8 = 1;
const DTZ_MAPPED: u8 = 2;
const DTZ_WIN_IN_PLIES: u8 = 4;
const DTZ_LOSS_IN_PLIES: u8 = 8;
const DTZ_WIDE_MAP: u8 = 16;

/// A stored DTZ in plies: the files keep wins and losses in moves unless their flags say
/// plies, and cursed wins and blessed losses always in moves.
fn scale_dtz(stored: u32, flags: u8, wdl: i8) -> u32 {
    let in_plies = match wdl {
        2 => flags & DTZ_WIN_IN_PLIES != 0,
        -2 => flags & DTZ_LOSS_IN_PLIES != 0,
        _ => false,
    };
    if in_plies { stored } else { 2 * stored }
}

/// The men of a position as the tables name them: (code, square 0..64), the code being the
/// piece (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king) plus 8 for Black.
pub(super) type Men = [(u8, u8)];

/// What a table file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Wdl,
    Dtz,
}

/// One sub-table: where the men go and how the values are compressed; DTZ sub-tables may
/// translate values through four maps (by the position's WDL class).
#[derive(Debug)]
struct Part {
    layout: Layout,
    decoder: Decoder,
    maps: Option<[Vec<u16>; 4]>,
}

/// A table file ready to probe.
#[derive(Debug)]
pub(super) struct Table {
    file: TableFile,
    kind: Kind,
    pawns: bool,
    symmetric: bool,
    /// The men the file calls White, as a name part ("KQ"): a position whose White has
    /// other men is looked up with the colours swapped.
    white_part: String,
    /// For pawnful tables, the sub-tables by file (a–d), each by side to move (DTZ and
    /// symmetric WDL tables store one side); for pawnless ones a single "file".
    parts: Vec<Vec<Part>>,
}

/// The letters of a name part, strongest first, as piece codes (no colour).
fn piece_code(letter: char) -> Option<u8> {
    Some(match letter {
        'P' => 1,
        'N' => 2,
        'B' => 3,
        'R' => 4,
        'Q' => 5,
        'K' => 6,
        _ => return None,
    })
}

/// The name part ("KRP") of the men with these codes of one colour.
pub(super) fn name_part(codes: impl Iterator<Item = u8>) -> String {
    let mut codes: Vec<u8> = codes.collect();
    codes.sort_unstable_by(|a, b| b.cmp(a));
    codes
        .into_iter()
        .map(|c| match c & 7 {
            1 => 'P',
            2 => 'N',
            3 => 'B',
            4 => 'R',
            5 => 'Q',
            _ => 'K',
        })
        .collect()
}

impl Table {
    /// Opens and parses the table `name` ("KQvKR") at `path`, file number `id` of a set
    /// whose reads go through `cache`.
    pub(super) fn open(
        path: &Path,
        name: &str,
        kind: Kind,
        id: u32,
        cache: Arc<BlockCache>,
    ) -> Result<Table, TableError> {
        let file = TableFile::open(path, id, cache)?;
        let (white, black) = name
            .split_once('v')
            .ok_or_else(|| file.error("not a table name"))?;
        let men = white.len() + black.len();
        if men > MAX_MEN
            || [white, black]
                .iter()
                .any(|p| !p.starts_with('K') || p.chars().any(|c| piece_code(c).is_none()))
        {
            return Err(file.error("not a table name"));
        }
        if file.len() % 64 != 16 {
            return Err(file.error(format!(
                "truncated or not a Syzygy table: {} bytes (a table file has 64n + 16)",
                file.len()
            )));
        }
        let head = file.bytes(0, 5)?;
        let magic = if kind == Kind::Wdl {
            WDL_MAGIC
        } else {
            DTZ_MAGIC
        };
        if head[..4] != magic {
            return Err(file.error(format!(
                "not a Syzygy {} table (wrong magic bytes)",
                if kind == Kind::Wdl { "WDL" } else { "DTZ" }
            )));
        }
        let pawns_w = white.matches('P').count();
        let pawns_b = black.matches('P').count();
        let pawns = pawns_w + pawns_b > 0;
        let leaders = if pawns {
            let (lead, other) = match (pawns_w, pawns_b) {
                (0, n) | (n, 0) => (n, 0),
                (w, b) if w < b => (w, b),
                (w, b) => (b, w),
            };
            Leaders::Pawns { lead, other }
        } else {
            let unique = "KQRBN"
                .chars()
                .map(|c| {
                    usize::from(white.matches(c).count() == 1)
                        + usize::from(black.matches(c).count() == 1)
                })
                .sum::<usize>();
            match unique {
                0..=1 => return Err(file.error("not a chess table (fewer than two unique men)")),
                2 => Leaders::Kings,
                _ => Leaders::Three,
            }
        };
        let flags = head[4];
        let split = kind == Kind::Wdl && flags & 1 != 0;
        let files = if flags & 2 != 0 { 4 } else { 1 };
        if pawns != (files == 4) {
            return Err(file.error("damaged: the header's pawn flag does not match the name"));
        }
        let sides = if split { 2 } else { 1 };
        let other = match leaders {
            Leaders::Pawns { other, .. } => other,
            _ => 0,
        };
        // The men's order and the groups' order, per file and side.
        let record = men + 1 + usize::from(other > 0);
        let header = file.bytes(5, record * files)?;
        let c = Cursor {
            file: &file,
            bytes: &header,
        };
        let mut layouts: Vec<Vec<Layout>> = Vec::new();
        for f in 0..files {
            let at = f * record;
            let order = c.u8_at(at)?;
            let order2 = if other > 0 { c.u8_at(at + 1)? } else { 0xFF };
            let codes = c.slice(at + 1 + usize::from(other > 0), men)?;
            let mut per_side = Vec::new();
            for side in 0..sides {
                let shift = 4 * side as u32;
                let pieces: Vec<u8> = codes.iter().map(|b| (b >> shift) & 0x0F).collect();
                let o2 = if other > 0 {
                    (order2 >> shift) & 0x0F
                } else {
                    0x0F
                };
                let layout = Layout::new(pieces, leaders, (order >> shift) & 0x0F, o2, f)
                    .ok_or_else(|| {
                        file.error("damaged: impossible men or group order in the header")
                    })?;
                per_side.push(layout);
            }
            layouts.push(per_side);
        }
        let white_codes: Vec<u8> = layouts[0][0]
            .pieces
            .iter()
            .copied()
            .filter(|c| c & 8 == 0)
            .collect();
        let white_part = name_part(white_codes.into_iter());
        if white_part != white && white_part != black {
            return Err(file.error("damaged: the header's men do not match the name"));
        }
        let mut at = 5 + (record * files) as u64;
        at += at & 1;
        let mut parts: Vec<Vec<Part>> = Vec::new();
        for per_side in layouts {
            let mut list = Vec::new();
            for layout in per_side {
                let (decoder, next) = Decoder::parse(&file, at, layout.size, kind == Kind::Wdl)?;
                at = next;
                list.push(Part {
                    layout,
                    decoder,
                    maps: None,
                });
            }
            parts.push(list);
        }
        if kind == Kind::Dtz {
            for list in &mut parts {
                let part = &mut list[0];
                if part.decoder.flags & DTZ_MAPPED == 0 {
                    continue;
                }
                let wide = part.decoder.flags & DTZ_WIDE_MAP != 0;
                if wide {
                    at += at & 1;
                }
                let mut maps: [Vec<u16>; 4] = Default::default();
                for map in &mut maps {
                    if wide {
                        let len = u64::from(file.u16_le(at)?);
                        let raw = file.bytes(at + 2, 2 * len as usize)?;
                        *map = raw
                            .chunks_exact(2)
                            .map(|w| u16::from_le_bytes([w[0], w[1]]))
                            .collect();
                        at += 2 + 2 * len;
                    } else {
                        let len = u64::from(file.u8_at(at)?);
                        *map = file
                            .bytes(at + 1, len as usize)?
                            .into_iter()
                            .map(u16::from)
                            .collect();
                        at += 1 + len;
                    }
                }
                part.maps = Some(maps);
            }
        }
        at += at & 1;
        for step in 0..3 {
            for part in parts.iter_mut().flatten() {
                let (index, sizes, data) = part.decoder.part_sizes();
                match step {
                    0 => {
                        part.decoder.index_at = at;
                        at += index;
                    }
                    1 => {
                        part.decoder.sizes_at = at;
                        at += sizes;
                    }
                    _ => {
                        if data > 0 {
                            at = at.div_ceil(64) * 64;
                        }
                        part.decoder.data_at = at;
                        at += data;
                    }
                }
            }
        }
        if at > file.len() {
            return Err(file.error(format!(
                "truncated: the data ends at byte {at}, the file has {}",
                file.len()
            )));
        }
        let symmetric = white == black;
        Ok(Table {
            file,
            kind,
            pawns,
            symmetric,
            white_part,
            parts,
        })
    }

    /// The sub-table for the men, and their squares in its order: turned so that the side
    /// the file calls White is White (`white_part` is the name part of the position's White
    /// men), and for pawnful tables so that the leading pawns' file picks the sub-table.
    fn locate(
        &self,
        men: &Men,
        white_part: &str,
        black_to_move: bool,
    ) -> Result<Option<(&Part, [u8; MAX_MEN])>, TableError> {
        let swap = if self.symmetric {
            black_to_move
        } else {
            white_part != self.white_part
        };
        let side = if self.symmetric {
            0
        } else {
            usize::from(black_to_move != swap)
        };
        let colour = if swap { 8 } else { 0 };
        let ranks = if swap && self.pawns { 0x38 } else { 0 };
        let n = self.parts[0][0].layout.pieces.len();
        if men.len() != n {
            return Err(self
                .file
                .error("a position with other men was looked up in this table"));
        }
        let mut squares = [0u8; MAX_MEN];
        let mut filled = 0;
        let fill =
            |codes: &[u8], from: usize, squares: &mut [u8; MAX_MEN]| -> Result<usize, TableError> {
                let mut i = from;
                while i < codes.len() {
                    let code = codes[i] ^ colour;
                    let before = i;
                    for &(_, s) in men.iter().filter(|(c, _)| *c == code) {
                        if i >= n {
                            break;
                        }
                        squares[i] = s ^ ranks;
                        i += 1;
                    }
                    if i == before {
                        return Err(self
                            .file
                            .error("the header's men do not match the position"));
                    }
                }
                Ok(i)
            };
        let file = if self.pawns {
            let lead_code = self.parts[0][0].layout.pieces[0];
            let lead = men.iter().filter(|(c, _)| *c == lead_code ^ colour).count();
            filled = fill(&[lead_code], 0, &mut squares)?;
            pawn_file(&mut squares[..lead], lead)
        } else {
            0
        };
        let list = &self.parts[file];
        let part = match list.get(side) {
            Some(p) => p,
            None if self.kind == Kind::Dtz => &list[0],
            None => {
                return Err(self
                    .file
                    .error("damaged: no sub-table for this side to move"));
            }
        };
        if self.kind == Kind::Dtz
            && !self.symmetric
            && usize::from(part.decoder.flags & DTZ_BLACK_STORED) != side
        {
            return Ok(None);
        }
        fill(&part.layout.pieces, filled, &mut squares)?;
        Ok(Some((part, squares)))
    }

    /// The WDL value (−2..=2, the side to move's view) stored for the men.
    pub(super) fn wdl(
        &self,
        men: &Men,
        white_part: &str,
        black_to_move: bool,
    ) -> Result<i8, TableError> {
        let (part, mut squares) = self
            .locate(men, white_part, black_to_move)?
            .ok_or_else(|| self.file.error("no sub-table for this side to move"))?;
        let n = part.layout.pieces.len();
        let idx = part.layout.index(&mut squares[..n]);
        let v = part.decoder.value(&self.file, idx)?;
        if v > 4 {
            return Err(self
                .file
                .error(format!("damaged: WDL value {v} out of range")));
        }
        Ok(v as i8 - 2)
    }

    /// The DTZ stored for the men (in plies, before the caller's rounding), given the
    /// position's WDL; `None` when the file stores only the other side to move.
    pub(super) fn dtz(
        &self,
        men: &Men,
        white_part: &str,
        black_to_move: bool,
        wdl: i8,
    ) -> Result<Option<u32>, TableError> {
        let Some((part, mut squares)) = self.locate(men, white_part, black_to_move)? else {
            return Ok(None);
        };
        let n = part.layout.pieces.len();
        let idx = part.layout.index(&mut squares[..n]);
        let mut v = u32::from(part.decoder.value(&self.file, idx)?);
        let flags = part.decoder.flags;
        if let Some(maps) = &part.maps {
            let map = match wdl {
                -2 => 1,
                -1 => 3,
                1 => 2,
                _ => 0,
            };
            v = u32::from(*maps[map].get(v as usize).ok_or_else(|| {
                self.file
                    .error(format!("damaged: DTZ map entry {v} out of range"))
            })?);
        }
        Ok(Some(scale_dtz(v, flags, wdl)))
    }

    /// Every value the file's WDL sub-tables can hold (−2..=2), for checks of what a set of
    /// tables contains.
    pub(super) fn possible_wdl_values(&self) -> Vec<i8> {
        let mut v: Vec<i8> = self
            .parts
            .iter()
            .flatten()
            .flat_map(|p| p.decoder.possible_values())
            .map(|v| v as i8 - 2)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_and_losses_are_doubled_unless_the_flags_say_plies_and_the_fifty_move_classes_always() {
        assert_eq!(scale_dtz(7, 0, 2), 14);
        assert_eq!(scale_dtz(7, DTZ_WIN_IN_PLIES, 2), 7);
        assert_eq!(scale_dtz(7, DTZ_WIN_IN_PLIES, -2), 14);
        assert_eq!(scale_dtz(7, DTZ_LOSS_IN_PLIES, -2), 7);
        assert_eq!(scale_dtz(7, DTZ_WIN_IN_PLIES | DTZ_LOSS_IN_PLIES, 1), 14);
        assert_eq!(scale_dtz(7, DTZ_WIN_IN_PLIES | DTZ_LOSS_IN_PLIES, -1), 14);
    }
}
