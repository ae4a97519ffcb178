"""Storage backends: embedded SQLite and Elasticsearch, behind one contract (base.Store)."""
