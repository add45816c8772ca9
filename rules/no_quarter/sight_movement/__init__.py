"""Sight and movement (§6, §10.4-§10.6, §15.2, §16.1, §17.1-§17.2).

Plane geometry of the table, headings, arcs and facing (§6), movement costs, legal paths, jumps
and flames (§10.4-§10.6, §15.2), moves planned around the bases a side sees (fog of war, E5),
line of sight, cover and concealment (§16.1.1, §17.1-§17.2), and what mechs see, reach and
command.

Modules: ``bumping``, ``facing``, ``flames``, ``geometry``, ``jump_landing``,
``movement_geometry``, ``perception``, ``sight``.
"""
