"""The battlefield (§19, Appendix A).

Terrain features, the table's nine sections, terrain, sight and cover tables, the campaign
terrain generator and simple seeded battlefields (§19.2-§19.10), roads and bridges (§19.8),
damage to buildings (§19.4.2), day, night and weather (§22.0, §23.7).

Modules: ``battlefield_gen``, ``buildings``, ``roads``, ``sections``, ``terrain``,
``terrain_generator``, ``terrain_tables``, ``weather``.
"""
