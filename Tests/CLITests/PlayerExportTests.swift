import Foundation
import GeoQR
import HuntFiles
import Ledger
import Testing

/// `geoqr export --player` reads a player's finds from the real ledger in the data directory.
@Suite struct PlayerExportTests {
    /// A data directory whose ledger holds Ana's finds of A1 and B2 in the demo hunt, the second
    /// voided, and Rui's find of A2.
    func ledgerWithFinds() async throws -> GeoQRProcess {
        let geoqr = try GeoQRProcess()
        let hunt = try HuntLibrary(cachesFolder: geoqr.path("caches")).load("demo").hunt
        try FileManager.default.createDirectory(at: geoqr.dataDirectory, withIntermediateDirectories: true)
        var config = SQLiteGameStore.Configuration()
        config.pinCost = 4
        let store = try SQLiteGameStore(directory: geoqr.dataDirectory.path, configuration: config)
        let t0 = Date(timeIntervalSince1970: 1_795_858_200)   // 2026-11-28T09:30:00Z
        let ana = try await store.join(hunt: hunt.id, name: "Ana", pin: "2468", team: nil, at: t0)
        let rui = try await store.join(hunt: hunt.id, name: "Rui", pin: "1357", team: nil, at: t0)
        for (player, cache, minutes) in [(ana.id, "A1", 15.0), (ana.id, "B2", 40.0), (rui.id, "A2", 20.0)] {
            let claim = ClaimRecord(player: player, hunt: hunt.id, cache: cache, time: t0.addingTimeInterval(minutes * 60),
                                    location: hunt.cache(id: cache)?.coordinate, method: .photo, verdict: .claimable)
            _ = try await store.record(claim, in: hunt)
        }
        let anaFinds = try await store.finds(hunt: hunt.id, player: ana.id)
        let b2 = try #require(anaFinds.first { $0.cache == "B2" })
        _ = try await store.voidFind(hunt: hunt.id, id: b2.id, reason: "photo of a photo", by: "game master", at: t0.addingTimeInterval(3600))
        return geoqr
    }

    @Test func fieldNotesListOnlyThePlayersStandingFinds() async throws {
        let geoqr = try await ledgerWithFinds()
        let r = try geoqr.run("export", "demo", "--player", "ana", "--format", "fieldnotes", "-o", "ana.txt")
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: geoqr.path("ana.txt")))
        #expect(data.starts(with: [0xFF, 0xFE]), "UTF-16 LE with a byte-order mark")
        let text = try #require(String(data: data.dropFirst(2), encoding: .utf16LittleEndian))
        let lines = text.split(whereSeparator: \.isNewline)
        #expect(lines == [#"A1,2026-11-28T09:45Z,Found it,"Found with GeoQR in Campus Quest: University of Aveiro.""#])
    }

    @Test func gpxCarriesFoundItLogs() async throws {
        let geoqr = try await ledgerWithFinds()
        let r = try geoqr.run("export", "demo", "--player", "Rui", "--format", "gpx")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("<sym>Geocache Found</sym>"))
        #expect(r.stdout.contains("Found it"))
        #expect(r.stdout.contains("Salt pan view") && !r.stdout.contains("Rectorate steps"))
    }

    @Test func anUnknownPlayerOrNoLedgerIsOneLine() async throws {
        let geoqr = try await ledgerWithFinds()
        let r = try geoqr.run("export", "demo", "--player", "Zoe", "--format", "gpx")
        #expect(r.status == 1)
        #expect(r.stderr == "geoqr: --player Zoe: no such player in hunt DEMO\n")
        let empty = try GeoQRProcess().run("export", "demo", "--player", "Ana", "--format", "gpx")
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("no ledger here yet"))
    }
}
