// navigator.share() and navigator.canShare() for pages of a browser that has none (Chromium and
// Firefox on Linux), in the page's own world at document_start, so that a page that looks for
// them finds them. The Web Share API's rules (https://w3c.github.io/web-share/) are kept here,
// in the spec's order; what is shared goes through bridge.js and background.js to xdg-share's
// native host, which opens the desktop's share sheet.
(() => {
  'use strict';
  // Where the browser shares by itself, it does that.
  if (typeof navigator.share === 'function' || !window.isSecureContext) return;

  // The page may replace any of these later: what this script uses is taken now.
  const post = window.postMessage.bind(window);
  const Channel = MessageChannel;
  const DOMError = DOMException;
  const URLClass = URL;
  const FileClass = File;
  const PromiseClass = Promise;
  const iterator = Symbol.iterator;
  const activation = navigator.userActivation;

  // The limits Chromium keeps where it shares, so that a page meets the same ones here. The host
  // checks them again (ShareWeb's WebShareRequest.Limits and WebShareTypes): these three tables
  // are the host's, checked equal by Tests/ShareWebTests/ExtensionTablesTests.swift.
  const LIMITS = { files: 10, fileBytes: 50 * 1024 * 1024, title: 16 * 1024, url: 16 * 1024, text: 1024 * 1024 };
  const PERMITTED_EXTENSIONS = new Set([
    'avif', 'bmp', 'css', 'csv', 'ehtml', 'flac', 'gif', 'htm', 'html', 'ico', 'jfif', 'jpeg', 'jpg', 'm4a',
    'm4v', 'mp3', 'mp4', 'mpeg', 'mpg', 'oga', 'ogg', 'ogm', 'ogv', 'opus', 'pdf', 'pjp', 'pjpeg', 'png', 'shtm',
    'shtml', 'svg', 'svgz', 'text', 'tif', 'tiff', 'txt', 'wav', 'weba', 'webm', 'webp', 'xbm']);
  const PERMITTED_TYPES = new Set([
    'application/pdf', 'audio/flac', 'audio/mp3', 'audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/webm',
    'audio/x-m4a', 'image/avif', 'image/bmp', 'image/gif', 'image/jpeg', 'image/png', 'image/svg+xml',
    'image/tiff', 'image/webp', 'image/x-icon', 'image/x-ms-bmp', 'image/x-xbitmap',
    'text/comma-separated-values', 'text/css', 'text/csv', 'text/html', 'text/plain', 'video/mp4', 'video/mpeg',
    'video/ogg', 'video/webm']);

  // A share needs a transient activation, and consumes it: a script cannot consume the
  // browser's, so a share takes the activation of one trusted event (a click, a key) of the
  // user's, and a second share needs another.
  let activated = false;
  for (const type of ['keydown', 'mousedown', 'pointerdown', 'pointerup', 'touchend']) {
    window.addEventListener(type, (event) => {
      if (event.isTrusted && !(type === 'keydown' && event.key === 'Escape')) activated = true;
    }, { capture: true });
  }
  let sharing = false;

  function wellFormed(text) {
    return typeof text.toWellFormed === 'function' ? text.toWellFormed() : text;
  }

  // WebIDL's conversion of a ShareData dictionary: a TypeError for what cannot be one.
  function convert(data) {
    if (data === undefined || data === null) return {};
    if (typeof data !== 'object' && typeof data !== 'function') {
      throw new TypeError("Failed to convert value to 'ShareData'.");
    }
    const result = {};
    for (const member of ['title', 'text', 'url']) {
      const value = data[member];
      // USVString: a lone surrogate becomes U+FFFD.
      if (value !== undefined) result[member] = wellFormed(String(value));
    }
    const files = data.files;
    if (files !== undefined) {
      if (files === null || typeof files !== 'object' || typeof files[iterator] !== 'function') {
        throw new TypeError("Failed to read the 'files' property from 'ShareData': The provided value cannot be converted to a sequence.");
      }
      result.files = [];
      for (const file of files) {
        if (!(file instanceof FileClass)) {
          throw new TypeError("Failed to read the 'files' property from 'ShareData': Failed to convert value to 'File'.");
        }
        result.files.push(file);
      }
    }
    return result;
  }

  // A cross-origin frame has "web-share" only where its embedder allowed it, which a frame
  // cannot see: it is refused, as the policy's default ('self') refuses it.
  function allowed() {
    try {
      return window.top === window || window.top.location.origin === window.location.origin;
    } catch {
      return false;
    }
  }

  function extension(name) {
    const dot = name.lastIndexOf('.');
    return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  }

  function permitted(file) {
    const type = file.type.split(';')[0].trim().toLowerCase();
    return PERMITTED_EXTENSIONS.has(extension(file.name)) && (type === '' || PERMITTED_TYPES.has(type));
  }

  // "validate share data": the data, its url made absolute; null when it is not valid. Whether
  // its files may be shared is asked apart (permitted): the spec rejects those with
  // NotAllowedError, not with the TypeError of data that is not valid.
  function validate(data) {
    const { title, text, url, files } = data;
    if (title === undefined && text === undefined && url === undefined && files === undefined) return null;
    if (files !== undefined && files.length === 0 && title === undefined && text === undefined && url === undefined) {
      return null;
    }
    let resolved;
    if (url !== undefined) {
      try {
        resolved = new URLClass(url, document.baseURI);
      } catch {
        return null;
      }
      if (resolved.protocol !== 'https:' && resolved.protocol !== 'http:') return null;
    }
    return { title, text, url: resolved === undefined ? undefined : resolved.href, files };
  }

  function reject(name, message) {
    return PromiseClass.reject(new DOMError(message, name));
  }

  // How the native host's answer settles the promise.
  const EXCEPTIONS = {
    cancelled: 'AbortError', 'no-service': 'AbortError', failed: 'DataError', unavailable: 'DataError',
    'invalid-message': 'DataError', 'invalid-origin': 'DataError', 'nothing-to-share': 'TypeError',
    'invalid-url': 'TypeError', 'too-many-files': 'NotAllowedError', 'too-large': 'NotAllowedError',
    'unsafe-name': 'NotAllowedError', 'type-not-allowed': 'NotAllowedError', busy: 'InvalidStateError',
    'no-activation': 'NotAllowedError',
  };

  function share(data = {}) {
    let converted;
    try {
      converted = convert(data);
    } catch (error) {
      return PromiseClass.reject(error);
    }
    if (!document.defaultView) return reject('InvalidStateError', 'The document is not fully active.');
    if (!allowed()) return reject('NotAllowedError', 'Permission denied: this frame may not share.');
    if (sharing) return reject('InvalidStateError', 'An earlier share has not yet completed.');
    const active = activation === undefined ? activated : activation.isActive && activated;
    if (!active) return reject('NotAllowedError', 'Must be handling a user gesture to perform a share request.');
    activated = false;
    const valid = validate(converted);
    if (valid === null) {
      return PromiseClass.reject(new TypeError('No known share data fields supplied, or an invalid URL.'));
    }
    const files = valid.files || [];
    if (!files.every(permitted)) return reject('NotAllowedError', 'Permission denied: a file of a type web pages may not share.');
    if (files.length > LIMITS.files) return reject('NotAllowedError', `Permission denied: more than ${LIMITS.files} files.`);
    if (files.reduce((sum, file) => sum + file.size, 0) > LIMITS.fileBytes) {
      return reject('NotAllowedError', 'Permission denied: the files are larger than 50 MiB.');
    }
    if ((valid.title || '').length > LIMITS.title || (valid.url || '').length > LIMITS.url ||
        (valid.text || '').length > LIMITS.text) {
      return reject('NotAllowedError', 'Permission denied: the share is too large.');
    }
    sharing = true;
    return new PromiseClass((resolve, fail) => {
      const { port1, port2 } = new Channel();
      port1.onmessage = (event) => {
        port1.close();
        sharing = false;
        const answer = event.data || {};
        if (answer.outcome === 'completed') {
          resolve(undefined);
        } else {
          const name = EXCEPTIONS[answer.reason] || EXCEPTIONS[answer.outcome] || 'DataError';
          const message = answer.message || 'Share failed.';
          fail(name === 'TypeError' ? new TypeError(message) : new DOMError(message, name));
        }
      };
      post({ xdgShare: 'share', data: valid }, '*', [port2]);
    });
  }

  function canShare(data = {}) {
    const converted = convert(data);
    if (!document.defaultView || !allowed()) return false;
    const valid = validate(converted);
    return valid !== null && (valid.files || []).every(permitted);
  }

  // As the browsers that have them define them: on the prototype, enumerable and replaceable.
  for (const [name, method] of [['share', share], ['canShare', canShare]]) {
    Object.defineProperty(method, 'name', { value: name });
    Object.defineProperty(Navigator.prototype, name, {
      value: method, writable: true, enumerable: true, configurable: true,
    });
  }
})();
