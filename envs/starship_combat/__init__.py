"""Gymnasium and PettingZoo environments over the *Alternate Starship Combat v2* engine."""
