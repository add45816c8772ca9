"""*The Pentagon War* tables and ship displays."""
