// xdg-share-guard: runs one request's program so that whatever it starts ends with its host, even
// a host killed with SIGKILL (see RequestGuard in SharePOSIX and docs/reliability.md).
//
//   xdg-share-guard --parent PID --marker NAME=VALUE [--grace SECONDS] [--report-fd N]
//                   [--pass-fd N]... -- PROGRAM [ARG...]
//
// Started by the host (ShareHost's PluginRunner), never by hand. Nothing may start a thread
// before RequestGuard.start: it blocks the signals the guard waits for.
import SharePOSIX

/// The command line, or nil when it cannot be understood.
func parse(_ arguments: [[UInt8]]) -> RequestGuard.Options? {
  var parent: Int32?
  var marker: [UInt8]?
  var grace = 2.0
  var report: Int32?
  var passed: [Int32] = []
  var index = 0
  func value() -> String? {
    index += 1
    return index < arguments.count ? String(decoding: arguments[index], as: UTF8.self) : nil
  }
  while index < arguments.count {
    switch String(decoding: arguments[index], as: UTF8.self) {
    case "--parent": parent = value().flatMap { Int32($0) }
    case "--marker":
      index += 1
      marker = index < arguments.count ? arguments[index] : nil
    case "--grace":
      guard let seconds = value().flatMap({ Double($0) }), seconds >= 0 else { return nil }
      grace = seconds
    case "--report-fd":
      guard let number = value().flatMap({ Int32($0) }) else { return nil }
      report = number
    case "--pass-fd":
      guard let number = value().flatMap({ Int32($0) }), number > 2 else { return nil }
      passed.append(number)
    case "--":
      let program = Array(arguments[(index + 1)...])
      guard let parent, let marker, marker.contains(UInt8(ascii: "=")), !program.isEmpty else { return nil }
      return RequestGuard.Options(
        parent: parent, marker: marker, grace: grace, reportDescriptor: report, passedDescriptors: passed,
        arguments: program)
    default: return nil
    }
    index += 1
  }
  return nil
}

guard let options = parse(CurrentProcess.arguments) else {
  CurrentProcess.writeToStandardError(
    "usage: xdg-share-guard --parent PID --marker NAME=VALUE [--grace SECONDS] [--report-fd N]"
      + " -- PROGRAM [ARG...]\n")
  CurrentProcess.exit(2)
}
do throws(SystemError) {
  try RequestGuard.start(options).superviseToEnd()
} catch {
  // With a report descriptor the host says it, as it would without a guard.
  if options.reportDescriptor != nil { CurrentProcess.exit(127) }
  let program = String(decoding: options.arguments[0], as: UTF8.self)
  CurrentProcess.writeToStandardError("xdg-share-guard: cannot start \(program): \(error.reason)\n")
  CurrentProcess.exit(127)
}
