"""Cestus V (§27).

The Cestus V campaign: its ten missions and campaign as data and records, its dice, scenarios
and rules, objectives, and the hooks that play its missions (§27.1-§27.8).

Modules: ``cestus_play``, ``cestus_v``, ``cestus_v_data``, ``cestus_v_records``,
``cestus_v_rolls``.
"""
