internal import CGtk

/// Pages pushed on top of each other, sliding in from the end and back out (`GtkStack` with a
/// slide transition), as a navigation controller does.
///
/// Only the top page is in the accessibility tree: GTK 4.8 would leave the others there, looking
/// visible.
public final class PageStack: Widget {
  private var pages: [Widget] = []
  private var counter = 0
  /// How long a page takes to slide, in seconds.
  public static let transitionSeconds = 0.2

  public init(root: Widget) {
    super.init(gtk_stack_new())
    gtk_stack_set_transition_type(cast(widget), GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT)
    gtk_stack_set_transition_duration(cast(widget), guint(Self.transitionSeconds * 1000))
    gtk_stack_set_hhomogeneous(cast(widget), 1)
    gtk_stack_set_vhomogeneous(cast(widget), 1)
    push(root)
  }

  /// The number of pages, the root included.
  public var depth: Int { pages.count }

  /// Slides `page` in over the top page.
  public func push(_ page: Widget) {
    counter += 1
    gtk_stack_add_named(cast(widget), page.widget, "page-\(counter)")
    pages.append(page)
    showTop()
  }

  /// Slides the top page out, back to the one below; the root page stays.
  public func pop() {
    guard pages.count > 1 else { return }
    let popped = pages.removeLast()
    showTop()
    popped.setAccessibilityHidden(true)
    // Removed once it has slid out (a page later than the one shown slides to the end).
    let stack = widget
    g_object_ref(raw(stack))
    let removal = PageRemoval(stack: stack, page: popped)
    g_timeout_add_full(
      G_PRIORITY_DEFAULT, guint(Self.transitionSeconds * 1000) + 50, removePage,
      Unmanaged.passRetained(removal).toOpaque(), releaseRemoval)
  }

  private func showTop() {
    guard let top = pages.last else { return }
    gtk_stack_set_visible_child(cast(widget), top.widget)
    for page in pages { page.setAccessibilityHidden(page !== top) }
  }
}

/// A popped page waiting to leave its stack; holds both until then.
@MainActor private final class PageRemoval {
  let stack: UnsafeMutablePointer<GtkWidget>
  let page: Widget

  init(stack: UnsafeMutablePointer<GtkWidget>, page: Widget) {
    self.stack = stack
    self.page = page
  }
}

private let removePage: @convention(c) (gpointer?) -> gboolean = { data in
  guard let data else { return 0 }
  let removal = Unmanaged<PageRemoval>.fromOpaque(data).takeUnretainedValue()
  MainActor.assumeIsolated {
    if gtk_widget_get_parent(removal.page.widget) == removal.stack {
      gtk_stack_remove(cast(removal.stack), removal.page.widget)
    }
    g_object_unref(raw(removal.stack))
  }
  return 0
}

private func releaseRemoval(_ data: gpointer?) {
  guard let data else { return }
  Unmanaged<PageRemoval>.fromOpaque(data).release()
}
