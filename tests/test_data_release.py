"""The data's own releases: a version in the specs folder's RELEASE file, shown by info and in every export, with a
changelog of the data. Nothing here reads git tags, which a clone may not have."""

import hashlib
import json
import re

import specdb
from conftest import REPO
from specdb.export import FORMATS as EXPORT_FORMATS
from specdb.export.folder import MANIFEST


def _content_hash(specs):
    """The content hash of a specs folder, by hand: SHA-256 over each YAML file's path and the SHA-256 of its bytes, in the order of paths."""
    digest = hashlib.sha256()
    for path in sorted(specs.rglob("*.yaml"), key=lambda path: path.relative_to(specs).as_posix()):
        digest.update(path.relative_to(specs).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _release(specs, text):
    (specs / "RELEASE").write_text(text)


def test_a_folder_that_is_a_release_is_named_by_its_version_in_info_and_every_export(specs, db, tmp_path, cli):
    _release(specs, f"# a comment\n2026.12.0 {_content_hash(specs)}\n")
    about = json.loads(cli("info", "--format", "json").stdout)
    assert about["data_version"] == "2026.12.0"
    assert "(version 2026.12.0, content " in about["attribution"]
    for fmt in EXPORT_FORMATS:
        exported = tmp_path / f"export-{fmt}"
        result = cli("export", fmt, str(exported))
        assert result.exit_code == 0, result.output
        manifest = json.loads((exported / MANIFEST).read_text())
        assert manifest["data_version"] == "2026.12.0", fmt


def test_files_changed_since_the_release_are_named_after_it_with_their_own_hash(specs, cli):
    _release(specs, f"2026.12.0 {_content_hash(specs)}\n")
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 3.6 TB/s", 1))
    about = json.loads(cli("info", "--format", "json").stdout)
    assert about["data_version"] == f"2026.12.0+{_content_hash(specs)[:12]}"


def test_a_folder_with_no_release_has_no_data_version(specs, cli):
    about = json.loads(cli("info", "--format", "json").stdout)
    assert about["data_version"] is None and "custom specs" in about["attribution"]


def test_a_release_file_that_is_not_one_is_reported_at_its_line(specs, db, cli):
    _release(specs, "# a comment\n\n2026.12 not-a-hash\n")
    result = cli("info")
    assert result.exit_code == 1
    assert f"{specs / 'RELEASE'}:3:1: expected '<version> <content hash>'" in result.stderr
    assert "Traceback" not in result.output


def test_the_bundled_data_names_the_release_its_changelog_and_readme_describe():
    release_line = [line for line in (REPO / "specs" / "RELEASE").read_text().splitlines() if line and not line.startswith("#")]
    version, content_hash = release_line[0].split(" ")
    assert specdb.DATA_VERSION == version
    assert re.fullmatch(r"[0-9a-f]{64}", content_hash)
    changelog = (REPO / "DATA-CHANGELOG.md").read_text()
    first = re.search(r"^## (\S+)", changelog, re.MULTILINE)
    assert first and first.group(1) == version
    assert f"specdb diff data-{version} HEAD" in (REPO / "README.md").read_text()
