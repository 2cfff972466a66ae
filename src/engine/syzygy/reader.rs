//! A table file read in place: positioned reads of the few bytes a probe needs, each checked
//! against the file's length, so that a short or damaged file gives an error naming it
//! instead of a panic or a wrong read. Nothing of the file is kept here; the tables keep
//! the small parts they parse (headers, symbol tables, maps).

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use super::TableError;

/// An open table file and its length.
#[derive(Debug)]
pub(super) struct TableFile {
    file: File,
    path: PathBuf,
    len: u64,
}

impl TableFile {
    pub(super) fn open(path: &Path) -> Result<TableFile, TableError> {
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
        self.file
            .read_exact_at(buf, offset)
            .map_err(|e| self.error(format!("read failed at offset {offset}: {e}")))
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
