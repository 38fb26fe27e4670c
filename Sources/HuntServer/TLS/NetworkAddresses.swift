import Foundation
import NIOCore

/// The names and addresses this machine is reachable at on the LAN: what the printed URLs
/// and the certificate's subject alternative names list.
///
/// ```swift
/// let here = NetworkAddresses.current()
/// here.lanIPv4    // ["192.168.1.20"]
/// ```
public struct NetworkAddresses: Sendable, Equatable {
    /// The host name, `localhost`, and `HOST.local` for mDNS.
    public var names: [String]
    /// Every IPv4 address but loopback, in interface order.
    public var lanIPv4: [String]
    /// Loopback addresses, always valid for the certificate.
    public var loopback: [String] = ["127.0.0.1", "::1"]

    public init(names: [String], lanIPv4: [String]) {
        self.names = names
        self.lanIPv4 = lanIPv4
    }

    /// Reads the interfaces now.
    public static func current() -> NetworkAddresses {
        var ips: [String] = []
        for device in (try? System.enumerateDevices()) ?? [] {
            guard let address = device.address, case .v4 = address, let ip = address.ipAddress,
                  !ip.hasPrefix("127.") else { continue }
            if !ips.contains(ip) { ips.append(ip) }
        }
        var names = ["localhost"]
        let host = ProcessInfo.processInfo.hostName
        if !host.isEmpty, host != "localhost" {
            names.append(host)
            if !host.contains(".") { names.append(host + ".local") }
        }
        return NetworkAddresses(names: names, lanIPv4: ips)
    }
}
