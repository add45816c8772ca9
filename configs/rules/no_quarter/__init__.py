"""*5150: No Quarter* tables (sections 5-18)."""
