"""The battle (§13-§18).

The game API (decision points, legal options, play), the battle state and its validity, actions
and events, the flow of a turn: activation and group orders (§13-§14), mech actions and movement
in play (§15), In Sight and reaction tests (§16), ranged combat (§17), charges and melee (§18),
and their consequences.

Modules: ``actions``, ``consequences``, ``events``, ``flow``, ``flow_charges``, ``flow_fire``,
``flow_mech``, ``flow_melee``, ``flow_move``, ``flow_react``, ``flow_turn``, ``game``,
``group_orders``, ``luck``, ``melee``, ``ranged_combat``, ``reaction``, ``state``, ``validity``,
``validity_parts``.
"""
