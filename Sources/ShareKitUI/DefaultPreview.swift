import Dispatch
import FoundationEssentials
import ShareGtk
import ShareKit

/// The compose sheet's preview when the extension gives none: a thumbnail of the first image, the
/// icon and name of another file, or the host of a link; "+N" when more was shared.
@MainActor
enum DefaultPreview {
  nonisolated static let size: Int32 = 96

  static func make(for items: [ExtensionItem]) -> Widget? {
    let attachments = items.flatMap(\.attachments).filter { $0.isFile || $0.webURL != nil }
    guard let first = attachments.first else { return nil }
    let box = Box(.vertical, spacing: 6)
    box.setSizeRequest(width: size)
    if first.isFile, let path = first.filePathBytes {
      let type = first.registeredTypeIdentifiers.first { $0.contains("/") } ?? "application/octet-stream"
      let icon = Image(contentType: type, pixelSize: 64)
      let slot = Box(.vertical)
      slot.append(icon)
      box.append(slot)
      if first.hasItemConformingToTypeIdentifier("public.image") {
        // Strong captures: GTK holds the widgets, not these Swift wrappers, and the closure is
        // owned by no widget.
        loadThumbnail(path) { texture in
          let thumbnail = Image(texture: texture, pixelSize: size)
          thumbnail.addStyleClass("share-sheet-preview")
          thumbnail.clipContent()
          slot.remove(icon)
          slot.append(thumbnail)
        }
      }
      box.append(caption(first.name ?? "file"))
    } else if let url = first.webURL {
      box.append(Image(iconNames: ["web-browser-symbolic", "text-html"], pixelSize: 48))
      box.append(caption(url.host ?? url.absoluteString))
    }
    if attachments.count > 1 { box.append(caption("+\(attachments.count - 1)")) }
    return box
  }

  private static func caption(_ text: String) -> Label {
    let label = Label(text)
    label.addStyleClass("caption")
    label.wrap(lines: 2)
    label.setWidthInCharacters(12)
    return label
  }

  /// Decodes the image off the main thread: a photo takes a core for a while.
  private static func loadThumbnail(
    _ path: [UInt8], then show: @escaping @MainActor @Sendable (Texture) -> Void
  ) {
    DispatchQueue.global(qos: .userInitiated).async {
      guard let texture = try? Texture.load(contentsOf: path, fittingIn: size * 2) else { return }
      Task { @MainActor in show(texture) }
    }
  }
}
