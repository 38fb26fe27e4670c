"""Connections and the data folder (issue 24 §3 and §8): idle sockets, slow clients, event
streams, resumes from the beginning, plain HTTP beyond loopback, the data folder's modes.

    python3 Tests/abuse/test_connections.py GEOQR_BIN
"""
import json, os, resource, select, socket, stat, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse_support import Server, in_background, run


def raise_own_file_limit():
    """This client opens more sockets than 1,024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096 and hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))


def connect(server):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    return s


def readable(s):
    """True when the socket has something to read (or its end), without waiting (poll: a
    client of 1,100 sockets has descriptors past select's 1,024)."""
    poller = select.poll()
    poller.register(s, select.POLLIN)
    return bool(poller.poll(0))


def closed_by_server(s):
    """True when the server closed this socket (EOF or reset), without waiting."""
    try:
        if not readable(s):
            return False
        return s.recv(65536, socket.MSG_PEEK) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True


def stream_ended(s, seen):
    """True when the server ended this event stream: the chunked body's last chunk, or EOF.
    `seen` holds what was read so far (the opening is `seen` already)."""
    while True:
        try:
            if not readable(s):
                return seen.endswith(b"\r\n0\r\n\r\n")
            chunk = s.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            return True
        if not chunk:
            return True
        seen += chunk


def open_stream(server, path, headers=()):
    """A raw GET of an event stream: the socket and the status line with the first bytes."""
    s = connect(server)
    head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n" + "".join(f"{h}\r\n" for h in headers) + "\r\n"
    s.sendall(head.encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return s, data


def read_until(s, marker, seconds):
    """What the socket brings until `marker` is in it, EOF, or `seconds` pass."""
    s.settimeout(0.5)
    data, deadline = b"", time.monotonic() + seconds
    while marker not in data and time.monotonic() < deadline:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data


def status_of(data):
    line = data.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) > 1 else 0


def test_1100_idle_sockets_under_1024_descriptors_do_not_keep_healthz_out():
    raise_own_file_limit()
    with Server(limit_files=1024) as server:
        sockets = []
        try:
            for _ in range(1100):
                sockets.append(connect(server))
            started = time.monotonic()
            seconds = server.timed_health(timeout=10)
            assert seconds < 1.0, f"/healthz took {seconds:.2f} s behind 1,100 idle sockets"
            # The longest idle made room: the server holds fewer than it has descriptors for.
            time.sleep(0.5)
            shed = sum(closed_by_server(s) for s in sockets)
            assert shed >= 1100 - 1024, f"only {shed} of 1,100 idle sockets were closed under a 1,024 limit"
            print(f"      /healthz in {seconds * 1000:.0f} ms behind 1,100 idle sockets (ulimit -n 1024); "
                  f"{shed} idle sockets closed to make room", flush=True)
            # And a player can still join and play.
            ada = server.join("Ada")
            assert server.claim(ada, "A1").status == 200
            assert time.monotonic() - started < 10
        finally:
            for s in sockets:
                s.close()
        assert "limit" in server.output() and "1024" in server.output(), "the server says it runs with a low limit"


def test_200_streams_on_one_token_are_capped():
    with Server() as server:
        ada = server.join("Ada")
        opened, refused = [], []
        for _ in range(200):
            s, data = open_stream(server, f"/api/live?token={ada.token}")
            if status_of(data) == 200:
                opened.append((s, data))
            else:
                body = data.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in data else b""
                if b"}" not in body:
                    body += read_until(s, b"}", 2)
                refused.append((status_of(data), body))
                s.close()
        # Stream opens are rate-limited: a burst of 20, then 429 with a JSON error.
        assert len(opened) <= 20, f"{len(opened)} streams opened at once"
        assert refused and all(status == 429 for status, _ in refused), refused[:3]
        assert json.loads(refused[0][1].decode())["error"] == "rate-limited", refused[0]
        # Of those opened, only the newest 4 stay: each new one ended the token's oldest.
        time.sleep(1)
        still_open = [s for s, seen in opened if not stream_ended(s, seen)]
        assert len(still_open) <= 4, f"{len(still_open)} streams of one token still open"
        assert still_open and still_open[-1] is opened[-1][0], "the newest stream stays open"
        print(f"      {len(opened)} of 200 stream opens admitted, {len(refused)} refused (429), {len(still_open)} left open", flush=True)
        for s, _ in opened:
            s.close()
        assert server.timed_health() < 1.0


def test_resume_from_zero_on_a_long_ledger_is_a_fresh_state_not_a_replay():
    # --load-test: no join limits, cheap PINs, so a ledger of 700 events is made in seconds.
    with Server(load_test=True) as server:
        players = [server.join(f"Runner {i}") for i in range(700)]
        ada = players[0]
        s, data = open_stream(server, f"/api/live?token={ada.token}&lastEventId=0")
        assert status_of(data) == 200, data
        data += read_until(s, b"event: fresh-state", 10)
        data += read_until(s, b"\n\n", 1) if b"event: fresh-state" in data else b""
        s.close()
        text = data.decode(errors="replace")
        assert "event: fresh-state" in text, text[-500:]
        ids = [line for line in text.split("\n") if line.startswith("id: ")]
        assert len(ids) == 1, f"{len(ids)} events replayed: {ids[:5]}"
        head = int(ids[0][4:])
        assert head >= 700, ids
        # A resume from a few events back is still told event by event.
        s, data = open_stream(server, f"/api/live?token={ada.token}&lastEventId={head - 3}")
        assert status_of(data) == 200
        server.claim(ada, "A1")
        data += read_until(s, b"event: find", 10)
        s.close()
        assert b"event: find" in data and b"fresh-state" not in data, data[-400:]


def test_slow_clients_are_closed_but_event_streams_stay_open():
    with Server(args=["--tls", "auto"]) as server:
        tls_port = server.tls_port
        # A socket to the TLS listener that never starts its handshake: the same idle timeout.
        tls_idle = socket.create_connection(("127.0.0.1", tls_port), timeout=10)
        ada = server.join("Ada")
        stream, head = open_stream(server, f"/api/live?token={ada.token}")
        assert status_of(head) == 200

        def trickle(first, then, seconds):
            """Sends `first`, then one byte of `then` a second; answers when the server closed it."""
            s = connect(server)
            s.sendall(first)
            started = time.monotonic()
            for byte in then:
                if time.monotonic() - started > seconds:
                    return None
                try:
                    s.sendall(bytes([byte]))
                except OSError:
                    return time.monotonic() - started
                time.sleep(1)
                if closed_by_server(s):
                    return time.monotonic() - started
            return None
        # Slow-loris: a head that never ends; a body of 10 KB at a byte a second.
        head_loris = in_background(trickle, b"GET /healthz HTTP/1.1\r\nHost: x\r\n", b"X-a: " + b"b" * 200, 60)
        body_loris = in_background(trickle, b"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                   b"Content-Length: 10000\r\n\r\n", b"{" * 200, 60)
        head_loris.join(); body_loris.join()
        assert head_loris.error is None and body_loris.error is None
        assert head_loris.result is not None and head_loris.result < 30, f"slow head held {head_loris.result}"
        assert body_loris.result is not None and body_loris.result < 30, f"slow body held {body_loris.result}"
        for _ in range(50):
            if closed_by_server(tls_idle):
                break
            time.sleep(0.1)
        assert closed_by_server(tls_idle), "an idle socket on the TLS listener stays open"
        tls_idle.close()
        # The event stream, idle longer than the idle timeout all along, is still open and
        # heard its keep-alive comments.
        heard = read_until(stream, b"event: ping", 1)
        assert not closed_by_server(stream), "the event stream was closed"
        assert b"event: ping" in heard or b"ping" in read_until(stream, b"ping", 16)
        stream.close()
        print(f"      slow head closed after {head_loris.result:.0f} s, slow body after {body_loris.result:.0f} s", flush=True)


def listening_addresses(port):
    """The IPv4 and IPv6 addresses a TCP port listens on, from /proc/net."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                local, state = line.split()[1], line.split()[3]
                address, hex_port = local.split(":")
                if state == "0A" and int(hex_port, 16) == port:
                    found.append(address)
    return found


def test_plain_http_listens_beyond_loopback_only_when_asked():
    with Server() as server:
        assert listening_addresses(server.port) == ["0100007F"], listening_addresses(server.port)
        assert "--plain-http-on-lan" in server.output()
    with Server(args=["--plain-http-on-lan"]) as server:
        assert listening_addresses(server.port) == ["00000000"], listening_addresses(server.port)
        assert "anyone on the network can read the PINs" in server.output(), server.output()
    # A proxy on another machine needs the option too, and says so in one line.
    server = Server()
    import subprocess
    from abuse_support import GEOQR
    out = subprocess.run([GEOQR, "serve", "--hunt", server.hunt_file, "--data", server.data, "--behind-proxy", "10.0.0.5"],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode != 0 and "--plain-http-on-lan" in out.stderr, out.stderr


def modes(root):
    """Every entry under `root` (not following links) with its permission bits."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            found[os.path.relpath(path, root)] = stat.S_IMODE(os.lstat(path).st_mode)
    found["."] = stat.S_IMODE(os.stat(root).st_mode)
    return found


def test_data_folder_is_private_whatever_was_there_before():
    server = Server()
    os.makedirs(server.data, mode=0o755)
    os.chmod(server.data, 0o755)
    with server:   # a first run makes the ledger, secrets, sessions
        ada = server.join("Ada")
        assert server.claim(ada, "A1").status == 200
    # As a `cp -r`, an older geoqr or a 0022 umask would leave them: readable by everyone.
    for path in modes(server.data):
        full = os.path.join(server.data, path)
        if not os.path.islink(full):
            os.chmod(full, 0o755 if os.path.isdir(full) else 0o644)
    # And a link to a file outside, which must be neither followed nor changed.
    outside = os.path.join(server.dir, "outside.txt")
    open(outside, "w").write("not geoqr's\n")
    os.chmod(outside, 0o644)
    os.symlink(outside, os.path.join(server.data, "server", "link-to-outside"))
    with server:
        found = modes(server.data)
        bo = server.join("Bo")
        assert server.claim(bo, "A1").status == 200
        found_after = modes(server.data)
        assert "made 0700" in server.output() and "made 0600" in server.output(), server.output()
    for path, mode in {**found, **found_after}.items():
        full = os.path.join(server.data, path)
        if os.path.islink(full):
            continue
        wanted = 0o700 if os.path.isdir(full) else 0o600
        assert mode == wanted, f"{path} is {oct(mode)}, not {oct(wanted)}"
    assert any(p.startswith("ledger.sqlite") for p in found_after)
    assert stat.S_IMODE(os.stat(outside).st_mode) == 0o644, "a link's target outside the data folder was changed"


run(globals())
