"""Gymnasium and PettingZoo environments over the *5150: No Quarter* engine."""
