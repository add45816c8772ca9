"""No Quarter campaign data, read by :mod:`~.campaign_rules` (§23, §24, §27).

* ``rules_23.yaml``: the campaign tables of §23 (starting Campaign Morale 23.3, the morale
  change 23.5, the Next Mission table 23.6, the after-the-battle tables 23.9.1-23.9.6).
* ``generic.yaml``: a small generic campaign definition (§23.6 next-mission table over the
  shipped Patrol, Attack and Defend scenarios), read with
  ``wargym.rules.no_quarter.campaigns.campaign.load_definition("generic")``.
* ``cestus_v/``: the Cestus V campaign (§27), written by its own module.

Campaign definition schema (every key except ``name``, ``sides``, ``company`` and ``missions``
is optional)::

    # Source: <citation>                       (first line: a comment citing the source)
    name: <str>
    description: <str>
    sides: [<faction of the default player side>, <faction of the other side>]
    playable: [<factions the player may take>]   (default: the first side only)
    company: {<faction>: [<mech id>, ...]}       (the starting Company per playable faction)
    stars: <int>                                 (Star pilots in the Company, §9.1)
    use_attributes: true                         (§9.6)
    sequence: next_mission_table | fixed         (§23.6, or the printed order, §27.5)
    missions: [{name, scenario, turn_limit, force_limit, repairs_after}]
        next_mission_table: one entry per mission type (patrol, attack, defend)
    max_missions: <int> | null                   (decision 47: optional limit)
    status: rolled | controls | contests         (the player's status, §23.4)
    starting_morale: {<faction>: <int>}          (overrides table 23.3)
    final_compare: false                         (end after the last mission, higher CM wins)
"""
