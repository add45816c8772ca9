"""The campaign (§23-§26).

Campaign state and definitions (§23.1-§23.4), the campaign procedures and loop (§23.3-§23.9,
§24), after the battle (§23.9), campaign events, and saves.

Modules: ``campaign``, ``campaign_aftermath``, ``campaign_events``, ``campaign_play``,
``campaign_rules``, ``saves``.
"""
