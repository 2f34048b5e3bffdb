// Between the page's world (page.js) and the extension's background: it reads the shared files
// and sends the share on, then hands the native host's answer back. It runs in the extension's
// isolated world, which the page cannot reach but can post to: it checks the activation itself.
(() => {
  'use strict';
  const api = typeof browser !== 'undefined' ? browser : chrome;
  // Files go in pieces well under the browsers' limit on one message (64 MiB in Chromium).
  const CHUNK = 4 * 1024 * 1024;
  let sharing = false;

  // A piece of a file as base64: FileReader, since Firefox does not let this world read the
  // page's File through arrayBuffer().
  function base64(blob) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => {
        const url = String(reader.result);
        resolve(url.slice(url.indexOf(',') + 1));
      };
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
  }

  async function send(data, answer) {
    const files = data.files || [];
    const port = api.runtime.connect({ name: 'xdg-share-webshare' });
    let settled = false;
    const settle = (reply) => {
      if (settled) return;
      settled = true;
      answer(reply);
    };
    port.onMessage.addListener((reply) => {
      settle(reply);
      port.disconnect();
    });
    port.onDisconnect.addListener(() => settle({ outcome: 'unavailable', message: 'The share was interrupted.' }));
    port.postMessage({
      share: {
        title: data.title, text: data.text, url: data.url,
        files: files.map((file) => ({ name: file.name, type: file.type, size: file.size })),
      },
    });
    for (let index = 0; index < files.length && !settled; index += 1) {
      const file = files[index];
      for (let start = 0; start < file.size && !settled; start += CHUNK) {
        port.postMessage({ chunk: { file: index, data: await base64(file.slice(start, start + CHUNK)) } });
      }
    }
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== window || !message || message.xdgShare !== 'share' || !event.ports[0]) return;
    const reply = event.ports[0];
    const answer = (value) => {
      sharing = false;
      reply.postMessage(value);
      reply.close();
    };
    if (sharing) {
      reply.postMessage({ outcome: 'rejected', reason: 'busy', message: 'An earlier share has not yet completed.' });
      return;
    }
    if (navigator.userActivation && !navigator.userActivation.isActive) {
      reply.postMessage({ outcome: 'rejected', reason: 'no-activation', message: 'Must be handling a user gesture to perform a share request.' });
      return;
    }
    sharing = true;
    send(message.data || {}, answer).catch((error) => answer({ outcome: 'failed', message: String(error) }));
  });
})();
