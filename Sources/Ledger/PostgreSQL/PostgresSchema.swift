import Foundation
import PostgresNIO

/// The ledger's schema in PostgreSQL: the statements of its migrations (the list is
/// ``LedgerMigrations``, one for both stores), applied in order and recorded in
/// `geoqr_migrations`. The tables, columns and indexes are SQLite's (``LedgerSchema``) in
/// PostgreSQL's types (`bigint` for SQLite's integers, `double precision` for its reals), so
/// the projection's statements run unchanged in both. Migrations are only ever added.
///
/// ```swift
/// try await PostgresSchema.migrate(sql)   // under an advisory lock: servers may start together
/// ```
enum PostgresSchema {
    /// Every migration, in order (``LedgerMigrations``, the one list for both stores).
    static var migrations: [(name: String, statements: [String])] { LedgerMigrations.postgres }

    /// The statements of a script with no `;` but those that end them (postgres-nio's
    /// extended protocol runs one statement a query).
    static func statements(_ script: String) -> [String] {
        script.components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// The key of the advisory lock migrations run under ("geoqr" in ASCII).
    static let migrationLock: Int64 = 0x67_65_6f_71_72

    static let eventsSQL = [
        """
        CREATE TABLE events (
            seq BIGINT PRIMARY KEY, time_ms BIGINT NOT NULL, hunt TEXT NOT NULL, actor TEXT NOT NULL,
            kind TEXT NOT NULL, body TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL
        )
        """,
        "CREATE INDEX events_by_hunt ON events (hunt, seq)",
        // The last event's seq and hash: every writer locks this row first (SELECT … FOR
        // UPDATE), which puts appends from every process in one order. A trigger moves it on.
        "CREATE TABLE chain_head (id INTEGER PRIMARY KEY CHECK (id = 1), seq BIGINT NOT NULL, hash TEXT NOT NULL)",
        "INSERT INTO chain_head (id, seq, hash) VALUES (1, 0, '\(LedgerEvent.genesisHash)')",
        // Append-only, as SQLite's triggers make it; TRUNCATE too, which skips row triggers.
        """
        CREATE FUNCTION geoqr_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the ledger is append-only: events cannot be %',
                CASE TG_OP WHEN 'UPDATE' THEN 'changed' ELSE 'deleted' END;
        END $$
        """,
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION geoqr_events_append_only()",
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION geoqr_events_append_only()",
        "CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION geoqr_events_append_only()",
        // An event must follow the head: the next seq, linked to the last hash. A writer that
        // skipped the head's lock would wait on it here, then be refused: the chain never forks.
        """
        CREATE FUNCTION geoqr_events_follow_head() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE chain_head SET seq = NEW.seq, hash = NEW.hash
                WHERE id = 1 AND seq = NEW.seq - 1 AND hash = NEW.prev_hash;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'event % does not follow the head of the chain', NEW.seq;
            END IF;
            RETURN NEW;
        END $$
        """,
        "CREATE TRIGGER events_follow_head BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION geoqr_events_follow_head()",
    ]

    /// Every committed append notifies channel `geoqr_events` (``PostgresGameStore/eventsChannel``),
    /// whoever wrote it (a server, `geoqr gm`, `ledger copy`): PostgreSQL delivers a notice at
    /// commit and folds a transaction's identical notices into one, so a group commit costs one.
    static let notifySQL = [
        """
        CREATE FUNCTION geoqr_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('geoqr_events', '');
            RETURN NULL;
        END $$
        """,
        "CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION geoqr_events_notify()",
    ]

    /// Live finds by cache, then player: whether anyone has found a cache, asked for every claim,
    /// and a player's find of one. With only `finds_by_cache`, PostgreSQL's planner, seeing
    /// `voided = 0` match the partial unique index `(hunt, player_id, cache_id)`, may read that
    /// index from the hunt's first entry on, which for a cache nobody has found yet is all of the
    /// hunt's finds; the player last, so a lookup of one player's find matches every column
    /// whichever of the two indexes the planner takes. SQLite keeps no statistics to be misled by
    /// and looks `finds_by_cache` up.
    static let liveFindsByCacheSQL = [
        "CREATE INDEX finds_live_by_cache ON finds (hunt, cache_id, player_id) WHERE voided = 0",
    ]

    static let derivedStateSQL = """
        CREATE TABLE players (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL,
            team TEXT, joined_ms BIGINT NOT NULL,
            pin_failures BIGINT NOT NULL DEFAULT 0, locked_until_ms BIGINT, seq BIGINT NOT NULL,
            UNIQUE (hunt, name_key)
        );
        CREATE TABLE credentials (
            hunt TEXT NOT NULL, player_id TEXT PRIMARY KEY, pin_hash TEXT NOT NULL, seq BIGINT NOT NULL,
            chained_in_seq BIGINT UNIQUE, chained_pin_hash TEXT,
            CHECK ((chained_in_seq IS NULL) = (chained_pin_hash IS NULL))
        );
        CREATE TABLE finds (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL, player_id TEXT NOT NULL, cache_id TEXT NOT NULL,
            time_ms BIGINT NOT NULL, lat DOUBLE PRECISION, lon DOUBLE PRECISION, method TEXT NOT NULL,
            photo_sha256 TEXT, exif_time_ms BIGINT, first_to_find BIGINT NOT NULL,
            voided BIGINT NOT NULL DEFAULT 0, void_reason TEXT, seq BIGINT NOT NULL
        );
        CREATE UNIQUE INDEX finds_one_per_player_and_cache ON finds (hunt, player_id, cache_id) WHERE voided = 0;
        CREATE INDEX finds_by_cache ON finds (hunt, cache_id);
        CREATE TABLE attempts (
            seq BIGINT PRIMARY KEY, hunt TEXT NOT NULL, player_id TEXT NOT NULL, cache_id TEXT,
            time_ms BIGINT NOT NULL, verdict TEXT NOT NULL, method TEXT NOT NULL,
            lat DOUBLE PRECISION, lon DOUBLE PRECISION, photo_sha256 TEXT
        );
        CREATE TABLE items (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('card', 'trackable')),
            cache_id TEXT, name TEXT NOT NULL, message TEXT NOT NULL DEFAULT '',
            found_lat DOUBLE PRECISION, found_lon DOUBLE PRECISION, found_ms BIGINT,
            owner_id TEXT, in_cache_id TEXT, picked_from TEXT, seq BIGINT NOT NULL,
            CHECK (owner_id IS NULL OR in_cache_id IS NULL)
        );
        CREATE UNIQUE INDEX items_one_card_of_a_cache_per_owner ON items (hunt, owner_id, cache_id)
            WHERE kind = 'card' AND owner_id IS NOT NULL;
        CREATE INDEX items_by_owner ON items (owner_id);
        CREATE TABLE trips (
            trackable_id TEXT NOT NULL, leg BIGINT NOT NULL, player_id TEXT NOT NULL,
            from_cache TEXT NOT NULL, to_cache TEXT, picked_ms BIGINT NOT NULL, dropped_ms BIGINT,
            distance_m DOUBLE PRECISION, seq BIGINT NOT NULL,
            PRIMARY KEY (trackable_id, leg)
        );
        CREATE TABLE points (
            seq BIGINT NOT NULL, idx BIGINT NOT NULL, hunt TEXT NOT NULL, player_id TEXT NOT NULL,
            find_id TEXT, reason TEXT NOT NULL, amount BIGINT NOT NULL,
            PRIMARY KEY (seq, idx)
        );
        CREATE INDEX points_by_player ON points (hunt, player_id);
        CREATE INDEX points_by_find ON points (find_id);
        CREATE TABLE trades (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL, from_id TEXT NOT NULL, to_id TEXT NOT NULL,
            give TEXT NOT NULL, receive TEXT NOT NULL, offered_ms BIGINT NOT NULL,
            expires_ms BIGINT NOT NULL, state TEXT NOT NULL, reason TEXT, closed_ms BIGINT,
            seq BIGINT NOT NULL
        );
        CREATE TABLE reports (
            id TEXT PRIMARY KEY, hunt TEXT NOT NULL, cache_id TEXT NOT NULL, player_id TEXT NOT NULL,
            kind TEXT NOT NULL, text TEXT NOT NULL, photo_sha256 TEXT, filed_ms BIGINT NOT NULL,
            resolved_ms BIGINT, resolution TEXT, seq BIGINT NOT NULL
        );
        CREATE TABLE cache_flags (
            hunt TEXT NOT NULL, cache_id TEXT NOT NULL, disabled BIGINT NOT NULL, reason TEXT NOT NULL,
            seq BIGINT NOT NULL, PRIMARY KEY (hunt, cache_id)
        );
        CREATE TABLE hunt_secrets (
            hunt TEXT NOT NULL, generation BIGINT NOT NULL, fingerprint TEXT NOT NULL,
            rotated_ms BIGINT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (hunt, generation)
        );
        CREATE TABLE hunt_state (hunt TEXT PRIMARY KEY, running BIGINT NOT NULL, seq BIGINT NOT NULL);
        CREATE TABLE hints (
            hunt TEXT NOT NULL, player_id TEXT NOT NULL, cache_id TEXT NOT NULL, cost BIGINT NOT NULL,
            revealed_ms BIGINT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (hunt, player_id, cache_id)
        );
        CREATE TABLE claim_ids (
            hunt TEXT NOT NULL, claim_id TEXT NOT NULL, player_id TEXT NOT NULL, find_id TEXT,
            verdict TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (hunt, claim_id)
        );
        """

    /// The migrations this database has had, in order; nil when it holds no ledger.
    static func applied(_ sql: PostgresSQL) async throws -> [String]? {
        let table = try await sql.row("SELECT to_regclass('geoqr_migrations')::text AS name")
        guard (table?["name"] as String?) != nil else { return nil }
        return try await sql.rows("SELECT name FROM geoqr_migrations ORDER BY position").map { $0["name"] }
    }

    /// Refuses a database whose migrations are not a beginning of ours (a newer geoqr's, or
    /// another program's tables under the same name).
    static func check(_ applied: [String], location: PostgresLocation) throws {
        let known = migrations.map(\.name)
        guard applied.count <= known.count, Array(known.prefix(applied.count)) == applied else {
            let unknown = applied.first { !known.contains($0) } ?? applied.last ?? "?"
            throw PostgresStoreError.schema("""
                \(location): the ledger there is at another schema version (migration "\(unknown)" is not one this \
                geoqr knows; its last is "\(known.last!)"): open it with the geoqr that wrote it
                """)
        }
    }

    /// Brings the schema up to date in one transaction, under an advisory lock so that two
    /// servers starting at once do not both migrate.
    static func migrate(_ sql: PostgresSQL) async throws {
        try await sql.execute("BEGIN")
        do {
            try await sql.execute("SELECT pg_advisory_xact_lock(?)", migrationLock)
            try await sql.execute("""
                CREATE TABLE IF NOT EXISTS geoqr_migrations (
                    position BIGINT PRIMARY KEY, name TEXT NOT NULL UNIQUE, applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """)
            let applied = try await self.applied(sql) ?? []
            try check(applied, location: sql.location)
            for (position, migration) in migrations.enumerated().dropFirst(applied.count) {
                for statement in migration.statements { try await sql.execute(statement) }
                try await sql.execute("INSERT INTO geoqr_migrations (position, name) VALUES (?, ?)", position + 1, migration.name)
            }
            try await sql.execute("COMMIT")
        } catch {
            try? await sql.execute("ROLLBACK")
            throw error
        }
    }
}
