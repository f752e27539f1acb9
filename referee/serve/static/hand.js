// referee serve --play: the Hand panel of a private page. The player may keep their hand on this phone
// (GET/POST /p/<token>/hand, docs/play-api.md): the kept cards by printed name, each with "Played";
// "Add a drawn card" picks one of the cards their deck may hold, by name, by its 5-character code, or by
// its QR text (typed, pasted or scanned with the camera). The referee then lists their moves with the hand
// known (controller.js hears a "hand" event and asks again). The hand is this phone's alone: no other
// page, the TV or the log ever shows it. Built with DOM calls and textContent only, like app.js.
(function () {
  "use strict";
  var m = location.pathname.match(/^\/p\/([A-Za-z0-9_-]+)$/);
  var box = document.getElementById("hand");
  if (!m || !box) return;
  var base = "/p/" + m[1];
  var el = window.refereeDom.el, add = window.refereeDom.add, C = window.refereeCards;
  var hand = null;          // the last answer of GET /hand
  var note = null;          // what the last change said: {ok, text}
  var sheet = null;         // the open "add a card" sheet: {el, stop}
  var loading = false, again = false, sending = false, drawn = "";

  function button(cls, text, onclick) {
    var b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", onclick);
    return b;
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function load() {
    if (loading) { again = true; return; }
    loading = true;
    fetch(base + "/hand", { cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); })
      .then(function (r) {
        if (r.ok) hand = r.body;
        else note = { ok: false, text: r.body.error || "the referee did not show your hand" };
      })
      .catch(function () { note = { ok: false, text: "could not reach the referee; trying again on the next update" }; })
      .then(function () {
        loading = false;
        draw();
        if (again) { again = false; load(); }
      });
  }

  // POST {"drew": [...]} or {"played": [...]}: the answer is the hand after, or a refusal said in the panel
  function change(body, done) {
    if (sending) return;
    sending = true;
    fetch(base + "/hand", { method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" },
                            body: JSON.stringify(body) })
      .then(function (r) { return r.json().catch(function () { return {}; }).then(function (j) { return { ok: r.ok, body: j }; }); })
      .catch(function () { return { ok: false, body: { error: "could not reach the referee: nothing was changed" } }; })
      .then(function (r) {
        sending = false;
        if (r.ok) {
          hand = r.body;
          note = null;
          document.dispatchEvent(new CustomEvent("hand"));  // the moves, with this hand known
        } else note = { ok: false, text: r.body.error || "the referee refused it" };
        if (done) done(r.ok, r.body);
        draw();
      });
  }

  function summary(h) {
    if (!h.kept) return "Not kept on this phone: add the cards you hold, and your moves name them.";
    if (h.table_count === null || h.table_count === undefined) return "You hold no hand now.";
    var s = plural(h.count, "card") + " kept of the " + h.table_count + " the table counts";
    return h.missing ? s + ": add the " + plural(h.missing, "other") + " to play them from here." : s + ".";
  }

  function draw() {
    var now = JSON.stringify([hand, note]);
    if (now === drawn && box.firstChild) return;
    drawn = now;
    box.textContent = "";
    add(box, el("h2", null, "Your hand"));
    add(box, el("p", "only", "Only on this phone: nobody else sees it."));
    if (!hand) { add(box, el("p", "waiting", "loading…")); return; }
    var none = hand.table_count === null || hand.table_count === undefined;
    box.hidden = none && !hand.count && !note;  // no hand to keep now (the Petri dish, a Fallen Leader)
    add(box, el("p", "count", summary(hand)));
    (hand.warnings || []).forEach(function (w) {
      var n = el("div", "note bad", w);
      n.setAttribute("role", "alert");
      add(box, n);
    });
    if (note) {
      var n = el("div", "note " + (note.ok ? "ok" : "bad"));
      n.setAttribute("role", note.ok ? "status" : "alert");
      add(n, el("b", null, note.ok ? "Done" : "Not changed"), document.createTextNode(note.text));
      add(box, n);
    }
    var list = el("ul", "kept");
    (hand.cards || []).forEach(function (c) {
      var li = el("li", "held");
      li.dataset.card = c.id;
      add(li, add(el("span", "cn"), el("bdi", null, c.name)),
          button("played", "Played", function () { change({ played: [c.id] }); }));
      li.lastChild.setAttribute("aria-label", "Mark " + c.name + " played");
      add(list, li);
    });
    if ((hand.cards || []).length) add(box, list);
    var full = hand.table_count !== null && hand.table_count !== undefined && hand.count >= hand.table_count;
    if (hand.table_count !== null && hand.table_count !== undefined) {
      var more = button("add", "Add a drawn card", function () { picker(); });
      more.disabled = full;
      if (full) more.title = "the kept hand holds every card the table counts";
      add(box, more);
    }
  }

  // ---- the sheet: which card was drawn -------------------------------------------------------

  function close() {
    if (!sheet) return;
    if (sheet.stop) sheet.stop();
    sheet.el.remove();
    sheet = null;
    document.body.classList.remove("sheet-open");
  }
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && sheet) close(); });

  function picker() {
    close();
    var s = el("div", "sheet picker hand-add");
    s.setAttribute("role", "dialog");
    s.setAttribute("aria-modal", "true");
    var h = el("h2", null, "Add a drawn card");
    h.tabIndex = -1;
    h.id = "hand-title";
    s.setAttribute("aria-labelledby", h.id);
    var me = sheet = { el: s, stop: null };
    var deck = hand.deck || [];
    var field = C.findField("hand-find", "Name, 5-character code or QR text"), label = field.label, input = field.input, said = field.said;
    var counted = el("p", "find");
    function count() { counted.textContent = hand.count + " of the " + hand.table_count + " cards in your hand kept"; }
    count();
    var list = el("div", "picks");
    var tools = el("div", "tools");
    if (C.canScan()) add(tools, button("scan", "Scan the card's QR code", function () {
      if (me.stop) return;
      me.stop = C.camera(said, function (text) {
        var p = C.payload(text);
        if (!p) { said.textContent = "that QR code is not a printed card's"; return false; }
        setTimeout(function () { take(text); });
        return true;
      }, function () { me.stop = null; });
    }));
    var foot = add(el("div", "foot"), button("cancel", "Done", function () { close(); }));
    add(s, h, counted, label, input, tools, said, list, foot);
    document.body.appendChild(s);
    document.body.classList.add("sheet-open");

    // a card drawn: its id, or the QR text of the printed copy (the referee reads either)
    function take(value, name) {
      if (sheet !== me) return;
      change({ drew: [value] }, function (ok, body) {
        if (sheet !== me) return;
        said.textContent = ok ? "added: " + (name || body.cards[body.cards.length - 1].name)
                              : "not added: " + (body.error || "refused");
        input.value = "";
        count();
        if (ok && body.missing === 0) return close();
        drawList();
        input.focus();
      });
    }
    function drawList() {
      list.textContent = "";
      var shown = C.matching(deck, input.value), typed = input.value.trim();
      var held = {};
      (hand.cards || []).forEach(function (c) { held[c.id] = (held[c.id] || 0) + 1; });
      shown.forEach(function (c) {
        var b = button("pick", null, function () { take(c.id, c.name); });
        add(b, add(el("span", "cn"), el("bdi", null, c.name)), held[c.id] ? el("span", "n", "✓" + (held[c.id] > 1 ? held[c.id] : "")) : null,
            el("span", "code", c.code || ""));
        b.dataset.card = c.id;
        add(list, b);
      });
      if (!shown.length && /^[A-Za-z0-9][A-Za-z0-9:-]{1,79}$/.test(typed)) {
        var use = button("pick typed", null, function () { take(typed); });
        add(use, add(el("span", "cn"), document.createTextNode("Add “"), el("bdi", null, typed), document.createTextNode("” as typed")));
        add(list, use);
      } else if (!shown.length) add(list, el("p", "waiting", "no card of your deck matches “" + typed + "”"));
    }
    input.addEventListener("input", function () {
      var exact = C.exact(deck, input.value);
      if (exact) return take(C.payload(input.value) ? C.codeOf(input.value) : exact.id, exact.name);
      drawList();
    });
    drawList();
    h.focus();
  }

  document.addEventListener("table", function (e) {
    var d = e.detail;
    if (!d.play || !d.you) { close(); box.hidden = true; return; }
    if (!hand) box.hidden = false;  // "loading…" until the first answer says whether there is a hand
    load();  // a move played (from here or the terminal) changes the hand or the table's count of it
  });
})();
