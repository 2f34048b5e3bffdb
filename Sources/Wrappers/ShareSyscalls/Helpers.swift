// What SharePOSIX and ShareKit both need on top of the trampolines: each was written twice
// before, once in either module, since ShareKit does not depend on SharePOSIX.

/// The bytes of the NUL-terminated string at `pointer`, without the NUL: how a C string a
/// library hands back (a path from GIO or GTK) becomes bytes, which a name that is not UTF-8
/// survives. The corresponding C function is `strlen`.
package func cStringBytes(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
  Array(UnsafeRawBufferPointer(start: pointer, count: system_strlen(pointer)))
}

/// Calls `body` with a NUL-terminated copy of `bytes`: how a path, which is bytes, reaches a C
/// function.
package func withNULTerminated<T, E: Error>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) throws(E) -> T)
  throws(E) -> T
{
  // On the stack when it is small: the service looks at a thousand paths in one call.
  let result: Result<T, E> = withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) {
    copy in
    bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(copy).copyMemory(from: $0) }
    copy[bytes.count] = 0
    return Result { () throws(E) -> T in try body(copy.baseAddress!) }
  }
  return try result.get()
}

/// This process's environment, read from `environ` byte for byte: `ProcessInfo.environment`
/// would repair a `HOME` or `XDG_DATA_HOME` that is not UTF-8 into a folder that does not exist,
/// and sets up far more than this on first use.
package enum ProcessEnvironment {
  /// Every `NAME=VALUE` entry, byte for byte and in order.
  package static var entries: [[UInt8]] {
    var entries: [[UInt8]] = []
    var entry = system_environ
    while let pointer = entry.pointee {
      entries.append(cStringBytes(pointer))
      entry += 1
    }
    return entries
  }

  /// Each value as bytes, by name; a name given twice keeps its first value, as `getenv` does.
  package static var bytes: [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for entry in entries {
      if let equals = entry.firstIndex(of: UInt8(ascii: "=")) {
        let name = String(decoding: entry[..<equals], as: UTF8.self)
        if result[name] == nil { result[name] = Array(entry[(equals + 1)...]) }
      }
    }
    return result
  }

  /// `environment` as bytes: a value that is the lossy decoding of the `inherited` value of that
  /// name (as `ProcessInfo.environment` gives one that is not UTF-8) is taken as those bytes;
  /// any other value as its UTF-8.
  package static func bytes(restoring environment: [String: String], inherited: [String: [UInt8]])
    -> [String: [UInt8]]
  {
    var result: [String: [UInt8]] = [:]
    for (name, value) in environment {
      if let original = inherited[name], String(validating: original, as: UTF8.self) == nil,
        String(decoding: original, as: UTF8.self) == value
      {
        result[name] = original
      } else {
        result[name] = Array(value.utf8)
      }
    }
    return result
  }
}

/// Reading and writing a descriptor number whole, for the modules that hold one without a
/// SharePOSIX `FileDescriptor` (ShareKit's standard streams and files).
package enum DescriptorIO {
  /// Reads `descriptor` until the end of its file, `chunkSize` bytes a read; a read interrupted by
  /// a signal is made again. The corresponding C function is `read`.
  package static func readToEnd(_ descriptor: Int32, chunkSize: Int = 65536) -> Result<[UInt8], Errno> {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while true {
      let read = valueOrErrno {
        chunk.withUnsafeMutableBytes { system_read(descriptor, $0.baseAddress, $0.count) }
      }
      switch read {
      case .success(0): return .success(result)
      case .success(let count): result += chunk[..<count]
      case .failure(let error): return .failure(error)
      }
    }
  }

  /// Writes all of `bytes` to `descriptor`, in as many writes as it takes; a write interrupted by
  /// a signal is made again. The corresponding C function is `write`.
  package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Result<Void, Errno> {
    var offset = 0
    while offset < bytes.count {
      let written = valueOrErrno {
        system_write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      }
      switch written {
      // Not for a descriptor that can be written: it would be written again for ever.
      case .success(0): return .failure(Errno(rawValue: _EIO))
      case .success(let count): offset += count
      case .failure(let error): return .failure(error)
      }
    }
    return .success(())
  }

  /// ``writeAll(_:to:)-(UnsafeRawBufferPointer,_)`` for an array.
  package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Result<Void, Errno> {
    bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
  }
}
