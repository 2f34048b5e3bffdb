package import ShareCore
package import ShareDBus
package import SharePOSIX

/// A file a caller handed over as a descriptor (`{"fd": h}`), and the name it gave it.
package struct GivenDescriptor: Sendable {
  package let descriptor: FileDescriptor
  /// `name`: what the file is called where it comes from; its type is guessed from it too.
  package let name: String?
  /// Where it was in the call, for errors: `items[2]`.
  package let label: String
}

/// Items as a caller gave them: what the rules are asked about, and the files handed over as
/// descriptors, by the index of their item (which names the file by `/proc/self/fd/N` until
/// it is handed on: ``HandedOverFiles``).
package struct GivenItems: Sendable {
  package var items: [RequestedItem]
  package var descriptors: [Int: GivenDescriptor] = [:]
}

/// Decodes the `aa{sv}` items of `QueryItems`, `Explain`, `Share` and `ShowPicker`, saying
/// exactly what is wrong; ``AdmittedItems`` takes them in.
///
/// Three ways in, one set of checks (``ItemEntries``): plain items read from the marshalled body
/// (``DBusBodyReader``: no value tree and no cursor for a thousand items), anything else walked
/// with a ``DBusCursor``, which also words every error, or a decoded ``DBusValue`` (the fuzz
/// targets', which check that the three agree).
package enum ItemArguments {
  static let maximumItems = 10_000

  package static func decode(_ value: DBusValue, argument: String) throws(BusError) -> [RequestedItem] {
    guard case .array("a{sv}", let dictionaries) = value else {
      throw .invalidArgument(argument, .notItems(found: value.signature))
    }
    guard dictionaries.count <= maximumItems else {
      throw .tooManyItems(argument: argument, limit: maximumItems, found: dictionaries.count)
    }
    var items: [RequestedItem] = []
    items.reserveCapacity(dictionaries.count)
    for (index, dictionary) in dictionaries.enumerated() {
      guard let entries = dictionary.vardictEntries else {
        throw .invalidArgument("\(argument)[\(index)]", .notADictionary)
      }
      var item = ItemEntries()
      for (key, value) in entries {
        try item.add(key: key, value: value) { "\(argument)[\(index)]" }
      }
      items.append(try item.finish { "\(argument)[\(index)]" })
    }
    return items
  }

  /// The items of `message`'s first argument (`aa{sv}`), read from its marshalled body when they
  /// are as callers send them, else as ``decode(_:argument:)`` of a cursor reads them (which words
  /// any error): the same items either way.
  package static func decode(firstArgumentOf message: DBusMessage, argument: String) throws(BusError)
    -> [RequestedItem]
  {
    if message.signature.hasPrefix("aa{sv}"), let items = plainItems(DBusBodyReader(message)) { return items }
    return try decode(message.cursor(atArgument: 0), argument: argument)
  }

  /// The items of `message`'s argument `index` (`aa{sv}`), files handed over as descriptors
  /// among them: read from the marshalled body when they are plain (no descriptor can be
  /// there), else walked with a cursor.
  package static func given(_ message: DBusMessage, argument index: Int, named argument: String)
    throws(BusError)
    -> GivenItems
  {
    if index == 0, message.signature.hasPrefix("aa{sv}"), let items = plainItems(DBusBodyReader(message)) {
      return GivenItems(items: items)
    }
    return try walk(message.cursor(atArgument: index), argument: argument, collectingDescriptors: true)
  }

  /// The items at the start of `body`, when each holds one of `path` (`ay`), `url` or `text`
  /// (`s`), and perhaps a `mime-type` (`s`), all valid; nil for anything else (unknown keys,
  /// other types, an error to word, too many items). Each value goes through the checks the
  /// cursor walk makes (``ItemEntries``').
  static func plainItems(_ body: DBusBodyReader?) -> [RequestedItem]? {
    guard var body, let length = body.uint32() else { return nil }
    let end = body.offset + length
    var items: [RequestedItem] = []
    // Callers send many items of one type: the last type given is checked once.
    var lastType: (bytes: ArraySlice<UInt8>, type: String)?
    while body.offset < end {
      guard items.count < maximumItems, let itemLength = body.uint32(), body.align(8) else { return nil }
      let itemEnd = body.offset + itemLength
      var item: ShareItem?
      var contentKeys = 0
      var mimeType: String?
      while body.offset < itemEnd {
        guard body.align(8), let key = body.string(), let signature = body.string(short: true),
          let (plainKey, _) = Self.plainKeys.first(where: { body.bytes[key].elementsEqual($0.bytes) }),
          body.bytes[signature].elementsEqual(
            plainKey == .path ? Self.byteArraySignature : Self.stringSignature),
          let valueLength = body.uint32(), let value = body.take(valueLength),
          plainKey == .path || body.byte() == 0
        else { return nil }
        let bytes = body.bytes[value]
        switch plainKey {
        case .path:
          guard let path = try? ItemEntries.filePath(Array(bytes), label: { "" }) else { return nil }
          item = .file(path)
          contentKeys += 1
        case .url:
          let text = String(decoding: bytes, as: UTF8.self)
          guard let url = try? ItemEntries.urlItem(text, label: { "" }) else { return nil }
          item = url
          contentKeys += 1
        case .text:
          item = .text(String(decoding: bytes, as: UTF8.self))
          contentKeys += 1
        case .mimeType:
          if let lastType, lastType.bytes.elementsEqual(bytes) {
            mimeType = lastType.type
          } else {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let type = try? ItemEntries.mimeType(text, label: { "" }) else { return nil }
            mimeType = type
            lastType = (bytes, type)
          }
        }
      }
      // Exactly one content key, as ``ItemEntries/finish(label:)`` asks.
      guard body.offset == itemEnd, contentKeys == 1, let item else { return nil }
      items.append(RequestedItem(item, mimeType: mimeType))
    }
    return body.offset == end ? items : nil
  }

  private enum PlainKey { case path, url, text, mimeType }
  private static let byteArraySignature = Array("ay".utf8)
  private static let stringSignature = Array("s".utf8)
  /// The keys an item may hold, and their bytes.
  private static let plainKeys: [(key: PlainKey, bytes: [UInt8])] = [
    (.path, Array("path".utf8)), (.url, Array("url".utf8)), (.text, Array("text".utf8)),
    (.mimeType, Array("mime-type".utf8)),
  ]

  /// The items under `cursor` (an `aa{sv}` argument), read where they lie in the message; the
  /// same items and the same errors as ``decode(_:argument:)`` of the decoded value.
  package static func decode(_ cursor: DBusCursor, argument: String) throws(BusError) -> [RequestedItem] {
    try walk(cursor, argument: argument, collectingDescriptors: false).items
  }

  /// The items under `cursor`; with `collectingDescriptors`, `fd` entries are read too (the value
  /// path cannot see them, and without it they are skipped as it skips them).
  static func walk(_ cursor: DBusCursor, argument: String, collectingDescriptors: Bool) throws(BusError)
    -> GivenItems
  {
    guard cursor.kind == .array, cursor.signature == "aa{sv}" else {
      return GivenItems(
        items: try decode(cursor.value() ?? .array(elementSignature: "", []), argument: argument))
    }
    var items: [RequestedItem] = []
    var descriptors: [Int: GivenDescriptor] = [:]
    var dictionary = cursor.contents()
    // The value path counts the items before it looks at any; here an error or the limit
    // reached first counts them, so that too many items is still the error reported.
    func tooMany(_ error: BusError) -> BusError {
      var count = 0
      var counting = cursor.contents()
      while counting.kind != .end {
        count += 1
        counting.next()
      }
      return count > maximumItems
        ? .tooManyItems(argument: argument, limit: maximumItems, found: count) : error
    }
    // Callers send many items of one type: the last type given is checked once.
    var lastType: String?
    // Each container's end is told by `next()`: asking each value's type first would cost a
    // call into libdbus per entry.
    guard dictionary.kind != .end else { return GivenItems(items: items) }
    repeat {
      let index = items.count
      guard index < maximumItems else { throw tooMany(.tooManyItems(argument: argument, limit: 0, found: 0)) }
      var item = ItemEntries()
      var entry = dictionary.contents()
      do throws(BusError) {
        if entry.kind == .dictionaryEntry {
          repeat {
            var pair = entry.contents()
            let key = pair.string() ?? ""
            pair.next()
            let value = pair.contents()
            let kind = value.kind
            if kind == .other || (kind == .unixFD && !collectingDescriptors) {
              // The value path cannot decode it and so never sees the entry.
            } else if kind == .string, key == "mime-type", let lastType, value.string() == lastType {
              item.mimeType = lastType
            } else {
              try item.add(key: key, value: value) { "\(argument)[\(index)]" }
              if key == "mime-type" { lastType = item.mimeType }
            }
          } while entry.next()
        }
        items.append(try item.finish { "\(argument)[\(index)]" })
        if let descriptor = item.descriptor {
          descriptors[index] = GivenDescriptor(
            descriptor: descriptor, name: item.name, label: "\(argument)[\(index)]")
        }
      } catch {
        throw tooMany(error)
      }
    } while dictionary.next()
    return GivenItems(items: items, descriptors: descriptors)
  }
}

/// One item's `a{sv}` entries as they are read, and what they make.
struct ItemEntries {
  var item: ShareItem?
  var mimeType: String?
  /// A file handed over as a descriptor (`fd`), and the name given with it (`name`).
  var descriptor: FileDescriptor?
  var name: String?
  /// The content keys met, in order: the first kept apart, so that an item as it should be
  /// (one content key) allocates nothing for them.
  var firstContentKey: String?
  var moreContentKeys: [String] = []
  var unknownKeys: [String] = []

  var contentKeys: [String] { (firstContentKey.map { [$0] } ?? []) + moreContentKeys }

  mutating func noteContentKey(_ key: String) {
    if firstContentKey == nil { firstContentKey = key } else { moreContentKeys.append(key) }
  }

  /// A value read from a message, or already decoded.
  protocol Value {
    var itemBytes: [UInt8]? { get }
    var itemString: String? { get }
    /// Its type for an error message, as ``DBusValue/signature`` says it.
    var typeName: String { get }
    /// A Unix file descriptor (`h`).
    var itemDescriptor: FileDescriptor? { get }
  }

  mutating func add(key: String, value: some Value, label: () -> String) throws(BusError) {
    switch key {
    case "path":
      guard let bytes = value.itemBytes else { throw Self.wrongType(key, value, label()) }
      item = .file(try Self.filePath(bytes, label: label))
      noteContentKey(key)
    case "url":
      guard let url = value.itemString else { throw Self.wrongType(key, value, label()) }
      item = try Self.urlItem(url, label: label)
      noteContentKey(key)
    case "text":
      guard let text = value.itemString else { throw Self.wrongType(key, value, label()) }
      item = .text(text)
      noteContentKey(key)
    case "mime-type":
      guard let type = value.itemString else { throw Self.wrongType(key, value, label()) }
      mimeType = try Self.mimeType(type, label: label)
    case "fd":
      guard let descriptor = value.itemDescriptor else { throw Self.wrongType(key, value, label()) }
      self.descriptor = descriptor
      noteContentKey(key)
    case "name":
      guard let name = value.itemString else { throw Self.wrongType(key, value, label()) }
      self.name = name
    default:
      // Unknown keys are ignored, as portals do, so later versions can add some.
      unknownKeys.append(key)
    }
  }

  /// A `path` value's file: one terminating NUL allowed, then not empty, no NUL, absolute.
  static func filePath(_ value: [UInt8], label: () -> String) throws(BusError) -> FilePath {
    var path = FilePath(bytes: value)
    if path.bytes.last == 0 { path.bytes.removeLast() }
    guard !path.bytes.isEmpty, !path.containsNUL else {
      throw .invalidArgument(label() + ".path", .pathWithNUL)
    }
    guard path.bytes.first == UInt8(ascii: "/") else {
      throw .invalidArgument(label() + ".path", .relativePath(path))
    }
    return path
  }

  /// A `url` value's item: the file of a `file:` URL, or an absolute URL.
  static func urlItem(_ url: String, label: () -> String) throws(BusError) -> ShareItem {
    if let path = FilePath(fileURL: url) { return .file(path) }
    guard ShareItem.isAbsoluteURL(url) else {
      throw .invalidArgument(label() + ".url", .notAnAbsoluteURL(url))
    }
    return .webURL(url)
  }

  /// A `mime-type` value, when it is one.
  static func mimeType(_ type: String, label: () -> String) throws(BusError) -> String {
    guard isMIMEType(type) else {
      throw .invalidArgument(label() + ".mime-type", .notAMIMEType(type))
    }
    return type
  }

  /// Two parts between slashes (`type.split(separator: "/").count == 2`, empty parts not
  /// counted) and no space; without making the parts.
  static func isMIMEType(_ type: String) -> Bool {
    var parts = 0
    var inPart = false
    for byte in type.utf8 {
      if byte == UInt8(ascii: " ") { return false }
      if byte == UInt8(ascii: "/") {
        inPart = false
      } else if !inPart {
        inPart = true
        parts += 1
      }
    }
    return parts == 2
  }

  private static func wrongType(_ key: String, _ value: some Value, _ label: String) -> BusError {
    let expected =
      switch key {
      case "path": "ay"
      case "fd": "h"
      default: "s"
      }
    return .invalidArgument(label + "." + key, .type(expected: expected, found: value.typeName))
  }

  func finish(label: () -> String) throws(BusError) -> RequestedItem {
    if let descriptor, firstContentKey != nil, moreContentKeys.isEmpty {
      // Named by this process's own path to it until it is handed on.
      return RequestedItem(.file(FilePath(bytes: descriptor.processPath)), mimeType: mimeType)
    }
    guard firstContentKey != nil, moreContentKeys.isEmpty, let item else {
      throw .invalidArgument(label(), .contentKeys(found: contentKeys, besides: unknownKeys))
    }
    return RequestedItem(item, mimeType: mimeType)
  }
}

extension DBusValue: ItemEntries.Value {
  var itemBytes: [UInt8]? { if case .bytes(let bytes) = self { bytes } else { nil } }
  var itemString: String? { stringValue }
  var typeName: String { signature }
  var itemDescriptor: FileDescriptor? { nil }
}

extension DBusCursor: ItemEntries.Value {
  var itemBytes: [UInt8]? { bytes() }
  var itemString: String? { kind == .string ? string() : nil }
  var itemDescriptor: FileDescriptor? { fileDescriptor() }
  // The decoded value's signature, as the value path reports it.
  var typeName: String { value()?.signature ?? signature }
}
