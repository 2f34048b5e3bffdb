internal import CGtk

/// Which of GTK's renderers draws this process's windows.
public enum Renderer {
  /// Has GTK draw with cairo on a machine where OpenGL can only be Mesa's software rasterizer,
  /// unless `GSK_RENDERER` already names a renderer. Call it first thing, before any other
  /// thread runs (it sets an environment variable) and before GTK starts.
  ///
  /// GTK 4.8 draws with OpenGL whenever it can make a context, llvmpipe included, and llvmpipe
  /// compiles a shader for each kind of thing a window draws before its first frame: a picker
  /// of icons, rounded lists and text opened in 1.4 times the time of a bare window, and in
  /// 0.9 times with cairo (docs/benchmarks.md). GTK 4.14 and later no longer take OpenGL first
  /// on llvmpipe either (`gsk_renderer_new_for_surface` keeps it there as a fallback); GTK 4.8
  /// can only be told through `GSK_RENDERER`, before it starts, and so without a context to ask
  /// which OpenGL it would get.
  ///
  /// Software only, and known without OpenGL: `LIBGL_ALWAYS_SOFTWARE` asks for it, or the machine
  /// has no GPU a renderer could use: no DRM render node (`/dev/dri/renderD*`, which every Mesa
  /// hardware driver needs) and no NVIDIA device (its own driver, which may come without one).
  public static func avoidSoftwareOpenGL(environment: [String: String]) {
    guard (environment["GSK_RENDERER"] ?? "").isEmpty else { return }
    let asked =
      environment["LIBGL_ALWAYS_SOFTWARE"].map { !$0.isEmpty && $0 != "0" && $0 != "false" } ?? false
    guard asked || !hasGPU() else { return }
    _ = g_setenv("GSK_RENDERER", "cairo", 0)
  }

  private static func hasGPU() -> Bool {
    if g_file_test("/dev/nvidiactl", G_FILE_TEST_EXISTS) != 0 { return true }
    guard let directory = g_dir_open("/dev/dri", 0, nil) else { return false }
    defer { g_dir_close(directory) }
    while let name = g_dir_read_name(directory) {
      if g_str_has_prefix(name, "renderD") != 0 { return true }
    }
    return false
  }
}
