"""The wheel carries the specs and the migrations, and works installed, away from the checkout."""

import json
import os
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from specdb import __version__
from conftest import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(REPO)],
        check=True, capture_output=True, text=True,
    )
    return next(out.glob("specdb-*.whl"))


def test_the_wheel_contains_every_spec_and_migration(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    specs = {p.relative_to(REPO).as_posix() for p in (REPO / "specs").rglob("*.yaml")}
    migrations = {p.relative_to(REPO).as_posix() for p in (REPO / "migrations").rglob("*.py")}
    assert specs and migrations
    assert {f"specdb/_bundled/{name}" for name in specs} <= names
    assert {f"specdb/_bundled/{name}" for name in migrations} <= names
    assert "specdb/_bundled/migrations/script.py.mako" in names
    assert "specdb/_bundled/specs/RELEASE" in names


def test_the_installed_wheel_works_from_an_empty_folder(wheel, tmp_path):
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "--quiet", str(wheel)], check=True)
    # The dependencies come from the running environment, so the test needs no network; added after
    # the install, so pip does not take the running environment's specdb for this one, and behind
    # the new environment's own site-packages on the path.
    own = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True).stdout.strip()
    Path(own, "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": ""}
    specdb = environment / "bin" / "specdb"
    listed = subprocess.run([specdb, "list", "--format", "json"], cwd=empty, env=env, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert '"nvidia-h100-sxm"' in listed.stdout
    shown = subprocess.run([specdb, "show", "nvidia-h100-sxm"], cwd=empty, env=env, capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert "memory_bandwidth" in shown.stdout
    located = subprocess.run([python, "-c", "import specdb.resources as r; print(r.bundled_specs())"], cwd=empty, env=env, capture_output=True, text=True)
    assert "site-packages" in located.stdout
    # A project of its own, with an unrelated specs/ folder, using specdb as a library.
    project = tmp_path / "project"
    (project / "specs").mkdir(parents=True)
    (project / "specs" / "openapi.yaml").write_text("openapi: 3.1.0\n")
    (project / "use_specdb.py").write_text(
        "import importlib.metadata, json, specdb\n"
        "connection = specdb.connect()\n"
        "h100 = specdb.show(connection, 'NVIDIA H100 80GB HBM3')\n"
        "about = specdb.info()\n"
        "print(json.dumps({'version': specdb.__version__, 'data_version': about['data_version'], 'specs': about['specs'],\n"
        "                  'license': about['data_license'], 'declared': importlib.metadata.metadata('specdb')['License-Expression'],\n"
        "                  'memory_bandwidth': next(f['value'] for f in h100['figures'] if f['name'] == 'memory_bandwidth')}))\n"
    )
    used = subprocess.run([python, "use_specdb.py"], cwd=project, env=env, capture_output=True, text=True)
    assert used.returncode == 0, used.stderr
    facts = json.loads(used.stdout)
    assert facts["version"] == __version__
    # The bundled RELEASE file travels in the wheel: the installed package knows its data's release without git.
    release = (REPO / "specs" / "RELEASE").read_text().splitlines()[-1].split(" ")[0]
    assert facts["data_version"].split("+")[0] == release
    assert "site-packages" in facts["specs"] and facts["license"] == "CC-BY-4.0"
    assert facts["memory_bandwidth"] == 3.35e12  # the H100 SXM datasheet's 3.35 TB/s
    assert facts["declared"] == "MIT AND CC-BY-4.0"
