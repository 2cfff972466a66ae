//! A table file read in place: positioned reads of the few bytes a probe needs, each checked
//! against the file's length, so that a short or damaged file gives an error naming it
//! instead of a panic or a wrong read. The tables keep the small parts they parse (headers,
//! symbol tables, maps); the rest is read through a [`BlockCache`] of fixed-size blocks
//! shared by every file of a set of tables, so that the search's many probes of the same
//! few index entries and data blocks cost a lock and a copy instead of system calls.

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};

use super::TableError;

/// The cache's blocks: 4 KB, the page size, so that a miss reads one page of the file.
const BLOCK_BITS: u32 = 12;
const BLOCK_LEN: usize = 1 << BLOCK_BITS;
/// Independent parts of the cache, each behind its own lock, so that the search's threads
/// seldom wait on one another.
const SHARDS: usize = 16;

/// A block's place: the file's number among the tables and the block's number in it.
type BlockKey = (u32, u64);

/// One shard: its blocks, found by key, replaced by the clock rule (a block used since the
/// hand last passed gets a second chance), which keeps the blocks in use without the
/// bookkeeping of a strict least-recently-used list.
#[derive(Debug, Default)]
struct Shard {
    index: HashMap<BlockKey, usize>,
    blocks: Vec<Block>,
    hand: usize,
}

#[derive(Debug)]
struct Block {
    key: BlockKey,
    bytes: Box<[u8]>,
    used: bool,
}

impl Shard {
    /// The slot for a new block: a free one while the shard is below `capacity`, else the
    /// first block the hand finds unused since its last pass.
    fn victim(&mut self, capacity: usize) -> Option<usize> {
        if self.blocks.len() < capacity {
            return None;
        }
        loop {
            let i = self.hand % self.blocks.len();
            self.hand = i + 1;
            let block = &mut self.blocks[i];
            if block.used {
                block.used = false;
            } else {
                return Some(i);
            }
        }
    }

    fn insert(&mut self, key: BlockKey, bytes: Box<[u8]>, capacity: usize) -> usize {
        let block = Block {
            key,
            bytes,
            used: true,
        };
        match self.victim(capacity) {
            Some(i) => {
                self.index.remove(&self.blocks[i].key);
                self.blocks[i] = block;
                self.index.insert(key, i);
                i
            }
            None => {
                self.blocks.push(block);
                self.index.insert(key, self.blocks.len() - 1);
                self.blocks.len() - 1
            }
        }
    }
}

/// File blocks kept in memory, at most a fixed number of bytes, for every file of one set
/// of tables and every thread probing them.
#[derive(Debug)]
pub(super) struct BlockCache {
    shards: Box<[Mutex<Shard>]>,
    /// Blocks each shard may hold.
    per_shard: usize,
    /// Reads answered from memory, and blocks read from a file.
    hits: AtomicU64,
    misses: AtomicU64,
}

impl BlockCache {
    /// A cache of at most `bytes` (at least one block per shard).
    pub(super) fn new(bytes: usize) -> BlockCache {
        BlockCache {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            per_shard: (bytes / BLOCK_LEN / SHARDS).max(1),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The most bytes of file data the cache holds.
    pub(super) fn capacity(&self) -> usize {
        self.per_shard * SHARDS * BLOCK_LEN
    }

    /// Block reads answered from memory and blocks read from a file, so far.
    pub(super) fn counts(&self) -> (u64, u64) {
        (self.hits.load(Relaxed), self.misses.load(Relaxed))
    }

    fn shard(&self, key: BlockKey) -> MutexGuard<'_, Shard> {
        let mix = (key.1 ^ (u64::from(key.0) << 40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = (mix >> 60) as usize % SHARDS;
        // A thread that panicked while holding the lock left the shard whole (every change
        // is a single assignment), so its blocks are still good.
        self.shards[i]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Copies `out.len()` bytes from offset `at` of block `key` into `out`, reading the
    /// block with `load` when it is not in memory.
    fn copy(
        &self,
        key: BlockKey,
        at: usize,
        out: &mut [u8],
        load: impl FnOnce() -> Result<Box<[u8]>, TableError>,
    ) -> Result<(), TableError> {
        {
            let mut shard = self.shard(key);
            if let Some(&i) = shard.index.get(&key) {
                let block = &mut shard.blocks[i];
                block.used = true;
                copy_from(&block.bytes, at, out);
                self.hits.fetch_add(1, Relaxed);
                return Ok(());
            }
        }
        // Read without holding the lock; another thread may have read the same block
        // meanwhile, and then its copy is kept.
        let bytes = load()?;
        self.misses.fetch_add(1, Relaxed);
        copy_from(&bytes, at, out);
        let mut shard = self.shard(key);
        if !shard.index.contains_key(&key) {
            shard.insert(key, bytes, self.per_shard);
        }
        Ok(())
    }
}

/// `out` filled from `bytes[at..]`; a block shorter than asked (the file's last) leaves the
/// rest as it was, which the caller's length check rules out.
fn copy_from(bytes: &[u8], at: usize, out: &mut [u8]) {
    let end = (at + out.len()).min(bytes.len());
    let n = end.saturating_sub(at);
    out[..n].copy_from_slice(&bytes[at.min(end)..end]);
}

/// An open table file and its length, read through its set's block cache.
#[derive(Debug)]
pub(super) struct TableFile {
    file: File,
    path: PathBuf,
    len: u64,
    /// Its number among the set's files (the cache's key) and the set's cache.
    id: u32,
    cache: Arc<BlockCache>,
}

impl TableFile {
    pub(super) fn open(
        path: &Path,
        id: u32,
        cache: Arc<BlockCache>,
    ) -> Result<TableFile, TableError> {
        let file =
            File::open(path).map_err(|e| TableError::new(path, format!("cannot open: {e}")))?;
        let len = file
            .metadata()
            .map_err(|e| TableError::new(path, format!("cannot read its size: {e}")))?
            .len();
        Ok(TableFile {
            file,
            path: path.to_path_buf(),
            len,
            id,
            cache,
        })
    }

    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// An error about this file.
    pub(super) fn error(&self, what: impl Into<String>) -> TableError {
        TableError::new(&self.path, what.into())
    }

    /// Fills `buf` from `offset`; the whole range must lie in the file.
    pub(super) fn read_exact(&self, offset: u64, buf: &mut [u8]) -> Result<(), TableError> {
        let end = offset.checked_add(buf.len() as u64);
        if end.is_none_or(|end| end > self.len) {
            return Err(self.error(format!(
                "truncated: needs {} bytes at offset {offset}, the file has {}",
                buf.len(),
                self.len
            )));
        }
        let mut done = 0;
        while done < buf.len() {
            let at = offset + done as u64;
            let block = at >> BLOCK_BITS;
            let within = (at & (BLOCK_LEN as u64 - 1)) as usize;
            let n = (BLOCK_LEN - within).min(buf.len() - done);
            self.cache
                .copy((self.id, block), within, &mut buf[done..done + n], || {
                    self.read_block(block)
                })?;
            done += n;
        }
        Ok(())
    }

    /// Block `block` of the file as it is on disk (shorter at the file's end).
    fn read_block(&self, block: u64) -> Result<Box<[u8]>, TableError> {
        let start = block << BLOCK_BITS;
        let len = self.len.saturating_sub(start).min(BLOCK_LEN as u64) as usize;
        let mut bytes = vec![0; len].into_boxed_slice();
        self.file
            .read_exact_at(&mut bytes, start)
            .map_err(|e| self.error(format!("read failed at offset {start}: {e}")))?;
        Ok(bytes)
    }

    /// Up to `len` bytes from `offset`, fewer where the file ends first.
    pub(super) fn read_up_to(&self, offset: u64, len: usize) -> Result<Vec<u8>, TableError> {
        let available = self.len.saturating_sub(offset).min(len as u64) as usize;
        let mut buf = vec![0; available];
        self.read_exact(offset, &mut buf)?;
        Ok(buf)
    }

    pub(super) fn bytes(&self, offset: u64, len: usize) -> Result<Vec<u8>, TableError> {
        let mut buf = vec![0; len];
        self.read_exact(offset, &mut buf)?;
        Ok(buf)
    }

    pub(super) fn u8_at(&self, offset: u64) -> Result<u8, TableError> {
        let mut b = [0; 1];
        self.read_exact(offset, &mut b)?;
        Ok(b[0])
    }

    pub(super) fn u16_le(&self, offset: u64) -> Result<u16, TableError> {
        let mut b = [0; 2];
        self.read_exact(offset, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }

    pub(super) fn u32_le(&self, offset: u64) -> Result<u32, TableError> {
        let mut b = [0; 4];
        self.read_exact(offset, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }
}

/// Little-endian reads from a header already in memory, with the same checks.
pub(super) struct Cursor<'a> {
    pub(super) file: &'a TableFile,
    pub(super) bytes: &'a [u8],
}

impl Cursor<'_> {
    pub(super) fn u8_at(&self, at: usize) -> Result<u8, TableError> {
        self.bytes.get(at).copied().ok_or_else(|| {
            self.file
                .error(format!("truncated: the header ends before byte {at}"))
        })
    }

    pub(super) fn u16_le(&self, at: usize) -> Result<u16, TableError> {
        Ok(u16::from(self.u8_at(at)?) | (u16::from(self.u8_at(at + 1)?) << 8))
    }

    pub(super) fn u32_le(&self, at: usize) -> Result<u32, TableError> {
        Ok(u32::from(self.u16_le(at)?) | (u32::from(self.u16_le(at + 2)?) << 16))
    }

    pub(super) fn slice(&self, at: usize, len: usize) -> Result<&[u8], TableError> {
        self.bytes.get(at..at.saturating_add(len)).ok_or_else(|| {
            self.file.error(format!(
                "truncated: the header ends before byte {}",
                at + len
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("ox88-block-cache-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).expect("temp file written");
        path
    }

    #[test]
    fn reads_across_blocks_and_at_the_end_give_the_files_bytes() {
        let data: Vec<u8> = (0..3 * BLOCK_LEN + 100)
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        let path = temp_file("bytes", &data);
        let cache = Arc::new(BlockCache::new(1 << 20));
        let file = TableFile::open(&path, 0, Arc::clone(&cache)).expect("opens");
        for (at, len) in [
            (0, 10),
            (BLOCK_LEN - 3, 9),
            (100, 2 * BLOCK_LEN),
            (data.len() - 5, 5),
        ] {
            for _ in 0..2 {
                let got = file.bytes(at as u64, len).expect("in range");
                assert_eq!(got, &data[at..at + len], "{at}+{len}");
            }
        }
        assert!(
            file.bytes(data.len() as u64 - 4, 5).is_err(),
            "past the end"
        );
        let (hits, misses) = cache.counts();
        assert!(hits > 0, "the second reads came from memory");
        assert_eq!(misses, 4, "each block was read from the file once");
        std::fs::remove_file(path).ok();
    }

    #[test]
    fn the_cache_holds_no_more_than_its_capacity_and_still_reads_right() {
        let data: Vec<u8> = (0..200 * BLOCK_LEN).map(|i| (i % 253) as u8).collect();
        let path = temp_file("bounded", &data);
        let cache = Arc::new(BlockCache::new(SHARDS * BLOCK_LEN * 2));
        let file = TableFile::open(&path, 3, Arc::clone(&cache)).expect("opens");
        for round in 0..3 {
            for b in 0..200 {
                let at = b * BLOCK_LEN + (b + round) % 100;
                assert_eq!(file.u8_at(at as u64).unwrap(), data[at]);
            }
        }
        let held: usize = cache
            .shards
            .iter()
            .map(|s| s.lock().unwrap().blocks.len())
            .sum();
        assert!(held <= 2 * SHARDS, "{held} blocks held");
        assert_eq!(cache.capacity(), 2 * SHARDS * BLOCK_LEN);
        std::fs::remove_file(path).ok();
    }
}
