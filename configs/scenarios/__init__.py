"""Scenario files of the wargym rule systems (YAML package data, one folder per system)."""
