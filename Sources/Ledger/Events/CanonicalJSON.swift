import Foundation
import GeoQR

/// The ledger's one JSON form (compact, keys sorted, times in milliseconds since 1970),
/// written by hand for the bodies on the hot path: `JSONEncoder` took about 100 µs a find,
/// more than everything else the writer does for it. The bytes are the ones `JSONEncoder`
/// writes with ``BodyCoding``'s settings (a test compares them), so a body reads the same
/// whichever wrote it; and since the hash covers the stored text, the chain never depends on
/// which did.
protocol CanonicalJSONBody {
    /// Writes the value as one JSON object, keys in sorted order.
    func write(to json: inout JSONWriter)
}

extension JSONWriter {
    /// A date as `.millisecondsSince1970` writes it.
    mutating func date(_ value: Date) { number(value.timeIntervalSince1970 * 1000) }

    mutating func body(_ value: some CanonicalJSONBody) { value.write(to: &self) }
}

extension FindRecorded: CanonicalJSONBody {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("awards")
        json.beginArray()
        for award in awards { json.body(award) }
        json.endArray()
        if let card {
            json.key("card")
            json.body(card)
        }
        json.key("claim"); json.body(claim)
        json.key("find"); json.string(find)
        json.key("firstToFind"); json.bool(firstToFind)
        json.endObject()
    }
}

extension ClaimAttempted: CanonicalJSONBody {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("claim"); json.body(claim)
        json.key("verdict"); json.string(verdict.rawValue)
        json.endObject()
    }
}

extension PointsAward: CanonicalJSONBody {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("amount"); json.number(amount)
        json.key("reason"); json.string(reason)
        json.endObject()
    }
}

extension CardGrant: CanonicalJSONBody {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("cache"); json.string(cache)
        json.key("cacheName"); json.string(cacheName)
        json.key("item"); json.string(item)
        json.key("message"); json.string(message)
        json.endObject()
    }
}

extension ClaimRecord: CanonicalJSONBody {
    func write(to json: inout JSONWriter) { write(to: &json, withLocation: true) }

    /// Without its location, the claim as format 2 keeps it in public (``EventSeal``).
    func write(to json: inout JSONWriter, withLocation: Bool) {
        json.beginObject()
        if let cache { json.key("cache"); json.string(cache) }
        if let claimID { json.key("claimId"); json.string(claimID) }
        json.key("evidence")
        json.beginObject()
        if let exifTime = evidence.exifTime { json.key("exifTime"); json.date(exifTime) }
        if let photo = evidence.photoSHA256 { json.key("photoSHA256"); json.string(photo) }
        json.endObject()
        json.key("hunt"); json.string(hunt)
        if let lateSeconds { json.key("lateSeconds"); json.number(lateSeconds) }
        if withLocation, let location {
            json.key("location")
            json.beginObject()
            json.key("lat"); json.number(location.latitude)
            json.key("lon"); json.number(location.longitude)
            json.endObject()
        }
        json.key("method"); json.string(method.rawValue)
        json.key("player"); json.string(player)
        json.key("time"); json.date(time)
        json.key("verdict"); json.string(verdict.rawValue)
        json.endObject()
    }
}

// Format 2 (``EventSeal``): the same bodies with their private fields in one object, keys
// sorted, and `"v":2`.

extension JSONWriter {
    /// `"private":…` when the body has a private part, then `"v":2`: the two keys sort next to
    /// each other in every sealed body, after all but `verdict`.
    fileprivate mutating func seal(_ privatePart: ((inout JSONWriter) -> Void)?) {
        if let privatePart { key("private"); privatePart(&self) }
        key("v"); number(EventSeal.format)
    }

    fileprivate mutating func salt(_ salt: String) { key("salt"); string(salt) }
}

extension ClaimRecord {
    /// Where the player stood: the private part of a claim's body.
    fileprivate func writePrivate(to json: inout JSONWriter, salt: String) {
        json.beginObject()
        if let location {
            json.key("location")
            json.beginObject()
            json.key("lat"); json.number(location.latitude)
            json.key("lon"); json.number(location.longitude)
            json.endObject()
        }
        json.salt(salt)
        json.endObject()
    }
}

extension ClaimAttempted: SealedBody {
    var hasPrivatePart: Bool { claim.location != nil }

    func writeSealed(to json: inout JSONWriter, privatePart: ((inout JSONWriter) -> Void)?) {
        json.beginObject()
        json.key("claim"); claim.write(to: &json, withLocation: false)
        json.seal(privatePart)
        json.key("verdict"); json.string(verdict.rawValue)
        json.endObject()
    }

    func writePrivate(to json: inout JSONWriter, salt: String) { claim.writePrivate(to: &json, salt: salt) }
}

extension FindRecorded: SealedBody {
    var hasPrivatePart: Bool { claim.location != nil }

    func writeSealed(to json: inout JSONWriter, privatePart: ((inout JSONWriter) -> Void)?) {
        json.beginObject()
        json.key("awards")
        json.beginArray()
        for award in awards { json.body(award) }
        json.endArray()
        if let card {
            json.key("card")
            json.body(card)
        }
        json.key("claim"); claim.write(to: &json, withLocation: false)
        json.key("find"); json.string(find)
        json.key("firstToFind"); json.bool(firstToFind)
        json.seal(privatePart)
        json.endObject()
    }

    func writePrivate(to json: inout JSONWriter, salt: String) { claim.writePrivate(to: &json, salt: salt) }
}

extension ReportFiled: SealedBody {
    func writeSealed(to json: inout JSONWriter, privatePart: ((inout JSONWriter) -> Void)?) {
        json.beginObject()
        json.key("cache"); json.string(cache)
        json.key("kind"); json.string(kind.rawValue)
        json.key("player"); json.string(player)
        if let privatePart { json.key("private"); privatePart(&json) }
        json.key("report"); json.string(report)
        json.key("v"); json.number(EventSeal.format)
        json.endObject()
    }

    /// The report's words and photo.
    func writePrivate(to json: inout JSONWriter, salt: String) {
        json.beginObject()
        if let photoSHA256 { json.key("photoSHA256"); json.string(photoSHA256) }
        json.salt(salt)
        json.key("text"); json.string(text)
        json.endObject()
    }
}

extension ReportResolved: SealedBody {
    func writeSealed(to json: inout JSONWriter, privatePart: ((inout JSONWriter) -> Void)?) {
        json.beginObject()
        if let privatePart { json.key("private"); privatePart(&json) }
        json.key("report"); json.string(report)
        json.key("v"); json.number(EventSeal.format)
        json.endObject()
    }

    /// The game master's answer, which may quote the report.
    func writePrivate(to json: inout JSONWriter, salt: String) {
        json.beginObject()
        json.key("resolution"); json.string(resolution)
        json.salt(salt)
        json.endObject()
    }
}

extension PhotoJudged: SealedBody {
    func writeSealed(to json: inout JSONWriter, privatePart: ((inout JSONWriter) -> Void)?) {
        json.beginObject()
        json.key("approved"); json.bool(approved)
        json.key("cache"); json.string(cache)
        json.key("player"); json.string(player)
        json.key("points"); json.number(points)
        if let privatePart { json.key("private"); privatePart(&json) }
        json.key("submission"); json.string(submission)
        json.key("v"); json.number(EventSeal.format)
        json.endObject()
    }

    /// The game master's reason, which may describe the person in the photo.
    func writePrivate(to json: inout JSONWriter, salt: String) {
        json.beginObject()
        json.key("reason"); json.string(reason)
        json.salt(salt)
        json.endObject()
    }
}

extension PINChecked: WhollyPrivateBody {
    /// All of it: the published ledger withholds the whole event (``ExportedEvent``).
    func writePrivate(to json: inout JSONWriter, salt: String) {
        json.beginObject()
        json.key("player"); json.string(player)
        json.salt(salt)
        json.key("state")
        json.beginObject()
        json.key("failures"); json.number(state.failures)
        if let lockedUntil = state.lockedUntil { json.key("lockedUntil"); json.date(lockedUntil) }
        json.endObject()
        json.key("success"); json.bool(success)
        json.endObject()
    }
}

extension PINReset: WhollyPrivateBody {
    /// All of it, as for a PIN check.
    func writePrivate(to json: inout JSONWriter, salt: String) {
        json.beginObject()
        json.key("player"); json.string(player)
        json.salt(salt)
        json.endObject()
    }
}

/// A body that is private as a whole (a PIN check, a PIN reset): what the chain hashes holds its
/// commitment and nothing else, so the published ledger can withhold the event entirely.
protocol WhollyPrivateBody: SealedBody {}

extension WhollyPrivateBody {
    func writeSealed(to json: inout JSONWriter, privatePart: ((inout JSONWriter) -> Void)?) {
        json.beginObject()
        json.seal(privatePart)
        json.endObject()
    }
}

extension PlayerJoined: SealedBody {
    func writeSealed(to json: inout JSONWriter, privatePart: ((inout JSONWriter) -> Void)?) {
        json.beginObject()
        json.key("player"); json.string(player)
        if let privatePart { json.key("private"); privatePart(&json) }
        if let team { json.key("team"); json.string(team) }
        json.key("v"); json.number(EventSeal.format)
        json.endObject()
    }

    /// The name the player chose, which forgetting them takes out of the ledger.
    func writePrivate(to json: inout JSONWriter, salt: String) {
        json.beginObject()
        json.key("name"); json.string(name)
        json.key("nameKey"); json.string(nameKey)
        json.salt(salt)
        json.endObject()
    }
}
