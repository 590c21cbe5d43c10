"""Specs as they were at a git revision, read from git's object store (never by checking anything out)."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from specdb.errors import GitError, UsageError
from specdb.load.files import is_spec_file


@dataclass(frozen=True)
class Repository:
    top: Path
    prefix: str  # the specs folder relative to the top, with a trailing '/', or '' at the top


def _git(repository_dir: Path, *args: str) -> bytes:
    try:
        result = subprocess.run(["git", "-C", str(repository_dir), *args], capture_output=True, timeout=120, check=False)
    except FileNotFoundError:
        raise GitError("git is not installed; reading revisions needs it") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {' '.join(args)} took longer than 120 s") from None
    if result.returncode != 0:
        raise GitError(f"git {' '.join(args[:2])}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def repository(specs: Path) -> Repository:
    if not specs.is_dir():
        raise GitError(f"{specs}: specs folder not found")
    try:
        output = _git(specs, "rev-parse", "--show-toplevel", "--show-prefix").decode().splitlines()
    except GitError as error:
        raise GitError(f"{specs} is not in a git repository, so revisions cannot be read ({error})") from None
    return Repository(Path(output[0]), output[1] if len(output) > 1 else "")


def commit_of(repo: Repository, revision: str) -> str | None:
    """The commit a revision names, or None when it names none."""
    try:
        return _git(repo.top, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").decode().strip() or None
    except GitError:
        return None


def blob_ids(repo: Repository, commit: str, relpaths: list[str] | None = None) -> list[tuple[str, str]]:
    """(path relative to the specs folder, git blob id) of every YAML file of the specs folder at a commit, or of those of `relpaths` it holds."""
    wanted = [repo.prefix + relpath for relpath in relpaths] if relpaths is not None else [repo.prefix or "."]
    if not wanted:
        return []
    listing = _git(repo.top, "--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", commit, "--", *wanted)
    entries = []
    for line in listing.split(b"\0"):
        if not line:
            continue
        meta, path = line.split(b"\t", 1)
        _, kind, sha = meta.split()
        relpath = path.decode()[len(repo.prefix):]
        if kind == b"blob" and _read_as_spec(relpath):
            entries.append((relpath, sha.decode()))
    return sorted(entries)


def _read_as_spec(relpath: str) -> bool:
    """The same files a walk of the folder reads: YAML files, none under a hidden name."""
    return is_spec_file(relpath) and not any(part.startswith(".") for part in relpath.split("/"))


def specs_tree(repo: Repository, commit: str) -> str | None:
    """The git object id of the specs folder at a commit, which names its whole content; None when the commit has no such folder."""
    try:
        return _git(repo.top, "rev-parse", "--verify", "--quiet", f"{commit}:{repo.prefix}").decode().strip() or None
    except GitError:
        return None


def changed_files(repo: Repository, old: str, new: str) -> list[str]:
    """The spec files (relative to the specs folder) that differ between two commits: changed, added or deleted."""
    output = _git(repo.top, "diff-tree", "-r", "-z", "--no-renames", "--name-only", old, new, "--", repo.prefix or ".")
    relpaths = (path[len(repo.prefix):] for path in output.decode().split("\0") if path)
    return sorted(relpath for relpath in relpaths if _read_as_spec(relpath))


def mentioning(repo: Repository, commit: str, words: list[str], leaving_out: str) -> list[str]:
    """The spec files (relative to the specs folder) of a commit, outside the folder `leaving_out`, in which any of the
    words appears as a whole word, in any letter case: every file that may refer to a record by one of its ids or
    aliases, and some that only name it."""
    if not words:
        return []
    command = [
        "git", "-C", str(repo.top), "grep", "-l", "-z", "-w", "-F", "-i", "-f", "-", commit,
        "--", repo.prefix or ".", f":(exclude){repo.prefix}{leaving_out}",
    ]
    try:
        result = subprocess.run(command, input="\n".join(words).encode() + b"\n", capture_output=True, timeout=120, check=False)
    except FileNotFoundError:
        raise GitError("git is not installed; reading revisions needs it") from None
    except subprocess.TimeoutExpired:
        raise GitError("git grep took longer than 120 s") from None
    if result.returncode not in (0, 1):  # 1: no file has any of the words
        raise GitError(f"git grep: {result.stderr.decode(errors='replace').strip()}")
    start = len(commit) + 1 + len(repo.prefix)  # each path is given as <commit>:<path>
    relpaths = (path[start:] for path in result.stdout.decode().split("\0") if path)
    return sorted(relpath for relpath in relpaths if _read_as_spec(relpath))


def each_blob(repo: Repository, names: list[str], missing: bytes | None = None) -> Iterator[bytes]:
    """Many objects from one `git cat-file --batch`, in order, each read as it comes: only one is held at a time.

    An object git does not have is an error, or `missing` where one is given (a file a commit deleted)."""
    if not names:
        return
    try:
        process = subprocess.Popen(["git", "-C", str(repo.top), "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        raise GitError("git is not installed; reading revisions needs it") from None
    writer = threading.Thread(target=_write_names, args=(process.stdin, names), daemon=True)
    writer.start()
    try:
        for name in names:
            header = process.stdout.readline().split()
            if header and header[-1] == b"missing" and missing is not None:
                yield missing
                continue
            if not header or header[-1] == b"missing":
                raise GitError(f"git cat-file: object {name} is missing")
            raw = process.stdout.read(int(header[2]))
            process.stdout.read(1)
            yield raw
    finally:
        process.kill()
        process.wait()
        writer.join()


def _write_names(stream: IO[bytes], names: list[str]) -> None:
    """Hand git the object names while its output is read: neither side waits on a full pipe."""
    try:
        for name in names:
            stream.write(name.encode() + b"\n")
        stream.close()
    except OSError:  # git was stopped before it had them all
        pass


def read_blobs(repo: Repository, names: list[str]) -> list[bytes]:
    """Many objects in one `git cat-file --batch`, in order; one git does not have (a deleted file) is empty."""
    return list(each_blob(repo, names, missing=b""))


@dataclass(frozen=True)
class FileVersion:
    commit: str
    date: str
    subject: str
    content: bytes | None  # None where the commit deleted the file


def file_history(repo: Repository, relpath: str) -> list[FileVersion]:
    """Each commit that changed one spec file (following renames), oldest first, with the file as that commit left it."""
    path = repo.prefix + relpath
    log = _git(repo.top, "log", "--follow", "--format=%x01%H%x00%ad%x00%s", "--date=short", "--name-only", "--", path).decode()
    commits = []
    for chunk in log.split("\x01")[1:]:
        header, _, names = chunk.partition("\n")
        commit, date, subject = header.split("\x00")
        changed = [name for name in names.splitlines() if name.strip()]
        commits.append((commit, date, subject, changed[0] if changed else path))
    contents = read_blobs(repo, [f"{commit}:{name}" for commit, _, _, name in commits])
    versions = [FileVersion(commit, date, subject, content or None) for (commit, date, subject, _), content in zip(commits, contents)]
    return list(reversed(versions))


def shallow_boundary(repo: Repository) -> frozenset[str]:
    """The commits a shallow clone was cut at, whose parents were not fetched (git lists them in its `shallow` file); none in a whole clone."""
    if _git(repo.top, "rev-parse", "--is-shallow-repository").strip() != b"true":
        return frozenset()
    listing = repo.top / _git(repo.top, "rev-parse", "--git-path", "shallow").decode().strip()
    try:
        return frozenset(listing.read_text().split())
    except OSError:
        return frozenset()


def require_revision(repo: Repository, revision: str) -> str:
    commit = commit_of(repo, revision)
    if commit is None:
        raise UsageError(f"'{revision}' is not a folder, a database file, or a git revision of {repo.top}")
    return commit
