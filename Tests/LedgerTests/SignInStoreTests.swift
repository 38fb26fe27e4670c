import Foundation
import GeoQR
@testable import Ledger
import Testing

/// Sign-in sessions and wrong guesses in the store's private tables, so every server on one
/// store answers every player: both stores, and a second store on the same ledger as another
/// server would open it.
@Suite("Sessions and wrong guesses in the store")
struct SignInStoreTests {
    let ada = String(repeating: "a", count: 64), adaLaptop = String(repeating: "b", count: 64)
    let bo = String(repeating: "c", count: 64)

    @Test(arguments: StoreKind.tested) func sessionsAreSharedAndEndWithAPINReset(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let p1 = try await store.join(hunt: "TEST", name: "Ada", pin: "4321", team: nil, at: t0).id
        let p2 = try await store.join(hunt: "TEST", name: "Bo", pin: "1234", team: nil, at: t0).id
        try await store.keepSession(hunt: "test", player: p1, tokenSHA256: ada, at: t0)
        try await store.keepSession(hunt: "TEST", player: p1, tokenSHA256: adaLaptop, at: t0)
        try await store.keepSession(hunt: "TEST", player: p2, tokenSHA256: bo, at: t0)

        let other = try await store.reopened()   // another server on the same ledger
        #expect(try await other.sessionPlayer(hunt: "TEST", tokenSHA256: ada) == p1)
        #expect(try await other.sessionPlayer(hunt: "TEST", tokenSHA256: bo) == p2)
        #expect(try await other.sessionPlayer(hunt: "OTHER", tokenSHA256: ada) == nil, "a session is one hunt's")
        #expect(try await other.sessionPlayer(hunt: "TEST", tokenSHA256: String(repeating: "d", count: 64)) == nil)

        // The game master's reset (here through the other server) ends both of Ada's sessions at once.
        _ = try await other.resetPIN(hunt: "TEST", player: "Ada", pin: "8642", by: "gm", at: t0.addingTimeInterval(60))
        #expect(try await store.sessionPlayer(hunt: "TEST", tokenSHA256: ada) == nil)
        #expect(try await store.sessionPlayer(hunt: "TEST", tokenSHA256: adaLaptop) == nil)
        #expect(try await store.sessionPlayer(hunt: "TEST", tokenSHA256: bo) == p2)
        try await store.endSessions(hunt: "TEST", player: p2)
        #expect(try await other.sessionPlayer(hunt: "TEST", tokenSHA256: bo) == nil)

        // Sessions are no part of the ledger: it verifies, and no event names a digest.
        #expect(try await store.verify().isIntact)
        #expect(try await store.events(after: 0, limit: 100).allSatisfy { !$0.body.contains(ada) && !$0.body.contains(bo) })
    }

    /// Two servers counting one subject's wrong guesses at once both count: the read and the
    /// write are one transaction.
    @Test(arguments: StoreKind.tested) func wrongGuessesFromTwoServersAllCount(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let other = try await store.reopened()
        let policy = PINPolicy(maxFailures: 20, lockout: 900)
        let subject = "pin 203.0.113.9 ada"
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<19 {
                let server: any GameStore = i.isMultiple(of: 2) ? store : other
                group.addTask { _ = try await server.countWrongGuess(hunt: "TEST", subject: subject, policy: policy, at: t0) }
            }
            try await group.waitForAll()
        }
        #expect(try await other.guesses(hunt: "TEST", subject: subject) == PINState(failures: 19, lockedUntil: nil))
        let locked = try await store.countWrongGuess(hunt: "TEST", subject: subject, policy: policy, at: t0)
        #expect(locked == PINState(failures: 20, lockedUntil: t0.addingTimeInterval(900)))
        #expect(try await other.guesses(hunt: "TEST", subject: subject) == locked)
        #expect(try await other.guesses(hunt: "TEST", subject: "pin 203.0.113.10 ada") == PINState(), "per address")
        #expect(try await other.guesses(hunt: "OTHER", subject: subject) == PINState(), "per hunt")
        try await other.clearGuesses(hunt: "TEST", subject: subject)
        #expect(try await store.guesses(hunt: "TEST", subject: subject) == PINState())
    }
}
