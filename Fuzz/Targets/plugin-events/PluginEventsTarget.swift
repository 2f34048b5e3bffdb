import FoundationEssentials
import FuzzSupport
import ShareHost
import ShareProtocol

/// The host's reading of a plugin's standard output: the bytes arrive in chunks of sizes the
/// input chooses (its first byte), are split into lines, and each line is decoded as an event.
/// The lines must be the input's non-blank lines whatever the chunks; an event that decodes
/// must encode to JSON that decodes to it again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPluginEvents(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(inputBytes(data, size))
  let chunkSize = input.int(in: 1...64)
  let stream = input.rest()
  var reader = EventReader()
  var lines: [[UInt8]] = []
  var start = 0
  while start < stream.count {
    let end = min(start + chunkSize, stream.count)
    lines += reader.lines(appending: Array(stream[start..<end]))
    start = end
  }
  let pieces = stream.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
  let expected = pieces.dropLast().filter { !isBlank($0) }.map(Array.init)
  expect(lines == expected, "the lines differ from the input's")
  expect(reader.remainder() == (isBlank(pieces.last ?? []) ? nil : Array(pieces.last ?? [])), "remainder")

  for line in lines {
    let decoded = PluginRunner.decode(line)
    if case .failure(let problem) = decoded { _ = problem.message }
    guard case .success(let event) = decoded else { continue }
    // `{"progress": null}` decodes to an event that encodes as `{}`; ShareKit never writes it.
    if case .progress(nil, nil) = event { continue }
    guard let encoded = try? JSONEncoder().encode(event) else {
      expect(false, "a decoded event does not encode: \(event)")
      continue
    }
    let again = PluginRunner.decode(Array(encoded))
    expect(again == .success(event), "\(event) encodes to \(String(decoding: encoded, as: UTF8.self))")
  }
  return 0
}

private func isBlank(_ line: some Collection<UInt8>) -> Bool {
  line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
}
