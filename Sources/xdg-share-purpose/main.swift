// xdg-share-purpose: one KDE Purpose job (Dolphin's, Okular's, Gwenview's, Spectacle's Share
// menus), started through the `#!` line of the plugin `xdg-share register` writes for each
// service (SharePurpose's PurposeJob):
//
//   xdg-share-purpose SERVICE-ID|--picker MAIN --server SOCKET --pluginType Export|ShareUrl --pluginPath MAIN
import SharePOSIX
import SharePurpose

// Before any thread exists: the session ending must stop the share's program too.
SignalWatcher.install()
CurrentProcess.exit(
  PurposeJob.run(arguments: CurrentProcess.arguments, environment: CurrentProcess.environment))
