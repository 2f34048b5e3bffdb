import ShareCore

/// `xdg-share validate PATH...`: every problem of every bundle, one line each.
enum ValidateCommand {
  static func run(paths: [FilePath], context: ToolContext) -> ExitCode {
    let loader = BundleLoader(languages: Localization.preferredLanguages(environment: context.environment))
    var valid = true
    for path in paths {
      guard var bundle = path.string else {
        context.output.line(Wording.describe(.pathNotUTF8(path)))
        valid = false
        continue
      }
      if bundle.hasSuffix("/Info.plist") || bundle == "Info.plist" {
        bundle = String(bundle.dropLast("Info.plist".count))
        if bundle.isEmpty { bundle = "." }
      }
      let outcome = loader.load(bundleAt: bundle)
      for problem in outcome.problems.sorted(by: { $0.severity > $1.severity }) {
        context.output.line(Diagnostics.line(for: problem))
      }
      if outcome.service == nil { valid = false }
    }
    return valid ? .success : .failure
  }
}
