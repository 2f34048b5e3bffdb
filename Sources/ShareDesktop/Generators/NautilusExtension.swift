/// Nautilus: one nautilus-python extension, `nautilus-python/extensions/xdg-share.py`.
///
/// Nautilus 43 has no declarative format, so the extension asks the xdg-share D-Bus service which
/// services accept the selection (`QueryItems`, the exact rules) each time the menu opens, and
/// starts `xdg-share --service <id> -- <paths>` with an argument list, never a shell. When the bus
/// call fails it offers nothing rather than break the menu. Only the path of xdg-share is baked
/// in, as an ASCII Python literal; the service names come from the bus at run time.
enum NautilusExtension {
  static let path = "nautilus-python/extensions/xdg-share.py"

  static func file(executable: String) -> GeneratedFile {
    GeneratedFile(path: path, contents: source(executable: executable), family: .nautilus)
  }

  static func source(executable: String) -> String {
    header()
      + """
      # The Share submenu of Nautilus (nautilus-python 4): the services come from the xdg-share
      # D-Bus service each time the menu opens, so its rules decide, and a click runs
      # `xdg-share --service ID -- PATHS...` without a shell.
      import os
      import re
      import subprocess

      import gi

      gi.require_version("Nautilus", "4.0")
      from gi.repository import Gio, GLib, GObject, Nautilus  # noqa: E402

      XDG_SHARE = \(pythonStringLiteral(executable))
      BUS_NAME = \(pythonStringLiteral(FileManagerIntegration.busName))
      OBJECT_PATH = "/org/xdgshare/Share"
      INTERFACE = "org.xdgshare.Share1"
      # The menu waits for the answer; D-Bus activation of the service takes well under this.
      TIMEOUT_MS = 3000
      SAFE_ID = re.compile(r"[A-Za-z0-9._-]+")


      def query_services(paths):
          \"""The services that accept `paths` together: a list of dicts with id, name, icon.\"""
          bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
          items = [{"path": GLib.Variant("ay", os.fsencode(path))} for path in paths]
          reply = bus.call_sync(
              BUS_NAME, OBJECT_PATH, INTERFACE, "QueryItems",
              GLib.Variant("(aa{sv}a{sv})", (items, {})), GLib.VariantType("(aa{sv})"),
              Gio.DBusCallFlags.NONE, TIMEOUT_MS, None)
          return reply.unpack()[0]


      def share(_item, service_id, paths):
          try:
              subprocess.Popen(
                  [XDG_SHARE, "--service", service_id, "--", *paths],
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
                  paths.append(path)
              if not paths:
                  return []
              try:
                  services = query_services(paths)
              except Exception:  # No bus, no service, a timeout: offer nothing.
                  return []
              submenu = Nautilus.Menu()
              for service in services:
                  service_id = service.get("id")
                  if not isinstance(service_id, str) or not SAFE_ID.fullmatch(service_id):
                      continue
                  item = Nautilus.MenuItem(
                      name="XdgShare::service::" + service_id,
                      label=str(service.get("name") or service_id),
                      tip=str(service.get("description") or ""),
                      icon=str(service.get("icon") or ""))
                  item.connect("activate", share, service_id, list(paths))
                  submenu.append_item(item)
              if not submenu.get_items():
                  return []
              top = Nautilus.MenuItem(name="XdgShare::Share", label="Share", tip="", icon="")
              top.set_submenu(submenu)
              return [top]

      """
  }
}
