import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Walks an XML document with Foundation's `XMLParser` and collects the InkML it holds: the
/// definitions (contexts, ink sources, trace formats) and the traces, with their locations.
///
/// InkML elements are recognised by local name, with or without a namespace prefix
/// (`inkml:trace` or `trace`), and only inside an `ink` element, which may be the root or
/// sit anywhere in another XML document. `annotation` and `annotationXML` subtrees are
/// skipped. Trace text is decoded later, once every definition is known.
final class InkMLDocumentParser: NSObject, XMLParserDelegate {
    let file: String

    private(set) var contexts: [String: InkMLContext] = [:]
    private(set) var inkSources: [String: InkMLInkSource] = [:]
    private(set) var traceFormats: [String: InkMLTraceFormat] = [:]
    private(set) var brushes: [String: InkMLBrush] = [:]
    /// Called as each `<trace>` ends; an error it throws stops the parse and becomes
    /// ``failure``. Without it, traces are collected in ``traces``.
    var traceHandler: ((InkMLPendingTrace) throws(InputError) -> Void)?
    private(set) var traces: [InkMLPendingTrace] = []
    /// How many `ink` elements the document has.
    private(set) var inkElements = 0
    /// The first error: malformed XML, or an InkML element that cannot be read.
    private(set) var failure: InputError?

    private weak var parser: XMLParser?
    /// Local names of the open elements inside the outermost `ink` (that one included).
    private var stack: [String] = []
    private var inkDepth = 0
    private var definitionsDepth = 0
    /// Depth of an annotation subtree being skipped (0 when not skipping).
    private var skipDepth = 0
    private var contextStack: [InkMLContext] = []
    private var inkSourceStack: [InkMLInkSource] = []
    private var traceFormatStack: [InkMLTraceFormat] = []
    private var intermittentDepth = 0
    private var groupContextRefs: [String?] = []
    private var groupBrushRefs: [String?] = []
    private var brush: InkMLBrush?
    private var currentContext: InkMLContext?
    private var trace: InkMLPendingTrace?
    /// Where the text after the last parser event starts.
    private var textStart = SourceLocation(line: 1, column: 1)

    init(file: String) {
        self.file = file
    }

    /// Parses `data`; on return, ``failure`` holds the first problem, if any.
    ///
    /// The XML is fed to the parser from a stream, a few kilobytes at a time: libxml2 refuses
    /// a document handed over in one piece when it is over 10 MB ("huge input lookup"), and a
    /// stream keeps its buffers small whatever the document's size.
    func parse(_ data: Data) {
        if let encoding = Self.unsupportedEncoding(in: data) {
            failure = InputError(file: file, location: SourceLocation(line: 1, column: 1),
                                 message: "expected InkML in UTF-8, UTF-16, ASCII or ISO-8859-1, found the XML declaration's encoding \"\(encoding)\"",
                                 hint: "convert the file to UTF-8 (for example with iconv) and drop or correct its encoding declaration")
            return
        }
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        self.parser = parser
        let ok = parser.parse()
        if failure == nil, !ok {
            let code = (parser.parserError as NSError?)?.code ?? 0
            failure = xmlError(code: code, line: parser.lineNumber, column: parser.columnNumber)
        }
        parser.delegate = nil
    }

    /// The encodings libxml2 reads by itself; any other goes through iconv, and libxml2
    /// 2.9.14's push parser dereferences NULL on some of them (a fuzzed file declaring UTF-7
    /// crashed `bristle render`), so they are refused before the parser sees them.
    private static let readableEncodings: Set<String> = [
        "utf-8", "utf8", "utf-16", "utf16", "utf-16le", "utf-16be", "us-ascii", "ascii",
        "iso-8859-1", "iso_8859-1", "iso-latin-1", "latin1", "latin-1",
    ]

    /// The encoding named by the XML declaration at the start of `data` when it is not one of
    /// ``readableEncodings``; nil when there is no declaration, it names no encoding, or the
    /// encoding is readable. The declaration is read as libxml2 reads it: after a byte order
    /// mark, in UTF-16 when the first bytes say so, and up to its name even when the
    /// declaration is never closed (a fuzzed file cut after `encoding="UTF-7"` still crashed).
    static func unsupportedEncoding(in data: Data) -> String? {
        let head = Array(data.prefix(1024))
        let text: String
        func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
            var units: [UInt16] = []
            var i = bytes.startIndex
            while i + 1 < bytes.endIndex {
                let first = UInt16(bytes[i]), second = UInt16(bytes[i + 1])
                units.append(bigEndian ? first << 8 | second : second << 8 | first)
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        switch (head.count >= 4 ? Array(head[0..<4]) : head) {
        case let b where b.starts(with: [0xFF, 0xFE]): text = utf16(head[2...], bigEndian: false)
        case let b where b.starts(with: [0xFE, 0xFF]): text = utf16(head[2...], bigEndian: true)
        case [0x3C, 0x00, 0x3F, 0x00]: text = utf16(head[...], bigEndian: false)
        case [0x00, 0x3C, 0x00, 0x3F]: text = utf16(head[...], bigEndian: true)
        case let b where b.starts(with: [0xEF, 0xBB, 0xBF]): text = String(decoding: head[3...], as: UTF8.self)
        default: text = String(decoding: head, as: UTF8.self)
        }
        guard text.hasPrefix("<?xml") else { return nil }
        let declaration = text.prefix { $0 != ">" }
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let name = rest.dropFirst().prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        guard !name.isEmpty else { return nil }
        return readableEncodings.contains(name.lowercased()) ? nil : String(name)
    }

    // MARK: Helpers

    private var location: SourceLocation {
        SourceLocation(line: max(parser?.lineNumber ?? 1, 1), column: max(parser?.columnNumber ?? 1, 1))
    }

    private static func localName(_ qualified: String) -> String {
        guard let colon = qualified.lastIndex(of: ":") else { return qualified }
        return String(qualified[qualified.index(after: colon)...])
    }

    /// `#id` or `id` as an id.
    static func reference(_ value: String?) -> String? {
        guard var v = value?.trimmingCharacters(in: .whitespaces), !v.isEmpty else { return nil }
        if v.hasPrefix("#") { v.removeFirst() }
        return v
    }

    private static func id(_ attributes: [String: String]) -> String? {
        attributes["xml:id"] ?? attributes["id"]
    }

    private func fail(_ error: InputError) {
        if failure == nil { failure = error }
        parser?.abortParsing()
    }

    /// A number attribute, or a located error naming it.
    private func number(_ attributes: [String: String], _ name: String, of element: String) -> Double?? {
        guard let text = attributes[name] else { return .some(nil) }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let v = Double(trimmed), v.isFinite else {
            fail(InputError(file: file, location: location,
                            message: "expected a number for the attribute \(name) of <\(element)>, found \"\(text)\""))
            return nil
        }
        return .some(v)
    }

    // MARK: XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard failure == nil else { return }
        let name = Self.localName(elementName)
        let here = location
        textStart = SourceLocation(line: here.line, column: here.column + 1)
        if inkDepth == 0 {
            guard name == "ink" else { return }
            inkDepth = 1
            inkElements += 1
            stack = ["ink"]
            currentContext = nil
            return
        }
        stack.append(name)
        if skipDepth > 0 { skipDepth += 1; return }
        switch name {
        case "annotation", "annotationXML":
            skipDepth = 1
        case "ink":
            inkDepth += 1
        case "definitions":
            definitionsDepth += 1
        case "context":
            contextStack.append(InkMLContext(
                id: Self.id(attributeDict), contextRef: Self.reference(attributeDict["contextRef"]),
                inkSourceRef: Self.reference(attributeDict["inkSourceRef"]),
                traceFormatRef: Self.reference(attributeDict["traceFormatRef"]), location: here))
        case "inkSource":
            inkSourceStack.append(InkMLInkSource(id: Self.id(attributeDict), location: here))
        case "traceFormat":
            traceFormatStack.append(InkMLTraceFormat(location: here))
            pendingTraceFormatIDs.append(Self.id(attributeDict))
        case "intermittentChannels":
            intermittentDepth += 1
        case "channel":
            guard !traceFormatStack.isEmpty else { return }
            guard let channelName = attributeDict["name"], !channelName.isEmpty else {
                fail(InputError(file: file, location: here, message: "expected a name attribute on <channel>, found none",
                                hint: "a channel is named X, Y, F, T, OTx, OTy, OA, OE, W or a name of your own"))
                return
            }
            // A boolean channel's default is written as the trace writes booleans: T or F.
            var numeric = attributeDict
            switch attributeDict["default"]?.trimmingCharacters(in: .whitespaces) {
            case "T": numeric["default"] = "1"
            case "F": numeric["default"] = "0"
            default: break
            }
            guard let minimum = number(attributeDict, "min", of: "channel"),
                  let maximum = number(attributeDict, "max", of: "channel"),
                  let fallback = number(numeric, "default", of: "channel") else { return }
            let channel = InkMLChannel(name: channelName, units: attributeDict["units"], min: minimum, max: maximum,
                                       negative: attributeDict["orientation"]?.trimmingCharacters(in: .whitespaces) == "-ve",
                                       defaultValue: fallback, location: here)
            if intermittentDepth > 0 {
                traceFormatStack[traceFormatStack.count - 1].intermittent.append(channel)
            } else {
                traceFormatStack[traceFormatStack.count - 1].regular.append(channel)
            }
        case "channelProperty":
            guard let channel = attributeDict["channel"], let propertyName = attributeDict["name"] else {
                fail(InputError(file: file, location: here,
                                message: "expected the attributes channel, name and value on <channelProperty>, found \(attributeDict.keys.sorted().joined(separator: ", "))"))
                return
            }
            guard let value = number(attributeDict, "value", of: "channelProperty") else { return }
            guard let value else {
                fail(InputError(file: file, location: here, message: "expected a value attribute on <channelProperty>, found none"))
                return
            }
            let property = InkMLChannelProperty(value: value, units: attributeDict["units"])
            if !inkSourceStack.isEmpty {
                inkSourceStack[inkSourceStack.count - 1].properties[channel, default: [:]][propertyName] = property
            } else if !contextStack.isEmpty {
                contextStack[contextStack.count - 1].properties[channel, default: [:]][propertyName] = property
            }
        case "traceGroup":
            groupContextRefs.append(Self.reference(attributeDict["contextRef"]))
            groupBrushRefs.append(Self.reference(attributeDict["brushRef"]))
        case "brush":
            brush = InkMLBrush(id: Self.id(attributeDict), brushRef: Self.reference(attributeDict["brushRef"]))
        case "brushProperty":
            if let name = attributeDict["name"], let value = attributeDict["value"] {
                brush?.properties[name] = (value.trimmingCharacters(in: .whitespaces), attributeDict["units"])
            }
        case "trace":
            let groupRef = groupContextRefs.reversed().lazy.compactMap { $0 }.first
            trace = InkMLPendingTrace(
                contextRef: Self.reference(attributeDict["contextRef"]) ?? groupRef,
                currentContext: currentContext, type: attributeDict["type"],
                timeOffset: attributeDict["timeOffset"],
                brushRef: Self.reference(attributeDict["brushRef"]) ?? groupBrushRefs.reversed().lazy.compactMap { $0 }.first,
                location: here)
        default:
            break
        }
    }

    /// The ids of the open `traceFormat` elements, innermost last.
    private var pendingTraceFormatIDs: [String?] = []

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard failure == nil, inkDepth > 0 else { return }
        let name = Self.localName(elementName)
        defer { textStart = location }
        let parent = stack.count >= 2 ? stack[stack.count - 2] : nil
        stack.removeLast()
        if stack.isEmpty {
            inkDepth = 0
            return
        }
        if skipDepth > 0 { skipDepth -= 1; return }
        switch name {
        case "ink":
            inkDepth -= 1
        case "definitions":
            definitionsDepth -= 1
        case "context":
            guard let context = contextStack.popLast() else { return }
            if let id = context.id { contexts[id] = context }
            if definitionsDepth == 0 { currentContext = context }
        case "inkSource":
            guard let source = inkSourceStack.popLast() else { return }
            if let id = source.id { inkSources[id] = source }
            if parent == "context", !contextStack.isEmpty {
                contextStack[contextStack.count - 1].inkSource = source
            }
        case "traceFormat":
            guard let format = traceFormatStack.popLast() else { return }
            let id = pendingTraceFormatIDs.popLast() ?? nil
            if let id { traceFormats[id] = format }
            switch parent {
            case "inkSource" where !inkSourceStack.isEmpty:
                inkSourceStack[inkSourceStack.count - 1].traceFormat = format
            case "context" where !contextStack.isEmpty:
                contextStack[contextStack.count - 1].traceFormat = format
            case "definitions":
                break
            default:
                // A bare <traceFormat> in the ink (as CROHME files have): it sets the format of
                // the traces that follow.
                if definitionsDepth == 0 {
                    var context = currentContext ?? InkMLContext(location: format.location)
                    context.traceFormat = format
                    context.traceFormatRef = nil
                    currentContext = context
                }
            }
        case "intermittentChannels":
            intermittentDepth -= 1
        case "traceGroup":
            _ = groupContextRefs.popLast()
            _ = groupBrushRefs.popLast()
        case "brush":
            if let b = brush, let id = b.id { brushes[id] = b }
            brush = nil
        case "trace":
            if let t = trace {
                if let traceHandler {
                    do throws(InputError) { try traceHandler(t) } catch { fail(error) }
                } else {
                    traces.append(t)
                }
            }
            trace = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil else { return }
        let end = location
        defer { textStart = end }
        guard skipDepth == 0, trace != nil, stack.last == "trace" else { return }
        trace!.chunks.append(InkMLTraceDecoder.ChunkStart(index: trace!.text.count, location: textStart))
        trace!.text.append(contentsOf: string.unicodeScalars)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard failure == nil else { return }
        let end = location
        defer { textStart = end }
        guard skipDepth == 0, trace != nil, stack.last == "trace" else { return }
        // The parser reports where a CDATA section ends; its text starts after "<![CDATA[",
        // which is the best location available for the first value in it.
        trace!.chunks.append(InkMLTraceDecoder.ChunkStart(index: trace!.text.count, location: textStart))
        trace!.text.append(contentsOf: String(decoding: CDATABlock, as: UTF8.self).unicodeScalars)
    }

    func parser(_ parser: XMLParser, foundComment comment: String) {
        textStart = location
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        let code = (parseError as NSError).code
        // Namespace errors (an undeclared prefix such as inkml: without its xmlns) and
        // warnings do not stop a well-formed XML 1.0 document from being read.
        if Self.toleratedCodes.contains(code) { return }
        if failure == nil {
            failure = xmlError(code: code, line: parser.lineNumber, column: parser.columnNumber)
        }
        parser.abortParsing()
    }

    // MARK: XML errors

    /// libxml2 codes that are warnings or namespace errors, not well-formedness errors.
    private static let toleratedCodes: Set<Int> = [27, 93, 97, 98, 99, 100, 102, 106, 107, 200, 201, 202, 203, 204, 205]

    private func xmlError(code: Int, line: Int, column: Int) -> InputError {
        let (what, hint) = Self.describe(code)
        let at: SourceLocation? = line > 0 ? SourceLocation(line: line, column: max(column, 1)) : nil
        return InputError(file: file, location: at ?? SourceLocation(line: 1, column: 1),
                          message: "expected well-formed XML (InkML), found \(what) (XML error \(code))", hint: hint)
    }

    /// What a libxml2 error code means, in words, with a hint when there is one.
    static func describe(_ code: Int) -> (String, String?) {
        switch code {
        case 1: return ("an element or text the XML parser cannot hold (libxml2 limits one text node, such as a trace, to 10 MB)",
                        "if a trace is that large, split it into several <trace> elements")
        case 4: return ("an empty document", nil)
        case 5: return ("the document ending early, or content after its root element",
                        "the file looks truncated (every element opened must be closed), or has more than one root element")
        case 9: return ("a character XML does not allow", "check the file's encoding; XML files are UTF-8 unless they declare otherwise")
        case 23: return ("an entity reference without its ';'", "write & as &amp; and < as &lt;")
        case 26: return ("an undeclared entity", "XML knows only &amp; &lt; &gt; &quot; &apos; and numeric references")
        case 38: return ("'<' inside an attribute value", "write < as &lt; inside attributes")
        case 39: return ("an attribute value without quotes", "quote attribute values: name=\"value\"")
        case 40: return ("an attribute value that is not closed", nil)
        case 41: return ("an attribute without a value", nil)
        case 42: return ("an attribute given twice", nil)
        case 45: return ("a comment that is not closed", "comments end with -->")
        case 63: return ("a CDATA section that is not closed", nil)
        case 64, 56, 57: return ("a malformed XML declaration", nil)
        case 65: return ("a missing space (between attributes, or after the element name)", nil)
        case 68: return ("a missing element or attribute name", "write < as &lt; in text")
        case 73: return ("a tag that is not closed with '>'", nil)
        case 76: return ("a closing tag that does not match the open element", "every <element> needs its </element>, innermost first")
        case 77: return ("the end of the file with elements still open", "the file looks truncated: every element opened must be closed")
        case 85, 86: return ("content after the root element", "an XML document has exactly one root element")
        case 31, 32, 79, 81: return ("an unsupported or invalid encoding", "save the file as UTF-8")
        case 89, 104: return ("an entity that expands without end", nil)
        default: return ("malformed XML", nil)
        }
    }
}
