"""Settings from the environment (pydantic-settings). Every variable is prefixed LURKER_, except the
Anthropic key, which keeps the name the Anthropic SDK uses."""
from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir
from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_store_url() -> str:
    return f"sqlite:///{Path(user_data_dir('lurker')) / 'lurker.sqlite3'}"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LURKER_", extra="ignore")

    # sqlite:///PATH (embedded, default) or http(s)://host:9200 (Elasticsearch)
    store: str = Field(default_factory=default_store_url)
    es_user: str | None = None
    es_password: str | None = None
    es_api_key: str | None = None
    es_index_prefix: str = "lurker"
    es_refresh: str = "true"  # "true": reads see writes at once; "wait_for"/"false" for throughput
    es_shards: int = 1  # primary shards of each index (profiles are routed, so shards scale out)
    es_replicas: int = 0  # replicas per shard: 0 fits a single node, 1+ for a real cluster

    anthropic_api_key: str | None = Field(
        default=None, validation_alias=AliasChoices("ANTHROPIC_API_KEY", "LURKER_ANTHROPIC_API_KEY")
    )
    anthropic_base_url: str | None = Field(
        default=None, validation_alias=AliasChoices("ANTHROPIC_BASE_URL", "LURKER_ANTHROPIC_BASE_URL")
    )
    extract_model: str = "claude-haiku-4-5"
    answer_model: str = "claude-sonnet-4-5"
    llm_max_retries: int = 4

    # Messages above this many UTF-8 bytes are truncated (with a marker) before storage.
    max_message_bytes: int = 100_000
    recall_k: int = 20  # hits per retrieval channel
    answer_memories: int = 8  # memories handed to answer synthesis
    answer_messages: int = 4  # raw messages handed to answer synthesis
