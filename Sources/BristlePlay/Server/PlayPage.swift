import Foundation

/// The page, served as it is in Sources/BristlePlay/Page (no build step): HTML, JavaScript
/// and CSS embedded in the binary. With `BRISTLE_PLAY_PAGE=DIR` in the environment the files
/// are read from DIR at every request instead (to work on the page without rebuilding: edit,
/// reload the browser; a file missing there is a 404).
enum PlayPage {
    struct File {
        var contentType: String
        var bytes: [UInt8]
    }

    /// The file served at `path` (`/`, `/play.js`, `/play.css`), or nil.
    static func file(_ path: String) -> File? {
        guard let embedded = files[path] else { return nil }
        guard let folder = ProcessInfo.processInfo.environment["BRISTLE_PLAY_PAGE"] else { return embedded }
        let name = path == "/" ? "index.html" : String(path.dropFirst())
        return FileManager.default.contents(atPath: folder + "/" + name).map { File(contentType: embedded.contentType, bytes: [UInt8]($0)) }
    }

    private static let files: [String: File] = [
        "/": File(contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        "/play.js": File(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.play_js),
        "/play.css": File(contentType: "text/css; charset=utf-8", bytes: PackageResources.play_css),
    ]
}
