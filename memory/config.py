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
    model_config = SettingsConfigDict(env_prefix="LURKER_", extra="ignore", populate_by_name=True)

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
    extract_model: str = "claude-haiku-5-5"
    answer_model: str = "claude-sonnet-5-5"
    llm_max_retries: int = 4

    # Messages above this many UTF-8 bytes are truncated (with a marker) before storage.
    max_message_bytes: int = 100_000
    recall_k: int = 20  # hits per retrieval channel
    answer_memories: int = 8  # memories handed to answer synthesis
    answer_messages: int = 4  # raw messages handed to answer synthesis

    # Queue workers (workers/): chat adapters and the API publish events, `lurker worker`
    # batch-ingests them. memory:// (or worker_eager): no broker, the events are applied
    # in-process by the same rules.
    broker_url: str = "redis://127.0.0.1:6379/0"
    worker_eager: bool = False
    worker_concurrency: int = 2  # worker processes (prefork)
    # events taken at once (or fewer after batch_interval_s); 500, not 200: a batch's writes are
    # a fixed number of store requests (bench/ingest.py --prefill: ~1,000 -> ~1,600 events/s)
    batch_size: int = 500
    batch_interval_s: float = 1.0
    retry_backoff_max_s: float = 30.0  # store errors: exponential backoff 0.5 s, 1 s, ... up to this
    retry_window_s: float = 60.0  # then the batch goes back to the queue and is taken again
    # unacked events of a dead worker come back after this; `lurker worker` refuses a value that a
    # live worker could outlast with what it holds (workers/broker.py, delivery_rule)
    broker_visibility_timeout_s: float = 600.0
    worker_lock_timeout_s: float = 30.0  # how long a worker waits for a profile's write lock
    # events a second that one pool process settles at the least, their embeddings included
    # (measured: bench/ingest.py; the delivery rule budgets a batch's work from it)
    worker_min_rate: float = 20.0
    worker_lock_lease_s: float = 10.0  # the lock's lease (Redis), renewed while held: a dead
    # holder's lock frees within this long
    worker_metrics_port: int | None = None  # serve the worker's Prometheus metrics on this port
    # Chat adapters and the API: where events wait while the broker is unreachable (JSON lines;
    # memory if unset)
    event_spool: str | None = None

    # REST API and MCP server (memory/surfaces/api/, memory/surfaces/mcp_server.py): API keys are
    # stored hashed in a JSON file (`lurker api key create`), each scoped to profile names or
    # prefixes ("team-*").
    api_keys_file: str | None = None  # default: api-keys.json in the user data dir
    api_max_body_bytes: int = 1_000_000  # any request body (413 above)
    api_max_import_bytes: int = 64_000_000  # POST .../import (a JSONL export)
    api_max_query_chars: int = 2_000  # recall questions
    api_max_page_size: int = 500  # GET .../memories?limit=
    api_max_ingest_messages: int = 1_000  # messages in one POST .../ingest
    api_body_timeout_s: float = 30.0  # a request body must have arrived by then (408)
    log_format: str = "json"  # structured JSON logs ("text" for a terminal)
