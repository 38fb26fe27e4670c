"""What the abuse tests share: a real `geoqr serve` on a loopback port with a temporary data
folder and a small hunt, an HTTP client that reports status, headers and JSON of any answer
(4xx and 5xx included), and a tiny runner.

Every test file is a plain script: `python3 Tests/abuse/test_x.py GEOQR_BIN`. Each function
named `test_*` is one attack; `run(globals())` runs them in file order, prints one line each
and exits non-zero when one failed.

    from abuse_support import Server, run
    def test_something():
        with Server() as server:
            ada = server.join("Ada")
            status, headers, body = server.call("POST", "/api/me/position", {...}, token=ada.token)
            assert status == 200, body
    run(globals())
"""
import http.client, json, os, re, shutil, socket, subprocess, sys, tempfile, threading, time, traceback, uuid

GEOQR = os.environ.get("GEOQR_BIN") or (sys.argv[1] if len(sys.argv) > 1 else ".build/debug/geoqr")

A1 = (40.6303, -8.6575)
B1 = (40.6320, -8.6590)
C1 = (40.6290, -8.6560)
HUNT = {
    "id": "ABUSE", "name": "Abuse test hunt", "radius": 40, "teams": ["Foxes", "Owls"],
    "trails": [{"id": "t", "name": "Test trail", "caches": ["A1", "B1", "C1"]}],
    "caches": [
        {"id": "A1", "name": "Rectorate steps", "lat": A1[0], "lon": A1[1], "message": "Welcome to A1"},
        {"id": "B1", "name": "Library door", "lat": B1[0], "lon": B1[1], "message": "B1: books"},
        {"id": "C1", "name": "Canteen", "lat": C1[0], "lon": C1[1], "message": "C1: lunch"},
    ],
}
SITES = {"A1": A1, "B1": B1, "C1": C1}


class Answer:
    """An HTTP answer: status, headers (lower-case names), the body and its JSON (or None)."""

    def __init__(self, status, headers, raw, seconds):
        self.status, self.headers, self.raw, self.seconds = status, headers, raw, seconds
        try:
            self.json = json.loads(raw) if raw else None
        except ValueError:
            self.json = None

    def __iter__(self):   # status, headers, body = server.call(...)
        return iter((self.status, self.headers, self.json))

    def __repr__(self):
        return f"{self.status} {self.raw[:300]!r}"


class Player:
    def __init__(self, name, pin, token, id):
        self.name, self.pin, self.token, self.id = name, pin, token, id


class Server:
    """One `geoqr serve` of the test hunt on a free loopback port, with its own data folder.

    `args` are extra `geoqr serve` options; `hunt` replaces the test hunt; `limit_files` sets the
    server's descriptor limit (soft and hard) before it starts."""

    def __init__(self, args=(), hunt=None, limit_files=None, load_test=False):
        self.dir = tempfile.mkdtemp(prefix="geoqr-abuse-")
        FOLDERS.append(self.dir)
        self.hunt_file = os.path.join(self.dir, "abuse.json")
        self.data = os.path.join(self.dir, "data")
        self.hunt = hunt or HUNT
        with open(self.hunt_file, "w") as f:
            json.dump(self.hunt, f)
        self.args = list(args) + (["--load-test"] if load_test else [])
        self.limit_files = limit_files
        self.codes = {}
        # Port 0: the server takes free ports and prints them (a port picked here could be
        # taken by another process before the server binds it).
        self.port = None
        self.tls_port = None
        self.base = None
        self.log_path = os.path.join(self.dir, "serve.log")
        self.process = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *failure):
        self.stop()

    def start(self):
        self.log = open(self.log_path, "a")
        limit = self.limit_files

        def lower_limit():
            if limit:
                import resource
                resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
        self.process = subprocess.Popen(
            [GEOQR, "serve", "--hunt", self.hunt_file, "--data", self.data, "--port", str(self.port or 0),
             *(["--tls-port", "0"] if "--tls" in self.args and "--tls-port" not in self.args else []), *self.args],
            stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=lower_limit)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("geoqr serve exited: " + self.output())
            # Each listener prints its port when it is bound, plain HTTP and TLS in no fixed
            # order: wait for both (a TLS port still unknown is None, which connects to port 0).
            wants_tls = "--tls" in self.args
            if self.port is None or (wants_tls and self.tls_port is None):
                self.read_ports()
                if self.port is None or (wants_tls and self.tls_port is None):
                    time.sleep(0.1)
                    continue
            try:
                if self.call("GET", "/healthz", timeout=2).status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("geoqr serve did not answer /healthz: " + self.output())

    def read_ports(self):
        """The ports the server printed it listens on (plain HTTP, and TLS when it serves it)."""
        banner = self.output()
        plain = re.search(r"(?<!s)http://localhost:(\d+)/", banner)
        if plain:
            self.port = int(plain.group(1))
            self.base = f"http://127.0.0.1:{self.port}"
        tls = re.search(r"https://localhost:(\d+)/", banner)
        if tls:
            self.tls_port = int(tls.group(1))

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process:
            self.log.close()

    def output(self):
        with open(self.log_path) as f:
            return f.read()

    # --- the hunt's codes and the game master -------------------------------------------------

    def code(self, cache):
        """The printed code of a cache, made with this data folder's secret (as `geoqr code` makes it)."""
        if cache not in self.codes:
            png = os.path.join(self.dir, cache + ".png")
            subprocess.run([GEOQR, "code", self.hunt_file, cache, "-o", png, "--size", "8", "--data", self.data],
                           check=True, capture_output=True)
            out = subprocess.run([GEOQR, "decode", png], check=True, capture_output=True, text=True).stdout
            self.codes[cache] = out.split(": ", 1)[1].strip()
        return self.codes[cache]

    def code_png(self, cache):
        self.code(cache)
        return os.path.join(self.dir, cache + ".png")

    def admin_token(self):
        """The game master's token, from the admin link `geoqr serve` printed."""
        for _ in range(100):
            found = re.search(r"game master \(keep private\): \S+#token=([0-9a-f]+)", self.output())
            if found:
                return found.group(1)
            time.sleep(0.1)
        raise RuntimeError("geoqr serve printed no admin link: " + self.output())

    def admin(self, method, path, body=None, **options):
        return self.call(method, "/api/admin/" + path.lstrip("/"), body, token=self.admin_token(), **options)

    def start_hunt(self):
        answer = self.admin("POST", "hunt/start")
        assert answer.status < 300, answer

    def data_bytes(self):
        """Bytes the data folder holds, every file in it."""
        total = 0
        for folder, _, files in os.walk(self.data):
            for name in files:
                try:
                    total += os.path.getsize(os.path.join(folder, name))
                except OSError:
                    pass
        return total

    def ledger_export(self, *options):
        """`geoqr ledger export` of this hunt's ledger, as text."""
        out = subprocess.run([GEOQR, "ledger", "export", "--data", self.data, *options],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    # --- players ------------------------------------------------------------------------------

    def join(self, name=None, pin="4321", team=None, headers=None):
        name = name or "P-" + uuid.uuid4().hex[:8]
        body = {"name": name, "pin": pin}
        if team:
            body["team"] = team
        answer = self.call("POST", "/api/join", body, headers=headers)
        assert answer.status == 201, f"join {name!r}: {answer}"
        return Player(name, pin, answer.json["token"], answer.json["player"]["id"])

    def claim(self, player, cache, where=None, **extra):
        where = where or SITES[cache]
        body = {"code": self.code(cache), "latitude": where[0], "longitude": where[1], "accuracy": 5, **extra}
        return self.call("POST", "/api/claims", body, token=player.token)

    # --- HTTP ---------------------------------------------------------------------------------

    def call(self, method, path, body=None, token=None, headers=None, content_type=None, timeout=30):
        """One request; never raises for an HTTP status. `body` is JSON unless it is bytes."""
        all_headers = dict(headers or {})
        if token:
            all_headers["Authorization"] = "Bearer " + token
        data = None
        if body is not None:
            if isinstance(body, (bytes, bytearray)):
                data = bytes(body)
                all_headers.setdefault("Content-Type", content_type or "application/octet-stream")
            else:
                data = json.dumps(body).encode()
                all_headers.setdefault("Content-Type", "application/json")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        started = time.monotonic()
        try:
            connection.request(method, path, body=data, headers=all_headers)
            response = connection.getresponse()
            raw = response.read()
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, raw, time.monotonic() - started)
        finally:
            connection.close()

    def timed_health(self, timeout=30):
        """Seconds `/healthz` took to answer 200 (or the timeout when it did not)."""
        try:
            answer = self.call("GET", "/healthz", timeout=timeout)
            return answer.seconds if answer.status == 200 else timeout
        except OSError:
            return timeout


def multipart(fields, boundary=None):
    """A multipart/form-data body: `fields` is a list of (name, value) or (name, value,
    filename, content type); returns (body bytes, Content-Type)."""
    boundary = boundary or "----geoqr" + uuid.uuid4().hex
    parts = []
    for field in fields:
        name, value = field[0], field[1]
        value = value.encode() if isinstance(value, str) else value
        disposition = f'form-data; name="{name}"'
        head = ""
        if len(field) > 2:
            disposition += f'; filename="{field[2]}"'
            head = f"Content-Type: {field[3]}\r\n"
        parts.append(f"--{boundary}\r\nContent-Disposition: {disposition}\r\n{head}\r\n".encode() + value + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), "multipart/form-data; boundary=" + boundary


def in_background(work, *args):
    """Runs `work(*args)` on a thread; returns the thread (its result in `.result`, an error in `.error`)."""
    def body():
        try:
            thread.result = work(*args)
        except BaseException as error:   # reported by the test that joins it
            thread.error = error
    thread = threading.Thread(target=body, daemon=True)
    thread.result, thread.error = None, None
    thread.start()
    return thread


# The servers' folders (hunt, data, the server's log): removed when every test of the file
# passed, kept to read when one failed. (A test may stop and start one server again.)
FOLDERS = []


def run(namespace):
    """Runs every `test_*` function of a test file in order; exits 1 when one failed."""
    tests = [(name, f) for name, f in namespace.items() if name.startswith("test_") and callable(f)]
    failed = 0
    script = os.path.basename(sys.argv[0])
    for name, test in tests:
        started = time.monotonic()
        try:
            test()
            print(f"ok    {script} {name} ({time.monotonic() - started:.1f} s)", flush=True)
        except Exception:
            failed += 1
            print(f"FAIL  {script} {name} ({time.monotonic() - started:.1f} s)", flush=True)
            traceback.print_exc()
    if not failed:
        for folder in FOLDERS:
            shutil.rmtree(folder, ignore_errors=True)
    sys.exit(1 if failed else 0)
