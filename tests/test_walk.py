"""What a walk of the specs folder takes as spec files, what it skips on purpose, and what it reports."""

import os

import pytest

from specdb.load import files as specfiles
from specdb.errors import UsageError
from specdb.load.files import read_specs, walk


def _file(path, text="id: x\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_hidden_names_and_files_that_are_not_yaml_are_skipped(tmp_path):
    _file(tmp_path / "link" / "a.yaml")
    _file(tmp_path / "link" / ".draft.yaml")
    _file(tmp_path / ".git" / "b.yaml")
    _file(tmp_path / "link" / "notes.txt")
    os.mkfifo(tmp_path / "link" / "pipe.txt")
    tree = walk(tmp_path)
    assert (tree.files, tree.problems) == (["link/a.yaml"], [])


def test_a_special_file_named_as_a_spec_and_a_link_to_a_folder_are_problems(tmp_path):
    _file(tmp_path / "link" / "a.yaml")
    os.mkfifo(tmp_path / "link" / "pipe.yaml")
    (tmp_path / "system").symlink_to(tmp_path / "link")
    tree = walk(tmp_path)
    assert tree.files == ["link/a.yaml"]
    assert [(problem.relpath, problem.message) for problem in tree.problems] == [
        ("link/pipe.yaml", "not a regular file: a spec is a plain file"),
        ("system", "symbolic link to a folder: not followed; copy the records instead"),
    ]


def test_a_folder_that_cannot_be_read_does_not_stop_the_walk(tmp_path, monkeypatch):
    for kind in ("accelerator", "fabric", "link"):
        _file(tmp_path / kind / f"{kind}-1.yaml")
    scandir = os.scandir

    def refused(path):
        if str(path).endswith("fabric"):
            raise PermissionError(13, "Permission denied")
        return scandir(path)

    monkeypatch.setattr(specfiles.os, "scandir", refused)
    tree = walk(tmp_path)
    assert tree.files == ["accelerator/accelerator-1.yaml", "link/link-1.yaml"]
    assert tree.problems == [("fabric", "cannot read folder: Permission denied")]


def test_a_missing_folder_and_a_file_given_as_the_folder_are_named(tmp_path):
    with pytest.raises(UsageError, match=r"specs folder not found$"):
        read_specs(tmp_path / "none")
    _file(tmp_path / "file.yaml")
    with pytest.raises(UsageError, match=r"file\.yaml: not a folder$"):
        read_specs(tmp_path / "file.yaml")
