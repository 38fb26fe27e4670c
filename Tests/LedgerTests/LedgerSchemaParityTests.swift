import Foundation
@testable import Ledger
import Testing

/// Both stores end their one migration list (``LedgerMigrations``) with the same tables, columns
/// and indexes, read from each database's own catalogue: a hunt moved with `ledger copy` runs on
/// the same schema wherever it lands.
@Suite("One schema in both stores")
struct LedgerSchemaParityTests {
    /// What each database has for its own machinery, and nothing else has.
    static let onlySQLite: Set = ["grdb_migrations"]
    static let onlyPostgres: Set = ["chain_head", "geoqr_migrations"]

    @Test(.enabled(if: StoreKind.tested.contains(.postgres), "needs GEOQR_TEST_POSTGRES (scripts/test sets it)"))
    func bothStoresHaveTheSameTablesColumnsAndIndexes() async throws {
        let sqlite = try await makeStore(.sqlite), postgres = try await makeStore(.postgres)
        defer { sqlite.removeFolder() }
        let left = try await Catalogue.sqlite(sqlite), right = try await Catalogue.postgres(postgres)
        #expect(left.tables.subtracting(Self.onlySQLite) == right.tables.subtracting(Self.onlyPostgres))
        #expect(left.tables.contains("finds") && left.tables.contains("credentials"))
        for table in left.tables.intersection(right.tables).sorted() {
            #expect(left.columns[table] == right.columns[table], "columns of \(table)")
            #expect(left.keys[table] == right.keys[table], "primary key and unique constraints of \(table)")
        }
        #expect(left.indexes == right.indexes)
        #expect(left.indexes.contains("finds_live_by_cache(hunt,cache_id,player_id) partial"))
    }

    @Test func theListNamesEachMigrationOnceForEachDatabase() {
        let sqlite = LedgerMigrations.all.filter { $0.sqlite != nil }.map(\.name)
        let postgres = LedgerMigrations.postgres.map(\.name)
        #expect(Set(sqlite).count == sqlite.count && Set(postgres).count == postgres.count)
        // The names databases already record, in the order they recorded them.
        #expect(Array(sqlite.prefix(9)) == ["v1: events", "v1: derived state", "v2: hunt state",
                                            "v3: credentials outside the chain", "v4: hints", "v5: claim ids",
                                            "v6: sign-ins and guesses", "sessions expire (issue 24)",
                                            "claim ids per player (issue 24)"])
        #expect(Array(postgres.prefix(7)) == ["v1: events and chain head", "v1: derived state", "v2: sign-ins and guesses",
                                              "v3: notify on append", "v4: live finds by cache",
                                              "sessions expire (issue 24)", "claim ids per player (issue 24)"])
    }
}

/// A schema as its database's catalogue describes it, in words both can say.
struct Catalogue {
    var tables: Set<String> = []
    /// Per table: each column as `name type null|not-null`, in table order; types as affinities
    /// (`integer`, `real`, `text`).
    var columns: [String: [String]] = [:]
    /// Per table: the primary key's columns and each unique constraint's, sorted.
    var keys: [String: [String]] = [:]
    /// Indexes made by `CREATE INDEX`: `name(columns)`, ` unique`, ` partial`.
    var indexes: Set<String> = []

    static func affinity(_ declared: String) -> String {
        let type = declared.lowercased()
        if type.contains("int") { return "integer" }
        if type.contains("real") || type.contains("doub") || type.contains("float") { return "real" }
        if type.contains("char") || type.contains("text") { return "text" }
        return type
    }

    static func sqlite(_ store: any TestLedger) async throws -> Catalogue {
        var catalogue = Catalogue()
        for row in try await store.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            guard case .text(let table) = row[0] else { continue }
            catalogue.tables.insert(table)
            let columns = try await store.rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info('\(table)') ORDER BY cid")
            catalogue.columns[table] = columns.map { column in
                // A primary key column is NOT NULL in PostgreSQL whatever it says, and in SQLite's
                // rowid tables only for an INTEGER key; say what both mean.
                "\(text(column[0])) \(affinity(text(column[1]))) \(int(column[2]) == 1 || int(column[3]) > 0 ? "not-null" : "null")"
            }
            let primary = columns.filter { int($0[3]) > 0 }.sorted { int($0[3]) < int($1[3]) }.map { text($0[0]) }
            var keys = primary.isEmpty ? [] : ["primary(\(primary.joined(separator: ",")))"]
            for index in try await store.rows("SELECT name, \"unique\", origin, partial FROM pragma_index_list('\(table)')") {
                let name = text(index[0])
                let columns = try await store.rows("SELECT name FROM pragma_index_info('\(name)') ORDER BY seqno").map { text($0[0]) }
                switch text(index[2]) {
                case "u": keys.append("unique(\(columns.joined(separator: ",")))")
                case "c":
                    catalogue.indexes.insert("\(name)(\(columns.joined(separator: ",")))"
                                             + (int(index[1]) == 1 ? " unique" : "") + (int(index[3]) == 1 ? " partial" : ""))
                default: break   // "pk": the primary key, listed above
                }
            }
            catalogue.keys[table] = keys.sorted()
        }
        return catalogue
    }

    static func postgres(_ store: any TestLedger) async throws -> Catalogue {
        var catalogue = Catalogue()
        for row in try await store.rows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()") {
            let table = text(row[0])
            catalogue.tables.insert(table)
            catalogue.columns[table] = try await store.rows("""
                SELECT column_name::text, data_type::text, is_nullable::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = '\(table)' ORDER BY ordinal_position
                """).map { "\(text($0[0])) \(affinity(text($0[1]))) \(text($0[2]) == "YES" ? "null" : "not-null")" }
            catalogue.keys[table] = try await store.rows("""
                SELECT c.contype::text, string_agg(a.attname::text, ',' ORDER BY k.ord)
                FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                WHERE c.conrelid = '\(table)'::regclass AND c.contype IN ('p', 'u') GROUP BY c.oid, c.contype
                """).map { (text($0[0]) == "p" ? "primary" : "unique") + "(\(text($0[1])))" }.sorted()
            for index in try await store.rows("""
                SELECT i.relname::text, x.indisunique::int, (x.indpred IS NOT NULL)::int,
                    (SELECT string_agg(a.attname::text, ',' ORDER BY k.ord) FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
                     JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum)
                FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                WHERE x.indrelid = '\(table)'::regclass
                AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
                """) {
                catalogue.indexes.insert("\(text(index[0]))(\(text(index[3])))"
                                         + (int(index[1]) == 1 ? " unique" : "") + (int(index[2]) == 1 ? " partial" : ""))
            }
        }
        return catalogue
    }

    private static func text(_ value: LedgerValue) -> String {
        switch value {
        case .text(let s): s
        case .integer(let n): "\(n)"
        case .real(let d): "\(d)"
        case .null: ""
        }
    }

    private static func int(_ value: LedgerValue) -> Int64 {
        if case .integer(let n) = value { return n }
        return 0
    }
}
