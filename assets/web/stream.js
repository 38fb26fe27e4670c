// The hunt's live news, as server-sent events read with fetch: the one stream client of the
// player's app (`/api/live`) and of the control room (`/api/admin/live`). A dropped stream is
// opened again after the server's `retry:` time, sending back the last `id:` heard as
// Last-Event-ID (as EventSource would), so the server first tells what the drop missed; a
// refused one (429: too many opened) after the server's Retry-After; a 401 or 403 ends it.

/// Listens to the stream at `path` until `stop()`, the token in the Authorization header:
/// `news[name](data)` for each event (its data parsed as JSON), `opened()` when a stream opens,
/// `dropped()` when one ends, `refused(status)` when the server answers with an error.
///
///     const stream = listen("/api/admin/live", { token, news: { claim: c => addClaim(c) } });
///     stream.stop();
export function listen(path, { token, news, opened, dropped, refused }) {
  let stopped = false, controller = null, lastId = null, retry = 3000;

  // One event per blank line: `event:` names it ("message" when none), `data:` lines carry it.
  async function read(body) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "", name = "message", data = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      const lines = buffer.split("\n");
      buffer = lines.pop();
      for (const line of lines.map(l => l.replace(/\r$/, ""))) {
        if (line === "") {
          if (data.length) tell(name, data.join("\n"));
          name = "message"; data = [];
          continue;
        }
        if (line.startsWith(":")) continue;   // a comment: the server's keep-alive
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") name = text;
        else if (field === "data") data.push(text);
        else if (field === "id") lastId = text;
        else if (field === "retry" && /^\d+$/.test(text)) retry = Number(text);
      }
    }
  }

  function tell(name, data) {
    const listener = Object.hasOwn(news, name) ? news[name] : null;
    if (!listener) return;
    try { listener(JSON.parse(data)); } catch (error) { console.error(error); }
  }

  (async () => {
    while (!stopped) {
      controller = new AbortController();
      let wait = retry;
      try {
        const headers = { Accept: "text/event-stream", Authorization: "Bearer " + token };
        if (lastId !== null) headers["Last-Event-ID"] = lastId;
        const response = await fetch(path, { headers, signal: controller.signal });
        if (!response.ok) {
          refused?.(response.status);
          if (response.status === 401 || response.status === 403) return;
          wait = 1000 * Number(response.headers.get("Retry-After")) || retry;
        } else {
          opened?.();
          await read(response.body);
        }
      } catch { /* a dropped connection: try again below */ }
      dropped?.();
      if (!stopped) await new Promise(resolve => setTimeout(resolve, wait));
    }
  })();
  return { stop() { stopped = true; controller?.abort(); } };
}
