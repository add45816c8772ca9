"""*Alternate Starship Combat v2* (a Traveller variant) rules engine."""
