/// A place in a message as a key path a person reads: `inputItems[0].attachments`.
public enum CodingPath {
  /// `path` as a quoted key path, or "the top level" when it is empty.
  public static func describe(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text.isEmpty ? "the top level" : "'\(text)'"
  }
}
