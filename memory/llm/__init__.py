"""Anthropic-backed extraction and answer synthesis."""
