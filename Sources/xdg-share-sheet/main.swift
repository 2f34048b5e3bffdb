// xdg-share-sheet: the native share picker; SheetApp says what it does.
import Dispatch
import FoundationEssentials
import SharePOSIX
import ShareSheet

// Before any thread exists: SIGTERM (D-Bus Cancel, the session ending) and Ctrl-C must cancel
// the share the sheet runs, whose program leads a process group of its own, not orphan it.
SignalWatcher.install()
SignalWatcher.onTermination { signal in
  DispatchQueue.main.async { MainActor.assumeIsolated { SheetApp.terminate(signal: signal) } }
}

// Arguments as bytes: a file name that is not UTF-8 reaches the service unchanged.
CurrentProcess.exit(
  SheetApp.run(arguments: CurrentProcess.arguments, environment: ProcessInfo.processInfo.environment))
