"""Rule tables, one folder per rule system."""
