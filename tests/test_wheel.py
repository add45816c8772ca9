"""The wheel users get holds every module, table and data file, and the compiled core.

Editable installs and runs from the repo root can both hide a file missing from the wheel; the
built wheel cannot, so this test builds one (scikit-build-core, compiling native/: about 20 s
on an idle 2-core machine, more on a busy one). It is deliberately not marked ``slow``: it is
the check that fails when a folder or a data file stops shipping.
"""

from __future__ import annotations

import importlib.util
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
    "native": "wargym/native",
}
NOT_COPIED = {".git", "build", "dist", "tests", "training", "benchmarks", "runs", "docs"}
SKIP_PARTS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis"}
# What ships from each folder: modules and stubs everywhere, and the data the code loads.
DATA = {
    "src/wargym": {".typed", ".json", ".html", ".js", ".css", ".svg"},  # + server/static
    "configs": {".yaml"},
    "agents": {".zip", ".onnx", ".json", ".md"},  # agents/models
    "native": {".pyi"},
}
SOURCES_ONLY = {".cpp", ".hpp"}  # C++ stays in the sdist; the wheel has the compiled module
BUILD_PACKAGES = ("scikit_build_core", "nanobind")


def expected_files(root: Path) -> set[str]:
    """Wheel paths of every module and data file under the mapped folders of ``root``."""
    files = {"wargym/py.typed"}
    for folder, target in SHIPPED.items():
        for path in (root / folder).rglob("*"):
            relative = path.relative_to(root / folder)
            if SKIP_PARTS & set(relative.parts) or not path.is_file():
                continue
            if path.suffix == ".py" or path.suffix in DATA.get(folder, set()):
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


def build_backend_is_installed() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in BUILD_PACKAGES)


def build_wheel(source: Path, tmp_path: Path) -> Path:
    out = tmp_path / "wheel"
    command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out)]
    if build_backend_is_installed():
        # Offline: build with the venv's own scikit-build-core and nanobind (the dev extra).
        command += ["--no-build-isolation", "--no-index"]
    command.append(str(source))
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
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
        "the wheel lacks these files; check [tool.scikit-build] wheel.packages and "
        "wheel.exclude in pyproject.toml:\n" + "\n".join(missing)
    )
    compiled = [n for n in names if n.startswith("wargym/native/_core.") and n.endswith(".so")]
    assert len(compiled) == 1, f"the wheel should hold one compiled wargym.native._core: {compiled}"
    sources = sorted(n for n in names if Path(n).suffix in SOURCES_ONLY)
    assert not sources, f"C++ sources belong in the sdist only: {sources}"
    strays = sorted(
        name
        for name in names
        if not name.startswith("wargym/") and not name.split("/")[0].endswith(".dist-info")
    )
    assert not strays, f"the wheel ships files outside the wargym package: {strays}"
