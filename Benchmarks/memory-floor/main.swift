// The memory floor of bus-bench: the least resident memory of a Swift program on this machine
// that does what the share service cannot do without. It owns a name on the session bus with
// libdbus and answers `Peer.Ping`, and has GIO guess the content type of a file by its name and
// first bytes. No Foundation, and none of xdg-share's modules: they are what is being measured,
// so this one program calls the C libraries itself.
//
// Usage: memory-floor FILE (with DBUS_SESSION_BUS_ADDRESS set); it serves until the bus closes
// or it is stopped.

import CDBus
import CGLib
import Glibc

let busName = "org.xdgshare.MemoryFloor"

func fail(_ message: String) -> Never {
  let line = Array("memory-floor: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(1)
}

guard CommandLine.arguments.count == 2 else { fail("usage: memory-floor FILE") }
let path = CommandLine.arguments[1]

// The service's detection: the name, then the first 4 KiB.
var sniffed = [UInt8](repeating: 0, count: 4096)
let descriptor = open(path, O_RDONLY | O_CLOEXEC)
let count = descriptor >= 0 ? read(descriptor, &sniffed, sniffed.count) : 0
if descriptor >= 0 { close(descriptor) }
let guessed = path.withCString { name in
  sniffed.withUnsafeBufferPointer { g_content_type_guess(name, $0.baseAddress, gsize(max(0, count)), nil) }
}
guard let guessed else { fail("GIO guessed nothing for \(path)") }
g_free(guessed)

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
