"""Pick a store from LURKER_STORE: sqlite:///PATH or an Elasticsearch http(s) URL."""
from __future__ import annotations

from urllib.parse import urlsplit

from ..config import Settings
from ..errors import LurkerError
from .base import Store


def store_from_settings(settings: Settings) -> Store:
    url = settings.store
    scheme = urlsplit(url).scheme
    if scheme == "sqlite":
        from .sqlite import SQLiteStore

        path = url[len("sqlite://"):]
        if path.startswith("/") and not path.startswith("//"):
            path = path[1:] if path.startswith("/~") else path  # sqlite:///~/x -> ~/x
        return SQLiteStore(path)
    if scheme in ("http", "https"):
        from .elasticsearch import ElasticsearchStore

        return ElasticsearchStore(url, user=settings.es_user, password=settings.es_password,
                                  api_key=settings.es_api_key, index_prefix=settings.es_index_prefix,
                                  refresh=settings.es_refresh, shards=settings.es_shards,
                                  replicas=settings.es_replicas)
    raise LurkerError(f"LURKER_STORE={url!r} is not a store URL: use sqlite:///PATH or "
                      f"http(s)://host:9200 for Elasticsearch")
