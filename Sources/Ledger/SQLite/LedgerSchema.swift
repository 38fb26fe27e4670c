import GRDB

/// The ledger's schema in SQLite: the statements of its migrations (the list is
/// ``LedgerMigrations``, one for both stores), and what verification reads.
///
/// ```swift
/// try LedgerSchema.migrator.migrate(pool)
/// ```
enum LedgerSchema {
    /// Tables that are derived from events, in the order verification compares them, with the
    /// columns that order their rows. `credentials` (``Credential``) is not one: no event holds
    /// a PIN's hash, so verification cannot rebuild it, and no export reads it.
    static let derivedTables: [(name: String, order: String)] = [
        ("players", "id"), ("finds", "id"), ("attempts", "seq"), ("items", "id"),
        ("trips", "trackable_id, leg"), ("points", "seq, idx"), ("trades", "id"),
        ("reports", "id"), ("cache_flags", "hunt, cache_id"), ("hunt_secrets", "hunt, generation"),
        ("hunt_state", "hunt"), ("hints", "seq"), ("claim_ids", "hunt, player_id, claim_id"),
        ("course_starts", "hunt, course"), ("disqualifications", "hunt, player_id"),
        ("challenge_answers", "seq"), ("photo_submissions", "hunt, id"),
    ]

    /// SQLite's migrations (``LedgerMigrations``), for GRDB's migrator.
    static var migrator: DatabaseMigrator { LedgerMigrations.sqliteMigrator }

    static let eventsSQL = """
        CREATE TABLE events (
            seq INTEGER PRIMARY KEY,
            time_ms INTEGER NOT NULL,
            hunt TEXT NOT NULL,
            actor TEXT NOT NULL,
            kind TEXT NOT NULL,
            body TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL
        );
        CREATE INDEX events_by_hunt ON events(hunt, seq);
        -- Append-only for the program; a hand edit that drops these is caught by
        -- `geoqr ledger verify` through the hash chain.
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: events cannot be changed'); END;
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: events cannot be deleted'); END;
        """

    /// Whether the game master has the hunt running; no row means running.
    static let huntStateSQL = """
        CREATE TABLE hunt_state (hunt TEXT PRIMARY KEY, running INTEGER NOT NULL, seq INTEGER NOT NULL);
        """

    /// Hints players paid to see, one per player and cache; the cost is also a row in `points`,
    /// from the same event.
    static let hintsSQL = """
        CREATE TABLE hints (
            hunt TEXT NOT NULL, player_id TEXT NOT NULL, cache_id TEXT NOT NULL, cost INTEGER NOT NULL,
            revealed_ms INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (hunt, player_id, cache_id)
        );
        """

    /// The ids phones give claims they may send more than once (kept while offline): what each
    /// came to, so a second sending records nothing new.
    @Sendable static func claimIDs(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE claim_ids (
                hunt TEXT NOT NULL, claim_id TEXT NOT NULL, player_id TEXT NOT NULL, find_id TEXT,
                verdict TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (hunt, claim_id)
            );
            """)
        try StateProjection.rebuildClaimIDs(db)
    }

    /// Every derived table keeps `seq`, the last event that changed the row, so verification
    /// can name the event where a row went wrong.
    static let derivedStateSQL = """
        CREATE TABLE players (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL,
            pin_hash TEXT NOT NULL, team TEXT, joined_ms INTEGER NOT NULL,
            pin_failures INTEGER NOT NULL DEFAULT 0, locked_until_ms INTEGER, seq INTEGER NOT NULL,
            UNIQUE (hunt, name_key)
        );
        CREATE TABLE finds (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL, player_id TEXT NOT NULL, cache_id TEXT NOT NULL,
            time_ms INTEGER NOT NULL, lat REAL, lon REAL, method TEXT NOT NULL,
            photo_sha256 TEXT, exif_time_ms INTEGER, first_to_find INTEGER NOT NULL,
            voided INTEGER NOT NULL DEFAULT 0, void_reason TEXT, seq INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX finds_one_per_player_and_cache ON finds(hunt, player_id, cache_id) WHERE voided = 0;
        CREATE INDEX finds_by_cache ON finds(hunt, cache_id);
        CREATE TABLE attempts (
            seq INTEGER PRIMARY KEY, hunt TEXT NOT NULL, player_id TEXT NOT NULL, cache_id TEXT,
            time_ms INTEGER NOT NULL, verdict TEXT NOT NULL, method TEXT NOT NULL,
            lat REAL, lon REAL, photo_sha256 TEXT
        );
        CREATE TABLE items (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('card', 'trackable')),
            cache_id TEXT, name TEXT NOT NULL, message TEXT NOT NULL DEFAULT '',
            found_lat REAL, found_lon REAL, found_ms INTEGER,
            owner_id TEXT, in_cache_id TEXT, picked_from TEXT, seq INTEGER NOT NULL,
            CHECK (owner_id IS NULL OR in_cache_id IS NULL)
        );
        CREATE UNIQUE INDEX items_one_card_of_a_cache_per_owner ON items(hunt, owner_id, cache_id)
            WHERE kind = 'card' AND owner_id IS NOT NULL;
        CREATE INDEX items_by_owner ON items(owner_id);
        CREATE TABLE trips (
            trackable_id TEXT NOT NULL, leg INTEGER NOT NULL, player_id TEXT NOT NULL,
            from_cache TEXT NOT NULL, to_cache TEXT, picked_ms INTEGER NOT NULL, dropped_ms INTEGER,
            distance_m REAL, seq INTEGER NOT NULL,
            PRIMARY KEY (trackable_id, leg)
        );
        CREATE TABLE points (
            seq INTEGER NOT NULL, idx INTEGER NOT NULL, hunt TEXT NOT NULL, player_id TEXT NOT NULL,
            find_id TEXT, reason TEXT NOT NULL, amount INTEGER NOT NULL,
            PRIMARY KEY (seq, idx)
        );
        CREATE INDEX points_by_player ON points(hunt, player_id);
        CREATE INDEX points_by_find ON points(find_id);
        CREATE TABLE trades (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL, from_id TEXT NOT NULL, to_id TEXT NOT NULL,
            give TEXT NOT NULL, receive TEXT NOT NULL, offered_ms INTEGER NOT NULL,
            expires_ms INTEGER NOT NULL, state TEXT NOT NULL, reason TEXT, closed_ms INTEGER,
            seq INTEGER NOT NULL
        );
        CREATE TABLE reports (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL, cache_id TEXT NOT NULL, player_id TEXT NOT NULL,
            kind TEXT NOT NULL, text TEXT NOT NULL, photo_sha256 TEXT, filed_ms INTEGER NOT NULL,
            resolved_ms INTEGER, resolution TEXT, seq INTEGER NOT NULL
        );
        CREATE TABLE cache_flags (
            hunt TEXT NOT NULL, cache_id TEXT NOT NULL, disabled INTEGER NOT NULL, reason TEXT NOT NULL,
            seq INTEGER NOT NULL, PRIMARY KEY (hunt, cache_id)
        );
        CREATE TABLE hunt_secrets (
            hunt TEXT NOT NULL, generation INTEGER NOT NULL, fingerprint TEXT NOT NULL,
            rotated_ms INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (hunt, generation)
        );
        """
}

extension Database {
    /// A prepared statement kept by the connection: the hot paths run the same few statements
    /// thousands of times a second, and compiling them each time cost more than running them.
    func cached(_ sql: String) throws -> Statement {
        try cachedStatement(sql: sql)
    }
}
