// referee serve --play: a private page becomes its player's controller.
// It lists the player's legal moves now (GET /p/<token>/moves, again on every table update), lets the
// player pick the cards a move takes (by name, by the printed 5-character code, or by scanning the
// card's QR code with the camera where the browser allows it), asks before sending, and sends the
// move by name: a listed move's action as data, or a <CARD> move's command with the cards in (POST /p/<token>/act).
// Cards are named through cards.js (codes, QR texts, the camera). Built with DOM calls and textContent only.
(function () {
  "use strict";
  var m = location.pathname.match(/^\/p\/([A-Za-z0-9_-]+)$/);
  var box = document.getElementById("play");
  if (!m || !box) return;
  var base = "/p/" + m[1];
  var HOLE = "<CARD>";
  var names = [];           // the players' names: isolated (<bdi>) wherever a move's words name them
  var moves = null;         // the last answer of /moves
  var loading = false, again = false, sending = false, stale = 0;
  var sheet = null;         // the open sheet: {el, move, slots, at, stop}
  var note = null;          // what the last send said: {ok: bool, text}
  var fresh = 0;            // the table's version after this phone's last move: older move lists are not shown
  var seen = 0;             // the newest table version this page has heard of
  var narrowed = {};        // kind -> the choices narrowing a long list of that kind (narrow.js)
  var N = window.refereeNarrow;

  var el = window.refereeDom.el, add = window.refereeDom.add;
  function button(cls, text, onclick) {
    var b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", onclick);
    return b;
  }
  // `text` into `parent`, each player's name in its own <bdi> (a right-to-left name cannot reorder the rest)
  function say(parent, text) {
    text = String(text);
    var known = names.filter(function (n) { return n && text.indexOf(n) >= 0; });
    if (!known.length) return add(parent, document.createTextNode(text));
    known.sort(function (a, b) { return b.length - a.length; });
    var pattern = new RegExp("(" + known.map(function (n) { return n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }).join("|") + ")");
    text.split(pattern).forEach(function (piece, i) {
      if (piece) add(parent, i % 2 ? el("bdi", null, piece) : document.createTextNode(piece));
    });
    return parent;
  }
  var OPTION = /\s*\((--[a-z][a-z-]*): ([^)]+)\)/;  // a move's words offering one option: "(--propaganda: face down in Military)"
  function kindWords(kind) { return String(kind).replace(/[_-]+/g, " "); }
  function holes(command) { return command.split(HOLE).length - 1; }

  // ---- the moves --------------------------------------------------------------------

  function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    fetch(base + "/moves", { cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); })
      .then(function (r) {
        if (r.ok && typeof r.body.version === "number" && r.body.version < fresh && stale++ < 20) again = true;  // from before our move
        else if (r.ok) {
          moves = r.body;
          stale = 0;
          if (note && note.fetch) note = null;
        }
        else note = { ok: false, fetch: true, text: r.body.error || "the referee did not list your moves" };
      })
      .catch(function () { note = { ok: false, fetch: true, text: "could not reach the referee; trying again on the next update" }; })
      .then(function () {
        loading = false;
        draw();
        if (again) { again = false; refresh(); }
      });
  }

  var drawn = "";
  function draw() {
    // unchanged moves are not redrawn: a button under a thumb stays the same button
    var now = JSON.stringify([moves, note, names, !!sheet, narrowed]);
    if (now === drawn && box.firstChild) return;
    drawn = now;
    box.textContent = "";
    add(box, el("h2", null, "Your moves"));
    if (note) {
      var n = el("div", "note " + (note.ok ? "ok" : "bad"));
      n.setAttribute("role", note.ok ? "status" : "alert");
      add(n, el("b", null, note.ok ? "Sent" : "Not sent"));
      add(box, say(n, note.text));
    }
    if (!moves) { add(box, el("p", "waiting", "loading…")); return; }
    box.dataset.version = moves.version;
    var list = moves.moves || [];
    if (sheet && !list.some(function (mv) { return mv.command === sheet.move.command; })) {
      close();
      note = { ok: false, text: "that move is no longer possible: the table moved on" };
      return draw();
    }
    if (!list.length) {
      add(box, say(el("p", "waiting"), moves.waiting ? "waiting: " + moves.waiting : "waiting"));
      return;
    }
    var groups = {}, order = [];
    list.forEach(function (mv) {
      if (!groups[mv.kind]) { groups[mv.kind] = []; order.push(mv.kind); }
      groups[mv.kind].push(mv);
    });
    order.forEach(function (kind) {
      var g = el("section", "kind");
      g.dataset.kind = kind;
      add(g, el("h3", null, kindWords(kind) + " (" + groups[kind].length + ")"));
      var many = moves.hand_kept && groups[kind].length > N.LONG &&
        groups[kind].every(function (mv) { return mv.action && !holes(mv.command); });
      if (many) {  // every card play listed, too many for buttons: narrowed by what they differ in (narrow.js)
        g.classList.add("narrowed");
        N.narrow(g, groups[kind], narrowed[kind] = narrowed[kind] || {}, moves.names || {}, moveButton,
                 function () { drawn = ""; draw(); });
      } else groups[kind].forEach(function (mv) { add(g, moveButton(mv)); });
      add(box, g);
    });
  }

  function moveButton(mv) {
    var b = button("move", null, function () { choose(mv); });
    var option = OPTION.exec(mv.text);
    say(b, option ? mv.text.replace(option[0], " (or " + option[2] + ")") : mv.text);
    if (holes(mv.command)) add(b, el("span", "hint", "choose cards…"));
    if (mv.own && mv.own.length) add(b, el("span", "hint own", ownWords(mv.own)));
    b.dataset.command = mv.command;
    return b;
  }

  // a move's own face-down cards (only on this phone): "your M1: Tank Battalion · M2: ..."
  function ownWords(own) {
    return "your " + own.map(function (o) { return o.spot + ": " + o.cards.join(" + "); }).join(" · ");
  }

  function choose(mv) {
    note = null;
    if (holes(mv.command)) picker(mv);
    else confirm(mv, []);
  }

  // ---- sheets: the picker and the confirmation -------------------------------------------

  function open(cls, title) {
    close();
    var s = el("div", "sheet " + cls);
    s.setAttribute("role", "dialog");
    s.setAttribute("aria-modal", "true");
    var h = el("h2", null, title);
    h.tabIndex = -1;
    h.id = "sheet-title";
    s.setAttribute("aria-labelledby", h.id);
    add(s, h);
    document.body.appendChild(s);
    document.body.classList.add("sheet-open");
    return s;
  }
  function close() {
    if (!sheet) return;
    if (sheet.stop) sheet.stop();
    sheet.el.remove();
    sheet = null;
    document.body.classList.remove("sheet-open");
  }
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && sheet) { close(); draw(); } });

  // The slots of a move's <CARD>s, each named by the option before it ("discard 2") or "card 3"; the
  // move's details' `slots` (one per <CARD>) may mark one optional (left out of the command when empty)
  // or give it a flag the card may carry ("--propaganda": the card goes as "--propaganda CARD").
  function slotsOf(mv) {
    var words = mv.command.split(/\s+/), count = {}, out = [];
    var told = (mv.details && Array.isArray(mv.details.slots)) ? mv.details.slots : [];
    words.forEach(function (w, i) {
      if (w !== HOLE) return;
      var prev = words[i - 1] || "";
      var label = prev.indexOf("--") === 0 ? prev.slice(2) : "card";
      count[label] = (count[label] || 0) + 1;
      var say = told[out.length] || {};
      out.push({ label: label, n: count[label], card: null, value: null, optional: !!say.optional,
                 flag: typeof say.flag === "string" ? say.flag : null, flagText: say.flag_text || say.flag,
                 flagged: false });
    });
    out.forEach(function (s) { s.name = (count[s.label] > 1 ? s.label + " " + s.n : s.label) + (s.optional ? " (optional)" : ""); });
    return out;
  }
  // The command with the chosen cards in place of the <CARD>s: an empty optional slot's word left out,
  // a flagged card written after its flag.
  function filled(command, slots) {
    var parts = command.split(HOLE), out = parts[0];
    slots.forEach(function (slot, i) {
      if (slot.value) out += (slot.flag && slot.flagged ? slot.flag + " " : "") + slot.value + parts[i + 1];
      else out = out.replace(/ $/, "") + parts[i + 1];
    });
    return out;
  }

  var C = window.refereeCards, codeOf = C.codeOf, lookalike = C.lookalike, payload = C.payload, canScan = C.canScan;

  function picker(mv, slots) {
    var s = open("picker", null);
    var h = s.querySelector("h2");
    say(h, mv.text);
    var me = sheet = { el: s, move: mv, slots: slots || slotsOf(mv), at: 0 };
    var cards = mv.cards || [];
    var chips = el("div", "slots");
    var field = C.findField("pick-find", "Name or 5-character code"), label = field.label, input = field.input, said = field.said;
    var list = el("div", "picks");
    var tools = el("div", "tools");
    if (canScan()) add(tools, button("scan", "Scan the card's QR code", function () { scan(said, found); }));
    var foot = add(el("div", "foot"), button("cancel", "Cancel", function () { close(); draw(); }));
    var without = button("without", "", function () { confirm(mv, me.slots); });  // every required slot full
    add(foot, without);
    add(s, chips, label, input, tools, said, list, foot);

    function first() {
      for (var i = 0; i < me.slots.length; i++) if (!me.slots[i].card) return i;
      return -1;
    }
    function ready() { return me.slots.every(function (o) { return o.card || o.optional; }); }
    function drawSlots() {
      chips.textContent = "";
      me.slots.forEach(function (slot, i) {
        var c = button("slot" + (i === me.at ? " at" : "") + (slot.card ? " full" : ""), null, function () {
          me.at = i; drawSlots(); said.textContent = "";
        });
        add(c, el("span", "k", slot.name), slot.card ? add(el("span", "v"), el("bdi", null, slot.card.name)) : el("span", "v", "—"));
        c.setAttribute("aria-pressed", i === me.at ? "true" : "false");
        add(chips, c);
      });
      var left = me.slots.filter(function (o) { return !o.card; }).map(function (o) { return o.name.replace(" (optional)", ""); });
      without.hidden = !(ready() && left.length);
      without.textContent = "Go on without " + left.join(", ");
    }
    function drawList() {
      list.textContent = "";
      var shown = C.matching(cards, input.value);
      shown.forEach(function (c) {
        var b = button("pick", null, function () { found(c, c.id); });
        var times = me.slots.filter(function (o) { return o.card && o.card.id === c.id; }).length;
        add(b, add(el("span", "cn"), el("bdi", null, c.name)), times ? el("span", "n", "✓" + (times > 1 ? times : "")) : null,
            el("span", "code", c.code || ""));
        b.dataset.card = c.id;
        add(list, b);
      });
      var typed = input.value.trim();
      if (!shown.length && /^[A-Za-z0-9][A-Za-z0-9:-]{1,79}$/.test(typed)) {
        // not in the list (or the referee has no card list): the typed code or id goes as it is, and the rules judge it
        var use = button("pick typed", null, function () { found({ id: typed, name: typed, code: "" }, typed); });
        add(use, add(el("span", "cn"), document.createTextNode("Use “"), el("bdi", null, typed), document.createTextNode("” as typed")));
        add(list, use);
      } else if (!shown.length) add(list, el("p", "waiting", "no card of yours for this move matches “" + typed + "”"));
    }
    // a card chosen for the slot in hand; `value` goes into the command (its id, or the scanned copy's QR text)
    function found(c, value) {
      if (sheet !== me) return;  // closed meanwhile
      var slot = me.slots[me.at];
      var twice = me.slots.some(function (o) { return o !== slot && o.value === value && /^PNP:/.test(value); });
      if (twice) { said.textContent = "that printed copy is already chosen: scan another card"; return; }
      slot.card = c;
      slot.value = value;
      said.textContent = slot.name + ": " + c.name;
      input.value = "";
      var next = first();
      if (next < 0) return confirm(mv, me.slots);
      me.at = next;
      drawSlots();
      drawList();
    }
    input.addEventListener("input", function () {
      var text = input.value, scanned = payload(text), exact = null;
      if (scanned) {
        exact = cards.filter(function (c) { return c.id === scanned.id; })[0];
        if (exact) return found(exact, scanned.copy ? scanned.text : exact.id);
      }
      if (codeOf(text).length >= 2) {
        var want = [codeOf(text), lookalike(text)];
        exact = cards.filter(function (c) { return c.code && want.indexOf(String(c.code).toUpperCase()) >= 0; })[0];
        if (exact && codeOf(text).length === String(exact.code).length) return found(exact, exact.id);
      }
      drawList();
    });
    me.at = Math.max(0, first());
    drawSlots();
    drawList();
    h.focus();
  }

  function confirm(mv, slots) {
    var keep = slots.length ? slots : null;
    var s = open("confirm", "Send this move?");
    sheet = { el: s, move: mv, slots: slots };
    // a move's words may offer one option, "(--propaganda: face down in Military)": a toggle here
    var option = OPTION.exec(mv.text), chosen = false;
    add(s, say(el("p", "say"), option ? mv.text.replace(option[0], "") : mv.text));
    if (mv.own && mv.own.length) add(s, el("p", "own", ownWords(mv.own)));
    var command = "", line = el("code", "command");
    function update() {
      command = filled(mv.command, slots) + (chosen ? " " + option[1] : "");
      line.textContent = "referee " + command;
    }
    // a toggle: a box with its words, ticked when `on()`; a tap flips it and redraws the command
    function tick(cls, words, on, flip) {
      var t = button(cls, null, function () {
        flip();
        t.setAttribute("aria-pressed", String(on()));
        t.firstChild.textContent = on() ? "✓" : "";
        update();
      });
      t.setAttribute("aria-pressed", String(on()));
      add(t, el("span", "box", on() ? "✓" : ""), el("span", null, words));
      return t;
    }
    update();
    if (slots.some(function (slot) { return slot.card; })) {
      var ul = el("ul", "chosen");
      slots.forEach(function (slot) {
        if (!slot.card) return;  // an optional slot left empty
        var li = add(el("li"), el("span", "k", slot.name.replace(" (optional)", "") + ": "), el("bdi", null, slot.card.name),
                     el("span", "code", " " + (slot.card.code || "")));
        if (slot.flag) {
          var t = tick("option flag", slot.flagText, function () { return slot.flagged; },
                       function () { slot.flagged = !slot.flagged; });
          t.dataset.option = slot.flag;
          add(li, t);
        }
        add(ul, li);
      });
      add(s, ul);
    }
    if (option) {
      var toggle = tick("option", option[2], function () { return chosen; }, function () { chosen = !chosen; });
      toggle.dataset.option = option[1];
      add(s, toggle);
    }
    add(s, line);
    // a listed move is sent by name (its action, as data); a <CARD> move as its command with the cards in
    var send = button("send", "Send", function () {
      post(mv.action && !chosen ? { action: mv.action } : { command: command }, send);
    });
    var foot = el("div", "foot");
    if (keep) add(foot, button("back", "Change cards", function () { picker(mv, keep); }));
    add(foot, button("cancel", "Cancel", function () { close(); draw(); }), send);
    add(s, foot);
    s.querySelector("h2").focus();
  }

  function post(body, send) {
    if (sending) return;  // a double tap sends once
    sending = true;
    send.disabled = true;
    send.textContent = "Sending…";
    if (moves && typeof moves.version === "number") body.version = moves.version;
    fetch(base + "/act", { method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" },
                           body: JSON.stringify(body) })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (j) {
          if (r.status === 200) {
            if (typeof j.version === "number") fresh = j.version;
            return { ok: true, text: j.echo || "done", seq: fresh };
          }
          return { ok: false, text: j.error || "the referee refused it (HTTP " + r.status + ")" };  // kept until the next tap
        });
      })
      .catch(function () { return { ok: false, text: "could not reach the referee: nothing was sent" }; })
      .then(function (result) {
        sending = false;
        note = result;
        if (result.ok) narrowed = {};
        moves = null;  // "loading…" until the moves as they are now arrive: no stale button to tap
        close();
        draw();
        window.scrollTo(0, 0);  // the answer, at the top of the page
        refresh();  // 200: the next moves; 409 "no longer possible": the moves as they are now
      });
  }

  // ---- the camera: a printed card's QR code ----------------------------------------------

  function scan(said, found) {
    if (!sheet || sheet.stop) return;
    var mine = sheet, cards = sheet.move.cards || [];
    mine.stop = C.camera(said, function (text) {
      var p = payload(text), c = p && cards.filter(function (x) { return x.id === p.id; })[0];
      if (!c && p && !cards.length) c = { id: p.id, name: p.id, code: "" };  // no card list: the rules judge it
      if (c) { setTimeout(function () { found(c, p.copy ? p.text : c.id); }); return true; }
      said.textContent = p ? "that card (" + p.id + ") is not one you may use for this move"
                           : "that QR code is not a printed card's";
      return false;
    }, function () { mine.stop = null; });
  }

  document.addEventListener("hand", function () { if (!box.hidden) refresh(); });  // the kept hand changed (hand.js)
  document.addEventListener("table", function (e) {
    var d = e.detail;
    seen = Math.max(seen, d.seq || 0);
    if (note && note.seq !== undefined && seen > note.seq) note = null;  // the table moved on: the answer is old news
    names = (d.players || []).map(function (p) { return p.name; });
    document.body.classList.toggle("playing", !!d.play);
    if (!d.play) { close(); box.hidden = true; return; }
    box.hidden = false;
    refresh();
  });
})();
