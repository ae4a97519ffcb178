"""The helm chart (helm/lurker) renders and validates: `helm lint --strict`, `helm template` with a
few value combinations, each checked by `kubeconform -strict` against the Kubernetes JSON schemas
of kubernetes-validate (offline), plus what the manifests must say (probes, secret refs, replicas,
hooks). helm and kubeconform are built from the Go module proxy by .ci/chart-tools and cached."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from bot.config import BotConfig

ROOT = Path(__file__).resolve().parents[1]
CHART = ROOT / "helm" / "lurker"
TOOLS = ROOT / ".ci" / "chart-tools"
SCHEMA_TEMPLATE = ("{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/"
                   "{{ .ResourceKind }}{{ .KindSuffix }}.json")

FULL = [  # everything on: bots, external Redis and Elasticsearch secrets, HPA on CPU and queue
    "bots.slack.enabled=true", "bots.slack.existingSecret=slack-tokens",
    "bots.discord.enabled=true", "bots.discord.existingSecret=discord-tokens",
    "elasticsearch.url=https://es.example:9243", "elasticsearch.existingSecret=es-creds",
    "redis.enabled=false", "redis.external.existingSecret=redis-url",
    "anthropic.existingSecret=anthropic", "api.keysSecret=lurker-api-keys",
    "worker.autoscaling.enabled=true", "worker.autoscaling.queueLength.enabled=true",
    "image.tag=1.2.3",
]


@pytest.fixture(scope="session")
def tools() -> dict[str, str]:
    done = subprocess.run([str(TOOLS), "ensure"], capture_output=True, text=True, timeout=1200)
    if done.returncode:
        pytest.fail(f".ci/chart-tools ensure failed:\n{done.stderr[-3000:]}", pytrace=False)
    return dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)


def helm(tools, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([tools["helm"], *args], capture_output=True, text=True, timeout=120)


def render_text(tools, *sets: str, version: str = "1.33.0") -> str:
    args = ["template", "lurker", str(CHART), "--namespace", "chat", "--kube-version", version]
    for item in sets:
        args += ["--set", item]
    done = helm(tools, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def kubeconform(tools, manifests: str, version: str) -> subprocess.CompletedProcess:
    location = str(Path(tools["schemas"]) / SCHEMA_TEMPLATE)
    return subprocess.run([tools["kubeconform"], "-strict", "-summary", "-kubernetes-version",
                           version, "-schema-location", location, "-"], input=manifests,
                          capture_output=True, text=True, timeout=120)


def render(tools, *sets: str) -> dict[tuple[str, str], dict]:
    """Render with `sets`, validate for every Kubernetes version, return {(kind, name): doc}."""
    for version in tools["kube_versions"].split():
        text = render_text(tools, *sets, version=version)
        checked = kubeconform(tools, text, version)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "Invalid: 0, Errors: 0, Skipped: 0" in checked.stdout, checked.stdout
    return {(d["kind"], d["metadata"]["name"]): d for d in yaml.safe_load_all(text) if d}


def container(doc: dict) -> dict:
    (only,) = doc["spec"]["template"]["spec"]["containers"]
    return only


def env(doc: dict) -> dict[str, dict]:
    return {e["name"]: e for e in container(doc)["env"]}


def test_lint_passes_strict(tools):
    done = helm(tools, "lint", "--strict", str(CHART))
    assert done.returncode == 0, done.stdout + done.stderr
    done = helm(tools, "lint", "--strict", str(CHART), *sum((["--set", s] for s in FULL), []))
    assert done.returncode == 0, done.stdout + done.stderr


def test_defaults_render_api_workers_redis_and_the_migrate_hook(tools):
    docs = render(tools)
    assert sorted(docs) == [
        ("ConfigMap", "lurker-config"), ("Deployment", "lurker-api"),
        ("Deployment", "lurker-redis"), ("Deployment", "lurker-worker"),
        ("Job", "lurker-migrate"), ("Job", "lurker-scrub"), ("PodDisruptionBudget", "lurker-api"),
        ("Service", "lurker-api"), ("Service", "lurker-redis")]
    api = docs["Deployment", "lurker-api"]
    main = container(api)
    assert main["args"] == ["api", "--host", "0.0.0.0", "--port", "8080"]
    assert main["ports"] == [{"name": "http", "containerPort": 8080, "protocol": "TCP"}]
    assert main["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert main["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert docs["Service", "lurker-api"]["spec"]["ports"][0]["targetPort"] == "http"
    worker = docs["Deployment", "lurker-worker"]
    assert worker["spec"]["replicas"] == 2
    assert container(worker)["args"][:3] == ["worker", "--concurrency", "2"]
    assert container(worker)["args"][-2:] == ["--metrics-port", "9808"]
    assert container(worker)["ports"] == [{"name": "metrics", "containerPort": 9808}]
    for doc in (api, worker, docs["Job", "lurker-migrate"], docs["Job", "lurker-scrub"]):
        variables = env(doc)
        assert variables["LURKER_STORE"]["value"] == "http://elasticsearch-master:9200"
        assert variables["LURKER_BROKER_URL"]["value"] == "redis://lurker-redis:6379/0"
        assert not {"LURKER_ES_USER", "LURKER_ES_PASSWORD", "ANTHROPIC_API_KEY"} & set(variables)
        assert doc["spec"]["template"]["spec"]["automountServiceAccountToken"] is False
        assert container(doc)["securityContext"]["readOnlyRootFilesystem"] is True
    job = docs["Job", "lurker-migrate"]
    assert container(job)["args"] == ["migrate"]
    assert job["metadata"]["annotations"]["helm.sh/hook"] == "pre-install,pre-upgrade"
    assert job["spec"]["template"]["spec"]["restartPolicy"] == "Never"
    # after an upgrade, the new redaction rules over what the older ones stored
    scrub = docs["Job", "lurker-scrub"]
    assert container(scrub)["args"] == ["scrub", "--all"]
    assert scrub["metadata"]["annotations"]["helm.sh/hook"] == "post-upgrade"
    # The default bot config is one the bot accepts.
    config = BotConfig.from_toml(docs["ConfigMap", "lurker-config"]["data"]["bot.toml"])
    assert config.sink == "queue"


def test_everything_enabled_wires_secrets_bots_and_autoscaling(tools):
    docs = render(tools, *FULL)
    assert ("Deployment", "lurker-redis") not in docs
    for platform, tokens in (("slack", {"SLACK_BOT_TOKEN", "SLACK_APP_TOKEN"}),
                             ("discord", {"DISCORD_BOT_TOKEN"})):
        bot = docs["Deployment", f"lurker-{platform}"]
        assert bot["spec"]["replicas"] == 1 and bot["spec"]["strategy"] == {"type": "Recreate"}
        assert container(bot)["args"] == [platform]
        assert container(bot)["image"] == "ghcr.io/lurker-memory/lurker:1.2.3"
        variables = env(bot)
        for name in tokens:
            assert variables[name]["valueFrom"]["secretKeyRef"]["name"] == f"{platform}-tokens"
        assert variables["LURKER_BOT_CONFIG"]["value"] == "/etc/lurker/bot.toml"
        assert variables["LURKER_EVENT_SPOOL"]["value"].startswith("/var/lib/lurker/")
        assert {"name": "config", "mountPath": "/etc/lurker/bot.toml", "subPath": "bot.toml",
                "readOnly": True} in container(bot)["volumeMounts"]
    for name in ("lurker-api", "lurker-worker", "lurker-slack"):
        variables = env(docs["Deployment", name])
        assert variables["LURKER_STORE"]["value"] == "https://es.example:9243"
        assert variables["LURKER_ES_PASSWORD"]["valueFrom"]["secretKeyRef"] == {
            "name": "es-creds", "key": "password", "optional": True}
        assert variables["LURKER_ES_API_KEY"]["valueFrom"]["secretKeyRef"]["key"] == "api-key"
        assert variables["LURKER_BROKER_URL"]["valueFrom"]["secretKeyRef"] == {
            "name": "redis-url", "key": "url"}
        assert variables["ANTHROPIC_API_KEY"]["valueFrom"]["secretKeyRef"]["name"] == "anthropic"
    assert env(docs["Deployment", "lurker-api"])["LURKER_API_KEYS_FILE"]["value"] == \
        "/etc/lurker/keys/keys.json"
    assert "replicas" not in docs["Deployment", "lurker-worker"]["spec"]  # the HPA owns it
    hpa = docs["HorizontalPodAutoscaler", "lurker-worker"]["spec"]
    assert hpa["scaleTargetRef"]["name"] == "lurker-worker"
    assert [m["type"] for m in hpa["metrics"]] == ["Resource", "External"]
    assert hpa["metrics"][1]["external"]["metric"] == {
        "name": "lurker_queue_length", "selector": {"matchLabels": {"queue": "lurker.events"}}}
    assert not [key for key in docs if key[0] == "Secret"]  # existing Secrets only


def test_credentials_given_as_values_go_into_a_hook_secret(tools):
    docs = render(tools, "elasticsearch.username=lurker", "elasticsearch.password=s3cret",
                  "anthropic.apiKey=sk-test", "redis.persistence.enabled=true")
    secret = docs["Secret", "lurker-credentials"]
    assert secret["stringData"] == {"LURKER_ES_USER": "lurker", "LURKER_ES_PASSWORD": "s3cret",
                                    "ANTHROPIC_API_KEY": "sk-test"}
    # It must exist before the migrate Job (a pre-install hook) runs.
    assert secret["metadata"]["annotations"]["helm.sh/hook-weight"] == "-10"
    variables = env(docs["Job", "lurker-migrate"])
    assert variables["LURKER_ES_PASSWORD"]["valueFrom"]["secretKeyRef"] == {
        "name": "lurker-credentials", "key": "LURKER_ES_PASSWORD"}
    assert "LURKER_ES_API_KEY" not in variables
    assert ("PersistentVolumeClaim", "lurker-redis") in docs
    redis = container(docs["Deployment", "lurker-redis"])
    assert redis["args"][redis["args"].index("--appendonly") + 1] == "yes"


@pytest.mark.parametrize("sets, message", [
    (["redis.enabled=false"], "redis.external.url"),
    (["bots.slack.enabled=true"], "bots.slack.existingSecret"),
    (["elasticsearch.url="], "elasticsearch.url is required"),
    (["worker.autoscaling.enabled=true", "worker.autoscaling.targetCPUUtilizationPercentage="],
     "needs targetCPUUtilizationPercentage or queueLength.enabled"),
    # values.schema.json: wrong types and typos are refused before anything renders
    (["worker.replicas=two"], "/worker/replicas"),
    (["bot.slack.enabled=true"], "additional properties 'bot' not allowed"),
    (["elasticsearch.url=es.example:9200"], "/elasticsearch/url"),
    (["redis.external.url=localhost:6379"], "/redis/external/url"),
])
def test_incomplete_values_fail_with_a_clear_message(tools, sets, message):
    args = ["template", "lurker", str(CHART)]
    for item in sets:
        args += ["--set", item]
    done = helm(tools, *args)
    assert done.returncode != 0 and message in done.stderr, done.stderr


def test_kubeconform_rejects_what_kubernetes_would(tools):
    """The validation can fail: a string replica count and an unknown field are refused."""
    version = tools["kube_versions"].split()[-1]
    good = render_text(tools, version=version)
    assert "  replicas: 2\n" in good
    checked = kubeconform(tools, good.replace("  replicas: 2\n", "  replicas: two\n", 1), version)
    assert checked.returncode != 0 and "replicas" in checked.stdout, checked.stdout
    typo = good.replace("readinessProbe:", "readinessProbes:", 1)
    checked = kubeconform(tools, typo, version)
    assert checked.returncode != 0 and "readinessProbes" in checked.stdout, checked.stdout


def test_worker_metrics_can_be_turned_off(tools):
    worker = container(render(tools, "worker.metricsPort=null")["Deployment", "lurker-worker"])
    assert "--metrics-port" not in worker["args"] and "ports" not in worker
