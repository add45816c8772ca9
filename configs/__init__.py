"""The rulebooks' tables as YAML data (``wargym.configs``), read via importlib.resources."""
