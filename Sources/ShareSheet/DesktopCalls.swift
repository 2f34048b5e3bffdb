import ShareDBus

/// What the picker asks of the desktop over the session bus (through ShareDBus, not GTK's GDBus).
/// Every call blocks: make it off the main actor.
enum DesktopCalls {
  /// Opens the folders of `fileURLs` in the file manager with the files selected
  /// (`org.freedesktop.FileManager1.ShowItems`); `false` when no file manager answered.
  static func showItems(_ fileURLs: [String]) -> Bool {
    guard let connection = try? BusConnection.session() else { return false }
    let message = DBusMessage.methodCall(
      destination: "org.freedesktop.FileManager1", path: "/org/freedesktop/FileManager1",
      interface: "org.freedesktop.FileManager1", member: "ShowItems")
    message.append([.array(elementSignature: "s", fileURLs.map(DBusValue.string)), .string("")])
    return (try? connection.call(message, timeout: 10)) != nil
  }

  /// A desktop notification: how a share whose window was closed tells how it ended.
  static func notify(summary: String, body: String, critical: Bool) {
    DesktopNotifications(applicationName: "xdg-share")?.notify(
      summary: summary, body: body, icon: critical ? "dialog-error" : "document-send",
      urgency: critical ? .critical : .normal)
  }
}
