/* Phones for the capacity benchmark (issue 27): N players, each holding its live event stream
 * open (GET /api/live?token=…) and playing as a phone does, on one thread with epoll and
 * non-blocking sockets, so that one generator keeps up with a server that serves ten thousand.
 *
 *   gcc -O2 -o phones phones.c
 *   phones --url http://127.0.0.1:8080[,http://…] --players players.txt --codes codes.txt
 *          --count N [--duration 60] [--round R] [--frame no-code.jpg] [--server-pid PID,…]
 *
 * players.txt: `id token` lines (geoqr_load.py players --txt); codes.txt: `cache code lat lon`
 * lines (serve.sh's make_codes). Phones take turns over the URLs.
 *
 * Each phone: opens its stream (the ramp: all streams open before anything is measured), then,
 * spread evenly over the phones, posts its position every 10 s (/api/me/position, near the
 * cache it will claim), refreshes its cache list every 30 s (/api/caches), claims a cache by
 * link every --claim-every s (at the cache's coordinates; round R picks the cache, so runs one
 * after the other make new finds), and one phone in 100 aims its camera (a no-code frame to
 * /api/claims/frame once a second, skipped while its last frame is unanswered, as the camera
 * page sends one at a time). Requests go over a pool of keep-alive connections per
 * server (--pool), and each camera phone's frames over a connection of its own, as a phone
 * has: a frame that waits for a picture worker holds up no other phone's request. (Sharing the
 * pool, up to 100 frames in flight took its 64 connections whenever frames were slow, and every
 * kind of request then showed the frames' p99.) A request's latency runs from when the phone
 * wanted to send it.
 *
 * The streams are read as bytes: chunked framing undone, SSE lines parsed, every event counted
 * by name (events and bytes). Other phones hear of a find by the `finds` digest every stream
 * gets a few times a second: its `through` is the seq of the newest find it covers, and a claim's
 * answer names its find (`"find":"F<seq>"`), so a phone has heard of a find at its first digest
 * whose `through` reaches the find's seq. That delay is from the claim's answer (from its send
 * when the digest came first). A phone whose stream never covers a find counts as late; a new
 * find whose answer names no seq counts as unmatched. (A server from before the digests sent
 * every find to every stream, in order, with its seq as id: when no stream hears a digest, those
 * ids stand for `through`.) One JSON line on stdout at the end;
 * progress on stderr. With PHONES_SLOW=1 in the environment, each measured request answered
 * more than 300 ms after the phone wanted it is named on stderr too, with how long it waited
 * for a connection of the pool and how long the server took (when a stall happened, and where);
 * PHONES_SLOW=MS (more than 1) names those answered more than MS ms after.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

static void die(const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); fputs("phones: ", stderr); vfprintf(stderr, fmt, ap); fputc('\n', stderr); exit(1);
}

static int64_t now_us(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---------- latency histograms: 100 µs buckets up to 120 s, and "never" ---------- */
#define HBUCKETS 1200001
typedef struct { uint32_t *b; uint64_t n; } Hist;
static void hist_init(Hist *h) { h->b = calloc(HBUCKETS, sizeof(uint32_t)); h->n = 0; }
static void hist_add(Hist *h, int64_t us) {
    int64_t i = us < 0 ? 0 : us / 100;
    if (i >= HBUCKETS - 1) i = HBUCKETS - 2;
    h->b[i]++; h->n++;
}
static void hist_never(Hist *h, uint64_t count) { h->b[HBUCKETS - 1] += count; h->n += count; }
/* The q-quantile in ms; -1 when it falls among the "never". */
static double hist_q(const Hist *h, double q) {
    if (h->n == 0) return 0;
    uint64_t want = (uint64_t)(q * (double)h->n), seen = 0;
    if (want >= h->n) want = h->n - 1;
    for (int i = 0; i < HBUCKETS; i++) {
        seen += h->b[i];
        if (seen > want) return i == HBUCKETS - 1 ? -1 : (i + 0.5) / 10.0;
    }
    return -1;
}
static uint64_t hist_below(const Hist *h, int64_t us) {
    uint64_t s = 0;
    for (int64_t i = 0; i < us / 100 && i < HBUCKETS - 1; i++) s += h->b[i];
    return s;
}

/* ---------- input ---------- */
typedef struct { char id[64], token[128]; } Player;
typedef struct { char id[32], code[160]; double lat, lon; } Cache;
static Player *players; static int nplayers;
static Cache caches[256]; static int ncaches;

static void read_players(const char *path, int want) {
    FILE *f = fopen(path, "r"); if (!f) die("cannot read %s", path);
    players = calloc(want, sizeof(Player));
    char line[512];
    while (nplayers < want && fgets(line, sizeof line, f))
        if (sscanf(line, "%63s %127s", players[nplayers].id, players[nplayers].token) == 2) nplayers++;
    fclose(f);
    if (nplayers < want) die("%s has %d players, %d wanted", path, nplayers, want);
}
static void read_codes(const char *path) {
    FILE *f = fopen(path, "r"); if (!f) die("cannot read %s", path);
    char line[512];
    while (ncaches < 256 && fgets(line, sizeof line, f)) {
        Cache *c = &caches[ncaches];
        if (sscanf(line, "%31s %159s %lf %lf", c->id, c->code, &c->lat, &c->lon) == 4) ncaches++;
    }
    fclose(f);
    if (!ncaches) die("no codes in %s", path);
}

/* ---------- servers ---------- */
typedef struct { struct sockaddr_in addr; char host[64]; } Server;
static Server servers[16]; static int nservers;
static void parse_urls(char *list) {
    for (char *u = strtok(list, ","); u && nservers < 16; u = strtok(NULL, ",")) {
        int a, b, c, d, port;
        if (sscanf(u, "http://%d.%d.%d.%d:%d", &a, &b, &c, &d, &port) != 5) die("URL %s: want http://IPv4:PORT", u);
        Server *s = &servers[nservers++];
        s->addr.sin_family = AF_INET; s->addr.sin_port = htons(port);
        s->addr.sin_addr.s_addr = htonl((uint32_t)a << 24 | b << 16 | c << 8 | d);
        snprintf(s->host, sizeof s->host, "%d.%d.%d.%d:%d", a, b, c, d, port);
    }
}

static int src_addrs = 1;   /* bind sockets to 127.0.0.1 … 127.0.0.K (more than 28k sockets) */
static unsigned next_src;
static int open_socket(const Server *s) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (src_addrs > 1) {
        struct sockaddr_in src = { .sin_family = AF_INET };
        src.sin_addr.s_addr = htonl(0x7f000001 + next_src++ % src_addrs);
        setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
        if (bind(fd, (struct sockaddr *)&src, sizeof src) < 0) { close(fd); return -1; }
    }
    if (connect(fd, (const struct sockaddr *)&s->addr, sizeof s->addr) < 0 && errno != EINPROGRESS) { close(fd); return -1; }
    return fd;
}

/* ---------- counters ---------- */
static int measuring;
static int64_t t0_us, tend_us;
typedef struct { char name[40]; uint64_t events, bytes; } EventName;
static EventName names[64]; static int nnames;
static uint64_t stream_bytes, streams_ended, stream_errors, ramp_errors, find_unmatched;

static void count_event(const char *name, uint64_t bytes) {
    if (!measuring) return;
    int i;
    for (i = 0; i < nnames; i++) if (!strcmp(names[i].name, name)) break;
    if (i == nnames) { if (nnames == 64) i = 63; else { snprintf(names[i].name, sizeof names[i].name, "%s", name); nnames++; } }
    names[i].events++; names[i].bytes += bytes;
}

enum { K_POSITION, K_LIST, K_CLAIM, K_FRAME, NKINDS };
static const char *kind_names[NKINDS] = { "position", "caches", "claim", "frame" };
typedef struct { uint64_t sent, ok, non2xx, conn_errors; Hist lat; uint64_t status[6]; } KindStats;
static KindStats kinds[NKINDS];
static uint64_t claims_new, claims_repeat, claims_other;
static uint8_t *frame_busy; static uint64_t frames_skipped;   /* a phone sends its next frame once the last is answered */
static char samples[5][160]; static int nsamples;   /* the first failed answers, for the JSON */

/* ---------- claims and their news ---------- */
typedef struct { int phone, cache; int64_t t_send, t_answer; int claimable; int64_t seq; } Claim;   /* seq: its find's, 0 unknown */
static Claim *claims; static int nclaims, claims_cap;
static Hist news;
static uint64_t news_expected_missing;

/* Each phone's digests that told it of newer finds than any before (so `through` only grows,
 * even over a reconnected stream that hears an older one again), recorded while measuring. */
typedef struct { int64_t through, t; } Digest;
typedef struct { Digest *d; uint32_t n, cap; } Digests;
static Digests *heard;   /* per phone */
/* A server from before the digests (the commit before, measured side by side) sends every find
 * to every stream as a `find` event with its seq as id, in seq order: its ids are kept the same
 * way, and used only when no stream heard a digest. */
static Digests *heard_ids; static int digests_seen;

static void digest_heard(Digests *all, int phone, int64_t through, int64_t t) {
    Digests *h = &all[phone];
    if (h->n && through <= h->d[h->n - 1].through) return;
    if (h->n == h->cap) { h->cap = h->cap ? h->cap * 2 : 64; h->d = realloc(h->d, h->cap * sizeof(Digest)); }
    h->d[h->n++] = (Digest){ through, t };
}

/* The integer after `prefix` in a text (first occurrence), -1 when there is none. */
static int64_t int_after(const char *text, size_t len, const char *prefix) {
    size_t pl = strlen(prefix);
    const char *p = memmem(text, len, prefix, pl), *e = text + len;
    if (!p) return -1;
    p += pl;
    while (p < e && *p == ' ') p++;
    if (p == e || *p < '0' || *p > '9') return -1;
    int64_t v = 0;
    for (; p < e && *p >= '0' && *p <= '9'; p++) { if (v > INT64_MAX / 10 - 1) return -1; v = v * 10 + (*p - '0'); }
    return v;
}

/* ---------- connections ---------- */
enum { C_STREAM, C_POOL };
enum { S_DOWN, S_CONNECTING, S_SENDING, S_HEAD, S_BODY, S_IDLE };
#define LINE_KEEP 512
#define TAIL_KEEP 64   /* and the last bytes of a longer line (a digest's `through` ends it) */
typedef struct Conn {
    int type, fd, state, server, index;   /* index: phone for a stream, slot for a pool conn */
    char *out; size_t out_len, out_off; int out_owned;
    char *in; size_t in_len, in_cap;
    /* response framing */
    int status, chunked, close_after; int64_t body_left;
    /* chunk decoder for streams: 0 size line, 1 data, 2 CRLF after data */
    int cstate; int64_t cleft; char csize[20]; int csize_len;
    /* SSE line parser */
    char line[LINE_KEEP], line_tail[TAIL_KEEP]; size_t line_len, line_total, line_tail_len;
    int64_t ev_id;   /* the event's id: line, -1 none */
    char ev_name[40], data[LINE_KEEP], data_tail[TAIL_KEEP]; size_t data_len, data_total, data_tail_len; uint64_t ev_bytes;
    int64_t retry_at, idle_since;
    int req;   /* pool: index into the request ring being served, -1 none */
    int frames;   /* pool: a camera phone's connection, for frames only */
} Conn;

static int ep;
static Conn *streams; static int nphones;
static Conn *pool; static int pool_per_server, frame_conns_per_server, conns_per_server;
static int streams_open;

/* request queue, one FIFO per server */
typedef struct { int phone, kind, cache; int64_t t_want, t_sent; } Req;
typedef struct { Req *r; size_t head, tail, cap; } Queue;
static Queue queues[16], frame_queues[16];
static void q_push(Queue *q, Req r) {
    if (q->tail - q->head == q->cap) {
        size_t ncap = q->cap ? q->cap * 2 : 4096; Req *n = malloc(ncap * sizeof(Req));
        for (size_t i = q->head; i < q->tail; i++) n[i - q->head] = q->r[i % q->cap];
        q->tail -= q->head; q->head = 0; free(q->r); q->r = n; q->cap = ncap;
    }
    q->r[q->tail++ % q->cap] = r;
}
static int q_pop(Queue *q, Req *r) { if (q->head == q->tail) return 0; *r = q->r[q->head++ % q->cap]; return 1; }
static Req *serving;   /* per pool conn: the request in flight */

static void ep_set(Conn *c, uint32_t ev, int op) {
    struct epoll_event e = { .events = ev, .data.ptr = c };
    epoll_ctl(ep, op, c->fd, &e);
}

static const char *frame_body; static size_t frame_len;
static int round_no;
static double pos_every = 10, list_every = 30, claim_every = 180, camera_share = 0.01;

static char *fmt_alloc(size_t *len, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); char *s; int n = vasprintf(&s, fmt, ap); va_end(ap);
    *len = n; return s;
}

static void conn_close(Conn *c) {
    if (c->fd >= 0) { epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL); close(c->fd); }
    c->fd = -1; c->state = S_DOWN;
    if (c->out_owned) free(c->out);
    c->out = NULL; c->out_owned = 0; c->out_len = c->out_off = 0; c->in_len = 0;
}

/* ----- streams ----- */
static void stream_start(Conn *c) {
    c->fd = open_socket(&servers[c->server]);
    if (c->fd < 0) { ramp_errors++; c->retry_at = now_us() + 1000000; return; }
    c->state = S_CONNECTING;
    c->out = fmt_alloc(&c->out_len, "GET /api/live?token=%s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n",
                       players[c->index].token, servers[c->server].host);
    c->out_owned = 1; c->out_off = 0; c->in_len = 0;
    c->cstate = 0; c->csize_len = 0; c->line_len = c->line_total = c->line_tail_len = 0; c->data_len = 0; c->ev_name[0] = 0; c->ev_bytes = 0;
    c->ev_id = -1;
    ep_set(c, EPOLLOUT | EPOLLIN, EPOLL_CTL_ADD);
}

static void sse_event(Conn *c) {
    const char *name = c->ev_name[0] ? c->ev_name : "message";
    count_event(name, c->ev_bytes);
    if (measuring && !strcmp(name, "finds")) {
        /* the data line as kept: its head, then its tail (after a newline when bytes between were dropped) */
        char text[LINE_KEEP + 1 + TAIL_KEEP]; size_t n = c->data_len;
        memcpy(text, c->data, n);
        if (c->data_tail_len) {
            if (c->data_total > LINE_KEEP + c->data_tail_len) text[n++] = '\n';
            memcpy(text + n, c->data_tail, c->data_tail_len); n += c->data_tail_len;
        }
        int64_t through = int_after(text, n, "\"through\":");
        if (through >= 0) { digest_heard(heard, c->index, through, now_us()); digests_seen = 1; }
    } else if (measuring && c->ev_id >= 0 && !strcmp(name, "find")) {
        digest_heard(heard_ids, c->index, c->ev_id, now_us());
    }
    c->ev_id = -1;
    c->ev_name[0] = 0; c->data_len = 0; c->data_total = 0; c->data_tail_len = 0; c->ev_bytes = 0;
}

static void sse_line(Conn *c) {
    size_t n = c->line_len;   /* the first LINE_KEEP bytes of the line */
    c->ev_bytes += c->line_total + 1;
    if (c->line_total == 0) { if (c->ev_name[0] || c->data_len) sse_event(c); else c->ev_bytes = 0; return; }
    if (n >= 6 && !memcmp(c->line, "event:", 6)) {
        size_t s = 6; while (s < n && c->line[s] == ' ') s++;
        size_t l = n - s; if (l > sizeof c->ev_name - 1) l = sizeof c->ev_name - 1;
        memcpy(c->ev_name, c->line + s, l); c->ev_name[l] = 0;
    } else if (n >= 3 && !memcmp(c->line, "id:", 3)) {
        c->ev_id = int_after(c->line, n, "id:");
    } else if (n >= 5 && !memcmp(c->line, "data:", 5) && c->data_len == 0) {
        memcpy(c->data, c->line, n); c->data_len = n; c->data_total = c->line_total;
        memcpy(c->data_tail, c->line_tail, c->line_tail_len); c->data_tail_len = c->line_tail_len;
    }
}

/* Keep the last TAIL_KEEP bytes of what a long line has past its first LINE_KEEP. */
static void line_tail_add(Conn *c, const char *p, size_t n) {
    if (n >= TAIL_KEEP) { memcpy(c->line_tail, p + n - TAIL_KEEP, TAIL_KEEP); c->line_tail_len = TAIL_KEEP; return; }
    size_t keep = c->line_tail_len + n > TAIL_KEEP ? TAIL_KEEP - n : c->line_tail_len;
    memmove(c->line_tail, c->line_tail + c->line_tail_len - keep, keep);
    memcpy(c->line_tail + keep, p, n); c->line_tail_len = keep + n;
}

static void sse_bytes(Conn *c, const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char ch = p[i];
        if (ch == '\n') { sse_line(c); c->line_len = c->line_total = c->line_tail_len = 0; continue; }
        if (ch == '\r') continue;
        if (c->line_len < LINE_KEEP) { c->line[c->line_len++] = ch; c->line_total++; continue; }
        /* past the first LINE_KEEP bytes: skip to the end of the line fast, keeping its tail */
        const char *nl = memchr(p + i, '\n', n - i);
        size_t skip = nl ? (size_t)(nl - (p + i)) : n - i;
        line_tail_add(c, p + i, skip);
        c->line_total += skip; i += skip - 1;
    }
}

/* Undo the chunked framing (or pass through) and feed the SSE parser. */
static int stream_body(Conn *c, const char *p, size_t n) {
    if (!c->chunked) { sse_bytes(c, p, n); return 0; }
    size_t i = 0;
    while (i < n) {
        if (c->cstate == 0) {
            char ch = p[i++];
            if (ch == '\n') {
                c->csize[c->csize_len] = 0;
                c->cleft = strtoll(c->csize, NULL, 16); c->csize_len = 0;
                if (c->cleft == 0) return -1;   /* the stream ended */
                c->cstate = 1;
            } else if (ch != '\r' && c->csize_len < 18) c->csize[c->csize_len++] = ch;
        } else if (c->cstate == 1) {
            size_t take = n - i < (size_t)c->cleft ? n - i : (size_t)c->cleft;
            sse_bytes(c, p + i, take); i += take; c->cleft -= take;
            if (c->cleft == 0) { c->cstate = 2; c->cleft = 2; }
        } else {
            i++; if (--c->cleft == 0) c->cstate = 0;
        }
    }
    return 0;
}

static void stream_lost(Conn *c, int during_ramp) {
    if (c->state == S_BODY) streams_open--;
    if (during_ramp) ramp_errors++; else if (measuring) streams_ended++;
    conn_close(c);
    c->retry_at = now_us() + 1000000;
}

/* Parse the response head in c->in; returns header length, 0 when incomplete. */
static size_t parse_head(Conn *c) {
    char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t hl = end - c->in + 4;
    c->status = atoi(c->in + 9);
    c->chunked = 0; c->close_after = 0; c->body_left = 0;
    for (char *l = memchr(c->in, '\n', hl); l && l < end; l = memchr(l + 1, '\n', end - l)) {
        char *h = l + 1;
        if (!strncasecmp(h, "content-length:", 15)) c->body_left = atoll(h + 15);
        else if (!strncasecmp(h, "transfer-encoding:", 18) && strcasestr(h, "chunked") && strcasestr(h, "chunked") < end) c->chunked = 1;
        else if (!strncasecmp(h, "connection:", 11) && !strncasecmp(h + 11 + strspn(h + 11, " "), "close", 5)) c->close_after = 1;
    }
    return hl;
}

/* Epoll is level-triggered here: a read that did not fill the buffer took all there was, and
   anything left is reported again. So no second read to hear EAGAIN: at 10,000 phones that read
   was 20,000 system calls a second of the generator's, on the cores the server shares. */
static void stream_readable(Conn *c) {
    char buf[65536];
    for (;;) {
        ssize_t n = read(c->fd, buf, sizeof buf);
        if (n < 0) { if (errno == EAGAIN) return; stream_lost(c, c->state != S_BODY); if (measuring) stream_errors++; return; }
        if (n == 0) { stream_lost(c, c->state != S_BODY); return; }
        if (measuring) stream_bytes += n;
        if (c->state == S_BODY) {
            if (stream_body(c, buf, n) < 0) { stream_lost(c, 0); return; }
            if (n < (ssize_t)sizeof buf) return;
            continue;
        }
        if (c->in_len + n > c->in_cap) { c->in_cap = c->in_len + n + 4096; c->in = realloc(c->in, c->in_cap); }
        memcpy(c->in + c->in_len, buf, n); c->in_len += n;
        size_t hl = parse_head(c);
        if (!hl) continue;
        if (c->status != 200) { stream_lost(c, 1); return; }
        c->state = S_BODY; streams_open++;
        size_t rest = c->in_len - hl;
        c->in_len = 0;
        if (rest && stream_body(c, c->in + hl, rest) < 0) { stream_lost(c, 0); return; }
        free(c->in); c->in = NULL; c->in_cap = 0;
    }
}

/* ----- pool (requests) ----- */
static void pool_dispatch(Conn *c);

static void request_done(Conn *c, int status, const char *body, size_t blen) {
    Req *r = &serving[c - pool];
    KindStats *k = &kinds[r->kind];
    int64_t t = now_us();
    int counted = measuring && r->t_want >= t0_us;
    if (counted) {
        hist_add(&k->lat, t - r->t_want);
        if (status >= 200 && status < 300) k->ok++; else if (status > 0) k->non2xx++; else k->conn_errors++;
        if (status > 0) k->status[status / 100 > 5 ? 5 : status / 100]++;
        if ((status < 200 || status >= 300) && nsamples < 5) {
            int m = snprintf(samples[nsamples], sizeof samples[0], "%s %d %.*s", kind_names[r->kind], status, (int)(blen > 100 ? 100 : blen), body);
            for (int i = 0; i < m && i < (int)sizeof samples[0] - 1; i++) if (samples[nsamples][i] == '"' || samples[nsamples][i] == '\\' || (unsigned char)samples[nsamples][i] < 32) samples[nsamples][i] = '\'';
            nsamples++;
        }
    }
    static long slow_us = -1;
    if (slow_us < 0) { const char *v = getenv("PHONES_SLOW"); slow_us = !v ? 0 : atoi(v) > 1 ? atoi(v) * 1000L : 300000; }
    if (slow_us && counted && t - r->t_want > slow_us)
        fprintf(stderr, "slow %s at %.2f s: queued %.0f ms, answered %.0f ms after sending (conn %d)\n", kind_names[r->kind],
                (r->t_want - t0_us) / 1e6, (r->t_sent - r->t_want) / 1e3, (t - r->t_sent) / 1e3, (int)(c - pool));
    if (r->kind == K_FRAME) frame_busy[r->phone] = 0;
    if (r->kind == K_CLAIM && r->phone >= 0) {
        Claim *cl = &claims[r->phone];   /* for claims, phone holds the claim index */
        cl->t_answer = t;
        if (status == 200 && memmem(body, blen, "\"verdict\":\"claimable\"", 21)) {
            cl->claimable = 1; claims_new++;
            int64_t seq = int_after(body, blen, "\"find\":\"F");   /* the find's ledger seq, as a digest's `through` counts */
            if (seq > 0) cl->seq = seq; else find_unmatched++;
        }
        else if (memmem(body, blen, "\"verdict\":\"already-found\"", 26)) claims_repeat++;
        else claims_other++;
    }
    r->kind = -1;
}

static void pool_dispatch(Conn *c);
static void pool_fail(Conn *c) {
    if (serving[c - pool].kind >= 0) request_done(c, 0, "", 0);
    conn_close(c);
    pool_dispatch(c);
}

static void pool_readable(Conn *c) {
    for (;;) {
        if (c->in_len + 65536 > c->in_cap) { c->in_cap = c->in_len + 65536 * 2; c->in = realloc(c->in, c->in_cap); }
        ssize_t n = read(c->fd, c->in + c->in_len, c->in_cap - c->in_len);
        if (n < 0) { if (errno == EAGAIN) return; pool_fail(c); return; }
        if (n == 0) { pool_fail(c); return; }
        c->in_len += n;
        if (c->state != S_HEAD && c->state != S_SENDING) continue;   /* unexpected bytes on an idle conn */
        size_t hl = parse_head(c);
        if (!hl) continue;
        size_t have = c->in_len - hl;
        if (c->chunked) {   /* whole chunked body: ends with 0\r\n\r\n */
            if (!memmem(c->in + hl, have, "\r\n0\r\n\r\n", 7) && !(have >= 5 && !memcmp(c->in + hl, "0\r\n\r\n", 5))) continue;
            request_done(c, c->status, c->in + hl, have);
        } else {
            if ((int64_t)have < c->body_left) continue;
            request_done(c, c->status, c->in + hl, c->body_left);
        }
        c->in_len = 0;
        if (c->close_after) { conn_close(c); pool_dispatch(c); return; }
        c->state = S_IDLE; c->idle_since = now_us();
        ep_set(c, EPOLLIN, EPOLL_CTL_MOD);
        pool_dispatch(c);
        return;
    }
}

static void pool_write(Conn *c) {
    while (c->out_off < c->out_len) {
        ssize_t n = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
        if (n < 0) { if (errno == EAGAIN) { ep_set(c, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD); return; } pool_fail(c); return; }
        c->out_off += n;
    }
    if (c->out_owned) free(c->out);
    c->out = NULL; c->out_owned = 0;
    c->state = S_HEAD;
    ep_set(c, EPOLLIN, EPOLL_CTL_MOD);
}

static double jitter(int phone, double metres) { return ((phone * 2654435761u) % 1000 / 1000.0 - 0.5) * metres / 111320.0; }

/* Build the request `r` on connection `c` and start writing it. */
static void pool_send(Conn *c, Req r) {
    r.t_sent = now_us();
    serving[c - pool] = r;
    const Player *p = r.phone >= 0 && r.kind != K_CLAIM ? &players[r.phone] : NULL;
    const char *host = servers[c->server].host;
    char body[512]; int blen;
    switch (r.kind) {
    case K_POSITION: {
        const Cache *k = &caches[r.cache];
        blen = snprintf(body, sizeof body, "{\"latitude\":%.7f,\"longitude\":%.7f,\"accuracy\":8}",
                        k->lat + jitter(r.phone, 80), k->lon + jitter(r.phone + 7, 80));
        c->out = fmt_alloc(&c->out_len, "POST /api/me/position HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"
                           "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", host, p->token, blen, body);
        break; }
    case K_LIST: {
        const Cache *k = &caches[r.cache];
        c->out = fmt_alloc(&c->out_len, "GET /api/caches?latitude=%.6f&longitude=%.6f HTTP/1.1\r\nHost: %s\r\n"
                           "Authorization: Bearer %s\r\n\r\n", k->lat + jitter(r.phone, 80), k->lon, host, p->token);
        break; }
    case K_CLAIM: {
        Claim *cl = &claims[r.phone];
        const Cache *k = &caches[cl->cache];
        blen = snprintf(body, sizeof body, "{\"code\":\"%s\",\"latitude\":%.7f,\"longitude\":%.7f,\"accuracy\":8}", k->code, k->lat, k->lon);
        cl->t_send = now_us();
        c->out = fmt_alloc(&c->out_len, "POST /api/claims HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"
                           "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", host, players[cl->phone].token, blen, body);
        break; }
    default: {
        const Cache *k = &caches[r.cache];
        size_t hl; char *head = fmt_alloc(&hl, "POST /api/claims/frame?latitude=%.7f&longitude=%.7f&accuracy=8 HTTP/1.1\r\n"
                                          "Host: %s\r\nAuthorization: Bearer %s\r\nContent-Type: image/jpeg\r\nContent-Length: %zu\r\n\r\n",
                                          k->lat, k->lon, host, p->token, frame_len);
        c->out = malloc(hl + frame_len); memcpy(c->out, head, hl); memcpy(c->out + hl, frame_body, frame_len);
        c->out_len = hl + frame_len; free(head);
        break; }
    }
    c->out_owned = 1; c->out_off = 0; c->in_len = 0;
    if (measuring && r.t_want >= t0_us) kinds[r.kind].sent++;
    if (c->state == S_CONNECTING) return;   /* written when the connection is up */
    c->state = S_SENDING;
    pool_write(c);
}

static void pool_dispatch(Conn *c) {
    Req r;
    if (c->state != S_IDLE && c->state != S_DOWN) return;
    if (!q_pop(c->frames ? &frame_queues[c->server] : &queues[c->server], &r)) return;
    if (c->state == S_DOWN) {
        c->fd = open_socket(&servers[c->server]);
        if (c->fd < 0) { serving[c - pool] = r; request_done(c, 0, "", 0); c->fd = -1; return; }
        c->state = S_CONNECTING;
        ep_set(c, EPOLLOUT | EPOLLIN, EPOLL_CTL_ADD);
    }
    pool_send(c, r);
}

static void want(int phone, int kind, int cache) {
    int server = phone % nservers;
    Req r = { phone, kind, cache, now_us() };
    if (kind == K_CLAIM) {
        if (nclaims == claims_cap) { claims_cap = claims_cap ? claims_cap * 2 : 4096; claims = realloc(claims, claims_cap * sizeof(Claim)); }
        claims[nclaims] = (Claim){ .phone = phone, .cache = cache, .t_send = r.t_want };
        r.phone = nclaims++;
        server = phone % nservers;
    }
    /* an idle (or closed) connection of that server takes it: a frame, one of the cameras' */
    Queue *q = kind == K_FRAME ? &frame_queues[server] : &queues[server];
    q_push(q, r);
    int first = kind == K_FRAME ? pool_per_server : 0, last = kind == K_FRAME ? conns_per_server : pool_per_server;
    for (int i = first; i < last; i++) {
        Conn *c = &pool[server * conns_per_server + i];
        if (c->state == S_IDLE || c->state == S_DOWN) { pool_dispatch(c); if (q->head == q->tail) break; }
    }
}

/* ---------- /proc ---------- */
static int spids[16], nspids; static char spid_names[16][24];
static int64_t proc_ticks(int pid) {
    char path[64], buf[1024]; snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r"); if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f); fclose(f); buf[n] = 0;
    char *p = strrchr(buf, ')'); if (!p) return 0;
    long long ut = 0, st = 0;
    /* after ") ": state(3) … utime is field 14, stime 15 */
    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld", &ut, &st);
    return ut + st;
}
static long proc_kb(int pid, const char *field) {
    char path[64], line[256]; snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r"); if (!f) return 0;
    long v = 0; size_t fl = strlen(field);
    while (fgets(line, sizeof line, f)) if (!strncmp(line, field, fl)) { v = atol(line + fl + 1); break; }
    fclose(f); return v;
}
/* The machine's ticks: all, and those stolen by the hypervisor (a virtual machine's host
   running others on its cores: the figures of a run with much stolen time are the host's). */
static void machine_ticks(long long *all, long long *steal) {
    long long v[8] = {0}; *all = *steal = 0;
    FILE *f = fopen("/proc/stat", "r"); if (!f) return;
    if (fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
        for (int i = 0; i < 8; i++) *all += v[i];
        *steal = v[7];
    }
    fclose(f);
}
static double self_cpu_s(void) {
    struct rusage ru; getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* ---------- main loop ---------- */
static int by_seq(const void *a, const void *b) {
    int64_t x = (*(Claim *const *)a)->seq, y = (*(Claim *const *)b)->seq;
    return (x > y) - (x < y);
}

static void handle(Conn *c, uint32_t ev) {
    if (c->type == C_STREAM) {
        if (c->state == S_CONNECTING || c->state == S_SENDING) {
            if (ev & (EPOLLERR | EPOLLHUP) && !(ev & EPOLLIN)) { stream_lost(c, 1); return; }
            if (ev & EPOLLOUT) {
                c->state = S_SENDING;
                while (c->out_off < c->out_len) {
                    ssize_t n = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
                    if (n < 0) { if (errno == EAGAIN) return; stream_lost(c, 1); return; }
                    c->out_off += n;
                }
                free(c->out); c->out = NULL; c->out_owned = 0;
                c->state = S_HEAD;
                ep_set(c, EPOLLIN, EPOLL_CTL_MOD);
            }
        }
        if (ev & (EPOLLIN | EPOLLERR | EPOLLHUP)) stream_readable(c);
        return;
    }
    if (c->state == S_CONNECTING) {
        if (ev & (EPOLLERR | EPOLLHUP)) { pool_fail(c); return; }
        if (ev & EPOLLOUT) { c->state = S_SENDING; pool_write(c); }
        return;
    }
    if (c->state == S_SENDING && (ev & EPOLLOUT)) pool_write(c);
    if (c->fd >= 0 && (ev & (EPOLLIN | EPOLLERR | EPOLLHUP))) {
        if (c->state == S_IDLE) {   /* the server closed an idle connection: not a failure */
            char b[256]; ssize_t n = read(c->fd, b, sizeof b);
            if (n <= 0 && !(n < 0 && errno == EAGAIN)) conn_close(c);
            return;
        }
        pool_readable(c);
    }
}

int main(int argc, char **argv) {
    char *urls = NULL, *players_path = NULL, *codes_path = NULL, *frame_path = NULL, *pids = NULL, *label = "";
    int count = 0; double duration = 60, ramp_timeout = 180, settle = 2;
    pool_per_server = 64;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i]; char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && v && ++i)
        if (OPT("--url")) urls = v;
        else if (OPT("--players")) players_path = v;
        else if (OPT("--codes")) codes_path = v;
        else if (OPT("--count")) count = atoi(v);
        else if (OPT("--duration")) duration = atof(v);
        else if (OPT("--ramp-timeout")) ramp_timeout = atof(v);
        else if (OPT("--round")) round_no = atoi(v);
        else if (OPT("--frame")) frame_path = v;
        else if (OPT("--server-pid")) pids = v;
        else if (OPT("--pool")) pool_per_server = atoi(v);
        else if (OPT("--src-addrs")) src_addrs = atoi(v);
        else if (OPT("--claim-every")) claim_every = atof(v);
        else if (OPT("--position-every")) pos_every = atof(v);
        else if (OPT("--list-every")) list_every = atof(v);
        else if (OPT("--camera-share")) camera_share = atof(v);
        else if (OPT("--label")) label = v;
        else die("unknown or incomplete option %s (see the comment at the top of phones.c)", a);
    }
    if (!urls || !players_path || !codes_path || count <= 0) die("--url, --players, --codes and --count are needed");
    parse_urls(urls);
    read_players(players_path, count);
    read_codes(codes_path);
    nphones = count;
    if (frame_path) {
        FILE *f = fopen(frame_path, "rb"); if (!f) die("cannot read %s", frame_path);
        fseek(f, 0, SEEK_END); frame_len = ftell(f); rewind(f);
        char *b = malloc(frame_len); if (fread(b, 1, frame_len, f) != frame_len) die("short read of %s", frame_path);
        fclose(f); frame_body = b;
    } else camera_share = 0;
    if (pids) for (char *p = strtok(pids, ","); p && nspids < 16; p = strtok(NULL, ",")) {
        char *eq = strchr(p, '=');
        if (eq) { *eq = 0; snprintf(spid_names[nspids], 24, "%s", p); spids[nspids++] = atoi(eq + 1); }
        else { snprintf(spid_names[nspids], 24, "server%d", nspids); spids[nspids++] = atoi(p); }
    }
    for (int k = 0; k < NKINDS; k++) hist_init(&kinds[k].lat);
    hist_init(&news);
    signal(SIGPIPE, SIG_IGN);
    ep = epoll_create1(EPOLL_CLOEXEC);

    streams = calloc(nphones, sizeof(Conn));
    frame_busy = calloc(nphones, 1);
    heard = calloc(nphones, sizeof(Digests));
    heard_ids = calloc(nphones, sizeof(Digests));
    for (int i = 0; i < nphones; i++) { streams[i] = (Conn){ .type = C_STREAM, .fd = -1, .server = i % nservers, .index = i }; }
    /* a connection per camera phone (each has at most one frame in flight), on its server */
    int cameras = (int)(nphones * camera_share + 0.5), per_server[16] = {0};
    for (int k = 0; k < cameras; k++) {
        int s = (k * (nphones / cameras)) % nservers;   /* the camera phones, as the play loop picks them */
        if (++per_server[s] > frame_conns_per_server) frame_conns_per_server = per_server[s];
    }
    conns_per_server = pool_per_server + frame_conns_per_server;
    pool = calloc(nservers * conns_per_server, sizeof(Conn));
    serving = calloc(nservers * conns_per_server, sizeof(Req));
    for (int i = 0; i < nservers * conns_per_server; i++) {
        pool[i] = (Conn){ .type = C_POOL, .fd = -1, .server = i / conns_per_server, .index = i,
                          .frames = i % conns_per_server >= pool_per_server };
        serving[i].kind = -1;
    }

    /* The ramp: open the streams, at most 256 in flight, until every one is open. */
    int64_t start = now_us(), last_print = start;
    int next = 0;
    struct epoll_event evs[1024];
    while (streams_open < nphones) {
        int64_t t = now_us();
        if (t - start > ramp_timeout * 1e6) break;
        int inflight = 0;
        (void)inflight;
        for (int opened = 0; next < nphones && opened < 64; ) {
            int pending = 0;
            /* cheap bound: streams started minus open */
            pending = next - streams_open;
            if (pending >= 256) break;
            stream_start(&streams[next++]); opened++;
        }
        for (int i = 0; i < next; i += 1) {   /* retry lost streams */
            Conn *c = &streams[i];
            if (c->state == S_DOWN && c->retry_at && c->retry_at <= t) { c->retry_at = 0; stream_start(c); }
        }
        int n = epoll_wait(ep, evs, 1024, 10);
        for (int i = 0; i < n; i++) handle(evs[i].data.ptr, evs[i].events);
        if (t - last_print > 5000000) {
            fprintf(stderr, "phones: ramp %d/%d streams open after %.0f s\n", streams_open, nphones, (t - start) / 1e6);
            last_print = t;
        }
    }
    double ramp_s = (now_us() - start) / 1e6, ramp_cpu = self_cpu_s();
    int ramp_open = streams_open;
    int ramp_ok = streams_open == nphones;
    fprintf(stderr, "phones: %d/%d streams open in %.1f s%s\n", streams_open, nphones, ramp_s, ramp_ok ? "" : " (ramp timed out)");

    /* Settle (the opening events), then measure. */
    int64_t settle_end = now_us() + (int64_t)(settle * 1e6);
    while (now_us() < settle_end) { int n = epoll_wait(ep, evs, 1024, 10); for (int i = 0; i < n; i++) handle(evs[i].data.ptr, evs[i].events); }

    int64_t tick_ticks0[16]; for (int i = 0; i < nspids; i++) tick_ticks0[i] = proc_ticks(spids[i]);
    double cpu0 = self_cpu_s();
    long long machine0, steal0; machine_ticks(&machine0, &steal0);
    t0_us = now_us(); tend_us = t0_us + (int64_t)(duration * 1e6);
    int64_t claims_end = tend_us - 3000000;   /* the last claims' news has 3 s to arrive */
    measuring = ramp_ok;
    int ncam = (int)(nphones * camera_share + 0.5);
    int camera_stride = ncam ? nphones / ncam : 0;
    /* cursors: how many of each kind were due since t0 */
    int64_t done_pos = 0, done_list = 0, done_claim = 0, done_frame = 0;
    int claim_start = (int)(((int64_t)round_no * (int64_t)(nphones * (duration - 3) / claim_every)) % nphones);
    last_print = t0_us;
    if (ramp_ok) while (now_us() < tend_us) {
        int64_t t = now_us(); double el = (t - t0_us) / 1e6;
        int64_t due = (int64_t)(el / pos_every * nphones);
        for (; done_pos < due; done_pos++) { int p = done_pos % nphones; want(p, K_POSITION, (p + round_no) % ncaches); }
        due = (int64_t)(el / list_every * nphones);
        for (; done_list < due; done_list++) { int p = (done_list + nphones / 2) % nphones; want(p, K_LIST, (p + round_no) % ncaches); }
        if (t < claims_end) {
            due = (int64_t)(el / claim_every * nphones);
            for (; done_claim < due; done_claim++) { int p = (claim_start + done_claim) % nphones; want(p, K_CLAIM, (p + round_no) % ncaches); }
        }
        if (ncam) {
            due = (int64_t)(el * ncam);
            for (; done_frame < due; done_frame++) {
                int p = (done_frame % ncam) * camera_stride;
                if (frame_busy[p]) { frames_skipped++; continue; }
                frame_busy[p] = 1; want(p, K_FRAME, (p + round_no) % ncaches);
            }
        }
        /* lost streams come back after a second, as a phone's EventSource does */
        static int scan;
        for (int k = 0; k < 2000 && nphones; k++, scan = (scan + 1) % nphones) {
            Conn *c = &streams[scan];
            if (c->state == S_DOWN && c->retry_at && c->retry_at <= t) { c->retry_at = 0; stream_start(c); }
        }
        /* close pool connections idle for 15 s before the server's 20 s timeout does */
        for (int i = 0; i < nservers * conns_per_server; i++)
            if (pool[i].state == S_IDLE && t - pool[i].idle_since > 15000000) conn_close(&pool[i]);
        int n = epoll_wait(ep, evs, 1024, 5);
        for (int i = 0; i < n; i++) handle(evs[i].data.ptr, evs[i].events);
        if (t - last_print > 10000000) {
            size_t queued = 0; for (int s = 0; s < nservers; s++) queued += queues[s].tail - queues[s].head + frame_queues[s].tail - frame_queues[s].head;
            fprintf(stderr, "phones: %.0f s: %d streams open, %d claims (%llu new), %zu requests queued\n",
                    el, streams_open, nclaims, (unsigned long long)claims_new, queued);
            last_print = t;
        }
    }
    /* Drain: up to 10 s for the requests still queued or in flight; what is left then failed. */
    int64_t drain_end = now_us() + 10000000;
    size_t left;
    for (;;) {
        left = 0;
        for (int s = 0; s < nservers; s++) left += queues[s].tail - queues[s].head + frame_queues[s].tail - frame_queues[s].head;
        for (int i = 0; i < nservers * conns_per_server; i++) if (serving[i].kind >= 0) left++;
        if (!left || now_us() >= drain_end || !ramp_ok) break;
        int n = epoll_wait(ep, evs, 1024, 5);
        for (int i = 0; i < n; i++) handle(evs[i].data.ptr, evs[i].events);
    }
    double elapsed = (now_us() - t0_us) / 1e6;
    if (elapsed < 0.1) elapsed = 0.1;
    measuring = 0;
    double cpu = self_cpu_s() - cpu0;
    long long machine1, steal1; machine_ticks(&machine1, &steal1);
    double steal_pct = machine1 > machine0 ? 100.0 * (steal1 - steal0) / (machine1 - machine0) : 0;
    long hz = sysconf(_SC_CLK_TCK);

    /* Finds: every phone should have heard of each, at its first digest that reaches the find's
     * seq. The finds go in seq order, so each phone's digests are walked once. */
    uint64_t finds = 0, receipts = 0;
    Claim **found = malloc((nclaims ? nclaims : 1) * sizeof(Claim *));
    for (int i = 0; i < nclaims; i++) if (claims[i].claimable && claims[i].seq > 0) found[finds++] = &claims[i];
    qsort(found, finds, sizeof(Claim *), by_seq);
    for (int p = 0; p < nphones; p++) {
        const Digests *h = digests_seen ? &heard[p] : &heard_ids[p];
        uint32_t j = 0;
        for (uint64_t f = 0; f < finds; f++) {
            const Claim *cl = found[f];
            while (j < h->n && h->d[j].through < cl->seq) j++;
            if (j == h->n) { hist_never(&news, finds - f); break; }
            int64_t t = h->d[j].t, ref = cl->t_answer && cl->t_answer < t ? cl->t_answer : cl->t_send;
            hist_add(&news, t - ref); receipts++;
        }
    }
    free(found);
    news_expected_missing = finds * nphones - receipts;
    uint64_t within = hist_below(&news, 1000000);
    uint64_t failures = streams_ended + stream_errors + left;
    for (int k = 0; k < NKINDS; k++) failures += kinds[k].non2xx + kinds[k].conn_errors;
    size_t queued = left;

    printf("{\"label\":\"%s\",\"phones\":%d,\"servers\":%d,\"ramp_ok\":%s,\"ramp_s\":%.1f,\"ramp_open\":%d,\"ramp_errors\":%llu,"
           "\"ramp_generator_cpu_pct\":%.1f,\"seconds\":%.1f,",
           label, nphones, nservers, ramp_ok ? "true" : "false", ramp_s, ramp_open, (unsigned long long)ramp_errors,
           100 * ramp_cpu / ramp_s, elapsed);
    printf("\"claims\":{\"sent\":%llu,\"new_finds\":%llu,\"repeat\":%llu,\"other\":%llu,\"p50_ms\":%.1f,\"p99_ms\":%.1f},",
           (unsigned long long)kinds[K_CLAIM].sent, (unsigned long long)claims_new, (unsigned long long)claims_repeat,
           (unsigned long long)claims_other, hist_q(&kinds[K_CLAIM].lat, 0.5), hist_q(&kinds[K_CLAIM].lat, 0.99));
    printf("\"news\":{\"finds\":%llu,\"deliveries\":%llu,\"missing\":%llu,\"unmatched\":%llu,\"p50_ms\":%.1f,\"p99_ms\":%.1f,\"within_1s\":%.4f},",
           (unsigned long long)finds, (unsigned long long)receipts, (unsigned long long)news_expected_missing,
           (unsigned long long)find_unmatched, hist_q(&news, 0.5), hist_q(&news, 0.99),
           news.n ? (double)within / news.n : 1.0);
    printf("\"requests\":{");
    for (int k = 0; k < NKINDS; k++) {
        KindStats *s = &kinds[k];
        printf("%s\"%s\":{\"sent\":%llu,\"ok\":%llu,\"non_2xx\":%llu,\"conn_errors\":%llu,\"status_4xx\":%llu,\"status_5xx\":%llu,\"per_s\":%.1f,\"p50_ms\":%.1f,\"p99_ms\":%.1f}",
               k ? "," : "", kind_names[k], (unsigned long long)s->sent, (unsigned long long)s->ok, (unsigned long long)s->non2xx,
               (unsigned long long)s->conn_errors, (unsigned long long)s->status[4], (unsigned long long)s->status[5],
               s->ok / elapsed, hist_q(&s->lat, 0.5), hist_q(&s->lat, 0.99));
    }
    printf("},\"unanswered_at_end\":%zu,\"streams_ended\":%llu,\"stream_errors\":%llu,\"streams_open_at_end\":%d,\"frames_skipped\":%llu,\"failures\":%llu,",
           queued, (unsigned long long)streams_ended, (unsigned long long)stream_errors, streams_open, (unsigned long long)frames_skipped, (unsigned long long)failures);
    printf("\"stream_bytes_per_phone_min\":%.0f,\"events\":{", nphones ? stream_bytes / (double)nphones / (elapsed / 60) : 0);
    for (int i = 0; i < nnames; i++)
        printf("%s\"%s\":{\"events\":%llu,\"bytes\":%llu}", i ? "," : "", names[i].name,
               (unsigned long long)names[i].events, (unsigned long long)names[i].bytes);
    printf("},\"failed_samples\":[");
    for (int i = 0; i < nsamples; i++) printf("%s\"%s\"", i ? "," : "", samples[i]);
    printf("],\"generator_cpu_pct\":%.1f,\"steal_pct\":%.1f,\"processes\":{", 100 * cpu / elapsed, steal_pct);
    for (int i = 0; i < nspids; i++)
        printf("%s\"%s\":{\"pid\":%d,\"cpu_pct\":%.1f,\"rss_mb\":%.1f,\"hwm_mb\":%.1f}", i ? "," : "", spid_names[i], spids[i],
               100.0 * (proc_ticks(spids[i]) - tick_ticks0[i]) / hz / elapsed,
               proc_kb(spids[i], "VmRSS:") / 1024.0, proc_kb(spids[i], "VmHWM:") / 1024.0);
    printf("}}\n");
    return 0;
}
