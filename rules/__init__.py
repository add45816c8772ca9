"""Pure rules engines (``wargym.rules``): stdlib, numpy and PyYAML only.

Shared pieces live here (dice, table loading, errors, events); each rule system has its own
subpackage (``wargym.rules.no_quarter``, ...).
"""

if __name__ != "wargym.rules":  # this folder is installed as wargym.rules (README: Layout)
    raise ImportError(f"import wargym.rules, not {__name__!r}")
