"""*5150: No Quarter - Mech Warfare* rules engine (sections 5-18).

Glossary: **Rep** the pilot's Reputation; **active** belonging to the side now activating;
**group** mechs that act together (§13); **cause** the enemy mech that made a test necessary.
"""
