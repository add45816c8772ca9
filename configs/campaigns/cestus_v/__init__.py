"""The Cestus V campaign (No Quarter §27): ``campaign.yaml`` and one YAML file per mission.

Read by :mod:`wargym.rules.no_quarter.cestus.cestus_v_data`. Mission file schema (every key required
unless marked optional; numbers and tables are data, names paraphrase the book)::

    # Source: <citation>                      (first line: a comment citing the source)
    mission: <1-10>                           (play order, 27.2)
    name: <str>
    kind: patrol | attack | defend            (the §22 mission type)
    np_posture: patrol | defend | attack      (the NP side's posture)
    generic_objective: none | destroy | break_through   (nearest §22 objective, for the engine)
    np_objective: none | roll_contests | break_through | exit_section_7   (27.8 rulings)
    objective: {kind: recon_report | bridgehead | exit_fraction | clear_village | withdrawal
                      | stonewall | pick_and_roll | destroy_all, ...its parameters}
    mission_end: no_player_mech | success_or_no_player_mech | threshold_or_no_player_mech
                 | exit_or_clear_or_no_player_mech | clear_or_no_player_mech
    force: {formations: [team | squad | platoon | company, ...], default: <one of them>}
    deployment: {kind: enter_edge | set_up, sections: [..], edge: north | south}
    home_edge: north | south                  (the player's edge; the NP's is the other)
    pef_placement: {kind: standard} | {kind: enter_random, count, faces: {section: [lo, hi]}}
                   | {kind: fixed_sections, sections: [..]}
    night_on: [faces]    inclement_on: [faces]    np_tables: ["20.2", ...]
    special: {troll: {...}, building_armor, river_width_in, village_section,
              no_withdrawal_before_turn, no_repairs_or_replacements_after, crest_hill,
              carry_over_damage}             (all optional)
    pef_resolution: {source_list, minimum_enemies, rows: {face 1-6: delta}}
    enemy_force / star_army_force: {source_list, rows: {2d6 total 2-12: {class: n} |
                                    {split: [{d6: [lo, hi], class: n}, ...]}}}
    map: [{name, type: woods | rough | hill | river | road | bridge | building,
           rect: [x0, y0, x1, y1] | ellipse: {centre, semi_axes} | polyline: [[x, y], ...],
           crest (hills), width (rivers, roads), armor and areas (buildings), sections}]
"""
