internal import CDBus

/// A message as it travels on the wire (the D-Bus specification's marshalling), for the fuzz
/// targets, which hand the decoder what a peer could send without a bus in between.
extension DBusMessage {
  /// The message in `bytes`, as libdbus reads it off a connection, validated in full; a
  /// ``DBusFailure`` when libdbus refuses it.
  package static func demarshal(_ bytes: [UInt8]) throws(DBusFailure) -> DBusMessage {
    // libdbus aborts the process on a null buffer (a failed precondition), which empty gives.
    guard !bytes.isEmpty else { throw notAMessage }
    let raw = try withDBusError { error in
      bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { text in
          dbus_message_demarshal(text.baseAddress, Int32(clamping: text.count), error)
        }
      }
    }
    guard let raw else { throw notAMessage }
    return DBusMessage(taking: raw)
  }

  private static var notAMessage: DBusFailure {
    DBusFailure(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "not a D-Bus message")
  }

  /// The message's bytes, as libdbus writes them to a connection; empty when it runs out of memory.
  /// A message not yet sent gets serial 1, as a connection would give it one.
  package func marshal() -> [UInt8] {
    if dbus_message_get_serial(raw) == 0 { dbus_message_set_serial(raw, 1) }
    var pointer: UnsafeMutablePointer<CChar>? = nil
    var count: Int32 = 0
    guard dbus_message_marshal(raw, &pointer, &count) != 0, let pointer else { return [] }
    defer { dbus_free(pointer) }
    return Array(UnsafeRawBufferPointer(start: pointer, count: Int(count)))
  }
}

/// A message's body read from its marshalled bytes, value by value, as the D-Bus specification
/// lays it out (each value aligned to its size from the message's start, in the message's byte
/// order).
///
/// Why: libdbus's iterator costs some thousand instructions a step, and a `QueryItems` of a
/// thousand items takes ten steps an item; the bytes cost a bounds check. libdbus has validated
/// every message it hands over, but each read here is checked anyway and answers nil past the
/// end: a caller falls back to ``DBusCursor`` for anything it does not expect.
package struct DBusBodyReader {
  // The reads are inlinable: they run ten times an item, in the service's module, and a call
  // across modules for each cost more than the read itself.

  /// The whole message: alignment counts from its first byte.
  package let bytes: [UInt8]
  @usableFromInline let bigEndian: Bool
  /// Where the next read starts.
  @usableFromInline var position: Int
  package var offset: Int { position }

  /// The reader at the start of `message`'s body; nil when the message cannot be marshalled or
  /// its header is not as the specification says.
  package init?(_ message: DBusMessage) {
    let bytes = message.marshal()
    // The fixed header: byte order, type, flags, version, body length, serial, then the length
    // of the header fields' array, whose elements (8-aligned) start at 16.
    guard bytes.count >= 16, bytes[0] == UInt8(ascii: "l") || bytes[0] == UInt8(ascii: "B") else {
      return nil
    }
    self.bytes = bytes
    bigEndian = bytes[0] == UInt8(ascii: "B")
    position = 4
    guard let bodyLength = uint32() else { return nil }
    position = 12
    guard let fieldsLength = uint32() else { return nil }
    position = 16 + fieldsLength
    guard align(8), position + bodyLength == bytes.count else { return nil }
  }

  /// Skips the padding up to the next multiple of `alignment` (a power of two); false past the end.
  @inlinable package mutating func align(_ alignment: Int) -> Bool {
    let aligned = (position + alignment - 1) & ~(alignment - 1)
    guard aligned <= bytes.count else { return false }
    position = aligned
    return true
  }

  /// A `u`, an array's length, a string's length (aligned to 4).
  @inlinable package mutating func uint32() -> Int? {
    guard align(4), position + 4 <= bytes.count else { return nil }
    let (b0, b1, b2, b3) = (
      UInt32(bytes[position]), UInt32(bytes[position + 1]), UInt32(bytes[position + 2]),
      UInt32(bytes[position + 3])
    )
    position += 4
    return Int(bigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0)
  }

  /// One byte (a signature's length).
  @inlinable package mutating func byte() -> UInt8? {
    guard position < bytes.count else { return nil }
    defer { position += 1 }
    return bytes[position]
  }

  /// The next `count` bytes' place, moving past them; nil past the end.
  @inlinable package mutating func take(_ count: Int) -> Range<Int>? {
    guard count >= 0, count <= bytes.count - position else { return nil }
    defer { position += count }
    return position..<position + count
  }

  /// A string or a signature's bytes, without its NUL: `s` (a 32-bit length) when `short` is
  /// false, `g` (an 8-bit length) when it is true.
  @inlinable package mutating func string(short: Bool = false) -> Range<Int>? {
    guard let count = short ? byte().map(Int.init) : uint32(), let range = take(count),
      let end = byte(), end == 0
    else { return nil }
    return range
  }
}
