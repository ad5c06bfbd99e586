/// The console's one stylesheet and one script, shipped inside the binary: nothing is fetched
/// from anywhere else, and no page carries inline script or style.
public enum ConsoleAssets {
    /// Where the stylesheet is served.
    public static let stylesheetPath = "/assets/console.css"
    /// Where the script is served.
    public static let scriptPath = "/assets/console.js"

    /// An asset by its path, with its media type; nil for any other path.
    public static func asset(at path: String) -> (body: String, contentType: String)? {
        switch path {
        case stylesheetPath: (stylesheet, "text/css; charset=utf-8")
        case scriptPath: (script, "text/javascript; charset=utf-8")
        default: nil
        }
    }
}
