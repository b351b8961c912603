import CYAML
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The formats' own parsers, to check what `ToolConfigurationWriter` writes against the format's
/// rules rather than against pinchlab's readers: libyaml (the C library fusuma's Psych and
/// InputActions' yaml-cpp follow the same YAML 1.1/1.2 core of) and Foundation's XMLParser
/// (libxml2, as touchegg's pugixml reads XML).
enum FormatsOwnParsers {
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// Every scalar of the first YAML document by its path (`device_rules[0].swipe.angle_tolerance`),
    /// in document order, as libyaml parses it; a document libyaml refuses throws its problem.
    static func yamlScalars(_ text: String) throws -> [String] {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw Refused(description: "yaml_parser_initialize") }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            enum Open { case mapping(key: String?), sequence(index: Int) }
            var stack: [(open: Open, path: String)] = []
            var scalars: [String] = []
            /// The path of the value about to come in the innermost container, and that container
            /// moved on past it.
            func nextPath(keyOrValue: String?) -> String? {
                guard let top = stack.last else { return "" }
                switch top.open {
                case .mapping(nil):
                    stack[stack.count - 1].open = .mapping(key: keyOrValue ?? "?")
                    return nil  // a key
                case .mapping(let key?):
                    stack[stack.count - 1].open = .mapping(key: nil)
                    return top.path.isEmpty ? key : "\(top.path).\(key)"
                case .sequence(let index):
                    stack[stack.count - 1].open = .sequence(index: index + 1)
                    return "\(top.path)[\(index)]"
                }
            }
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "?"
                    throw Refused(description: "libyaml: \(problem) at line \(parser.problem_mark.line + 1)")
                }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_SCALAR_EVENT:
                    let value = String(cString: event.data.scalar.value)
                    if let path = nextPath(keyOrValue: value) { scalars.append("\(path)=\(value)") }
                case YAML_MAPPING_START_EVENT:
                    let path = nextPath(keyOrValue: nil) ?? ""
                    stack.append((.mapping(key: nil), path))
                case YAML_SEQUENCE_START_EVENT:
                    let path = nextPath(keyOrValue: nil) ?? ""
                    stack.append((.sequence(index: 0), path))
                case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                    stack.removeLast()
                case YAML_DOCUMENT_END_EVENT, YAML_STREAM_END_EVENT:
                    return scalars
                default:
                    break
                }
            }
        }
    }

    /// Every element of the XML document, with its attributes and text, in document order, as
    /// XMLParser parses it; a document it refuses throws its error.
    static func xmlElements(_ text: String) throws -> [String] {
        final class Collector: NSObject, XMLParserDelegate {
            var elements: [String] = []
            var text: [String] = []
            /// swift-corelibs-foundation's parse() can return true past an error it reported here.
            var error: (any Error)?
            func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { if error == nil { error = parseError } }
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                elements.append(name + attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined())
                text.append("")
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) {
                if !text.isEmpty { text[text.count - 1] += string }
            }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                let said = text.removeLast().trimmingCharacters(in: .whitespacesAndNewlines)
                if !said.isEmpty { elements.append("  \(name) text=\(said)") }
            }
        }
        let parser = XMLParser(data: Data(text.utf8))
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse(), collector.error == nil, collector.text.isEmpty, !collector.elements.isEmpty else {
            let error = (collector.error ?? parser.parserError).map { "\($0)" } ?? "an element left open"
            throw Refused(description: "XMLParser: \(error) at line \(parser.lineNumber)")
        }
        return collector.elements
    }
}
