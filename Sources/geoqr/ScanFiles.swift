import Foundation

/// The pictures a scan runs over, in the order given: folders walked recursively (sorted,
/// hidden entries skipped, picture extensions only). When the `decode` branch's
/// `PictureInput` lands, it replaces this.
enum ScanFiles {
    static let extensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "heic", "heif", "hif"]

    /// Each path with the problem that stops it being read, if one shows while listing.
    static func expand(_ arguments: [String]) -> [(path: String, problem: String?)] {
        arguments.flatMap { argument -> [(path: String, problem: String?)] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
                return [(argument, "no such file or folder")]
            }
            return isFolder.boolValue ? walk(argument) : [(argument, nil)]
        }
    }

    private static func walk(_ folder: String) -> [(path: String, problem: String?)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return [(folder, "cannot list folder")]
        }
        return names.sorted().filter { !$0.hasPrefix(".") }.flatMap { name -> [(path: String, problem: String?)] in
            let path = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
            if isFolder.boolValue { return walk(path) }
            return extensions.contains((name as NSString).pathExtension.lowercased()) ? [(path, nil)] : []
        }
    }
}
