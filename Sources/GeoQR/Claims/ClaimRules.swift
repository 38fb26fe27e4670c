import Foundation

extension Hunt {
    /// Judges every code of a claim, in the order decoded.
    ///
    /// Other QR codes in the same picture (a URL, a menu) are not the player's claim and are
    /// left out; when no decoded text looks like a GeoQR code at all, the answer is a single
    /// ``Verdict/noCode`` judgement.
    ///
    /// ```swift
    /// let claim = Claim(payloads: symbols.map(\.text), location: location, claimedAt: Date())
    /// let judgements = hunt.judge(claim, secret: secret)
    /// let anyFind = judgements.contains { $0.verdict == .claimable }
    /// ```
    public func judge(_ claim: Claim, secret: HuntSecret) -> [ClaimJudgement] {
        let codes = claim.payloads.filter(ClaimRules.looksLikeGeoQR)
        guard !codes.isEmpty else {
            var none = ClaimJudgement(verdict: .noCode, payload: claim.payloads.first, claim: claim)
            if !claim.payloads.isEmpty {
                none.reason = claim.payloads.count == 1 ? "the QR code there is not a GeoQR code"
                                                        : "the \(claim.payloads.count) QR codes there are not GeoQR codes"
            }
            return [none]
        }
        return codes.map { judge($0, secret: secret, claim: claim) }
    }

    /// Judges one decoded code against this hunt, in this order: is the code genuine and
    /// this hunt's; was it scanned inside the time window; is there a location; is the
    /// location inside the cache's radius (plus the location's accuracy, up to
    /// ``accuracyCap``). A distance exactly equal to the allowance is claimable.
    ///
    /// ```swift
    /// let j = hunt.judge("GQ1.DEMO.A2.K3J5M2QX7P4RT6WA", secret: secret, claim: claim)
    /// if j.verdict == .tooFar { print(j.sentence) }   // Salt pan view is 240 m north-east: walk on.
    /// ```
    public func judge(_ payload: String, secret: HuntSecret, claim: Claim) -> ClaimJudgement {
        var j = ClaimJudgement(verdict: .noCode, payload: payload, claim: claim)
        let cache: Cache
        switch verify(payload, secret: secret) {
        case .success(let found):
            cache = found
        case .failure(let rejection):
            j.reason = rejection.description
            switch rejection {
            case .malformed:
                // Only reached for text that looked like GeoQR's: a damaged or doctored code.
                j.verdict = ClaimRules.looksLikeGeoQR(payload) ? .forged : .noCode
            case .unknownVersion, .badMAC:
                j.verdict = .forged
            case .otherHunt(let hunt):
                j.verdict = .unknownHunt
                j.otherHuntID = hunt
            case .unknownCache(let id):
                j.verdict = .unknownCache
                j.cacheID = id
            }
            return j
        }
        j.cacheID = cache.id
        j.cacheName = cache.name
        j.radius = radius(of: cache)

        if let start, j.scanTime < start { return outsideWindow(j) }
        if let end, j.scanTime >= end { return outsideWindow(j) }

        guard let location = claim.location else {
            j.verdict = .noLocation
            return j
        }
        let leg = Geodesic.inverse(from: location.coordinate, to: cache.coordinate)
        let allowed = radius(of: cache) + ClaimRules.accuracyAllowance(location.accuracy, cap: accuracyCap)
        j.distance = leg.distance
        j.bearing = leg.initialBearing
        j.allowed = allowed
        j.verdict = leg.distance <= allowed ? .claimable : .tooFar
        return j
    }

    private func outsideWindow(_ judgement: ClaimJudgement) -> ClaimJudgement {
        var j = judgement
        j.verdict = .outsideTimeWindow
        j.windowStart = start
        j.windowEnd = end
        return j
    }
}

/// The small rules the judgement leans on.
public enum ClaimRules {
    /// True when decoded text is meant as a GeoQR code: `GQ` and a version number, then a
    /// dot, alone or after a claim URL's path. Anything else in a picture is someone else's QR.
    ///
    /// ```swift
    /// ClaimRules.looksLikeGeoQR("GQ1.DEMO.A1.K3J5M2QX7P4RT6WA")   // true
    /// ClaimRules.looksLikeGeoQR("https://example.org/menu")        // false
    /// ```
    public static func looksLikeGeoQR(_ payload: String) -> Bool {
        var text = Substring(payload.trimmingCharacters(in: .whitespacesAndNewlines).uppercased())
        if text.contains("://") {
            guard let path = text.range(of: CacheCode.claimPath, options: .backwards) else { return false }
            text = text[path.upperBound...]
        }
        guard text.hasPrefix(CacheCode.prefix) else { return false }
        let rest = text.dropFirst(CacheCode.prefix.count)
        let digits = rest.prefix(while: \.isASCII).prefix(while: \.isNumber)
        return !digits.isEmpty && rest.dropFirst(digits.count).first == "."
    }

    /// What a location's accuracy adds to a radius: itself, at most `cap`, never below zero.
    /// An unknown or nonsensical accuracy adds nothing.
    ///
    /// ```swift
    /// ClaimRules.accuracyAllowance(18, cap: 50)    // 18
    /// ClaimRules.accuracyAllowance(300, cap: 50)   // 50
    /// ClaimRules.accuracyAllowance(nil, cap: 50)   // 0
    /// ```
    public static func accuracyAllowance(_ accuracy: Double?, cap: Double) -> Double {
        guard let accuracy, accuracy.isFinite, accuracy > 0 else { return 0 }
        return min(accuracy, max(cap, 0))
    }
}
