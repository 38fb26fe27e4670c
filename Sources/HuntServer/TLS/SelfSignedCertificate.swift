import Crypto
import Foundation
import HuntFiles
import NIOSSL
import SwiftASN1
import X509

/// The certificate `--tls auto` serves: self-signed, P-256, for the machine's names and
/// addresses, kept in `DATA/tls/` (key 0600) and reused while it still covers every current
/// address and has a month left; otherwise made again.
///
/// ```swift
/// let tls = try SelfSignedCertificate.loadOrMake(directory: data.path, for: NetworkAddresses.current())
/// tls.certificatePath   // DATA/tls/server.crt — phones can install it to silence the warning
/// ```
public struct SelfSignedCertificate: Sendable {
    public let certificatePath: String
    public let keyPath: String
    /// SHA-256 of the certificate's DER, to compare with what a phone shows.
    public let fingerprint: String

    /// The stored certificate if it fits `addresses`, else a new one written in its place.
    public static func loadOrMake(directory: String, for addresses: NetworkAddresses, now: Date = Date()) throws -> SelfSignedCertificate {
        let folder = directory + "/tls"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let certPath = folder + "/server.crt", keyPath = folder + "/server.key"
        if let pem = try? String(contentsOfFile: certPath, encoding: .utf8),
           FileManager.default.fileExists(atPath: keyPath),
           let existing = try? Certificate(pemEncoded: pem), covers(existing, addresses, now: now) {
            return SelfSignedCertificate(certificatePath: certPath, keyPath: keyPath, fingerprint: try fingerprint(of: existing))
        }
        let key = P256.Signing.PrivateKey()
        let certificate = try make(for: addresses, key: key, now: now)
        try FileAccess.write(Data(key.pemRepresentation.utf8), to: keyPath, mode: 0o600)
        try FileAccess.write(Data(try certificate.serializeAsPEM().pemString.utf8), to: certPath, mode: 0o644)
        return SelfSignedCertificate(certificatePath: certPath, keyPath: keyPath, fingerprint: try fingerprint(of: certificate))
    }

    static func make(for addresses: NetworkAddresses, key: P256.Signing.PrivateKey, now: Date) throws -> Certificate {
        let name = try DistinguishedName {
            CommonName("GeoQR hunt server")
            OrganizationName("GeoQR")
        }
        var sans: [GeneralName] = addresses.names.map { .dnsName($0) }
        for ip in addresses.loopback + addresses.lanIPv4 {
            if let bytes = ipBytes(ip) { sans.append(.ipAddress(ASN1OctetString(contentBytes: bytes[...]))) }
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(sans)
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(397 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: .init(key))
    }

    /// True while the certificate names every current address and has 30 days left.
    static func covers(_ certificate: Certificate, _ addresses: NetworkAddresses, now: Date) -> Bool {
        guard certificate.notValidAfter > now.addingTimeInterval(30 * 86_400),
              let sans = try? certificate.extensions.subjectAlternativeNames else { return false }
        let listed = Set(sans.compactMap { name -> [UInt8]? in
            if case .ipAddress(let octets) = name { return Array(octets.bytes) } else { return nil }
        })
        let dns = Set(sans.compactMap { name -> String? in if case .dnsName(let n) = name { n } else { nil } })
        return addresses.lanIPv4.allSatisfy { ipBytes($0).map(listed.contains) ?? true }
            && addresses.names.allSatisfy(dns.contains)
    }

    static func ipBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    static func fingerprint(of certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The server side TLS configuration for a certificate and key in PEM files.
    public static func serverConfiguration(certificate: String, key: String) throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
    }
}
