/// The page, served as it is in Sources/BristlePlay/Page (no build step): HTML, JavaScript
/// and CSS embedded in the binary.
enum PlayPage {
    struct File {
        var contentType: String
        var bytes: [UInt8]
    }

    static let files: [String: File] = [
        "/": File(contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        "/play.js": File(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.play_js),
        "/play.css": File(contentType: "text/css; charset=utf-8", bytes: PackageResources.play_css),
    ]
}
