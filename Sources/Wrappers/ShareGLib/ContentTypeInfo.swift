internal import CGLib

/// What GIO tells people about a content type: its icon and its name.
public enum ContentTypeInfo {
  /// The icon theme names for `contentType` (a MIME type), the most specific first
  /// (`image-png`, `image-x-generic`), then the symbolic ones: a theme that lacks one has another.
  public static func iconNames(for contentType: String) -> [String] {
    var names: [String] = []
    for icon in [g_content_type_get_icon(contentType), g_content_type_get_symbolic_icon(contentType)] {
      guard let icon else { continue }
      defer { g_object_unref(UnsafeMutableRawPointer(icon)) }
      guard g_type_check_instance_is_a(UnsafeMutablePointer(icon), g_themed_icon_get_type()) != 0,
        var entry = g_themed_icon_get_names(icon)
      else { continue }
      while let name = entry.pointee {
        let text = String(cString: name)
        if !names.contains(text) { names.append(text) }
        entry += 1
      }
    }
    return names
  }

  /// Whether `contentType` says nothing of what a file is (`application/octet-stream`: bytes no
  /// rule of shared-mime-info recognised), whose description is only "unknown".
  public static func isUnknown(_ contentType: String) -> Bool {
    g_content_type_is_unknown(contentType) != 0
  }

  /// The name of `contentType` for people, in the user's language (`PNG image`), as
  /// shared-mime-info gives it.
  public static func description(of contentType: String) -> String {
    takeString(g_content_type_get_description(contentType)) ?? contentType
  }
}
