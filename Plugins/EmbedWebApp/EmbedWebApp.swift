import Foundation
import PackagePlugin

/// Builds the phone web app into the hunt server: every file of `assets/web` (as `web/…`) and
/// `assets/openapi.yaml` become one generated Swift file of the target it is applied to, so
/// `geoqr serve` needs no assets beside it.
///
/// Every asset is an input of the build command, and so is every folder of `assets/web`, so the
/// next `swift build` writes the file again when a file changes, or is added or removed (the
/// tool lists the folder itself when it runs). A file added since SwiftPM last planned the build
/// is built in, but its later edits are seen only once SwiftPM plans again (a change to
/// Package.swift or to the files of a target's folder): `--web assets/web` serves the pages
/// from disk while you work on them.
///
/// ```swift
/// .target(name: "HuntServer", …, plugins: ["EmbedWebApp"])
/// ```
@main
struct EmbedWebApp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let assets = context.package.directoryURL.appending(path: "assets")
        let web = try Self.entries(under: assets.appending(path: "web"))
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInWebApp.swift")
        return [.buildCommand(
            displayName: "Building the web app into \(target.name) (assets/web, assets/openapi.yaml)",
            executable: try context.tool(named: "embed-web-app").url,
            arguments: [output.path, assets.path],
            inputFiles: web + [assets.appending(path: "openapi.yaml")],
            outputFiles: [output])]
    }

    /// `folder`, and every file and folder below it (hidden ones left out).
    static func entries(under folder: URL) throws -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else {
            throw EmbedWebAppError(description: "\(folder.path) cannot be read: the web app must be in assets/web")
        }
        return [folder] + walk.compactMap { $0 as? URL }
    }
}

struct EmbedWebAppError: Error, CustomStringConvertible {
    let description: String
}
