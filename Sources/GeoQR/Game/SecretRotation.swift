import Foundation
import Crypto

/// Rotating a hunt's secret: every code printed before fails the MAC check afterwards.
///
/// Decision: codes made with an old secret are rejected outright, as `forged`, like any code
/// whose MAC does not match. Old secrets are not kept to tell "old" from "forged": a retired key
/// that is still stored can still be stolen, and a sheet that leaked is exactly why a game master
/// rotates. The ledger records each rotation with the new secret's ``fingerprint(of:)`` (never
/// the secret), so an audit can see which secret was in force when.
///
/// ```swift
/// let fresh = HuntSecret.random()
/// SecretRotation.fingerprint(of: fresh)   // "3f9a…" (16 hex digits)
/// ```
public enum SecretRotation {
    /// The first 8 bytes of SHA-256 over the secret, in hex: enough to tell secrets apart,
    /// useless for making codes.
    public static func fingerprint(of secret: HuntSecret) -> String {
        SHA256.hash(data: secret.bytes).prefix(8).hex
    }
}
