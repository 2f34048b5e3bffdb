// xdg-share-webshare: the native-messaging host org.xdgshare.webshare, which the browser
// extension in data/browser-extension/ talks to when a page calls navigator.share (ShareWeb's
// WebShareHost). The browser starts it:
//
//   xdg-share-webshare chrome-extension://ID/                      (Chromium, Google Chrome)
//   xdg-share-webshare MANIFEST webshare@xdgshare.org               (Firefox)
import SharePOSIX
import ShareWeb

// Before any thread exists: the browser ending the host must close the sheet.
SignalWatcher.install()
CurrentProcess.exit(
  WebShareHost.run(arguments: CurrentProcess.arguments, environment: CurrentProcess.environment))
