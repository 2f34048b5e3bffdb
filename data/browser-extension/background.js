// The extension's background (a service worker in Chromium, an event page in Firefox): each share
// a bridge.js sends is handed to xdg-share's native host, org.xdgshare.webshare, with the origin
// of the page as the browser knows it, and the host's one answer is handed back.
const api = typeof browser !== 'undefined' ? browser : chrome;
const HOST = 'org.xdgshare.webshare';

function originOf(sender) {
  if (sender.origin && sender.origin !== 'null') return sender.origin;
  try {
    return new URL(sender.url).origin;
  } catch {
    return 'null';
  }
}

api.runtime.onConnect.addListener((port) => {
  if (port.name !== 'xdg-share-webshare' || !port.sender) return;
  const origin = originOf(port.sender);
  let answered = false;
  let native;
  try {
    native = api.runtime.connectNative(HOST);
  } catch (error) {
    port.postMessage({ outcome: 'unavailable', message: `xdg-share is not set up for this browser: ${error}` });
    port.disconnect();
    return;
  }
  native.onMessage.addListener((answer) => {
    answered = true;
    port.postMessage(answer);
    port.disconnect();
    native.disconnect();
  });
  native.onDisconnect.addListener((gone) => {
    if (answered) return;
    // Chromium says why in runtime.lastError, Firefox in the port's error.
    const error = (gone && gone.error) || api.runtime.lastError;
    port.postMessage({
      outcome: 'unavailable',
      message: `xdg-share's share host cannot be reached${error ? `: ${error.message}` : ''}. Run \`xdg-share register\`.`,
    });
    port.disconnect();
  });
  port.onMessage.addListener((message) => {
    // The page's origin is the browser's word, never the page's.
    if (message && message.share) message.share.origin = origin;
    native.postMessage(message);
  });
  // The tab closed or the page went: the host closes the sheet.
  port.onDisconnect.addListener(() => {
    if (!answered) native.disconnect();
  });
});
