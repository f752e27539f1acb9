// referee serve: naming a printed card on a phone, shared by the move picker (controller.js) and the
// Hand panel (hand.js): its 5-character code as typed (any case, look-alikes read right), its QR text
// (PNP:CARD-ID:REVISION[:COPY], or an older PNP:GAME:CARD-ID:REVISION) and the camera that reads it.
window.refereeCards = (function () {
  "use strict";
  var el = window.refereeDom.el, add = window.refereeDom.add;
  var LOOKALIKE = { O: "Q", "0": "Q", I: "J", "1": "J", L: "K" };
  function codeOf(text) { return String(text).trim().toUpperCase(); }
  function lookalike(text) { return codeOf(text).replace(/[O0I1L]/g, function (c) { return LOOKALIKE[c]; }); }
  // A printed QR code's card id (and copy), or null
  function payload(text) {
    var t = codeOf(text), p = t.match(/^PNP:([A-Z0-9-]+):([0-9A-F]{6})(?::([0-9]{1,3}))?$/);
    if (p) return { id: p[1].toLowerCase(), copy: p[3] ? parseInt(p[3], 10) : null, text: t };
    p = t.match(/^PNP:([A-Z0-9-]+):([A-Z0-9-]+):([0-9A-F]{6})$/);
    return p ? { id: p[2].toLowerCase(), copy: null, text: t } : null;
  }
  // The card of `cards` ({id, name, code}) a typed text names exactly: a QR text or a whole printed code
  function exact(cards, text) {
    var scanned = payload(text);
    if (scanned) return cards.filter(function (c) { return c.id === scanned.id; })[0] || null;
    var want = [codeOf(text), lookalike(text)];
    var c = cards.filter(function (c) { return c.code && want.indexOf(String(c.code).toUpperCase()) >= 0; })[0];
    return c && codeOf(text).length === String(c.code).length ? c : null;
  }
  // The cards a typed text may mean (by name, code or id), for a filtered list
  function matching(cards, text) {
    var q = String(text).trim().toLowerCase(), code = codeOf(text);
    return cards.filter(function (c) {
      return !q || String(c.name).toLowerCase().indexOf(q) >= 0 || String(c.code || "").indexOf(code) === 0 ||
        String(c.id).indexOf(q) >= 0;
    });
  }

  function canScan() {
    return !!(window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
  }
  var decoder = null;
  function loadDecoder() {
    if (!decoder) decoder = new Promise(function (ok, fail) {
      var tag = el("script");
      tag.src = "/static/vendor/jsqr/jsQR.js";  // jsQR (Apache-2.0), loaded only when a card is scanned
      tag.onload = function () { window.jsQR ? ok(window.jsQR) : fail(new Error("no decoder")); };
      tag.onerror = function () { decoder = null; fail(new Error("the QR decoder did not load")); };
      document.head.appendChild(tag);
    });
    return decoder;
  }
  // The camera in a view put before `said` (a line that tells what it does); `read(text)` hears each new
  // QR text and returns true when it took it (the camera then stops). Returns the function that stops it;
  // `stopped()` is called once it has stopped, however.
  function camera(said, read, stopped) {
    var view = el("div", "camera");
    var video = el("video");
    video.setAttribute("playsinline", "");
    video.muted = true;
    var canvas = el("canvas"), ctx = canvas.getContext("2d", { willReadFrequently: true });
    var stream = null, timer = null, last = "", live = true;
    function stop() {
      if (!live) return;
      live = false;
      clearTimeout(timer);
      if (stream) stream.getTracks().forEach(function (t) { t.stop(); });
      view.remove();
      if (stopped) stopped();
    }
    add(view, video, (function () {
      var b = el("button", "cancel", "Stop the camera");
      b.type = "button";
      b.addEventListener("click", stop);
      return b;
    })());
    said.parentNode.insertBefore(view, said);
    said.textContent = "starting the camera…";
    Promise.all([loadDecoder(), navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false })])
      .then(function (got) {
        stream = got[1];
        if (!live) { stream.getTracks().forEach(function (t) { t.stop(); }); return; }
        video.srcObject = stream;
        return video.play().then(function () {
          said.textContent = "hold the card's QR code in the frame";
          (function tick() {
            if (!live) return;
            if (video.videoWidth) {
              var w = Math.min(640, video.videoWidth), h = Math.round(video.videoHeight * w / video.videoWidth);
              canvas.width = w; canvas.height = h;
              ctx.drawImage(video, 0, 0, w, h);
              var qr = got[0](ctx.getImageData(0, 0, w, h).data, w, h, { inversionAttempts: "dontInvert" });
              if (qr && qr.data && qr.data !== last) {
                last = qr.data;
                if (read(qr.data)) return stop();
              }
            }
            timer = setTimeout(tick, 120);
          })();
        });
      })
      .catch(function (e) {
        stop();
        said.textContent = "no camera (" + (e && e.name ? e.name : "refused") + "): type the card's 5-character code instead";
      });
    return stop;
  }
  // The text field a card is named in (by name, code or QR text), with its label and the line that
  // says what it found: {label, input, said}
  function findField(id, text) {
    var label = el("label", "find", text);
    var input = el("input");
    input.type = "text";
    input.id = id;
    label.htmlFor = input.id;
    ["autocomplete", "autocorrect", "autocapitalize"].forEach(function (a) { input.setAttribute(a, "off"); });
    input.spellcheck = false;
    input.setAttribute("enterkeyhint", "done");
    var said = el("p", "said");
    said.setAttribute("aria-live", "polite");
    return { label: label, input: input, said: said };
  }
  return { codeOf: codeOf, lookalike: lookalike, payload: payload, exact: exact, matching: matching,
           canScan: canScan, camera: camera, findField: findField };
})();
