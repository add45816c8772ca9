"""The wheel users get holds every module and table (style guide 5.3).

Strict editable installs and runs from the repo root can both hide a folder missing from
``[tool.setuptools] packages``; the built wheel cannot, so this test builds one. It is
deliberately not marked ``slow``: it is the check that fails when the package list is
incomplete, and it takes a few seconds.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What the wheel ships: repo folder -> path inside the wheel.
SHIPPED = {
    "src/wargym": "wargym",
    "rules": "wargym/rules",
    "envs": "wargym/envs",
    "agents": "wargym/agents",
    "configs": "wargym/configs",
}
NOT_COPIED = {".git", "build", "dist", "tests", "training", "benchmarks", "runs", "docs"}
SKIP_PARTS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis"}
MIN_SETUPTOOLS = 77  # PEP 639 `license = "MIT"` in pyproject.toml needs setuptools >= 77


def expected_files(root: Path) -> set[str]:
    """Wheel paths of every module and YAML file under the mapped folders of ``root``."""
    files = {"wargym/py.typed"}
    for folder, target in SHIPPED.items():
        for path in (root / folder).rglob("*"):
            relative = path.relative_to(root / folder)
            if SKIP_PARTS & set(relative.parts):
                continue
            if path.suffix == ".py" or (folder == "configs" and path.suffix == ".yaml"):
                files.add(f"{target}/{relative.as_posix()}")
    return files


def copy_source(destination: Path) -> Path:
    """A copy of the project without build outputs, so the build never touches the checkout."""
    source = destination / "src-copy"
    source.mkdir()
    for entry in ROOT.iterdir():
        if entry.name in NOT_COPIED or entry.name.startswith(".") or entry.suffix == ".egg-info":
            continue
        if entry.is_dir():
            ignore = shutil.ignore_patterns(*SKIP_PARTS, "*.egg-info")
            shutil.copytree(entry, source / entry.name, ignore=ignore)
        else:
            shutil.copy2(entry, source / entry.name)
    return source


def setuptools_is_recent() -> bool:
    try:
        major = int(importlib.metadata.version("setuptools").split(".")[0])
    except importlib.metadata.PackageNotFoundError:
        return False
    return major >= MIN_SETUPTOOLS


def build_wheel(source: Path, tmp_path: Path) -> Path:
    out = tmp_path / "wheel"
    command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out)]
    if setuptools_is_recent():
        # Offline and ~1 s: build with the venv's own setuptools.
        command += ["--no-build-isolation", "--no-index"]
    command.append(str(source))
    result = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}"
    wheels = sorted(out.glob("wargym-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_ships_every_module_table_and_py_typed(tmp_path: Path) -> None:
    # Compare against the copy that was built, not the live tree others may be editing.
    source = copy_source(tmp_path)
    wheel = build_wheel(source, tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = sorted(expected_files(source) - names)
    assert not missing, (
        "the wheel lacks these files; add their folders to [tool.setuptools] packages "
        "(and YAML folders under configs/ too):\n" + "\n".join(missing)
    )
    strays = sorted(
        name
        for name in names
        if not name.startswith("wargym/") and not name.split("/")[0].endswith(".dist-info")
    )
    assert not strays, f"the wheel ships files outside the wargym package: {strays}"
