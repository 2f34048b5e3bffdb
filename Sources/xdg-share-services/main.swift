// The one program of every bundled share service: each bundle's executable is a link to it, and
// the request's service identifier says which service serves it.
//
// No top-level `await` here: the main thread must keep SIGTERM blocked (see ServiceProcess).
import ShareKit
import ShareServices

ServiceProcess.prepare()
Task.detached {
  await ShareExtensionRunner.run([
    MailService.identifier: MailService.self,
    SaveToFolderService.identifier: SaveToFolderService.self,
    ClipboardService.identifier: ClipboardService.self,
    WebDAVService.identifier: WebDAVService.self,
    KDEConnectService.identifier: KDEConnectService.self,
    QRCodeService.identifier: QRCodeService.self,
  ])
}
ServiceProcess.parkMainThread()
