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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use proptest::prelude::*;

    use super::super::reader::BlockCache;
    use super::*;

    /// `bytes` as a table file in the temporary directory, deleted when dropped.
    struct Temp {
        path: PathBuf,
        file: TableFile,
    }

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.path);
        }
    }

    fn table_file(bytes: &[u8]) -> Temp {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("ox88-huffman-{}-{n}.rtbw", std::process::id()));
        std::fs::write(&path, bytes).expect("temp file written");
        let file = TableFile::open(&path, 0, Arc::new(BlockCache::new(1 << 16))).expect("opens");
        Temp { path, file }
    }

    /// A symbol's three bytes: two 12-bit halves, the first in the low bits.
    fn halves_bytes(left: u16, right: u16) -> [u8; 3] {
        [
            left as u8,
            ((left >> 8) as u8 & 0x0F) | ((right as u8 & 0x0F) << 4),
            (right >> 4) as u8,
        ]
    }

    fn leaf(value: u16) -> [u8; 3] {
        halves_bytes(value, LEAF)
    }

    /// The decoder of a sub-table whose header starts the file, its three parts placed at
    /// the given offsets.
    fn decoder(file: &TableFile, entries: u64, parts_at: (u64, u64, u64)) -> (Decoder, u64) {
        let (mut d, next) = Decoder::parse(file, 0, entries, true).expect("the header parses");
        (d.index_at, d.sizes_at, d.data_at) = parts_at;
        (d, next)
    }

    fn all_values(d: &Decoder, file: &TableFile, entries: u64) -> Vec<u16> {
        (0..entries)
            .map(|i| d.value(file, i).expect("an entry in range"))
            .collect()
    }

    #[test]
    fn a_hand_built_code_of_one_block_decodes_runs_and_pairs() {
        // Codes 1 to 3 bits, the longest numbered first: symbols 0 and 1 are 000 and 001
        // (the values 5 and 7), symbol 2 is 01 (the pair 0, 1: 5 7), symbol 3 is 1 (the
        // pair 2, 2: 5 7 5 7).
        let mut bytes = vec![
            0x00, // flags
            2,    // blocks of 2^2 bytes
            2,    // an index entry per 2^2 entries
            0,    // no extra size entries
            1, 0, 0, 0, // one block
            3, // longest code
            1, // shortest code
            3, 0, // first symbol of the 1-bit codes
            2, 0, // of the 2-bit codes
            0, 0, // of the 3-bit codes
            4, 0, // four symbols
        ];
        for s in [leaf(5), leaf(7), halves_bytes(0, 1), halves_bytes(2, 2)] {
            bytes.extend(s);
        }
        assert_eq!(bytes.len(), 30, "an even symbol count needs no padding");
        // Index at 30: the middle entry of each group of four (2, 6, 10) lies in block 0.
        for middle in [2u8, 6, 10] {
            bytes.extend([0, 0, 0, 0, middle, 0]);
        }
        // Sizes at 48: twelve values, less one.
        bytes.extend([11, 0]);
        // Data at 50: 1 001 000 01 1, that is 5 7 5 7 | 7 | 5 | 5 7 | 5 7 5 7.
        bytes.extend([0b1001_0000, 0b1100_0000, 0, 0]);
        let t = table_file(&bytes);
        let (d, next) = decoder(&t.file, 12, (30, 48, 50));
        assert_eq!(next, 30);
        assert_eq!(d.part_sizes(), (18, 2, 4));
        assert_eq!(
            all_values(&d, &t.file, 12),
            [5, 7, 5, 7, 7, 5, 5, 7, 5, 7, 5, 7]
        );
        assert!(d.value(&t.file, 12).is_err(), "past the last entry");
        assert_eq!(d.possible_values(), [5, 7]);
    }

    #[test]
    fn an_entry_before_its_index_entrys_block_is_found_by_walking_back() {
        // Three symbols (an odd count, so a byte of padding follows them): 00 and 01 for the
        // 12-bit values 0x123 and 0xABC, 1 for the pair of them.
        let mut bytes = vec![0x00, 2, 2, 0, 2, 0, 0, 0, 2, 1, 2, 0, 0, 0, 3, 0];
        bytes.extend(leaf(0x123));
        bytes.extend(leaf(0xABC));
        bytes.extend(halves_bytes(0, 1));
        bytes.push(0);
        assert_eq!(bytes.len(), 26);
        // Block 0 holds 01 1 00 00 (5 values), block 1 holds 1 01 (3): 8 entries, the
        // index's middle entries 2 (block 0) and 6 (block 1's second value). Entry 4, found
        // through the second index entry, lies one block back.
        bytes.extend([0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 1, 0]);
        bytes.extend([4, 0, 2, 0]);
        bytes.extend([0b0110_0000, 0, 0, 0, 0b1010_0000, 0, 0, 0]);
        let t = table_file(&bytes);
        let (d, next) = decoder(&t.file, 8, (26, 38, 42));
        assert_eq!(next, 26);
        assert_eq!(d.part_sizes(), (12, 4, 8));
        let (a, b) = (0x123, 0xABC);
        assert_eq!(all_values(&d, &t.file, 8), [b, a, b, a, a, a, b, b]);
        assert_eq!(d.possible_values(), [a, b]);
    }

    #[test]
    fn a_constant_sub_table_has_no_parts_and_one_value() {
        let t = table_file(&[0x80, 3]);
        let (wdl, next) = Decoder::parse(&t.file, 0, 1000, true).unwrap();
        assert_eq!(next, 2);
        assert_eq!(wdl.part_sizes(), (0, 0, 0));
        assert_eq!(wdl.value(&t.file, 999), Ok(3));
        assert_eq!(wdl.possible_values(), [3]);
        // A DTZ table's constant is 0, whatever the byte says.
        let (dtz, _) = Decoder::parse(&t.file, 0, 1000, false).unwrap();
        assert_eq!(dtz.value(&t.file, 5), Ok(0));
    }

    #[test]
    fn a_damaged_header_or_symbol_tree_is_an_error() {
        let header = |min_len: u8, symbols: [[u8; 3]; 2]| {
            let mut b = vec![0x00, 2, 2, 0, 1, 0, 0, 0, 1, min_len, 0, 0, 2, 0];
            b.extend(symbols.concat());
            b
        };
        let parse = |bytes: &[u8]| {
            let t = table_file(bytes);
            Decoder::parse(&t.file, 0, 8, true).map(|_| ())
        };
        assert_eq!(parse(&header(1, [leaf(1), leaf(2)])), Ok(()));
        let zero_bits = parse(&header(0, [leaf(1), leaf(2)])).unwrap_err();
        assert!(
            zero_bits.what.contains("impossible compression header"),
            "{zero_bits}"
        );
        let cycle = parse(&header(1, [halves_bytes(1, 1), halves_bytes(0, 0)])).unwrap_err();
        assert!(cycle.what.contains("not a tree"), "{cycle}");
        let truncated = parse(&header(1, [leaf(1), leaf(2)])[..16]).unwrap_err();
        assert!(truncated.what.contains("truncated"), "{truncated}");
    }

    #[test]
    fn run_lengths_count_a_symbols_values_and_refuse_what_is_not_a_tree() {
        let tree = [(9, LEAF), (4, LEAF), (0, 1), (2, 2), (3, 0)];
        assert_eq!(run_lengths(&tree), Some(vec![0, 0, 1, 3, 4]));
        assert_eq!(run_lengths(&[(0, 0)]), None, "a symbol made of itself");
        assert_eq!(
            run_lengths(&[(1, LEAF), (0, 2)]),
            None,
            "a half past the symbols"
        );
        assert_eq!(
            run_lengths(&[(1, 2), (2, LEAF), (0, 1)]),
            None,
            "a longer cycle"
        );
    }

    /// A sub-table laid out as the format has it, from its symbols (halves as in the file),
    /// their code lengths (longest first, a complete code), the symbols of each block and,
    /// per index entry, how many blocks before its middle entry's block it points to.
    #[derive(Debug)]
    struct Layout {
        halves: Vec<(u16, u16)>,
        lengths: Vec<u32>,
        blocks: Vec<Vec<usize>>,
        block_bits: u32,
        index_bits: u32,
        extra_sizes: u8,
        back: Vec<usize>,
    }

    /// The values a symbol stands for, in order.
    fn expand(halves: &[(u16, u16)], s: usize) -> Vec<u16> {
        match halves[s] {
            (value, LEAF) => vec![value],
            (l, r) => [expand(halves, l.into()), expand(halves, r.into())].concat(),
        }
    }

    /// The file's bytes (header at 0), where the index, sizes and data parts start, and
    /// the value of every entry.
    fn lay_out(t: &Layout) -> (Vec<u8>, (u64, u64, u64), Vec<u16>) {
        let n = t.halves.len();
        let (max, min) = (t.lengths[0], t.lengths[n - 1]);
        // Canonical codes: counting up from all zeros through the longest codes, and halved
        // (dropping a bit) on each step to a shorter length.
        let mut codes = Vec::with_capacity(n);
        let mut code = 0u64;
        let mut prev = max;
        for &len in &t.lengths {
            code >>= prev - len;
            codes.push(code);
            code += 1;
            prev = len;
        }
        let mut bytes = vec![0x00, t.block_bits as u8, t.index_bits as u8, t.extra_sizes];
        bytes.extend((t.blocks.len() as u32).to_le_bytes());
        bytes.extend([max as u8, min as u8]);
        for len in min..=max {
            let longer = t.lengths.iter().filter(|&&l| l > len).count() as u16;
            bytes.extend(longer.to_le_bytes());
        }
        bytes.extend((n as u16).to_le_bytes());
        for &(l, r) in &t.halves {
            bytes.extend(halves_bytes(l, r));
        }
        bytes.resize(bytes.len() + n % 2, 0);
        let index_at = bytes.len() as u64;

        let mut values = Vec::new();
        let mut starts = Vec::new();
        let mut sizes = Vec::new();
        let mut data = Vec::new();
        let block_len = 1usize << t.block_bits;
        for block in &t.blocks {
            starts.push(values.len());
            let before = values.len();
            let mut bits = Vec::new();
            for &s in block {
                values.extend(expand(&t.halves, s));
                let len = t.lengths[s];
                bits.extend((0..len).rev().map(|k| (codes[s] >> k) & 1 == 1));
            }
            assert!(bits.len() <= 8 * block_len, "the block holds its codes");
            sizes.push((values.len() - before - 1) as u16);
            let mut block_bytes = vec![0u8; block_len];
            for (i, bit) in bits.iter().enumerate() {
                block_bytes[i / 8] |= u8::from(*bit) << (7 - i % 8);
            }
            data.extend(block_bytes);
        }
        let per = 1usize << t.index_bits;
        for (m, back) in (0..values.len().div_ceil(per)).zip(t.back.iter().cycle()) {
            let middle = m * per + per / 2;
            let holding = starts.iter().rposition(|&s| s <= middle).unwrap();
            let block = holding.saturating_sub(*back);
            let offset = u16::try_from(middle - starts[block]).unwrap();
            bytes.extend((block as u32).to_le_bytes());
            bytes.extend(offset.to_le_bytes());
        }
        let sizes_at = bytes.len() as u64;
        for size in sizes.iter().chain(&vec![0; t.extra_sizes.into()]) {
            bytes.extend(size.to_le_bytes());
        }
        bytes.resize(bytes.len().div_ceil(64) * 64, 0);
        let data_at = bytes.len() as u64;
        bytes.extend(data);
        (bytes, (index_at, sizes_at, data_at), values)
    }

    /// Random layouts: 2 to 24 symbols, some values and the rest pairs of others standing
    /// for at most 32 values; a complete code of at most 16 bits; blocks of 4 to 32 bytes
    /// filled with random symbols; index entries of 2 to 64 entries that may point a few
    /// blocks early.
    fn layouts() -> impl Strategy<Value = Layout> {
        (2usize..=24)
            .prop_flat_map(|n| {
                (
                    prop::collection::vec((any::<bool>(), 0u16..0xFFF, any::<usize>()), n),
                    prop::collection::vec(any::<usize>(), n - 2),
                    prop::collection::vec(any::<usize>(), 1..300),
                    2u32..=5,
                    1u32..=6,
                    0u8..=2,
                    prop::collection::vec(0usize..3, 1..8),
                    Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
                )
            })
            .prop_map(
                |(kinds, splits, stream, block_bits, index_bits, extra_sizes, back, order)| {
                    let n = kinds.len();
                    // Made in creation order (a pair of two earlier symbols), numbered by
                    // `order`.
                    let mut made: Vec<(u16, u16)> = Vec::new();
                    let mut runs: Vec<usize> = Vec::new();
                    for (i, &(pair, value, pick)) in kinds.iter().enumerate() {
                        let (l, r) = (pick % i.max(1), (pick / 7) % i.max(1));
                        if i > 0 && pair && runs[l] + runs[r] <= 32 {
                            made.push((order[l] as u16, order[r] as u16));
                            runs.push(runs[l] + runs[r]);
                        } else {
                            made.push((value, LEAF));
                            runs.push(1);
                        }
                    }
                    let mut halves = vec![(0, 0); n];
                    for (i, h) in made.into_iter().enumerate() {
                        halves[order[i]] = h;
                    }
                    // A complete code: split leaves of a two-leaf tree, then longest first.
                    let mut lengths = vec![1u32, 1];
                    for pick in splits {
                        let mut at = pick % lengths.len();
                        if lengths[at] >= 16 {
                            at = lengths.iter().position(|&l| l < 16).unwrap();
                        }
                        lengths[at] += 1;
                        lengths.push(lengths[at]);
                    }
                    lengths.sort_unstable_by(|a, b| b.cmp(a));
                    let capacity = 8 << block_bits;
                    let mut blocks: Vec<Vec<usize>> = vec![Vec::new()];
                    let mut used = 0;
                    for pick in stream {
                        let s = pick % n;
                        let len = lengths[s] as usize;
                        if used + len > capacity {
                            blocks.push(Vec::new());
                            used = 0;
                        }
                        blocks.last_mut().unwrap().push(s);
                        used += len;
                    }
                    Layout {
                        halves,
                        lengths,
                        blocks,
                        block_bits,
                        index_bits,
                        extra_sizes,
                        back,
                    }
                },
            )
    }

    proptest! {
        #[test]
        fn every_entry_of_a_random_layout_decodes_to_its_value(layout in layouts()) {
            let (bytes, parts_at, values) = lay_out(&layout);
            let entries = values.len() as u64;
            let t = table_file(&bytes);
            let (d, next) = decoder(&t.file, entries, parts_at);
            prop_assert_eq!(next, parts_at.0);
            let indices = entries.div_ceil(1 << layout.index_bits);
            prop_assert_eq!(
                d.part_sizes(),
                (
                    6 * indices,
                    2 * (layout.blocks.len() as u64 + u64::from(layout.extra_sizes)),
                    (layout.blocks.len() as u64) << layout.block_bits,
                )
            );
            prop_assert_eq!(all_values(&d, &t.file, entries), values);
            prop_assert!(d.value(&t.file, entries).is_err());
            let mut leaves: Vec<u16> = layout
                .halves
                .iter()
                .filter(|h| h.1 == LEAF)
                .map(|h| h.0)
                .collect();
            leaves.sort_unstable();
            leaves.dedup();
            prop_assert_eq!(d.possible_values(), leaves);
        }
    }
}
