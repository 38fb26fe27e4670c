import GRDB

/// The ledger's schema as one list of migrations for both stores, in the order they run. Each
/// says what it does in SQLite and in PostgreSQL, where the two must differ (types, how a
/// primary key is changed, a trigger's language); nil where that database needs nothing, because
/// one of its earlier migrations already made the same thing. Both stores end with the same
/// tables, columns and indexes (`LedgerSchemaParityTests` compares them from each database's own
/// catalogue); what only one has is the machinery around them: PostgreSQL's `chain_head` and
/// `geoqr_migrations`, each database's triggers.
///
/// Migrations are only ever added, at the end, and a migration's name is what each database
/// records as done, so names never change. A new one, when both databases take the same SQL:
///
/// ```swift
/// Migration("v12: trails walked", both: ["CREATE INDEX finds_by_player ON finds (hunt, player_id, time_ms)"])
/// ```
enum LedgerMigrations {
    struct Migration: Sendable {
        /// The name SQLite records (GRDB's `grdb_migrations`).
        var name: String
        /// The name PostgreSQL records (`geoqr_migrations`), where the two lists were once apart.
        var postgresName: String
        var sqlite: SQLiteStep?
        var postgres: [String]?

        init(_ name: String, postgresName: String? = nil, sqlite: SQLiteStep?, postgres: [String]?) {
            self.name = name
            self.postgresName = postgresName ?? name
            self.sqlite = sqlite
            self.postgres = postgres
        }

        /// The same statements in both.
        init(_ name: String, both statements: [String]) {
            self.init(name, sqlite: .statements(statements), postgres: statements)
        }
    }

    enum SQLiteStep: Sendable {
        case statements([String])
        /// A migration that reads what is there (moving data out of old bodies).
        case work(@Sendable (Database) throws -> Void)
    }

    static let all: [Migration] = [
        Migration("v1: events", postgresName: "v1: events and chain head",
                  sqlite: .statements([LedgerSchema.eventsSQL]), postgres: PostgresSchema.eventsSQL),
        Migration("v1: derived state",
                  sqlite: .statements([LedgerSchema.derivedStateSQL]),
                  postgres: PostgresSchema.statements(PostgresSchema.derivedStateSQL)),
        // PostgreSQL's first derived state already held the tables of SQLite's v2–v5.
        Migration("v2: hunt state", sqlite: .statements([LedgerSchema.huntStateSQL]), postgres: nil),
        Migration(CredentialsMigration.name, sqlite: .work(CredentialsMigration.migrate), postgres: nil),
        Migration("v4: hints", sqlite: .statements([LedgerSchema.hintsSQL]), postgres: nil),
        Migration("v5: claim ids", sqlite: .work(LedgerSchema.claimIDs), postgres: nil),
        Migration(SignInsSchema.name, postgresName: SignInsSchema.postgresName,
                  sqlite: .statements(SignInsSchema.statements), postgres: SignInsSchema.statements),
        Migration("v3: notify on append", sqlite: nil, postgres: PostgresSchema.notifySQL),
        // SQLite took this index in "v10: one schema".
        Migration("v4: live finds by cache", sqlite: nil, postgres: PostgresSchema.liveFindsByCacheSQL),
        Migration(SessionsAndClaimIDsSchema.sessionsExpireName, both: SessionsAndClaimIDsSchema.sessionsExpire),
        Migration(SessionsAndClaimIDsSchema.claimIDsPerPlayerName,
                  sqlite: .statements(SessionsAndClaimIDsSchema.claimIDsPerPlayerSQLite),
                  postgres: SessionsAndClaimIDsSchema.claimIDsPerPlayerPostgres),
        // Where the two lists had drifted apart before they were one.
        Migration("v10: one schema", sqlite: .statements(PostgresSchema.liveFindsByCacheSQL), postgres: nil),
        Migration("v11: courses", both: [
            // A course's mass start, given once by the game master.
            """
            CREATE TABLE course_starts (
                hunt TEXT NOT NULL, course TEXT NOT NULL, started_ms BIGINT NOT NULL, seq BIGINT NOT NULL,
                PRIMARY KEY (hunt, course)
            )
            """,
            // Runners the game master disqualified from their course, once each.
            """
            CREATE TABLE disqualifications (
                hunt TEXT NOT NULL, player_id TEXT NOT NULL, course TEXT NOT NULL, reason TEXT NOT NULL,
                seq BIGINT NOT NULL, PRIMARY KEY (hunt, player_id)
            )
            """,
            // Every answer to a station's question, right or wrong (the text is not kept).
            """
            CREATE TABLE challenge_answers (
                seq BIGINT PRIMARY KEY, hunt TEXT NOT NULL, player_id TEXT NOT NULL, cache_id TEXT NOT NULL,
                correct BIGINT NOT NULL, points BIGINT NOT NULL, answer_id TEXT, answered_ms BIGINT NOT NULL
            )
            """,
            "CREATE INDEX challenge_answers_by_player ON challenge_answers (hunt, player_id, cache_id)",
        ]),
        Migration("v12: photo tasks", both: [
            // Every photo sent for a station's photo task, and what the game master judged
            // (`pending`, `approved`, `rejected`); the photo itself is in the data directory.
            """
            CREATE TABLE photo_submissions (
                hunt TEXT NOT NULL, id TEXT NOT NULL, player_id TEXT NOT NULL, cache_id TEXT NOT NULL,
                photo_sha256 TEXT NOT NULL, submitted_ms BIGINT NOT NULL, state TEXT NOT NULL, reason TEXT,
                points BIGINT NOT NULL, judged_ms BIGINT, seq BIGINT NOT NULL, PRIMARY KEY (hunt, id)
            )
            """,
            "CREATE INDEX photo_submissions_by_player ON photo_submissions (hunt, player_id, cache_id)",
        ]),
        // An event's body may now change, and nothing else of it: dropping positions and
        // forgetting a player replace private parts by their commitments, which the hash
        // already covers. Any other change of a body is caught by `geoqr ledger verify`.
        Migration("v13: privacy", sqlite: .statements(["DROP TRIGGER events_no_update", """
            CREATE TRIGGER events_no_update BEFORE UPDATE OF \(eventsFixedColumns) ON events
                BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: events cannot be changed'); END
            """]), postgres: ["DROP TRIGGER events_no_update ON events", """
            CREATE TRIGGER events_no_update BEFORE UPDATE OF \(eventsFixedColumns) ON events
                FOR EACH ROW EXECUTE FUNCTION geoqr_events_append_only()
            """]),
    ]

    /// Every column of an event but its body.
    private static let eventsFixedColumns = "seq, time_ms, hunt, actor, kind, prev_hash, hash"

    /// SQLite's migrations, for GRDB's migrator.
    static var sqliteMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in all {
            switch migration.sqlite {
            case .statements(let statements)?:
                migrator.registerMigration(migration.name) { db in try db.execute(sql: statements.joined(separator: ";\n")) }
            case .work(let work)?:
                migrator.registerMigration(migration.name, migrate: work)
            case nil:
                continue
            }
        }
        return migrator
    }

    /// PostgreSQL's migrations, as its store applies and records them.
    static let postgres: [(name: String, statements: [String])] = all.compactMap { migration in
        migration.postgres.map { (migration.postgresName, $0) }
    }
}
