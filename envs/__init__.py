"""Gymnasium and PettingZoo environments over the rules engines (``wargym.envs``)."""

if __name__ != "wargym.envs":  # this folder is installed as wargym.envs (README: Layout)
    raise ImportError(f"import wargym.envs, not {__name__!r}")
