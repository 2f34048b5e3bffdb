public import ShareCore

/// What the top of the picker says is being shared, as Android's share sheet does: a picture or
/// an icon, a title and a line below it.
public struct SelectionSummary: Equatable, Sendable {
  public enum Picture: Equatable, Sendable {
    /// A thumbnail of this image file.
    case thumbnail(FilePath)
    /// The icon of a content type (a MIME type).
    case contentType(String)
    /// Icon names, the first the theme has.
    case icons([String])
  }

  public var picture: Picture
  public var title: String
  public var subtitle: String
}

// Apart, so that the memberwise initializer is there for the sheet and its tests.
extension SelectionSummary {
  /// Icons for links and texts.
  static let linkIcons = ["web-browser", "web-browser-symbolic", "text-html"]
  static let textIcons = ["text-x-generic", "text-x-generic-symbolic"]

  /// Sums up `attachments` (files with their content types).
  ///
  /// - Parameter describe: a content type's name for people ("PNG image").
  public init(attachments: [Attachment], text: SheetText, describe: (String) -> String) {
    let files = attachments.compactMap { attachment -> (FilePath, FileFacts?, [String])? in
      guard case .file(let path) = attachment.item else { return nil }
      return (path, attachment.file, attachment.typeIdentifiers)
    }
    let links = attachments.compactMap { attachment -> String? in
      if case .webURL(let url) = attachment.item { return url }
      return nil
    }
    let texts = attachments.compactMap { attachment -> String? in
      if case .text(let text) = attachment.item { return text }
      return nil
    }
    let firstImage = files.first {
      $0.2.contains("public.image") || ($0.1?.contentType.hasPrefix("image/") ?? false)
    }

    switch (files.count, links.count, texts.count) {
    case (1, 0, 0):
      let (path, facts, _) = files[0]
      title = FilePath(bytes: path.lastComponent).displayString
      subtitle = facts.map { describe($0.contentType) } ?? ""
    case (let count, 0, 0) where count > 1:
      title = text("{count} files", ["count": String(count)])
      subtitle = files.map { FilePath(bytes: $0.0.lastComponent).displayString }.joined(separator: ", ")
    case (0, 1, let textCount) where textCount <= 1:
      // A page shared with its title (as browsers share): the title, then where it is.
      let host = Self.host(of: links[0]) ?? links[0]
      if let first = texts.first.flatMap(Self.firstLine) {
        title = first
        subtitle = host
      } else {
        title = host
        subtitle = links[0]
      }
    case (0, let count, 0):
      title = text("{count} links", ["count": String(count)])
      subtitle = links.compactMap(Self.host).joined(separator: ", ")
    case (0, 0, 1):
      title = Self.firstLine(texts[0]) ?? ""
      subtitle = text("Text")
    default:
      title = text("{count} items", ["count": String(attachments.count)])
      subtitle =
        (files.map { FilePath(bytes: $0.0.lastComponent).displayString } + links.compactMap(Self.host)
        + texts.compactMap(Self.firstLine)).joined(separator: ", ")
    }

    if let firstImage {
      picture = .thumbnail(firstImage.0)
    } else if let file = files.first {
      picture = .contentType(file.1?.contentType ?? "application/octet-stream")
    } else if !links.isEmpty {
      picture = .icons(Self.linkIcons)
    } else {
      picture = .icons(Self.textIcons)
    }
  }

  /// The host of `url` (`https://user@example.org:8080/x` → `example.org`), without `www.`.
  static func host(of url: String) -> String? {
    guard let schemeEnd = url.firstRange(of: "://") else { return nil }
    var rest = url[schemeEnd.upperBound...]
    if let end = rest.firstIndex(where: { "/?#".contains($0) }) { rest = rest[..<end] }
    if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
    if rest.hasPrefix("[") {
      // An IPv6 address keeps its brackets.
      if let close = rest.firstIndex(of: "]") { rest = rest[...close] }
    } else if let colon = rest.lastIndex(of: ":") {
      rest = rest[..<colon]
    }
    let host = rest.lowercased()
    return host.isEmpty ? nil : host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
  }

  /// The first line of `text` with content, trimmed, at most 80 characters; `nil` for blank text.
  static func firstLine(_ text: String) -> String? {
    let line = text.split(whereSeparator: \.isNewline).lazy.map { line in
      String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }.first { !$0.isEmpty }
    guard let line else { return nil }
    return line.count > 80 ? String(line.prefix(79)) + "…" : line
  }
}
