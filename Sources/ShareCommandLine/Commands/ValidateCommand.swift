import ShareCore
import ShareHost

/// `xdg-share validate PATH...`: every problem of every bundle, one line each.
enum ValidateCommand {
  static func run(paths: [FilePath], context: ToolContext) -> ExitCode {
    // By bytes: a bundle whose folder name is not UTF-8 is checked like any other, and named in
    // its problems with escapes (FilePath.text).
    let loader = BundleLoader.system(environment: context.environment)
    var valid = true
    for path in paths {
      var bundle = path.bytes
      let plist = Array("Info.plist".utf8)
      if bundle == plist || bundle.reversed().starts(with: ("/" + "Info.plist").utf8.reversed()) {
        bundle.removeLast(plist.count)
        if bundle.isEmpty { bundle = [UInt8(ascii: ".")] }
      }
      let outcome = loader.load(bundleAt: FilePath(bytes: bundle))
      let problems = outcome.problems + TypeLint.warnings(for: outcome)
      for problem in problems.sorted(by: { $0.severity > $1.severity }) {
        context.output.line(Diagnostics.line(for: problem))
      }
      if outcome.service == nil { valid = false }
    }
    return valid ? .success : .failure
  }
}
