"""Players: random, scripted, heuristic, search and learned agents (``wargym.agents``)."""

if __name__ != "wargym.agents":  # this folder is installed as wargym.agents (README: Layout)
    raise ImportError(f"import wargym.agents, not {__name__!r}")
