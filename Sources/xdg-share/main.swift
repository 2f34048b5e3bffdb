import ShareCommandLine
import ShareDaemon
import ShareHost
import SharePOSIX

// Before any thread exists: Ctrl-C during a share must stop the plugin's process group too.
SignalWatcher.install()

// `xdg-share daemon`: the command line parses it; the service is linked here, not into it.
func serve(environment: [String: String], idleTimeout: Double) -> Result<Bool, DaemonLauncher.Failure> {
  let service: ShareDaemon
  do throws(ShareDaemon.StartError) {
    service = try ShareDaemon(
      configuration: .init(
        environment: environment, idleTimeout: idleTimeout,
        secrets: KeyringSecretStore(environment: environment)))
  } catch {
    switch error {
    case .noBus(let reason): return .failure(.noBus(reason))
    case .nameTaken: return .failure(.nameTaken(ShareDaemon.busName))
    case .system(let reason): return .failure(.system(reason))
    }
  }
  // SIGTERM (a session ending) lets the shares in flight end with a Response.
  let stop = service.stopHandle
  SignalWatcher.onTermination { _ in stop.stop() }
  defer { SignalWatcher.onTermination(nil) }
  return .success(service.run() == 0)
}
let daemon = DaemonLauncher(serve: serve)

let environment = CurrentProcess.environment
CurrentProcess.exit(
  XDGShareTool.run(
    arguments: CurrentProcess.arguments, environment: environment, daemon: daemon,
    secrets: KeyringSecretStore(environment: environment)))
