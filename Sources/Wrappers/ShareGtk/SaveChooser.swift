internal import CGtk
internal import ShareSyscalls

/// Asks the user where to save, in the desktop's own dialog (`GtkFileChooserNative`): a file
/// name for one file, a folder for several.
@MainActor
public final class SaveChooser {
  /// What the dialog asks for.
  public enum Target: Sendable {
    /// A file's name and folder, starting from `suggestedName`.
    case file(suggestedName: String)
    /// A folder to save several files in.
    case folder
  }

  private let dialog: OpaquePointer
  /// Keeps the chooser alive while its dialog is shown; released once it answers.
  private var keptWhileShown: SaveChooser?

  /// - Parameters:
  ///   - acceptLabel: the label of the button that accepts ("_Save": the underscore marks the
  ///     mnemonic).
  ///   - parent: the window the dialog stays above.
  public init(title: String, acceptLabel: String, target: Target, parent: Window?) {
    let action: GtkFileChooserAction
    switch target {
    case .file: action = GTK_FILE_CHOOSER_ACTION_SAVE
    case .folder: action = GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
    }
    dialog = gtk_file_chooser_native_new(title, parent.map { cast($0.widget) }, action, acceptLabel, nil)
    gtk_native_dialog_set_modal(cast(dialog), 1)
    if case .file(let name) = target { gtk_file_chooser_set_current_name(dialog, name) }
  }

  isolated deinit {
    g_object_unref(raw(dialog))
  }

  /// Shows the dialog; `done` gets the chosen path, as bytes, or nil when the user cancelled (or
  /// chose nothing local).
  public func choose(_ done: @escaping @MainActor ([UInt8]?) -> Void) {
    keptWhileShown = self
    connectInteger(raw(dialog), "response") { [weak self] response in
      guard let self else { return }
      let path = response == GTK_RESPONSE_ACCEPT.rawValue ? self.chosenPath() : nil
      self.keptWhileShown = nil
      done(path)
    }
    gtk_native_dialog_show(cast(dialog))
  }

  private func chosenPath() -> [UInt8]? {
    guard let file = gtk_file_chooser_get_file(dialog) else { return nil }
    defer { g_object_unref(raw(file)) }
    guard let path = g_file_get_path(file) else { return nil }
    defer { g_free(path) }
    return cStringBytes(path)
  }
}
