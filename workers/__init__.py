"""Celery workers for queued batch ingestion (issue: queue-based ingestion)."""
