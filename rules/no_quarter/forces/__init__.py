"""Forces (§9-§13).

Pilots and their attributes (§9), mech designs, weapons and mounted items (§10), organisation,
leaders and set-up of a battle's forces (§11-§12); the rule set's tables as loaded from
configs/rules/no_quarter (§9-§18) and the book's vocabulary.

Modules: ``data``, ``data_combat``, ``data_loaders``, ``design``, ``leaders``, ``pilots``,
``records``, ``setup``, ``setup_events``, ``vocab``.
"""
