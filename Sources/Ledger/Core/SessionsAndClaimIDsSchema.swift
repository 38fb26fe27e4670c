/// Two migrations of issue 24, the same in both databases (SQLite's and PostgreSQL's lists
/// name them alike):
///
/// - "sessions expire": `sessions.last_used_ms`, when a session last signed a request in (NULL
///   until then: `issued_ms` stands for it), so a session unused for
///   ``Play/SignIns/lifetime`` signs nobody in.
/// - "claim ids per player": `claim_ids` keyed by (hunt, player, claim id), not (hunt, claim
///   id): the same id sent by another player is that player's own claim, never an answer
///   already given to someone else.
enum SessionsAndClaimIDsSchema {
    static let sessionsExpireName = "sessions expire (issue 24)"
    static let sessionsExpire = ["ALTER TABLE sessions ADD COLUMN last_used_ms BIGINT"]

    static let claimIDsPerPlayerName = "claim ids per player (issue 24)"
    /// SQLite cannot change a primary key: the table is made again under its name.
    static let claimIDsPerPlayerSQLite = [
        """
        CREATE TABLE claim_ids_per_player (
            hunt TEXT NOT NULL, claim_id TEXT NOT NULL, player_id TEXT NOT NULL, find_id TEXT,
            verdict TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (hunt, player_id, claim_id)
        )
        """,
        "INSERT INTO claim_ids_per_player SELECT hunt, claim_id, player_id, find_id, verdict, seq FROM claim_ids",
        "DROP TABLE claim_ids",
        "ALTER TABLE claim_ids_per_player RENAME TO claim_ids",
    ]
    static let claimIDsPerPlayerPostgres = [
        "ALTER TABLE claim_ids DROP CONSTRAINT claim_ids_pkey",
        "ALTER TABLE claim_ids ADD PRIMARY KEY (hunt, player_id, claim_id)",
    ]
}
