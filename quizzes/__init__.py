"""Question banks (``*.yaml``, one per topic) and their JSON Schema (``schema.json``), shipped as package data."""
