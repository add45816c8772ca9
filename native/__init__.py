"""The native engine core: C++ mirrors of reference rules modules (docs/native.md).

The Python rules engine (:mod:`wargym.rules`) defines the rules; this package mirrors parts of
it in C++ (``native/*.cpp``, compiled into :mod:`wargym.native._core`) and is checked against it
by agreement tests. Dependencies point one way: ``native`` may import ``rules`` and ``configs``;
the rules never import ``native``.

>>> from wargym.native import _core
>>> _core.ScriptedDice([1, 5]).roll(2)
(1, 5)
"""

from __future__ import annotations
