"""Training presets: YAML files that override the fields of a training script's Args."""
