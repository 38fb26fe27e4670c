@testable import HuntServer
import Testing

/// A tile source's credit reaches the map as plain text: an MBTiles file's HTML attribution
/// loses its tags (and any script), keeps its words and character references, and is one
/// bounded line.
@Suite struct AttributionTextTests {
    @Test func openStreetMapsUsualHTMLReadsAsItsWords() {
        #expect(AttributionText.plain(#"<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap</a> contributors"#)
            == "© OpenStreetMap contributors")
        #expect(AttributionText.plain("Map data &#169; OSM, imagery &#xA9; Esri &amp; partners") == "Map data © OSM, imagery © Esri & partners")
        #expect(AttributionText.plain("Tiles © Test") == "Tiles © Test")
    }

    @Test func tagsAndScriptGoEscapedMarkupStaysText() {
        let plain = AttributionText.plain("<img src=x onerror=alert(1)><a id=evil href=//e.vil>Tiles</a>, &lt;b&gt; <script>x()</script>")
        #expect(plain == "Tiles, <b> x()")
        #expect(AttributionText.plain("Tiles\u{202E} &amp;&unknown; &#0; a\n\tb") == "Tiles &&unknown; a b")
    }

    @Test func aMegabyteCreditIsOneBoundedLine() {
        let plain = AttributionText.plain(String(repeating: "<b>credit</b> ", count: 100_000))
        #expect(plain.count == AttributionText.maxCharacters && plain.hasSuffix("…"))
        #expect(!plain.contains("<"))
    }
}
