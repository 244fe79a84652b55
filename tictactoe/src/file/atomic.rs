//! [`AtomicFile`]: write to a temporary file, then fsync and rename over the target.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Distinguishes temporary files of one process.
static SERIAL: AtomicU32 = AtomicU32::new(0);

/// A file that appears at its path complete or not at all.
///
/// Writes go to `.NAME.PID-N.tmp` in the target's directory (so the rename stays on one file
/// system); [`commit`](Self::commit) flushes, fsyncs, renames it over the target and fsyncs
/// the directory. Dropped without a commit (an error, a panic), the temporary file is removed;
/// a killed process leaves only that temporary file, never a file at the target path.
///
/// ```
/// use std::io::Write;
/// use tictactoe::file::AtomicFile;
/// let dir = std::env::temp_dir().join(format!("ttt-atomic-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let target = dir.join("out.bin");
/// let mut file = AtomicFile::create(&target)?;
/// file.write_all(b"data")?;
/// assert!(!target.exists());
/// file.commit()?;
/// assert_eq!(std::fs::read(&target)?, b"data");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct AtomicFile {
    file: Option<BufWriter<File>>,
    temp: PathBuf,
    target: PathBuf,
}

impl AtomicFile {
    /// Creates the temporary file beside `target`.
    ///
    /// # Errors
    /// Any I/O error creating the temporary file.
    pub fn create(target: impl AsRef<Path>) -> io::Result<AtomicFile> {
        let target = target.as_ref().to_path_buf();
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
        let temp_name = format!(
            ".{}.{}-{serial}.tmp",
            name.to_string_lossy(),
            std::process::id()
        );
        let temp = target.with_file_name(temp_name);
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        Ok(AtomicFile {
            file: Some(BufWriter::with_capacity(1 << 17, file)),
            temp,
            target,
        })
    }

    /// The temporary path being written.
    #[must_use]
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    fn writer(&mut self) -> io::Result<&mut BufWriter<File>> {
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("atomic file already committed"))
    }

    /// Flushes, fsyncs, and renames the file into place.
    ///
    /// # Errors
    /// Any I/O error flushing, syncing or renaming; the temporary file is removed then.
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.writer()?;
        file.flush()?;
        file.get_ref().sync_all()?;
        self.file = None;
        fs::rename(&self.temp, &self.target)?;
        sync_directory(&self.target);
        Ok(())
    }
}

/// Makes the rename durable where the platform allows opening a directory.
fn sync_directory(target: &Path) {
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    // Best effort: not every platform lets a directory be opened and synced.
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer()?.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer()?.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.writer()?.flush()
    }
}

impl Seek for AtomicFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.writer()?.seek(pos)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}
