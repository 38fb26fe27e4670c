/// Migration "v6: sign-ins and guesses" (SQLite) / "v2: sign-ins and guesses" (PostgreSQL):
/// the private tables that let any server answer any player. `sessions` holds each sign-in
/// token's SHA-256, never the token; `guesses` counts wrong PINs per address and name and wrong
/// typed codes per player (``GeoQR/PINPolicy/perAddress``, ``GeoQR/PINPolicy/typedCodes``).
/// Neither is derived from the ledger, so neither is verified against it or copied with it.
///
/// The statements are the same in both databases (`BIGINT` is SQLite's `INTEGER` affinity).
enum SignInsSchema {
    static let name = "v6: sign-ins and guesses"
    static let postgresName = "v2: sign-ins and guesses"

    static let statements = [
        """
        CREATE TABLE sessions (
            token_sha256 TEXT PRIMARY KEY, hunt TEXT NOT NULL, player_id TEXT NOT NULL, issued_ms BIGINT NOT NULL
        )
        """,
        "CREATE INDEX sessions_by_player ON sessions (hunt, player_id)",
        """
        CREATE TABLE guesses (
            hunt TEXT NOT NULL, subject TEXT NOT NULL, failures BIGINT NOT NULL, locked_until_ms BIGINT,
            PRIMARY KEY (hunt, subject)
        )
        """,
    ]
}
