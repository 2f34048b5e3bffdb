internal import CGtk
internal import ShareSyscalls

/// The process's libadwaita application (`AdwApplication`): GTK's start-up, the main loop, and
/// libadwaita's style (dark style following the desktop).
///
/// Non-unique: every picker is a process of its own, so that one stuck share never holds up
/// another picker.
@MainActor
public final class Application {
  let application: UnsafeMutablePointer<AdwApplication>
  private var holds = 0

  /// - Parameter id: a D-Bus style application id (`org.xdgshare.Sheet`); it names the
  ///   application to the desktop (window grouping, the `.desktop` file).
  public init(id: String) {
    application = adw_application_new(id, G_APPLICATION_NON_UNIQUE)
    MainQueuePump.install()
  }

  isolated deinit {
    g_object_unref(raw(application))
  }

  /// Runs the main loop until the last window is closed and nothing holds the application;
  /// `activate` runs once GTK has started, to make the first window. Returns GLib's status.
  public func run(activate: @escaping @MainActor () -> Void) -> Int32 {
    connect(raw(application), "activate") {
      // The desktop's preference, light or dark, as every libadwaita application follows it.
      adw_style_manager_set_color_scheme(adw_style_manager_get_default(), ADW_COLOR_SCHEME_DEFAULT)
      activate()
    }
    // argc 1: the arguments are ours, already read; GApplication must not open them as files.
    return g_application_run(cast(application), 1, CommandLine.unsafeArgv)
  }

  /// Starts GTK on the display the environment names; false when there is none or it cannot be
  /// opened. GTK's own start-up (``run(activate:)``) would print "cannot open display" and exit
  /// the process with status 1; asked first, a program says so in its own words and ends as it
  /// means to.
  public static func openDisplay() -> Bool {
    gtk_init_check() != 0
  }

  /// Keeps the application running without a window (a share going on after its window was
  /// closed) until ``release()``.
  public func hold() {
    holds += 1
    g_application_hold(cast(application))
  }

  /// Ends one ``hold()``.
  public func release() {
    guard holds > 0 else { return }
    holds -= 1
    g_application_release(cast(application))
  }

  /// Ends the main loop now.
  public func quit() {
    g_application_quit(cast(application))
  }
}

/// Runs the work queued on the main actor (and `DispatchQueue.main`) from GLib's main loop.
///
/// GLib's loop never drains Swift's main executor: `Task { @MainActor in }` would never run. The
/// loop polls libdispatch's main-queue descriptor instead and drains the queue when it fires,
/// as Foundation's RunLoop does; the process stays idle in between.
enum MainQueuePump {
  @MainActor private static var installed = false

  @MainActor static func install() {
    guard !installed else { return }
    installed = true
    g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, drain, nil)
  }

  private static let drain: @convention(c) (Int32, GIOCondition, gpointer?) -> gboolean = {
    descriptor, _, _ in
    // The descriptor is an eventfd: read it so that it stops being readable, then drain.
    var count: UInt64 = 0
    _ = withUnsafeMutableBytes(of: &count) { system_read(descriptor, $0.baseAddress, 8) }
    _dispatch_main_queue_callback_4CF(nil)
    return 1
  }
}
