"""No Quarter scenario files, read by ``wargym.rules.no_quarter.mission.scenario.load_scenario``.

Schema (every key except ``name``, ``mission``, ``player`` and ``enemy`` is optional)::

    # Source: <citation>                       (first line: a comment citing the source)
    name: <str>                                 (the file stem)
    description: <str>
    mission: patrol | attack | defend | skirmish   (§22; skirmish = head-to-head, no PEFs)
    player:                                     (blue; enemy is red)
      faction: star_army | iss | pdf | hishen | free_company | zhuh_zhuh
      mechs: [<pre-generated id or custom id>, ...]   (empty for the enemy of a mission)
      stars: <int, <= mechs>                    (the first N pilots are Stars, §9.1)
      reps: rolled | [<Rep per mech>]
      use_attributes: true
      campaign_morale: 3                        (§22.0: 3 outside a campaign)
    enemy: {...same keys...}
    custom_mechs:                               (checked with design.build_design, §10.10)
      - {id, name, faction, armor: {head, arm_l, arm_r, chest, gut, leg_l, leg_r},
         items: [{type, location, wv (melee weapon only)}]}
    np_status: no_campaign | controls | contests   (the NP side, table 22.3.1)
    attack_objective: chosen | destroy | break_through   (attack only, §22.2.1)
    np_objective: rolled | destroy | break_through       (defend only, §22.3.1)
    turn_limit: null | <int>
    conditions: {night: rolled | day | night,
                 weather: rolled | clear | inclement | improving | worsening,
                 night_on: [faces], inclement_on: [faces]}   (§22.0, §23.7)
    table: {width: 36, height: 36}
    terrain: generated | {features: [{kind, x0, y0, x1, y1, building_armor, crest, well_lit}]}
    options:                                    (field names of the option records)
      battle: {...BattleOptions...}   rules: {...RulesOptions...}   mission: {...MissionOptions...}
      terrain: {...GeneratorOptions...}   weather: {...WeatherOptions...}
"""
