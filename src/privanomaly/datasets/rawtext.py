"""Raw text of a data file: plain, gzip'd (recognised by its first bytes) or a zip member; decoded with the
configured encoding, without a leading byte-order mark. Every failure is a :class:`.validation.DataError` naming
the file and what to set (an encoding, a zip member, the format of an archive that is not text).
"""

from __future__ import annotations

import gzip
import zipfile
import zlib
from pathlib import Path

from .validation import DataError


def zip_member(path: Path, member: str) -> tuple[zipfile.ZipFile, str]:
    """Open ``path`` as a zip and resolve ``member`` (exact name, else the unique member with that basename)."""
    try:
        zf = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise DataError(f"{path}: not a zip archive ({exc})") from exc
    names = zf.namelist()
    if member in names:
        return zf, member
    matches = [n for n in names if Path(n).name == Path(member).name]
    if len(matches) != 1:
        zf.close()
        raise DataError(f"{path}: member {member!r} not found in the zip (members: {', '.join(names)})")
    return zf, matches[0]


def decode_error(path: Path, exc: UnicodeDecodeError, encoding: str, where: str, data: bytes | None = None) -> DataError:
    """A DataError for text that is not in ``encoding``: the byte, its line, and the key to set.

    ``data`` are the bytes that were decoded (a zip member); by default the file's own bytes, decoded again
    here because a reader that decodes in chunks reports offsets within its chunk.
    """
    if data is None:
        data = path.read_bytes()
    try:
        data.decode(encoding)
        start = exc.start  # (not reproducible: keep the reader's position)
        line = None
    except UnicodeDecodeError as again:
        start = again.start
        line = data.count(b"\n", 0, start) + 1
    bad = data[start : start + 1].hex() if line else exc.object[exc.start : exc.start + 1].hex()
    at = f"line {line}, byte offset {start}" if line else f"offset {start}"
    return DataError(
        f"{path}: not valid {encoding} text (byte 0x{bad} at {at}); if the file is in another encoding, set "
        f"{where}read.encoding (e.g. latin-1), or convert the file to UTF-8"
    )


GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: Path) -> bool:
    """``path`` starts with the gzip magic bytes (a gzip'd text file, whatever its name)."""
    with open(path, "rb") as fh:
        return fh.read(2) == GZIP_MAGIC


def gunzip(path: Path) -> bytes:
    """The decompressed bytes of a gzip file; a truncated or corrupt one is a DataError naming it."""
    try:
        return gzip.decompress(path.read_bytes())
    except (EOFError, OSError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
        raise DataError(f"{path}: a gzip file that cannot be decompressed (truncated or corrupt: {exc})") from exc


def is_html(path: Path) -> bool:
    """``path`` starts (after blanks and a BOM) like an HTML page: what a web server sends for a login or
    error page, or a repository's viewer page saved instead of the raw file."""
    with open(path, "rb") as fh:
        head = fh.read(1024).lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<!doctype html", b"<html"))


def strip_bom(text: str) -> str:
    """``text`` without a leading byte-order mark (files saved as "UTF-8 with BOM")."""
    return text[1:] if text.startswith("\ufeff") else text


def read_text(path: Path, member: str | None, encoding: str = "utf-8", where: str = "") -> str:
    """The text of ``path`` (decompressed if it is gzip'd) or of its zip ``member``, without a leading BOM."""
    return strip_bom(_read_raw_text(path, member, encoding, where))


def _read_raw_text(path: Path, member: str | None, encoding: str, where: str) -> str:
    try:
        if member is None and is_gzip(path):
            data = gunzip(path)
            try:
                return data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise decode_error(Path(f"{path} (gunzipped)"), exc, encoding, where, data) from exc
        if member is None and not zipfile.is_zipfile(path):
            return path.read_text(encoding=encoding)
        if member is None:
            with zipfile.ZipFile(path) as zf:
                names = zf.namelist()
            if names and all(n.endswith(".npy") for n in names):  # np.savez writes <array>.npy members
                raise DataError(f"{path}: is a NumPy .npz archive (arrays {[n[:-4] for n in names][:6]}), not "
                                f"text; set {where}format: npz")
            if "xl/workbook.xml" in names:  # an .xlsx is a zip of XML parts
                raise DataError(f"{path}: is an Excel workbook (.xlsx), not text; save its sheet as CSV (UTF-8) "
                                f"and point {where}files[0].path at that file")
            raise DataError(f"{path}: is a zip archive ({names[:6]}); set {where}read.member to the file inside "
                            f"it (format zip_csv), or {where}format to the file's format")
        zf, name = zip_member(path, member)
        with zf:
            try:
                data = zf.read(name)
            except (zipfile.BadZipFile, EOFError, zlib.error) as exc:  # e.g. "Bad CRC-32": damaged bytes
                raise DataError(f"{path}: member {name!r} of the zip is damaged (truncated or corrupt: {exc}); "
                                "replace the zip with a good copy") from exc
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as exc:
            raise decode_error(Path(f"{path}[{name}]"), exc, encoding, where, data) from exc
    except UnicodeDecodeError as exc:
        raise decode_error(path, exc, encoding, where) from exc


_SEPARATORS = {";": "';'", "\t": '"\\t"', "|": "'|'", ",": "','"}  # as written in YAML


def separator_hint(text: str, where: str, what: str) -> str:
    """For ``text`` that was read as one field (a ``;``-separated file read with the default ``,``): ``'; <what> -
    are its fields separated by ';'? then set <where>read.sep: ';''`` for the first of ``;``, tab, ``|``, ``,`` in
    it, else ''."""
    found = [shown for sep, shown in _SEPARATORS.items() if sep in text]
    return f"; {what} - are its fields separated by {found[0]}? then set {where}read.sep: {found[0]}" if found else ""
