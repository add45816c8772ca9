"""The non-player side (§20-§22.4).

Possible Enemy Forces: placement, movement, detection and resolution (§20), the NP enemy mechs
tables and force generator (§20.4), NP tactics and the §22.4 decision procedure, where arriving
contacts and reinforcements stand, NP events and flow.

Modules: ``arrival_spots``, ``enemy``, ``enemy_decide``, ``np_events``, ``np_flow``, ``pef``,
``pef_tables``.
"""
