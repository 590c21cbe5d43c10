"""The record format: its models, closed vocabularies, figure names, units and JSON Schema."""
