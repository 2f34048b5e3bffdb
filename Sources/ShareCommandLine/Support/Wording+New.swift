import ShareCore

/// The words of `new`.
extension Wording {
  /// What `new` could not do, as data.
  enum NewProblem: Equatable {
    /// A file or folder of this name is in the way.
    case exists(String)
    case cannotRead(String, reason: String)
    case cannotWrite(String, reason: String)
    /// No `--sharekit-url`, and the repository xdg-share was built from (this folder) is gone.
    case noShareKitRepository(String)
    /// Several `.entitlements` files beside the Info.plist, none named after the target.
    case severalEntitlements(String, names: [String])
  }

  static func describe(_ problem: NewProblem) -> String {
    switch problem {
    case .exists(let path): "\(path) exists already; remove it, or choose another NAME"
    case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
    case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
    case .noShareKitRepository(let folder):
      "cannot tell where ShareKit's repository is (xdg-share was built from \(folder), which is not there any more); give it with --sharekit-url URL"
    case .severalEntitlements(let source, let names):
      "cannot tell which of \(names.joined(separator: ", ")) beside \(source) is the target's entitlements; give it with --entitlements FILE"
    }
  }

  static func nothingWritten(_ bundle: String) -> String { "\(bundle) was not written" }

  /// A reference to a build variable `--from-xcode` could not expand, as a diagnostic line:
  /// `Info.plist:12:5: KEY: …`, an error in a key xdg-share reads, a warning elsewhere.
  static func describe(_ finding: XcodePort.Finding, file: String, position: TextPosition?) -> String {
    let place = file + (position.map { ":\($0.line):\($0.column)" } ?? "")
    let key = finding.path.last { Int($0) == nil } ?? finding.path[0]
    let variable = finding.unresolved.variable
    let what =
      switch finding.unresolved {
      case .undefined: "$(\(variable)) is not defined"
      case .unknownModifier(_, let modifier):
        "$(\(variable):\(modifier)): unknown modifier '\(modifier)' (expected rfc1034identifier, c99extidentifier, identifier, lower, upper or default=VALUE)"
      case .cycle: "$(\(variable)) refers to itself"
      }
    let consequence =
      switch (finding.isError, finding.unresolved) {
      case (false, _): "; left as written, as xdg-share does not read this key"
      case (true, .unknownModifier): ""
      case (true, _): "; give it a value with --define \(variable)=VALUE"
      }
    return "\(place): \(key): \(finding.isError ? "" : "warning: ")\(what)\(consequence)"
  }

  static func wroteTemplate(bundle: String, id: String, program: String, language: String) -> [String] {
    [
      "Wrote \(bundle) (\(id)): Info.plist and \(program), a program in \(language).",
      "Next: xdg-share install \(bundle), then xdg-share --service \(id) -- FILE",
    ]
  }

  static func wroteSwiftPackage(
    bundle: String, id: String, package: String, url: String, version: String, build: String
  ) -> [String] {
    [
      "Wrote \(bundle) (\(id)) and \(package), a Swift package using ShareKit \(version) or later from \(url).",
      "Build it into the bundle (the first build takes a few minutes):",
      "  \(build)",
    ]
  }

  /// What `--from-xcode` made of the target's `.entitlements` file (`source`): the keys written
  /// into `written`, then each key left out, one a line.
  static func portedEntitlements(
    _ written: String, from source: String, kept: [String], leftOut: [(key: String, alwaysSo: Bool)]
  ) -> [String] {
    var lines = [
      kept.isEmpty
        ? "Nothing in \(source) carries over, so the service has no entitlements (no \(EntitlementKey.fileName))."
        : "Wrote \(written) from \(source): \(kept.joined(separator: ", "))."
    ]
    for (key, alwaysSo) in leftOut {
      lines.append(
        "  \(key): left out, as "
          + (alwaysSo ? "every service is sandboxed here and reads its items" : "it has no meaning here"))
    }
    return lines
  }

  static func ported(bundle: String, id: String, from source: String, program: String?) -> [String] {
    var lines = ["Wrote \(bundle) (\(id)) from \(source)."]
    if let program {
      lines.append(
        "Next: replace \(bundle)/\(program), a stub that cancels every request (\"not ported yet\"), with the service's program; xdg-share new --shell, --python or --swift write examples."
      )
    }
    return lines
  }
}
