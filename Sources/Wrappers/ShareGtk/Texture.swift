internal import CGtk

/// A decoded image, ready to draw (`GdkTexture`).
///
/// Sendable: a texture is immutable once made and its reference count is atomic, so one decoded
/// on a background thread can be handed to the main thread.
public final class Texture: @unchecked Sendable {
  let texture: OpaquePointer

  private init(taking texture: OpaquePointer) {
    self.texture = texture
  }

  deinit {
    g_object_unref(raw(texture))
  }

  var paintable: OpaquePointer { texture }

  /// The size in pixels.
  public var width: Int32 { gdk_texture_get_width(texture) }
  public var height: Int32 { gdk_texture_get_height(texture) }

  /// Decodes the image file at `path` (any format gdk-pixbuf reads: PNG, JPEG, SVG, …) scaled
  /// down to fit a `pixels` × `pixels` square, turned as its EXIF orientation says. A smaller
  /// image keeps its size. A photo is never held at full size longer than decoding takes.
  ///
  /// Safe on any thread: gdk-pixbuf and texture creation touch no widget.
  public static func load(contentsOf path: [UInt8], fittingIn pixels: Int32) throws(GtkFailure) -> Texture {
    let cPath = path + [0]
    let decoded: Result<OpaquePointer, GtkFailure> = cPath.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { name in
        var width: Int32 = 0
        var height: Int32 = 0
        guard gdk_pixbuf_get_file_info(name.baseAddress, &width, &height) != nil else {
          return .failure(GtkFailure(message: "not an image gdk-pixbuf can read"))
        }
        let side = width <= pixels && height <= pixels ? max(width, height, 1) : pixels
        var error: UnsafeMutablePointer<GError>? = nil
        guard let pixbuf = gdk_pixbuf_new_from_file_at_scale(name.baseAddress, side, side, 1, &error) else {
          return .failure(takeError(error))
        }
        defer { g_object_unref(raw(pixbuf)) }
        // A new pixbuf, or the same one with one more reference: released either way.
        let turned = gdk_pixbuf_apply_embedded_orientation(pixbuf)
        defer { if let turned { g_object_unref(raw(turned)) } }
        guard let texture = gdk_texture_new_for_pixbuf(turned ?? pixbuf) else {
          return .failure(GtkFailure(message: "cannot make a texture"))
        }
        return .success(texture)
      }
    }
    return Texture(taking: try decoded.get())
  }
}
