"""Register the Gymnasium ids on ``import wargym`` without importing gymnasium eagerly.

``import wargym`` must stay light (``wargym.rules`` never pulls in gymnasium), yet users expect
``import wargym; gymnasium.make("wargym/...")`` to work. So:

* if gymnasium is already imported, ``import wargym`` registers the ids at once
  (it imports :mod:`wargym.envs`, whose import registers them);
* otherwise a finder on ``sys.meta_path`` waits for ``import gymnasium`` and registers the
  ids right after gymnasium's own module has run. Nothing else is touched: other imports
  pass through, and the finder removes itself once it has fired.

Standard library only.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any


def _register() -> None:
    try:
        importlib.import_module("wargym.envs")  # its import registers every id (idempotent)
    except Exception as exc:  # noqa: BLE001 - never break the user's own import of gymnasium
        import warnings

        warnings.warn(f"wargym could not register its Gymnasium ids: {exc!r}", stacklevel=2)


class _RegisteringLoader(importlib.abc.Loader):
    """Runs gymnasium's own loader, then registers the wargym ids."""

    def __init__(self, inner: importlib.abc.Loader) -> None:
        self.inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.inner.exec_module(module)
        _register()

    def __getattr__(self, name: str) -> Any:  # resources, is_package, ... of the real loader
        return getattr(self.inner, name)


class _GymnasiumWatcher(importlib.abc.MetaPathFinder):
    """Finds nothing itself; wraps the loader of the top-level ``gymnasium`` module once."""

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        _uninstall()
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _RegisteringLoader(spec.loader)
        return spec


def _uninstall() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _GymnasiumWatcher)]


def install() -> None:
    """Register now if gymnasium is loaded, else once it is (module docstring)."""
    if "gymnasium" in sys.modules:
        _register()
    elif not any(isinstance(f, _GymnasiumWatcher) for f in sys.meta_path):
        sys.meta_path.insert(0, _GymnasiumWatcher())
