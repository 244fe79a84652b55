"""Writing a file whole or not at all: a temporary file beside the target, renamed onto it.

Its own module because both the table writers (``_io``) and the data cards (``_card``) use it.
"""

from __future__ import annotations

import os
from pathlib import Path

PathLike = str | os.PathLike[str]


class _Atomic:
    """A temporary path next to ``path``, renamed onto it (after an fsync) by ``commit``."""

    def __init__(self, path: PathLike) -> None:
        self.path = Path(path)
        self.tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}-{id(self)}.tmp")

    def commit(self) -> None:
        fd = os.open(self.tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(self.tmp, self.path)
        dfd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)

    def discard(self) -> None:
        try:
            os.unlink(self.tmp)
        except FileNotFoundError:
            pass
