import Dispatch
import ShareCore
import ShareGtk
import SharePOSIX

/// "Save…" on the outcome page: the files a service returned, copied where the user says (one
/// file under a name of the user's choosing, several into a folder).
extension PickerWindow {
  func saveButton(_ fileURLs: [String]) -> Button {
    let button = Button(label: text("Save…"))
    button.addStyleClass("pill")
    button.onClick { [weak self, weak button] in
      guard let self, let button else { return }
      self.save(fileURLs, button: button)
    }
    return button
  }

  private func save(_ fileURLs: [String], button: Button) {
    let sources = fileURLs.compactMap(FilePath.init(fileURL:))
    guard let first = sources.first else { return }
    // No closing by itself while the user chooses.
    closeGeneration += 1
    let target: SaveChooser.Target =
      sources.count == 1
      ? .file(suggestedName: String(decoding: first.lastComponent, as: UTF8.self)) : .folder
    let chooser = SaveChooser(title: text("Save"), acceptLabel: text("_Save"), target: target, parent: window)
    chooser.choose { [weak self, weak button] chosen in
      guard let self else { return }
      guard let chosen else {
        self.closeLater(after: Self.successDisplayTime)
        return
      }
      let destinations =
        sources.count == 1
        ? [FilePath(bytes: chosen)] : sources.map { FilePath(bytes: chosen).appending($0.lastComponent) }
      let detail = self.status.detail
      DispatchQueue.global(qos: .userInitiated).async {
        let problem = Self.copy(sources, to: destinations)
        Task { @MainActor [weak self] in
          guard let self else { return }
          if let problem {
            detail.text =
              self.text("Cannot save {file}", ["file": problem.file.displayString]) + ": " + problem.reason
            detail.isVisible = true
          } else {
            button?.label = self.text("Saved")
            self.closeLater(after: Self.successDisplayTime)
          }
        }
      }
    }
  }

  /// Copies each source to its destination, written atomically; the first that fails, and why.
  nonisolated static func copy(_ sources: [FilePath], to destinations: [FilePath]) -> (
    file: FilePath, reason: String
  )? {
    for (source, destination) in zip(sources, destinations) where source != destination {
      do {
        let file = try FileDescriptor.openForReading(source.bytes)
        defer { file.close() }
        let bytes = try file.readToEnd()
        try FileSystem.writeAtomically(bytes, to: destination.bytes, mode: 0o644)
      } catch {
        return (destination, "\(error)")
      }
    }
    return nil
  }
}
