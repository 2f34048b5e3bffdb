import FuzzSupport
public import ShareDBus

/// Equality where a NaN double equals a NaN double (it does not under `==`).
public func same(_ a: DBusValue, _ b: DBusValue) -> Bool {
  switch (a, b) {
  case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
  case (.array(let s, let x), .array(let t, let y)): s == t && same(x, y)
  case (.structure(let x), .structure(let y)): same(x, y)
  case (.variant(let x), .variant(let y)): same(x, y)
  case (.dictionary(let k, let v, let x), .dictionary(let l, let w, let y)):
    k == l && v == w && x.count == y.count
      && zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
  default: a == b
  }
}

public func same(_ a: [DBusValue], _ b: [DBusValue]) -> Bool {
  a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
}

/// `values` sent in a method call and read back off the wire as the service reads them.
public func wireRoundTrip(_ values: [DBusValue]) -> [DBusValue]? {
  let call = DBusMessage.methodCall(
    destination: "org.xdgshare.Share", path: "/org/xdgshare/Share", interface: "org.xdgshare.Share1",
    member: "Share")
  call.append(values)
  let bytes = call.marshal()
  expect(!bytes.isEmpty, "a message did not marshal")
  do {
    return try DBusMessage.demarshal(bytes).arguments()
  } catch {
    expect(false, "libdbus refuses a message it wrote: \(error)")
    return nil
  }
}
