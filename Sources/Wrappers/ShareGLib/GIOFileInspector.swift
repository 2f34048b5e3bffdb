internal import CGLib
public import ShareCore

/// Looks at files with GIO: the content type comes from the name, and from the content when the
/// name gives no certain answer (a PNG without an extension is still `image/png`).
public struct GIOFileInspector: FileInspector {
  public init() {}

  public func inspect(_ path: FilePath) throws(FileProblem) -> FileFacts {
    let attributes = "standard::type,standard::size,standard::content-type"
    do {
      return try withCPath(path.bytes) { cPath throws(GLibError) -> FileFacts in
        let file = g_file_new_for_path(cPath)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        let info = try withGError { error in
          attributes.withCString { g_file_query_info(file, $0, G_FILE_QUERY_INFO_NONE, nil, error) }
        }
        guard let info else { throw GLibError(domain: "", code: 0, message: "no file information") }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        let isDirectory = g_file_info_get_file_type(info) == G_FILE_TYPE_DIRECTORY
        let contentType = g_file_info_get_content_type(info).map { String(cString: $0) }
        return FileFacts(
          contentType: contentType.map(Self.mimeType)
            ?? (isDirectory ? "inode/directory" : "application/octet-stream"),
          size: isDirectory ? 0 : UInt64(max(0, g_file_info_get_size(info))), isDirectory: isDirectory)
      }
    } catch {
      let reason: FileProblem.Reason =
        error.isIOError(G_IO_ERROR_NOT_FOUND)
        ? .notFound
        : error.isIOError(G_IO_ERROR_PERMISSION_DENIED) ? .permissionDenied : .other(error.message)
      throw FileProblem(path: path, reason: reason)
    }
  }

  /// On Unix a GIO content type is a MIME type already; this keeps it so on others.
  static func mimeType(_ contentType: String) -> String {
    contentType.withCString { takeString(g_content_type_get_mime_type($0)) } ?? contentType
  }

  /// The content type GIO guesses from a file name alone, for names that are not files (a URL's
  /// last path component).
  public static func guessContentType(forName name: String) -> String {
    name.withCString { takeString(g_content_type_guess($0, nil, 0, nil)) }.map(mimeType)
      ?? "application/octet-stream"
  }
}

/// The process's working directory, byte for byte (`g_get_current_dir`).
public func currentDirectory() -> FilePath {
  guard let pointer = g_get_current_dir() else { return FilePath("/") }
  defer { g_free(pointer) }
  return FilePath(bytes: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
}
