import BristleHost

/// The stroke being drawn from the page: who draws it, and what the recording will need.
struct LiveStroke {
    /// The connection the stroke's input comes from; input of others is refused meanwhile.
    let connection: Int
    let pointerType: String
    /// The JSON text of each event the worker played without failing.
    var events: [String] = []
    /// Every rectangle sent to the pages during the stroke (what a failure repaints).
    var touched = PixelRect.empty
    /// The stroke failed: its later input is ignored until it ends.
    var failed = false

    init(connection: Int, pointerType: String) {
        self.connection = connection
        self.pointerType = pointerType
    }
}
