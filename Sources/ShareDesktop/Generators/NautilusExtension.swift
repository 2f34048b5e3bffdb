/// Nautilus: one nautilus-python extension, `nautilus-python/extensions/xdg-share.py`.
///
/// Nautilus 43 has no declarative format, so the extension asks the xdg-share D-Bus service which
/// services accept the selection (`QueryItems`, the exact rules) each time the menu opens. The
/// submenu starts with "Share…", which opens the share sheet (`xdg-share --picker -- <paths>`),
/// and lists those services (`xdg-share --service <id> -- <paths>`); each starts with an argument
/// list, never a shell, the paths as bytes. When the bus call fails, "Share…" stands alone and the
/// menu still works. Only the path of xdg-share and the label are baked in, as ASCII Python
/// literals; the service names come from the bus at run time.
enum NautilusExtension {
  static let path = "nautilus-python/extensions/xdg-share.py"

  static func file(executable: String) -> GeneratedFile {
    GeneratedFile(path: path, contents: source(executable: executable), family: .nautilus)
  }

  static func source(executable: String) -> String {
    header()
      + """
      # The Share submenu of Nautilus (nautilus-python 4): "Share..." opens the share sheet,
      # `xdg-share --picker -- PATHS...`; the services come from the xdg-share D-Bus service
      # each time the menu opens, so its rules decide, and each runs
      # `xdg-share --service ID -- PATHS...`. Nothing runs through a shell.
      import os
      import re
      import subprocess

      import gi

      gi.require_version("Nautilus", "4.0")
      from gi.repository import Gio, GLib, GObject, Nautilus  # noqa: E402

      XDG_SHARE = \(pythonStringLiteral(executable))
      PICKER_LABEL = \(pythonStringLiteral(Picker.label))
      BUS_NAME = \(pythonStringLiteral(FileManagerIntegration.busName))
      OBJECT_PATH = "/org/xdgshare/Share"
      INTERFACE = "org.xdgshare.Share1"
      # The menu waits for the answer; D-Bus activation of the service takes well under this.
      TIMEOUT_MS = 3000
      SAFE_ID = re.compile(r"[A-Za-z0-9._-]+")


      def query_services(paths):
          \"""The services that accept `paths` (bytes) together: a list of dicts with id, name, icon.\"""
          bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
          items = [{"path": GLib.Variant("ay", path)} for path in paths]
          reply = bus.call_sync(
              BUS_NAME, OBJECT_PATH, INTERFACE, "QueryItems",
              GLib.Variant("(aa{sv}a{sv})", (items, {})), GLib.VariantType("(aa{sv})"),
              Gio.DBusCallFlags.NONE, TIMEOUT_MS, None)
          return reply.unpack()[0]


      def run(_item, options, paths):
          \"""Starts `xdg-share OPTIONS -- PATHS...`, the paths as bytes, in a session of its own.\"""
          try:
              subprocess.Popen(
                  [XDG_SHARE, *options, "--", *paths],
                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                  close_fds=True, start_new_session=True)
          except OSError:
              pass


      class XdgShareMenuProvider(GObject.GObject, Nautilus.MenuProvider):
          def get_file_items(self, *args):
              # Nautilus 43 passes (files); older versions (window, files).
              paths = []
              for info in args[-1]:
                  location = info.get_location()
                  path = location.get_path() if location is not None else None
                  if path is None:
                      return []  # Not a local file: nothing to share by path.
                  paths.append(os.fsencode(path))
              if not paths:
                  return []
              submenu = Nautilus.Menu()
              picker = Nautilus.MenuItem(name="XdgShare::picker", label=PICKER_LABEL, tip="", icon="")
              picker.connect("activate", run, ["--picker"], list(paths))
              submenu.append_item(picker)
              try:
                  services = query_services(paths)
              except Exception:  # No bus, no service, a timeout: the share sheet alone.
                  services = []
              for service in services:
                  service_id = service.get("id")
                  if not isinstance(service_id, str) or not SAFE_ID.fullmatch(service_id):
                      continue
                  item = Nautilus.MenuItem(
                      name="XdgShare::service::" + service_id,
                      label=str(service.get("name") or service_id),
                      tip=str(service.get("description") or ""),
                      icon=str(service.get("icon") or ""))
                  item.connect("activate", run, ["--service", service_id], list(paths))
                  submenu.append_item(item)
              top = Nautilus.MenuItem(name="XdgShare::Share", label="Share", tip="", icon="")
              top.set_submenu(submenu)
              return [top]

      """
  }
}
