"""*Alternate Starship Combat v2* tables and ship data."""
