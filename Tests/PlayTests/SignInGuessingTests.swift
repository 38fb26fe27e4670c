import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// Issue 24 §6 and §8 through the application layer, on a real SQLite ledger with the guesses
/// kept in it (as a server keeps them): many addresses neither get in nor lock the player out,
/// one address spraying names is slowed, IPv6 counts by /64, typed codes lock on forgeries
/// however valid codes are mixed in.
@Suite("Sign-in guessing and typed-code forgeries")
struct SignInGuessingTests {
    static let hunt = Hunt(id: "TOWN", name: "Town", start: GameTests.t0, end: GameTests.t0.addingTimeInterval(4 * 3600),
                           caches: GameTests.hunt.caches, offlineGraceMinutes: 120)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sign-in-guessing-\(UUID().uuidString)")
    let clock = GameTests.Clock()
    let secret = HuntSecret.random()
    let game: Game

    init() throws {
        let store = try SQLiteGameStore(directory: folder.path, configuration: .init(pinCost: 4, pinPolicy: .perPlayer))
        let clock = self.clock
        game = Game(hunt: Self.hunt, secret: secret, store: store, clock: { clock.read() }, guesses: Guesses(store: store, hunt: "TOWN"))
    }

    @Test func networksAreIPv4AddressesAndIPv6Slash64s() {
        #expect(Guesses.network(of: "203.0.113.9") == "203.0.113.9")
        #expect(Guesses.network(of: "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(Guesses.network(of: "[2001:DB8:1:2:ffff:ffff:ffff:ffff]") == "2001:db8:1:2::/64")
        #expect(Guesses.network(of: "2001:db8::") == "2001:db8:0:0::/64")
        #expect(Guesses.network(of: "::ffff:198.51.100.7") == "198.51.100.7")
        #expect(Guesses.network(of: "fe80::1%eth0") == "fe80:0:0:0::/64")
        #expect(Guesses.network(of: "local") == "local")
    }

    @Test func manyAddressesNeitherGetInNorLockThePlayerOut() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        _ = try await game.signIn(name: "Ada", pin: "4321", from: "203.0.113.20")   // her phone's network
        // 40 addresses, five guesses each: ten are judged (bcrypt, a pin-checked event each), the
        // other 190 refused unjudged. The guess that reaches a limit is answered "locked out".
        let before = try await game.store.events(after: 0, limit: 10_000).filter { $0.kind == "pin-checked" }.count
        var wrong = 0, refused = 0
        for address in 0..<40 {
            for guess in 0..<5 {
                do {
                    _ = try await game.signIn(name: "ada", pin: String(format: "%04d", address * 5 + guess), from: "192.0.2.\(address)")
                    Issue.record("a guess got in")
                } catch GameRuleViolation.wrongPIN { wrong += 1 } catch GameRuleViolation.lockedOut { refused += 1 }
            }
        }
        let judged = try await game.store.events(after: 0, limit: 10_000).filter { $0.kind == "pin-checked" }.count - before
        #expect(judged == 10 && wrong + refused == 200 && wrong == 8, "judged \(judged), wrong \(wrong), refused \(refused)")
        // Even the right PIN is refused from a network Ada never used, until the 30 minutes end…
        await #expect(throws: GameRuleViolation.lockedOut(until: clock.read().addingTimeInterval(30 * 60))) {
            try await game.signIn(name: "Ada", pin: "4321", from: "198.18.0.1")
        }
        // …and never where she signed in before, nor by id.
        #expect(try await game.signIn(name: "Ada", pin: "4321", from: "203.0.113.20").value.id == ada.id)
        clock.advance(30 * 60)
        #expect(try await game.signIn(name: "Ada", pin: "4321", from: "198.18.0.1").value.id == ada.id)
        #expect(try await game.store.verify().isIntact)
    }

    @Test func oneAddressSprayingNamesIsSlowedAndIPv6CountsBySlash64() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for i in 0..<30 { _ = try await game.join(name: "Walker \(i)", pin: "4321", team: nil) }
        var refused = 0, judged = 0
        for i in 0..<30 {
            // A different address of one /64 each time, as one phone or home can have billions.
            let address = "2001:db8:7:7:\(String(i, radix: 16))::1"
            for name in ["Walker \(i)", "Nobody \(i)"] {
                do { _ = try await game.signIn(name: name, pin: "0000", from: address) } catch GameRuleViolation.lockedOut {
                    refused += 1
                } catch { judged += 1 }
            }
        }
        #expect(judged == 20 && refused == 40, "20 attempts an hour for any names from one network: judged \(judged), refused \(refused)")
        await #expect(throws: GameRuleViolation.lockedOut(until: clock.read().addingTimeInterval(3600))) {
            try await game.signIn(name: "Walker 29", pin: "4321", from: "2001:db8:7:7::99")
        }
        // Another /64 is another network; the walkers' own sign-ins are not held up.
        #expect(try await game.signIn(name: "Walker 29", pin: "4321", from: "2001:db8:7:8::1").value.name == "Walker 29")
    }

    @Test func forgedTypedCodesLockEvenWithValidCodesBetween() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        clock.advance(60)
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let typedA1 = TypedCode.text(hunt: "TOWN", cache: "A1", secret: secret)
        let near = ClaimLocation(coordinate: Self.hunt.cache(id: "A1")!.coordinate, accuracy: 8, source: .browser)
        #expect(try await game.claimCode(typedA1, at: near, method: .typed, by: ada.id).value.best.outcome == .found)
        // Four forgeries, then a valid code already found, then a fifth forgery: locked.
        for round in 0..<2 {
            for _ in 0..<(round == 0 ? 4 : 1) {
                #expect(try await game.claimCode("A2-0000-0000", at: near, method: .typed, by: ada.id).value.best.verdict == .forged)
            }
            if round == 0 {
                #expect(try await game.claimCode(typedA1, at: near, method: .typed, by: ada.id).value.best.verdict == .alreadyFound)
            }
        }
        await #expect(throws: PlayError.typingLockedOut(until: clock.read().addingTimeInterval(15 * 60))) {
            try await game.claimCode(typedA1, at: near, method: .typed, by: ada.id)
        }
    }
}
