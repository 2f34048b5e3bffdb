// The floors of bus-bench's footprint figures: the least a Swift program on this machine must be
// to do what the share service and `xdg-share list` cannot do without.
//
// - `memory-floor FILE` (resident memory): owns a name on the session bus with libdbus and answers
//   `Peer.Ping`, has GIO guess the content type of a file by its name and first bytes, and uses
//   FoundationEssentials' `JSONEncoder` and `PropertyListDecoder` once, as the service does.
// - `memory-floor --guess FILE` (start-up): links the same C libraries as `xdg-share`, has GIO
//   guess the file's type, prints it and exits, before anything of Foundation runs.
//
// None of xdg-share's modules: they are what is being measured, so this one program calls the C
// libraries itself. It serves until the bus closes or it is stopped.

import CDBus
import CGLib
import CSecret
import FoundationEssentials
import Glibc

let busName = "org.xdgshare.MemoryFloor"

func fail(_ message: String) -> Never {
  let line = Array("memory-floor: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(1)
}

let arguments = CommandLine.arguments
let guessOnly = arguments.count == 3 && arguments[1] == "--guess"
guard arguments.count == 2 || guessOnly else { fail("usage: memory-floor [--guess] FILE") }
let path = arguments[arguments.count - 1]

// The service's detection: the name, then the first 4 KiB.
var sniffed = [UInt8](repeating: 0, count: 4096)
let descriptor = open(path, O_RDONLY | O_CLOEXEC)
let count = descriptor >= 0 ? read(descriptor, &sniffed, sniffed.count) : 0
if descriptor >= 0 { close(descriptor) }
let guessed = path.withCString { name in
  sniffed.withUnsafeBufferPointer { g_content_type_guess(name, $0.baseAddress, gsize(max(0, count)), nil) }
}
guard let guessed else { fail("GIO guessed nothing for \(path)") }
if guessOnly {
  // Printed so that the work cannot be skipped. libsecret is linked, as in `xdg-share`, not called.
  let line = Array("\(String(cString: guessed))\n".utf8)
  _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
  exit(0)
}
g_free(guessed)

// What the service does with Foundation: a property list read, a JSON answer written.
struct Manifest: Codable {
  var CFBundleIdentifier: String
  var CFBundleExecutable: String
}
let plist = Data(
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>org.example.floor</string>
  <key>CFBundleExecutable</key><string>share</string></dict></plist>
  """.utf8)
guard let manifest = try? PropertyListDecoder().decode(Manifest.self, from: plist),
  let json = try? JSONEncoder().encode(manifest), !json.isEmpty
else { fail("FoundationEssentials could not read and write a manifest") }

var error = DBusError()
dbus_error_init(&error)
guard let connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error) else {
  fail(error.message.map { String(cString: $0) } ?? "no session bus")
}
dbus_connection_set_exit_on_disconnect(connection, 0)
guard dbus_bus_request_name(connection, busName, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &error) == 1 else {
  fail("could not own \(busName)")
}
// libdbus answers Peer.Ping while it dispatches; nothing else is served.
while dbus_connection_read_write_dispatch(connection, -1) != 0 {}
