"""Gymnasium and PettingZoo environments over *The Pentagon War* engine."""
