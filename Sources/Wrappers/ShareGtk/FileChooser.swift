internal import CGtk
internal import ShareSyscalls

/// Asks the user for files to open, in the desktop's own dialog (`GtkFileChooserNative`: the
/// portal's where one runs, GTK's dialog elsewhere).
@MainActor
public final class FileChooser {
  private let dialog: OpaquePointer
  /// Keeps the chooser alive while its dialog is shown; released once it answers.
  private var keptWhileShown: FileChooser?

  /// - Parameters:
  ///   - title: the dialog's title.
  ///   - acceptLabel: the label of the button that accepts ("_Share": the underscore marks the
  ///     mnemonic).
  public init(title: String, acceptLabel: String, application: Application) {
    dialog = gtk_file_chooser_native_new(title, nil, GTK_FILE_CHOOSER_ACTION_OPEN, acceptLabel, nil)
    gtk_file_chooser_set_select_multiple(dialog, 1)
    _ = application
  }

  isolated deinit {
    g_object_unref(raw(dialog))
  }

  /// Shows the dialog; `done` gets the chosen files' paths, as bytes, or nil when the user
  /// cancelled (or chose nothing local).
  public func choose(_ done: @escaping @MainActor ([[UInt8]]?) -> Void) {
    keptWhileShown = self
    connectInteger(raw(dialog), "response") { [weak self] response in
      guard let self else { return }
      let paths = response == GTK_RESPONSE_ACCEPT.rawValue ? self.chosenPaths() : nil
      self.keptWhileShown = nil
      done(paths.flatMap { $0.isEmpty ? nil : $0 })
    }
    gtk_native_dialog_show(cast(dialog))
  }

  private func chosenPaths() -> [[UInt8]] {
    guard let files = gtk_file_chooser_get_files(dialog) else { return [] }
    defer { g_object_unref(raw(files)) }
    var paths: [[UInt8]] = []
    for index in 0..<g_list_model_get_n_items(files) {
      guard let item = g_list_model_get_item(files, index) else { continue }
      defer { g_object_unref(item) }
      guard let path = g_file_get_path(cast(item)) else { continue }
      defer { g_free(path) }
      paths.append(cStringBytes(path))
    }
    return paths
  }
}
