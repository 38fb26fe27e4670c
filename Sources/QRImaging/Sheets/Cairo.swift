import CCairo
import Foundation

/// Why Cairo could not draw or write a sheet.
public struct CairoError: Error, CustomStringConvertible {
    public let description: String

    init(_ status: cairo_status_t) {
        description = "Cairo: " + String(cString: cairo_status_to_string(status))
    }
}

/// Bytes Cairo writes through its stream callback; kept alive by the surface that writes them.
private final class ByteSink {
    var data = Data()
}

private let appendToSink: cairo_write_func_t = { closure, bytes, length in
    guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
    Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
    return CAIRO_STATUS_SUCCESS
}

/// A Cairo surface (PDF document or raster page), owned: destroyed with the wrapper.
final class CairoSurface {
    let pointer: OpaquePointer
    private let sink: ByteSink?

    /// A PDF document whose pages are `width`×`height` points, written to memory.
    static func pdf(width: Double, height: Double, title: String) -> CairoSurface {
        let sink = ByteSink()
        let surface = cairo_pdf_surface_create_for_stream(appendToSink, Unmanaged.passUnretained(sink).toOpaque(),
                                                          width, height)!
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "GeoQR")
        return CairoSurface(surface, sink: sink)
    }

    /// A white raster page `width`×`height` pixels.
    static func image(width: Int, height: Int) -> CairoSurface {
        CairoSurface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)), sink: nil)
    }

    private init(_ pointer: OpaquePointer, sink: ByteSink?) {
        self.pointer = pointer
        self.sink = sink
    }

    deinit { cairo_surface_destroy(pointer) }

    func check() throws(CairoError) {
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError(status) }
    }

    /// Ends the document and returns what was written.
    func finishDocument() throws(CairoError) -> Data {
        cairo_surface_finish(pointer)
        try check()
        return sink?.data ?? Data()
    }

    /// The raster page as PNG bytes.
    func pngData() throws(CairoError) -> Data {
        let out = ByteSink()
        let status = cairo_surface_write_to_png_stream(pointer, appendToSink, Unmanaged.passUnretained(out).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError(status) }
        return withExtendedLifetime(out) { out.data }
    }
}

/// A Cairo drawing context, owned; units are points unless scaled. Only the few operations a
/// sheet needs, each in the sheet's words.
final class CairoContext {
    private let cr: OpaquePointer
    private let surface: CairoSurface

    init(_ surface: CairoSurface) {
        self.surface = surface
        cr = cairo_create(surface.pointer)
    }

    deinit { cairo_destroy(cr) }

    func scale(_ factor: Double) { cairo_scale(cr, factor, factor) }
    func gray(_ level: Double) { cairo_set_source_rgb(cr, level, level, level) }

    func fillPage(width: Double, height: Double) {
        gray(1)
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_fill(cr)
    }

    /// Dark modules as one filled path of merged horizontal runs: vector, and without the
    /// hairline seams that separately filled squares leave in some viewers.
    func drawSymbol(_ symbol: QRSymbol, x: Double, y: Double, moduleSize: Double) {
        gray(0)
        for my in 0..<symbol.width {
            var mx = 0
            while mx < symbol.width {
                guard symbol[mx, my] else { mx += 1; continue }
                let start = mx
                while mx < symbol.width, symbol[mx, my] { mx += 1 }
                cairo_rectangle(cr, x + Double(start) * moduleSize, y + Double(my) * moduleSize,
                                Double(mx - start) * moduleSize, moduleSize)
            }
        }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
    }

    func line(from a: (Double, Double), to b: (Double, Double), width: Double, gray level: Double, dash: Double? = nil) {
        gray(level)
        cairo_set_line_width(cr, width)
        if let dash {
            var pattern = [dash, dash]
            cairo_set_dash(cr, &pattern, 2, 0)
        } else {
            cairo_set_dash(cr, nil, 0, 0)
        }
        cairo_move_to(cr, a.0, a.1)
        cairo_line_to(cr, b.0, b.1)
        cairo_stroke(cr)
    }

    func rectangleOutline(x: Double, y: Double, width: Double, height: Double, lineWidth: Double, gray level: Double, dash: Double) {
        gray(level)
        cairo_set_line_width(cr, lineWidth)
        var pattern = [dash, dash]
        cairo_set_dash(cr, &pattern, 2, 0)
        cairo_rectangle(cr, x, y, width, height)
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)
    }

    func font(size: Double, bold: Bool) {
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                               bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
    }

    func textWidth(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    /// Draws text with its baseline at `y`, starting at `x`.
    func text(_ text: String, x: Double, y: Double, gray level: Double = 0) {
        gray(level)
        cairo_move_to(cr, x, y)
        cairo_show_text(cr, text)
    }

    func showPage() { cairo_show_page(cr) }

    func check() throws(CairoError) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError(status) }
        try surface.check()
    }
}
