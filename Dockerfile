# The image the helm chart runs (helm/lurker): one image, the subcommand picks the role —
# `lurker api`, `lurker worker`, `lurker slack`, `lurker discord`, `lurker migrate`.
#   docker build -t ghcr.io/lurker-memory/lurker:0.1.0 .
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY memory ./memory
COPY workers ./workers
COPY bot ./bot
# A wheel first, then an install into a virtualenv that the runtime stage copies whole.
RUN python -m venv /opt/lurker \
 && /opt/lurker/bin/pip install --upgrade pip \
 && /opt/lurker/bin/pip wheel --no-deps --wheel-dir /wheels . \
 && /opt/lurker/bin/pip install /wheels/*.whl

FROM python:3.11-slim
# The chart runs as this uid with a read-only root filesystem; HOME (the user data dir, e.g. the
# audit log) and /tmp are writable volumes there.
RUN useradd --uid 10001 --user-group --home-dir /var/lib/lurker --create-home lurker
COPY --from=build /opt/lurker /opt/lurker
ENV PATH=/opt/lurker/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOME=/var/lib/lurker \
    LURKER_LOG_FORMAT=json
USER 10001
WORKDIR /var/lib/lurker
# Fail the build, not the pod, if the package or the embedding weights are broken.
RUN lurker --help >/dev/null && python -c "from memory.embeddings import default_embedder; \
assert default_embedder().embed(['ok']).shape == (1, 384)"
ENTRYPOINT ["lurker"]
CMD ["api", "--host", "0.0.0.0", "--port", "8080"]
