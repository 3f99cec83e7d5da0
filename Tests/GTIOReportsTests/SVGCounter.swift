import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses a page as XML (failing on anything not well-formed) and counts, per SVG chart (by the
/// id of its title), its bars, its points and its text; notes scripts and outside references.
final class SVGCounter: NSObject, XMLParserDelegate {
    struct Chart {
        var bars = 0
        var points = 0
        var texts: [String] = []
        var hasTitle = false
        var hasDescription = false
    }

    private(set) var charts: [String: Chart] = [:]
    private(set) var error: String?
    private(set) var scripts = 0
    private(set) var outsideReferences: [String] = []
    private var current: String?
    private var inText = false

    init(_ html: String) {
        super.init()
        let parser = XMLParser(data: Data(html.utf8))
        parser.delegate = self
        if !parser.parse() { error = parser.parserError.map { "\($0)" } ?? "parse failed" }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if name == "script" { scripts += 1 }
        for key in ["src", "href"] where attributes[key] != nil { outsideReferences.append(attributes[key]!) }
        if name == "svg", let labels = attributes["aria-labelledby"] {
            let id = String(labels.split(separator: " ")[0].dropLast("-title".count))
            current = id
            charts[id] = Chart()
        }
        guard let current else { return }
        let classes = (attributes["class"] ?? "").split(separator: " ")
        if name == "rect" && classes.contains("bar") { charts[current]!.bars += 1 }
        if name == "circle" && classes.contains("point") { charts[current]!.points += 1 }
        if name == "title" && attributes["id"] == "\(current)-title" { charts[current]!.hasTitle = true }
        if name == "desc" && attributes["id"] == "\(current)-desc" { charts[current]!.hasDescription = true }
        if name == "text" {
            inText = true
            charts[current]!.texts.append("")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText, let current { charts[current]!.texts[charts[current]!.texts.count - 1] += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "svg" { current = nil }
        if name == "text" { inText = false }
    }
}
