"""Guard rails of the package layout and the engine's purity (style guide 5.2, 5.3, 5.5, 5.11)."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# scikit-build-core's wheel.packages: "wargym/rules" = "rules" (a whole folder, every file in it).
WHEEL_PACKAGES: dict[str, str] = PYPROJECT["tool"]["scikit-build"]["wheel"]["packages"]
PACKAGE_DIR = {name.replace("/", "."): folder for name, folder in WHEEL_PACKAGES.items()}
MAPPED_ROOTS = {"rules": "wargym.rules", "envs": "wargym.envs", "agents": "wargym.agents"}
MAPPED_ROOTS["configs"] = "wargym.configs"
MAPPED_ROOTS["native"] = "wargym.native"
SKIP_DIRS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis"}
BANNED_IN_RULES = ("gymnasium", "pettingzoo", "torch")
MAX_MODULE_LINES = 600
# numpy.random names that do not touch numpy's global RNG state.
NUMPY_RANDOM_ALLOWED = {"default_rng", "Generator", "SeedSequence", "BitGenerator"}
NUMPY_RANDOM_ALLOWED |= {"PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937"}


def package_folders(top: str) -> list[Path]:
    """Folders under ``top`` that hold Python modules (or, under configs/, YAML data)."""
    suffixes = {".py", ".yaml"} if top == "configs" else {".py"}
    folders = []
    for folder in sorted([ROOT / top, *(ROOT / top).rglob("*")]):
        if not folder.is_dir() or SKIP_DIRS & set(folder.relative_to(ROOT).parts):
            continue
        if any(child.suffix in suffixes for child in folder.iterdir() if child.is_file()):
            folders.append(folder)
    return folders


def package_name(folder: Path) -> str:
    top, *rest = folder.relative_to(ROOT).parts
    return ".".join([MAPPED_ROOTS[top], *rest])


def python_files(*tops: str) -> list[Path]:
    files = []
    for top in tops:
        for path in sorted((ROOT / top).rglob("*.py")):
            if not SKIP_DIRS & set(path.relative_to(ROOT).parts):
                files.append(path)
    return files


# -- 5.3: the package list, the mapping and the root -------------------------------------
def test_package_dir_maps_the_top_level_folders() -> None:
    expected = {"wargym": "src/wargym", **{name: top for top, name in MAPPED_ROOTS.items()}}
    assert expected == PACKAGE_DIR


def test_the_build_backend_ships_whole_folders() -> None:
    """Every folder under a mapped root ships (no package list to keep complete, unlike setuptools'
    ``packages``); tests/test_wheel.py checks the built wheel file by file."""
    assert PYPROJECT["build-system"]["build-backend"] == "scikit_build_core.build"
    assert "setuptools" not in PYPROJECT["tool"]


def test_every_folder_with_modules_has_an_init() -> None:
    """Namespace packages would be skipped by pkgutil (and so by the purity check below)."""
    missing = [
        str(folder.relative_to(ROOT) / "__init__.py")
        for top in MAPPED_ROOTS
        for folder in package_folders(top)
        if any(folder.glob("*.py")) and not (folder / "__init__.py").is_file()
    ]
    assert not missing, "create " + ", ".join(missing)


def test_nothing_at_the_repo_root_is_named_wargym() -> None:
    clashes = [path.name for path in ROOT.iterdir() if path.name in {"wargym", "wargym.py"}]
    assert not clashes, (
        f"{clashes} at the repo root would shadow the installed package; the root package "
        "lives in src/wargym (style guide 5.3, option A2)"
    )


def test_src_wargym_init_imports_only_the_stdlib_registration_hook() -> None:
    tree = ast.parse((ROOT / "src" / "wargym" / "__init__.py").read_text(encoding="utf-8"))
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    assert [
        (i.module, [a.name for a in i.names]) for i in imports if isinstance(i, ast.ImportFrom)
    ] == [("wargym._autoregister", ["install"])], (
        "src/wargym/__init__.py holds a docstring, __version__ and the registration hook only"
    )
    hook = ast.parse((ROOT / "src" / "wargym" / "_autoregister.py").read_text(encoding="utf-8"))
    roots = {
        (n.module or "").split(".")[0] if isinstance(n, ast.ImportFrom) else a.name.split(".")[0]
        for n in ast.walk(hook)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert roots <= {"__future__", "importlib", "sys", "types", "typing", "warnings"}, roots
    assert (ROOT / "src" / "wargym" / "py.typed").is_file()


# -- 5.2: the engine is pure --------------------------------------------------------------
PURITY_PROBE = """
import importlib, json, pkgutil, sys
import wargym.rules
names = ["wargym.rules"]
for info in pkgutil.walk_packages(wargym.rules.__path__, "wargym.rules."):
    importlib.import_module(info.name)
    names.append(info.name)
native = sorted(m for m in sys.modules if m.startswith("wargym.native"))
import wargym.native
for info in pkgutil.walk_packages(wargym.native.__path__, "wargym.native."):
    importlib.import_module(info.name)
    names.append(info.name)
banned = sorted(m for m in sys.modules if m.split(".")[0] in {banned!r})
print(json.dumps({{"modules": names, "banned": banned, "native": native}}))
"""


def test_rules_modules_never_import_gymnasium_pettingzoo_or_torch(tmp_path: Path) -> None:
    probe = PURITY_PROBE.format(banned=set(BANNED_IN_RULES))
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, (
        f"importing wargym.rules failed (added a module? run `make dev-refresh`):\n{result.stderr}"
    )
    report = json.loads(result.stdout.splitlines()[-1])
    assert "wargym.rules.dice" in report["modules"]
    assert "wargym.native._core" in report["modules"]
    assert not report["banned"], (
        f"importing every wargym.rules and wargym.native module pulled in {report['banned']}; "
        "rules/ and native/ may import only the stdlib, numpy and PyYAML"
    )
    assert not report["native"], (
        f"importing wargym.rules loaded {report['native']}: the reference engine never imports "
        "the native core (docs/native.md)"
    )


def global_rng_uses(source: str, label: str) -> list[str]:
    """Imports of ``random`` and uses of numpy's legacy global RNG in one module's source."""
    found = []
    for node in ast.walk(ast.parse(source, filename=label)):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if a.name.split(".")[0] == "random"]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] == "random":
                found.append(f"from {node.module} import ...")
            elif node.module == "numpy" and any(a.name == "random" for a in node.names):
                found.append("from numpy import random")
            elif node.module == "numpy.random":
                found += [
                    f"from numpy.random import {a.name}"
                    for a in node.names
                    if a.name not in NUMPY_RANDOM_ALLOWED
                ]
        elif isinstance(node, ast.Attribute) and node.attr not in NUMPY_RANDOM_ALLOWED:
            owner = node.value
            if (
                isinstance(owner, ast.Attribute)
                and owner.attr == "random"
                and isinstance(owner.value, ast.Name)
                and owner.value.id in {"np", "numpy"}
            ):
                found.append(f"{owner.value.id}.random.{node.attr} (line {node.lineno})")
    return [f"{label}: {use}" for use in found]


def test_rules_use_no_global_rng() -> None:
    uses = [
        use
        for path in python_files("rules")
        for use in global_rng_uses(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert not uses, (
        "roll through wargym.rules.dice.Dice or take an explicit numpy Generator "
        "(style guide 5.6):\n" + "\n".join(uses)
    )


def test_global_rng_detector_catches_the_usual_suspects() -> None:
    source = (
        "import random\nimport numpy as np\nfrom numpy.random import randint, Generator\n"
        "np.random.seed(1)\nx = np.random.randint(6)\nrng = np.random.default_rng(1)\n"
        "def f(g: np.random.Generator) -> int:\n    return int(g.integers(1, 7))\n"
    )
    assert global_rng_uses(source, "bad.py") == [
        "bad.py: import random",
        "bad.py: from numpy.random import randint",
        "bad.py: np.random.seed (line 4)",
        "bad.py: np.random.randint (line 5)",
    ]


# -- 5.11: module size --------------------------------------------------------------------
@pytest.mark.parametrize("top", ["rules", "envs"])
def test_modules_stay_under_600_lines(top: str) -> None:
    long = []
    for path in python_files(top):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines >= MAX_MODULE_LINES:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not long, f"split these modules (aim for <= 400 lines, split at 600): {long}"


# -- 5.5: YAML files cite their source ----------------------------------------------------
# A section sign, a dotted section number ("17.2"), the word "source" or a quoted heading.
CITATION = re.compile(r"§|\b\d+\.\d+|source|'[^']+'|\"[^\"]+\"", re.IGNORECASE)


def test_every_yaml_file_starts_with_a_comment_citing_its_source() -> None:
    bad = []
    for path in sorted((ROOT / "configs").rglob("*.y*ml")):
        first = path.read_text(encoding="utf-8").lstrip("\ufeff").split("\n", 1)[0]
        if not first.startswith("#") or not CITATION.search(first):
            bad.append(f"{path.relative_to(ROOT)}: first line is {first!r}")
    assert not bad, (
        "a YAML table starts with a comment citing its source, e.g. "
        "'# Source: No Quarter §17.4.2' or \"# Source: The Pentagon War, 'Weapons Tables'\":\n"
        + "\n".join(bad)
    )
