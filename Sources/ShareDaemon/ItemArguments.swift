import ShareCore
import ShareDBus

/// Decodes the `aa{sv}` items of `QueryItems` and `Share`, saying exactly what is wrong.
package enum ItemArguments {
  static let maximumItems = 10_000

  package static func decode(_ value: DBusValue, argument: String) throws(BusError) -> [RequestedItem] {
    guard case .array("a{sv}", let dictionaries) = value else {
      throw .invalidArgument(argument, expected: "an array of dictionaries (aa{sv})", found: value.signature)
    }
    guard dictionaries.count <= maximumItems else {
      throw .tooManyItems(argument: argument, limit: maximumItems, found: dictionaries.count)
    }
    var items: [RequestedItem] = []
    items.reserveCapacity(dictionaries.count)
    for (index, dictionary) in dictionaries.enumerated() {
      items.append(try decodeItem(dictionary, label: "\(argument)[\(index)]"))
    }
    return items
  }

  private static func decodeItem(_ dictionary: DBusValue, label: String) throws(BusError) -> RequestedItem {
    guard let entries = dictionary.vardictEntries else {
      throw .invalidArgument(label, expected: "a dictionary a{sv}")
    }
    var item: ShareItem?
    var mimeType: String?
    var contentKeys: [String] = []
    var unknownKeys: [String] = []
    for (key, value) in entries {
      switch (key, value) {
      case ("path", .bytes(var bytes)):
        if bytes.last == 0 { bytes.removeLast() }
        guard !bytes.isEmpty, !bytes.contains(0) else {
          throw .invalidArgument(label + ".path", expected: "a file path without NUL bytes")
        }
        guard bytes.first == UInt8(ascii: "/") else {
          throw .invalidArgument(
            label + ".path", expected: "an absolute path", found: "'\(FilePath(bytes: bytes).displayString)'")
        }
        item = .file(FilePath(bytes: bytes))
        contentKeys.append(key)
      case ("url", .string(let url)):
        if let path = FilePath(fileURL: url) {
          item = .file(path)
        } else {
          guard ShareItem.isAbsoluteURL(url) else {
            throw .invalidArgument(
              label + ".url", expected: "an absolute URL such as https://example.org/", found: "'\(url)'")
          }
          item = .webURL(url)
        }
        contentKeys.append(key)
      case ("text", .string(let text)):
        item = .text(text)
        contentKeys.append(key)
      case ("mime-type", .string(let type)):
        guard type.split(separator: "/").count == 2, !type.contains(" ") else {
          throw .invalidArgument(
            label + ".mime-type", expected: "a MIME type such as image/png", found: "'\(type)'")
        }
        mimeType = type
      case ("path", _), ("url", _), ("text", _), ("mime-type", _):
        let expected = key == "path" ? "ay" : "s"
        throw .invalidArgument(
          label + "." + key, expected: "type '\(expected)'", found: "'\(value.signature)'")
      default:
        // Unknown keys are ignored, as portals do, so later versions can add some.
        unknownKeys.append(key)
      }
    }
    guard contentKeys.count == 1, let item else {
      let others =
        unknownKeys.isEmpty ? "" : " (besides " + unknownKeys.map { "'\($0)'" }.joined(separator: ", ") + ")"
      throw .invalidArgument(
        label, expected: "exactly one of path, url or text",
        found: (contentKeys.isEmpty ? "none" : contentKeys.joined(separator: " and ")) + others)
    }
    return RequestedItem(item, mimeType: mimeType)
  }
}
