/// The parts of an InkML document the importer uses: channels, trace formats, ink sources
/// and contexts (W3C InkML 3.1 and 4), as declared in the file, before references resolve.

/// One `<channel>` of a trace format.
struct InkMLChannel {
    /// `X`, `Y`, `F`, `T`, `OTx`, ... (case-sensitive, as in the specification).
    var name: String
    /// The `units` attribute: `in`, `cm`, `deg`, `rad`, `s`, `ms`, `dev`...
    var units: String?
    var min: Double?
    var max: Double?
    /// `-ve` flips an axis (its values grow the other way).
    var negative: Bool
    /// The `default` attribute, used when an intermittent channel has no value.
    var defaultValue: Double?
    var location: SourceLocation
}

/// A `<traceFormat>`: the channels of each point, regular ones first.
struct InkMLTraceFormat {
    var regular: [InkMLChannel] = []
    var intermittent: [InkMLChannel] = []
    var location: SourceLocation

    var all: [InkMLChannel] { regular + intermittent }

    /// The default trace format when a document declares none: X and Y (InkML 3.1.3).
    static let standard = InkMLTraceFormat(
        regular: [InkMLChannel(name: "X", negative: false, location: SourceLocation(line: 1, column: 1)),
                  InkMLChannel(name: "Y", negative: false, location: SourceLocation(line: 1, column: 1))],
        location: SourceLocation(line: 1, column: 1))
}

/// A `<channelProperty>`: a named number for one channel, like X's `resolution`.
struct InkMLChannelProperty {
    var value: Double
    var units: String?
}

/// Channel properties by channel name, then property name.
typealias InkMLChannelProperties = [String: [String: InkMLChannelProperty]]

/// An `<inkSource>`: a trace format and channel properties.
struct InkMLInkSource {
    var id: String?
    var traceFormat: InkMLTraceFormat?
    var traceFormatRef: String?
    var properties: InkMLChannelProperties = [:]
    var location: SourceLocation
}

/// A `<context>`: what the traces that use it were recorded with. Each part is inline or a
/// reference; `contextRef` names a context this one starts from.
struct InkMLContext {
    var id: String?
    var contextRef: String?
    var inkSourceRef: String?
    var traceFormatRef: String?
    var inkSource: InkMLInkSource?
    var traceFormat: InkMLTraceFormat?
    var properties: InkMLChannelProperties = [:]
    var location: SourceLocation
}

/// A `<brush>`: its `<brushProperty>` values by name (`color`, `width`, `height`,
/// `transparency`, `tip`, `rasterOp`), and the brush it starts from (`brushRef`).
struct InkMLBrush {
    var id: String?
    var brushRef: String?
    var properties: [String: (value: String, units: String?)] = [:]
}

/// A `<trace>` as read, decoded once the whole document is known.
struct InkMLPendingTrace {
    /// The trace's own `contextRef`, else that of the nearest enclosing `<traceGroup>`.
    var contextRef: String?
    /// The document's current context where the trace appears (set by a `<context>` or a
    /// bare `<traceFormat>` outside `<definitions>`), used when no reference applies.
    var currentContext: InkMLContext?
    var type: String?
    var timeOffset: String?
    /// The trace's own `brushRef`, else that of the nearest enclosing `<traceGroup>`.
    var brushRef: String?
    var text: [Unicode.Scalar] = []
    var chunks: [InkMLTraceDecoder.ChunkStart] = []
    /// Where the start tag is.
    var location: SourceLocation
}

/// A context with every reference followed: the trace format and channel properties that
/// decode a trace.
struct InkMLResolvedContext {
    var format: InkMLTraceFormat
    var properties: InkMLChannelProperties

    /// The property `name` of `channel`.
    func property(_ channel: String, _ name: String) -> InkMLChannelProperty? {
        properties[channel]?[name]
    }
}
