"""*The Pentagon War* rules engine: hex vector movement, weapons, damage and power."""
