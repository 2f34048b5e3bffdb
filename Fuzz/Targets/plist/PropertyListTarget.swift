import FuzzSupport
import ShareCore

/// The property-list reader (XML, binary, old-style), and the writer's promise that the reader
/// reads back exactly the value written.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPropertyList(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let document: PropertyListDocument
  do {
    document = try PropertyListReader.read(inputBytes(data, size))
  } catch {
    _ = Diagnostics.message(for: .malformedPropertyList(error))
    return 0
  }
  let xml = PropertyListWriter.xml(document.value, positions: document.positions)
  do {
    let again = try PropertyListReader.read(Array(xml.utf8))
    expect(same(again.value, document.value), "the written XML reads back differently:\n\(xml)")
  } catch {
    expect(false, "the written XML does not read back: \(error)\n\(xml)")
  }
  return 0
}

/// Whether `a`, read back from the XML written for `b`, is `b`: a NaN real equals a NaN real (it
/// does not under `==`), and a date is compared at what XML holds, whole seconds (the writer
/// rounds down, and writes the reference date for one it cannot hold; found by this target: a
/// binary list's date 2.5 s after the reference date read back as 2 s).
func same(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
  switch (a, b) {
  case (.real(let x), .real(let y)):
    return x == y || (x.isNaN && y.isNaN)
  case (.date(let x), .date(let y)):
    return x == (y.isFinite && abs(y) < 1e15 ? y.rounded(.down) : 0)
  case (.array(let x), .array(let y)):
    return x.count == y.count && zip(x, y).allSatisfy(same)
  case (.dictionary(let x), .dictionary(let y)):
    return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
  default:
    return a == b
  }
}
