//! The compressed values of one sub-table: blocks of canonical Huffman codes whose symbols
//! stand for runs of values (a symbol is a value, or a pair of symbols). The header part
//! (code lengths, symbol tree) is parsed once and kept; the index entries and the block a
//! value lies in are read from the file on each lookup.

use super::TableError;
use super::reader::{Cursor, TableFile};

/// A symbol's two halves, or `LEAF` in the second for a symbol that is a value.
const LEAF: u16 = 0xFFF;

/// The decoder of one sub-table and where its three parts lie in the file.
#[derive(Debug)]
pub(super) struct Decoder {
    /// The first byte of the header: for DTZ tables its flags.
    pub(super) flags: u8,
    /// Set when every entry has the same value (no blocks at all).
    constant: Option<u16>,
    block_bits: u32,
    index_bits: u32,
    /// Blocks holding data, and those counted in the size table (a few more).
    data_blocks: u64,
    size_blocks: u64,
    min_len: u32,
    /// Per code length from `min_len`: the smallest code of that length, left-aligned in
    /// 64 bits, and the number of its first symbol.
    base: Vec<u64>,
    first_symbol: Vec<u16>,
    /// Per symbol: its two halves (12 bits each) and how many values it stands for, less one.
    halves: Vec<(u16, u16)>,
    runs: Vec<u32>,
    entries: u64,
    pub(super) index_at: u64,
    pub(super) sizes_at: u64,
    pub(super) data_at: u64,
}

impl Decoder {
    /// Parses the decoder header at `at` for a sub-table of `entries` entries; returns it and
    /// the offset after the header. `wdl` says whether the table is a WDL one (the constant
    /// value of a DTZ table is 0).
    pub(super) fn parse(
        file: &TableFile,
        at: u64,
        entries: u64,
        wdl: bool,
    ) -> Result<(Decoder, u64), TableError> {
        let head = file.bytes(at, 2)?;
        let flags = head[0];
        let mut d = Decoder {
            flags,
            constant: None,
            block_bits: 0,
            index_bits: 0,
            data_blocks: 0,
            size_blocks: 0,
            min_len: 0,
            base: Vec::new(),
            first_symbol: Vec::new(),
            halves: Vec::new(),
            runs: Vec::new(),
            entries,
            index_at: 0,
            sizes_at: 0,
            data_at: 0,
        };
        if flags & 0x80 != 0 {
            d.constant = Some(if wdl { u16::from(head[1]) } else { 0 });
            return Ok((d, at + 2));
        }
        let fixed = file.bytes(at, 10)?;
        let c = Cursor {
            file,
            bytes: &fixed,
        };
        d.block_bits = u32::from(c.u8_at(1)?);
        d.index_bits = u32::from(c.u8_at(2)?);
        let real_blocks = u64::from(c.u32_le(4)?);
        d.data_blocks = real_blocks;
        d.size_blocks = real_blocks + u64::from(c.u8_at(3)?);
        let max_len = u32::from(c.u8_at(8)?);
        let min_len = u32::from(c.u8_at(9)?);
        if d.block_bits > 24
            || d.index_bits == 0
            || d.index_bits > 40
            || min_len == 0
            || max_len < min_len
            || max_len > 64
        {
            return Err(file.error(format!(
                "damaged: impossible compression header at offset {at} (block 2^{}, index 2^{}, codes {min_len}..{max_len} bits)",
                d.block_bits, d.index_bits
            )));
        }
        d.min_len = min_len;
        let lengths = (max_len - min_len + 1) as usize;
        let table = file.bytes(at + 10, 2 * lengths + 2)?;
        let c = Cursor {
            file,
            bytes: &table,
        };
        d.first_symbol = (0..lengths)
            .map(|i| c.u16_le(2 * i))
            .collect::<Result<_, _>>()?;
        let symbols = c.u16_le(2 * lengths)? as usize;
        let pattern_at = at + 12 + 2 * lengths as u64;
        let patterns = file.bytes(pattern_at, 3 * symbols)?;
        d.halves = patterns
            .chunks_exact(3)
            .map(|p| {
                let left = u16::from(p[0]) | (u16::from(p[1] & 0x0F) << 8);
                let right = (u16::from(p[1]) >> 4) | (u16::from(p[2]) << 4);
                (left, right)
            })
            .collect();
        d.runs = run_lengths(&d.halves).ok_or_else(|| {
            file.error(format!(
                "damaged: the symbol tree at offset {pattern_at} is not a tree"
            ))
        })?;
        // Canonical codes: the smallest code of each length, from the longest length up.
        let mut base = vec![0u64; lengths];
        for i in (0..lengths - 1).rev() {
            let sum = base[i + 1] + u64::from(d.first_symbol[i]);
            let diff = sum.checked_sub(u64::from(d.first_symbol[i + 1]));
            base[i] =
                diff.ok_or_else(|| file.error(format!("damaged: code table at offset {at}")))? / 2;
        }
        for (i, b) in base.iter_mut().enumerate() {
            let shift = 64 - (min_len + i as u32);
            *b = b.checked_shl(shift).unwrap_or(0);
        }
        d.base = base;
        let next = pattern_at + 3 * symbols as u64 + (symbols as u64 & 1);
        Ok((d, next))
    }

    /// Bytes of the index part, the size part and the data part, in that order.
    pub(super) fn part_sizes(&self) -> (u64, u64, u64) {
        if self.constant.is_some() {
            return (0, 0, 0);
        }
        let per_index = 1u64 << self.index_bits;
        let indices = self.entries.div_ceil(per_index);
        (
            6 * indices,
            2 * self.size_blocks,
            self.data_blocks << self.block_bits,
        )
    }

    /// The value stored for entry `idx`.
    pub(super) fn value(&self, file: &TableFile, idx: u64) -> Result<u16, TableError> {
        if let Some(v) = self.constant {
            return Ok(v);
        }
        if idx >= self.entries {
            return Err(file.error(format!(
                "damaged: entry {idx} past the table's {}",
                self.entries
            )));
        }
        let damaged = |what: &str| file.error(format!("damaged: {what} (entry {idx})"));
        let main = idx >> self.index_bits;
        let entry_at = self.index_at + 6 * main;
        let mut block = i64::from(file.u32_le(entry_at)?);
        let half = 1i64 << (self.index_bits - 1);
        let mut offset = (idx & ((1u64 << self.index_bits) - 1)) as i64 - half
            + i64::from(file.u16_le(entry_at + 4)?);
        let size_of = |block: i64| -> Result<i64, TableError> {
            if block < 0 || block as u64 >= self.size_blocks {
                return Err(damaged("block out of range"));
            }
            Ok(i64::from(file.u16_le(self.sizes_at + 2 * block as u64)?))
        };
        while offset < 0 {
            block -= 1;
            offset += size_of(block)? + 1;
        }
        loop {
            let size = size_of(block)?;
            if offset <= size {
                break;
            }
            offset -= size + 1;
            block += 1;
        }
        if block as u64 >= self.data_blocks {
            return Err(damaged("block past the data"));
        }
        let block_len = 1usize << self.block_bits;
        let bytes = file.read_up_to(
            self.data_at + ((block as u64) << self.block_bits),
            block_len + 8,
        )?;
        let word = |at: usize, n: usize| -> u64 {
            (0..n).fold(0u64, |acc, k| {
                (acc << 8) | u64::from(bytes.get(at + k).copied().unwrap_or(0))
            })
        };
        let mut code = word(0, 8);
        let mut next = 8usize;
        let mut spare = 0u32;
        let mut remaining = offset as u64;
        let mut symbol;
        loop {
            let mut len_i = 0usize;
            while code < self.base[len_i] {
                len_i += 1;
                if len_i >= self.base.len() {
                    return Err(damaged("no code matches"));
                }
            }
            let len = self.min_len + len_i as u32;
            let delta = (code - self.base[len_i]).checked_shr(64 - len).unwrap_or(0);
            symbol = u64::from(self.first_symbol[len_i]) + delta;
            let run = u64::from(
                *self
                    .runs
                    .get(symbol as usize)
                    .ok_or_else(|| damaged("symbol out of range"))?,
            );
            if remaining <= run {
                break;
            }
            remaining -= run + 1;
            code = code.checked_shl(len).unwrap_or(0);
            spare += len;
            if spare >= 32 {
                spare -= 32;
                code |= word(next, 4) << spare;
                next += 4;
            }
            if next > bytes.len() + 8 {
                return Err(damaged("the block ends before the entry"));
            }
        }
        let mut symbol = symbol as usize;
        while self.runs[symbol] != 0 {
            let (left, right) = self.halves[symbol];
            let left_run = u64::from(self.runs[left as usize]);
            if remaining <= left_run {
                symbol = left as usize;
            } else {
                remaining -= left_run + 1;
                symbol = right as usize;
            }
        }
        Ok(self.halves[symbol].0)
    }

    /// Every value some entry of this sub-table can hold (the symbol tree's leaves).
    pub(super) fn possible_values(&self) -> Vec<u16> {
        match self.constant {
            Some(v) => vec![v],
            None => {
                let mut v: Vec<u16> = self
                    .halves
                    .iter()
                    .filter(|(_, right)| *right == LEAF)
                    .map(|(left, _)| *left)
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            }
        }
    }
}

/// For each symbol the number of values it stands for, less one; `None` when a symbol
/// refers to one that does not exist or to itself through others.
fn run_lengths(halves: &[(u16, u16)]) -> Option<Vec<u32>> {
    const UNSEEN: u32 = u32::MAX;
    const BUSY: u32 = u32::MAX - 1;
    let mut runs = vec![UNSEEN; halves.len()];
    let mut stack: Vec<usize> = Vec::new();
    for start in 0..halves.len() {
        if runs[start] != UNSEEN {
            continue;
        }
        stack.push(start);
        while let Some(&s) = stack.last() {
            let (left, right) = halves[s];
            if right == LEAF {
                runs[s] = 0;
                stack.pop();
                continue;
            }
            let (l, r) = (left as usize, right as usize);
            if l >= halves.len() || r >= halves.len() {
                return None;
            }
            let pending: Vec<usize> = [l, r].into_iter().filter(|&c| runs[c] == UNSEEN).collect();
            if pending.is_empty() {
                if runs[l] == BUSY || runs[r] == BUSY {
                    return None;
                }
                runs[s] = runs[l].checked_add(runs[r])?.checked_add(1)?;
                if runs[s] >= BUSY {
                    return None;
                }
                stack.pop();
            } else {
                runs[s] = BUSY;
                stack.extend(pending);
            }
        }
    }
    Some(runs)
}
