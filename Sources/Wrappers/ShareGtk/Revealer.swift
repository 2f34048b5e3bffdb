internal import CGtk

/// A child that slides into view and out of it (`GtkRevealer`, sliding up), timed by the frame
/// clock: each transition reports how long it took from its first frame to its last, as drawn.
public final class Revealer: Widget {
  public init(child: Widget) {
    super.init(gtk_revealer_new())
    gtk_revealer_set_transition_type(cast(widget), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
    gtk_revealer_set_child(cast(widget), child.widget)
  }

  /// Whether the child is (or is becoming) shown.
  public var isRevealed: Bool {
    gtk_revealer_get_reveal_child(cast(widget)) != 0
  }

  /// Shows (`true`) or hides the child over `seconds`; `finished` gets the transition's length
  /// measured on the frame clock: the frame time of its last frame minus that of its first.
  ///
  /// The transition runs only while the revealer is on screen (after the window's first frame);
  /// otherwise it is immediate and measures 0.
  public func reveal(
    _ shown: Bool, over seconds: Double, finished: @escaping @MainActor (_ measured: Double) -> Void
  ) {
    gtk_revealer_set_transition_duration(cast(widget), guint(max(0, seconds * 1000).rounded()))
    gtk_revealer_set_reveal_child(cast(widget), shown.gboolean)
    // Off screen the change is immediate, and no frame would ever tick.
    guard gtk_widget_get_mapped(widget) != 0 else {
      finished(0)
      return
    }
    // Added after the revealer's own tick callback, so it runs after it in every frame and sees
    // the transition end in the frame that ends it.
    let timing = TransitionTiming(revealer: self, shown: shown, finished: finished)
    gtk_widget_add_tick_callback(
      widget, transitionTick, Unmanaged.passRetained(timing).toOpaque(), releaseTiming)
  }

  fileprivate var childRevealed: Bool {
    gtk_revealer_get_child_revealed(cast(widget)) != 0
  }
}

/// One transition being timed.
@MainActor private final class TransitionTiming {
  weak var revealer: Revealer?
  let shown: Bool
  let finished: @MainActor (Double) -> Void
  var start: Int?

  init(revealer: Revealer, shown: Bool, finished: @escaping @MainActor (Double) -> Void) {
    self.revealer = revealer
    self.shown = shown
    self.finished = finished
  }

  /// Whether to keep ticking.
  func tick(frameTime: Int) -> Bool {
    // A transition turned round before its end (Post during the slide-in) is not reported.
    guard let revealer, revealer.isRevealed == shown else { return false }
    let start = self.start ?? frameTime
    self.start = start
    guard revealer.childRevealed == shown else { return true }
    finished(Double(frameTime - start) / 1_000_000)
    return false
  }
}

private func releaseTiming(_ data: gpointer?) {
  guard let data else { return }
  Unmanaged<TransitionTiming>.fromOpaque(data).release()
}

/// `gboolean (*GtkTickCallback) (GtkWidget *, GdkFrameClock *, gpointer)`.
private let transitionTick:
  @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean =
    { _, clock, data in
      guard let data, let clock else { return 0 }
      let timing = Unmanaged<TransitionTiming>.fromOpaque(data).takeUnretainedValue()
      let frameTime = gdk_frame_clock_get_frame_time(clock)
      return MainActor.assumeIsolated { timing.tick(frameTime: frameTime) }.gboolean
    }
