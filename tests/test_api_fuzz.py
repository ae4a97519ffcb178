"""Generated requests against the real app on the embedded store: key scoping as a property over
random profile names (hypothesis), and schemathesis fuzzing the OpenAPI schema (no 5xx, responses
as documented)."""
from __future__ import annotations

import pytest
import schemathesis
from schemathesis import checks
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings, strategies as st

from memory.config import Settings
from memory.service import MemoryService
from memory.surfaces.api.app import create_app
from memory.surfaces.api.keys import KeyFile, KeyStore, add_key, profile_allowed

# Every valid name but "." and "..": URL paths cannot carry those as a segment (clients resolve
# them as dot segments), so the API cannot address such profiles.
PROFILE_NAMES = st.from_regex(r"[A-Za-z0-9:._-]{1,40}", fullmatch=True).filter(
    lambda name: name.strip(".") != "" or len(name) > 2)


@pytest.fixture(scope="module")
def engine(tmp_path_factory, embedder):
    path = tmp_path_factory.mktemp("api-fuzz")
    config = Settings(store=f"sqlite:///{path / 'fuzz.sqlite3'}", broker_url="memory://",
                      anthropic_api_key=None, api_max_body_bytes=20_000,
                      api_max_import_bytes=50_000)
    with MemoryService.from_settings(config, embedder=embedder) as service:
        yield service, config, path


@pytest.fixture(scope="module")
def keyed_app(engine):
    service, config, path = engine
    keys = path / "keys.json"
    admin = add_key(keys, "fuzz-admin", ["*"], ["admin"])
    return create_app(service, KeyFile(keys), config), admin, keys


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(own=PROFILE_NAMES, other=PROFILE_NAMES, data=st.data())
def test_a_key_reaches_only_its_profiles(keyed_app, own, other, data):
    """A key for `own` (exactly, or as a prefix `own*`) is served on `own` and refused on any
    profile it does not name, whatever the names."""
    app, _, keys = keyed_app
    prefix = data.draw(st.booleans(), label="prefix")
    pattern = own + "*" if prefix else own
    reachable = other.startswith(own) if prefix else other == own
    name = f"k{abs(hash((pattern, other))) % 10**12}"
    store = KeyStore.load(keys)
    if name not in {k.name for k in store.keys}:
        key = add_key(keys, name, [pattern], ["read"])
    else:  # hypothesis replays an example: a fresh key under another name
        name += "b"
        key = add_key(keys, name, [pattern], ["read"])
    client = TestClient(app)
    headers = {"Authorization": f"Bearer {key}"}
    assert profile_allowed([pattern], own)
    assert client.get(f"/v1/profiles/{own}/memories", headers=headers).status_code == 200
    response = client.get(f"/v1/profiles/{other}/export", headers=headers)
    assert response.status_code == (200 if reachable else 403), response.text
    if not reachable:
        assert response.json()["error"]["code"] == "forbidden"
        assert client.post(f"/v1/profiles/{other}/recall", headers=headers,
                           json={"query": "anything"}).status_code == 403
    from memory.surfaces.api.keys import remove_key

    remove_key(keys, name)


@schemathesis.serializer("application/x-ndjson")
def _ndjson(ctx, value) -> bytes:
    """Import bodies: the generated string as it is (mostly not an export: a 422 then)."""
    return value.encode("utf-8", "surrogatepass") if isinstance(value, str) else \
        str(value).encode()


def test_openapi_fuzz(keyed_app):
    """Every operation of the published schema, with generated (valid and invalid) input and an
    admin key for every profile: never a 5xx, and every response as the schema documents it."""
    app, admin, _ = keyed_app
    api = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in api.get_all_operations()]
    assert len(operations) >= 11
    for operation in operations:
        @settings(max_examples=25, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def fuzz(case):
            # Every check but positive_data_acceptance: the schema cannot say everything that
            # makes input valid (a parseable `ts`, content that is not only spaces), and those
            # get a 422 naming the problem.
            case.call_and_validate(headers={"Authorization": f"Bearer {admin}"},
                                   excluded_checks=[checks.positive_data_acceptance])

        fuzz()
    served = {(s.labels["route"], s.labels["status"]): s.value
              for metric in app.state.metrics.requests.collect() for s in metric.samples
              if s.name.endswith("_total")}
    assert not [k for k in served if k[1].startswith("5")], served
    routes = {route for route, _ in served}
    assert len(routes) >= 11 and sum(served.values()) >= 11 * 25, served
