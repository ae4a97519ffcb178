"""Lurker memory engine: profiles, ingest, remember, recall, forget, list, export/import."""
