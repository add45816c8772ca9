"""Missions (§22, §23.7-§23.8).

The generic missions and their objectives (Patrol, Attack, Defend; §22.0-§22.3), scenario files,
a mission from set-up to its end, reinforcements (§23.8).

Modules: ``mission_play``, ``missions``, ``reinforcements``, ``scenario``.
"""
