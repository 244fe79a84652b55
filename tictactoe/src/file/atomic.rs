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
    /// Refuses (with [`io::ErrorKind::InvalidInput`] and a message naming the path) a target
    /// that is a directory, ends in `/`, or is not a regular file: a device, a FIFO or a
    /// socket is never replaced by a regular file (stream to it instead). A symbolic link to
    /// a regular file is followed: the file it points to is replaced, the link stays. An
    /// existing file that this user could not write is refused too (the error of opening it
    /// for writing, usually [`io::ErrorKind::PermissionDenied`]); one that could be written is
    /// replaced by a file with its permissions.
    ///
    /// # Errors
    /// Such a refusal, or any I/O error creating the temporary file.
    pub fn create(target: impl AsRef<Path>) -> io::Result<AtomicFile> {
        let target = resolve(target.as_ref())?;
        let name = target
            .file_name()
            .ok_or_else(|| refuse(&target, "is not a file name"))?;
        let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
        let temp_name = format!(
            ".{}.{}-{serial}.tmp",
            name.to_string_lossy(),
            std::process::id()
        );
        let temp = target.with_file_name(temp_name);
        let existing = writable_existing(&target)?;
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(|e| named(&temp, "cannot create", e))?;
        // The replacement keeps the permissions of the file it replaces (a private file stays
        // private), set before anything is written to it.
        if let Some(permissions) = existing
            && let Err(error) = file.set_permissions(permissions)
        {
            drop(file);
            let _ = fs::remove_file(&temp);
            return Err(named(&temp, "cannot set the permissions of", error));
        }
        Ok(AtomicFile {
            file: Some(BufWriter::with_capacity(1 << 17, file)),
            temp,
            target,
        })
    }

    /// Writes to `file` from now on (the temporary file stays, to be removed).
    #[cfg(test)]
    pub(super) fn replace_file_for_test(&mut self, file: File) {
        self.file = Some(BufWriter::with_capacity(1 << 17, file));
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
    /// Any I/O error flushing, syncing or renaming. On any failure (the rename included) the
    /// temporary file is removed and the error names the paths.
    pub fn commit(mut self) -> io::Result<()> {
        let temp = self.temp.clone();
        let file = self.writer()?;
        file.flush().map_err(|e| named(&temp, "cannot write", e))?;
        file.get_ref()
            .sync_all()
            .map_err(|e| named(&temp, "cannot sync", e))?;
        // The handle stays until the rename succeeded, so that `drop` removes the temporary
        // file if it fails.
        fs::rename(&self.temp, &self.target).map_err(|e| {
            let what = format!("cannot rename {} to", self.temp.display());
            named(&self.target, &what, e)
        })?;
        self.file = None;
        sync_directory(&self.target);
        Ok(())
    }
}

/// The path to write: `target`, or the regular file a symbolic link points to; refuses
/// directories and anything that is not a regular file.
fn resolve(target: &Path) -> io::Result<PathBuf> {
    if target.as_os_str().as_encoded_bytes().ends_with(b"/") {
        return Err(refuse(
            target,
            "ends in / (so it is a directory), not a file name",
        ));
    }
    let link = match fs::symlink_metadata(target) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(target.into()),
        Err(error) => return Err(named(target, "cannot inspect", error)),
        Ok(meta) => meta.file_type().is_symlink(),
    };
    let meta = fs::metadata(target).map_err(|e| named(target, "cannot follow the link", e))?;
    if meta.is_dir() {
        return Err(refuse(target, "is a directory"));
    }
    if !meta.is_file() {
        return Err(refuse(
            target,
            "is not a regular file (a device, FIFO or socket): refusing to replace it",
        ));
    }
    if link {
        return fs::canonicalize(target).map_err(|e| named(target, "cannot follow the link", e));
    }
    Ok(target.into())
}

/// The permissions of `target` if it exists, after checking that this user may write it: a
/// file the user could not write is not replaced either (renaming over it needs only the
/// directory to be writable). Opening it for writing, without truncating, is the check the
/// system itself makes, whoever owns the file and whatever the user's privileges.
fn writable_existing(target: &Path) -> io::Result<Option<fs::Permissions>> {
    let meta = match fs::metadata(target) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(named(target, "cannot inspect", error)),
        Ok(meta) => meta,
    };
    OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(|e| named(target, "refusing to replace", e))?;
    Ok(Some(meta.permissions()))
}

fn refuse(path: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{} {why}", path.display()),
    )
}

/// `error`, its message prefixed with what failed and the path.
fn named(path: &Path, what: &str, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{what} {}: {error}", path.display()))
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

impl AtomicFile {
    /// Runs `f` on the file; an error names the target (and the temporary file).
    fn with<T>(&mut self, f: impl FnOnce(&mut BufWriter<File>) -> io::Result<T>) -> io::Result<T> {
        let file = self.writer()?;
        f(file).map_err(|error| {
            let message = format!(
                "cannot write {} (temporary file {}): {error}",
                self.target.display(),
                self.temp.display()
            );
            io::Error::new(error.kind(), message)
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.with(|file| file.write(buf))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.with(|file| file.write_all(buf))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.with(BufWriter::flush)
    }
}

impl Seek for AtomicFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.with(|file| file.seek(pos))
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}
