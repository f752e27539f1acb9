// referee serve: draws the table from /api/state and follows /api/events (Server-Sent Events).
// Everything shown is built with DOM calls and textContent: no server text is ever parsed as HTML.
(function () {
  "use strict";
  var m = location.pathname.match(/^\/p\/([A-Za-z0-9_-]+)$/);
  var api = m ? "/api/p/" + m[1] : "/api";
  var SVG = "http://www.w3.org/2000/svg";
  var cards = {};

  var el = window.refereeDom.el, add = window.refereeDom.add;
  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function words(key) { return String(key).replace(/[_-]+/g, " "); }
  function isObj(x) { return x !== null && typeof x === "object" && !Array.isArray(x); }

  function stat(key, value, small) {
    var s = el("div", "stat" + (small ? " small" : ""));
    return add(s, el("span", "v", value), el("span", "k", words(key)));
  }

  // A card: an id the server described, or an object with a name; `back` for a face-down card.
  function card(x, opts) {
    opts = opts || {};
    if (opts.back) return el("div", "card back", opts.back === true ? "face down" : opts.back);
    var info = typeof x === "string" ? cards[x] : null;
    var name = info ? info.name : isObj(x) ? (x.name || (cards[x.card] || {}).name || x.card || x.id || "?") : String(x);
    var c = el("div", "card" + (opts.mine ? " mine" : ""));
    add(c, el("div", "cn", name));
    var stats = [];
    var source = info ? info.stats : isObj(x) && x.card && cards[x.card] ? cards[x.card].stats : {};
    for (var k in source) stats.push(words(k) + " " + source[k]);
    if (isObj(x)) {
      if (isObj(x.now)) for (var n in x.now) stats.push(n.toUpperCase() + " " + x.now[n]);
      if (x.defence !== undefined && x.defence !== null && !source.defence) stats.push("defence " + x.defence);
    }
    if (opts.extra) stats.push(opts.extra);
    if (stats.length) add(c, el("div", "cs", stats.join(" · ")));
    return c;
  }
  function row(label, items) {
    var r = el("div", "row");
    if (label) add(r, el("span", "label", label));
    items.forEach(function (i) { add(r, i); });
    return r;
  }
  function zone(title) { var z = el("div", "zone"); if (title) add(z, el("h3", null, title)); return z; }

  var MAIN = ["life", "capital", "fortitude", "influence", "score", "net", "reserve"];

  function players(d) {
    var box = document.getElementById("players");
    box.textContent = "";
    d.players.forEach(function (p) {
      var c = el("div", "player" + (p.active ? " active" : "") + (p.eliminated ? " out" : ""));
      c.dataset.player = p.name;
      var name = add(el("div", "name", p.name));
      if (p.active) add(name, el("span", "badge", "to play"));
      if (p.winner) add(name, el("span", "badge", "winner"));
      if (p.eliminated) add(name, el("span", "badge bad", "out"));
      add(c, name);
      if (p.faction) add(c, el("div", "faction", p.faction));
      var big = el("div", "stats"), small = el("div", "stats");
      var values = { life: p.life, capital: p.capital };
      for (var k in p.fields) if (!(k in values)) values[k] = p.fields[k];
      MAIN.forEach(function (k) {
        if (typeof values[k] === "number") add(big, stat(k, values[k]));
      });
      for (var key in values) {
        var v = values[key];
        if (MAIN.indexOf(key) >= 0 || v === null || v === undefined) continue;
        if (typeof v === "number" || typeof v === "string") add(small, stat(key, v, true));
        else if (typeof v === "boolean") add(small, stat(key, v ? "yes" : "no", true));
      }
      add(c, big, small);
      box.appendChild(c);
    });
  }

  function crowd(d) {
    var box = document.getElementById("crowd");
    box.textContent = "";
    if (d.crowd === null || d.crowd === undefined) { box.hidden = true; return; }
    box.hidden = false;
    // the debate's round end uses the crowd after the pending crowd work: the marker players set on the track
    var end = d.tv && typeof d.tv.crowd_at_round_end === "number" ? d.tv.crowd_at_round_end : null;
    var shown = end !== null ? end : d.crowd;
    function signed(v) { return (v > 0 ? "+" : "") + v; }
    var z = zone(end !== null ? "Crowd at round end " + signed(end) + (end !== d.crowd ? " (now " + signed(d.crowd) + ")" : "")
                              : "Crowd " + signed(d.crowd));
    var t = el("div", "track");
    var mark = el("div", "mark", shown);
    mark.style.left = Math.max(0, Math.min(100, (shown + 30) / 60 * 100)) + "%";
    var ends = add(el("div", "ends"), el("span", null, "Irrational Mob −30"), el("span", null, "0"),
                   el("span", null, "+30 Enlightened Citizen"));
    add(z, add(t, mark, ends));
    box.appendChild(z);
  }

  // ---- each game's own picture ------------------------------------------------

  function petri(d, box) {
    var board = d.fields.board || {};
    var z = zone("The dish");
    var s = svg("svg", { viewBox: "0 0 90 90", "class": "board", role: "img", "aria-label": "Petri dish board" });
    s.appendChild(svg("circle", { cx: 45, cy: 45, r: 44, fill: "#1b3b2b", stroke: "#6fd08c", "stroke-width": 0.8 }));
    Object.keys(board).forEach(function (pt) {
      var col = pt.charCodeAt(0) - 97, rank = parseInt(pt.slice(1), 10) - 1;
      var x = 10 + col * 10, y = 80 - rank * 10, cell = board[pt];
      var g = svg("g", { "data-point": pt });
      g.appendChild(svg("circle", { cx: x, cy: y, r: 4.3, fill: "none", stroke: "#8fb8a0", "stroke-width": 0.4 }));
      if (cell) {
        var white = cell.owner === "white";
        g.appendChild(svg("circle", { cx: x, cy: y, r: 4, fill: white ? "#f4f4f0" : "#151515", stroke: white ? "#999" : "#ddd", "stroke-width": 0.5 }));
        var t = svg("text", { x: x, y: y + 1.6, "text-anchor": "middle", "font-size": 4.5, "font-weight": 700, fill: white ? "#111" : "#fff" });
        t.textContent = cell.size;
        g.appendChild(t);
      } else {
        var l = svg("text", { x: x, y: y + 1, "text-anchor": "middle", "font-size": 2.6, fill: "#6f8f7f" });
        l.textContent = pt;
        g.appendChild(l);
      }
      s.appendChild(g);
    });
    add(z, s);
    box.appendChild(z);
  }

  function debate(d, box) {
    var f = d.fields, names = d.players.map(function (p) { return p.name; });
    var forum = f.forum || {}, columns = f.columns || {};
    var n = 0;
    names.forEach(function (p) { n = Math.max(n, (forum[p] || []).length, (columns[p] || []).length); });
    if (!n) return;
    var threads = {};  // thread number -> its round-end arithmetic as it stands (snapshot's "tv")
    ((d.tv && d.tv.threads) || []).forEach(function (t) { threads[t.thread] = t; });
    function side(i, p) {
      var t = threads[i + 1];
      return t ? t.sides.filter(function (s) { return s.player === p; })[0] : null;
    }
    var z = zone("Threads (strength · total)");
    var t = el("table", "threads");
    var head = add(el("tr"), el("th", null, ""));
    for (var i = 0; i < n; i++) add(head, el("th", null, i + 1));
    add(t, head);
    names.forEach(function (p) {
      var r = add(el("tr"), el("th", null, p));
      for (var i = 0; i < n; i++) {
        var td = el("td");
        var s = side(i, p);
        if (s && (s.strength || s.total)) add(td, el("div", "sums", "strength " + s.strength + " · total " + s.total));
        var a = (forum[p] || [])[i];
        // a thread's slot nests its cards: {argument: {...}, devices: [...], mods: [...]}
        if (isObj(a) && a.argument) {
          add(td, card(a.argument));
          (a.devices || []).forEach(function (dv) { add(td, card(dv, { extra: "device" })); });
        } else if (a) add(td, card(a));
        var col = (columns[p] || [])[i];
        if (col) add(td, el("div", "spot", "column " + col));
        add(r, td);
      }
      add(t, r);
    });
    var totals = add(el("tr", "totals"), el("th", null, "totals"));
    for (var k = 0; k < n; k++) {
      var th = threads[k + 1];
      add(totals, el("td", null, th ? th.sides.map(function (s) { return s.total; }).join(" v ")
                                      + (th.hits ? " · " + th.hits + " −" + th.overage : "") : "–"));
    }
    add(t, totals);
    add(z, t);
    box.appendChild(z);
  }

  function coldWar(d, box) {
    var tables = d.fields.tables || {};
    var own = d.you && d.you.hidden && d.you.hidden.tables ? d.you.hidden.tables : {};
    Object.keys(tables).forEach(function (name) {
      var t = tables[name], mine = own[name] && own[name].military ? own[name].military : null;
      var z = zone(name + " (" + t.country + ")" + (t.fallen ? " — FALLEN" : ""));
      z.dataset.table = name;
      if (t.leader_stack) add(z, row("Leader stack = " + t.leader_stack.defence,
        t.leader_stack.cards.map(function (c) { return card(c); })));
      var sci = [];
      for (var s in t.science || {}) sci.push(stack(s, t.science[s].cards.map(function (c) { return card(c); }), t.science[s].defence));
      if (sci.length) add(z, row("Science & Culture", sci));
      var mil = [];
      for (var k in t.military || {}) {
        var spot = t.military[k], known = mine && mine[k] ? mine[k] : {};
        var ids = known.cards || spot.cards, propaganda = known.propaganda || spot.propaganda || [];
        var shown = ids ? ids.map(function (c) {
          return card(c, { mine: !!known.cards, extra: propaganda.indexOf(c) >= 0 ? "propaganda" : null });
        }) : Array.apply(null, Array(spot.face_down)).map(function () { return card(null, { back: true }); });
        mil.push(stack(k, shown, known.defence !== undefined ? known.defence : spot.defence));
      }
      if (mil.length) add(z, row("Military", mil));
      var c = t.counts || {};
      add(z, row("Piles", [el("span", null, "hand " + (c.hand || 0) + " · draw pile " + (c.draw_pile || 0) +
        " · discard " + (c.discard_pile || 0) + (t.discard && t.discard.length ? " (top: " + nameOf(t.discard[t.discard.length - 1]) + ")" : ""))]));
      box.appendChild(z);
    });
  }
  function stack(label, items, total) {
    var s = el("div", "stack");
    add(s, el("span", "spot", label + (total !== null && total !== undefined ? " = " + total : "")));
    items.forEach(function (i) { add(s, i); });
    return s;
  }
  function nameOf(id) { return cards[id] ? cards[id].name : id; }

  function cultureWar(d, box) {
    var pieces = d.fields.pieces || {}, banks = d.fields.banks || {};
    d.players.forEach(function (p) {
      var units = [], estates = [], other = [];
      Object.keys(pieces).forEach(function (ref) {
        var pc = pieces[ref];
        if (!pc || pc.owner !== p.name) return;
        var extra = "#" + ref;
        if (pc.kind === "estate") {
          var coins = 0; for (var k in pc.coins || {}) coins += pc.coins[k];
          var now = pc.now || {};
          estates.push(card({ name: pc.name }, { extra: extra + " · makes " + (now.production !== undefined ? now.production : pc.production) + " · coins " + coins + (now.capacity ? "/" + now.capacity : "") }));
        } else if (pc.kind === "unit") {
          units.push(card({ name: pc.name, now: pc.now }, { extra: extra + (pc.unit_type ? " · " + pc.unit_type : "") + ((pc.mods || []).length ? " · " + pc.mods.length + " mod(s)" : "") }));
        } else {
          other.push(card({ name: pc.name }, { extra: extra + " · " + (pc.kind || "") }));
        }
      });
      var bank = 0; for (var b in banks[p.name] || {}) bank += banks[p.name][b];
      var z = zone(p.name + (p.faction ? " (" + p.faction + ")" : "") + " — bank " + bank);
      if (units.length) add(z, row("Units", units));
      if (estates.length) add(z, row("Real Estate", estates));
      if (other.length) add(z, row("Other", other));
      box.appendChild(z);
    });
  }

  function dnc(d, box) {
    var bases = d.fields.bases || {};
    function group(g) {
      var att = (g.attached || []).map(function (a) { return isObj(a) ? a.name || a.card || "?" : nameOf(a); });
      return card({ name: g.name }, { extra: (g.ref ? g.ref + " · " : "") + (g.wing === "left" ? "L" : "R") + g.influence + (att.length ? " · " + att.join(", ") : "") });
    }
    Object.keys(bases).forEach(function (name) {
      var z = zone(name + "'s base");
      add(z, row(null, bases[name].length ? bases[name].map(group) : [el("span", "spot", "empty")]));
      box.appendChild(z);
    });
    if ((d.fields.unaffiliated || []).length) {
      var u = zone("Unaffiliated");
      add(u, row(null, d.fields.unaffiliated.map(group)));
      box.appendChild(u);
    }
  }

  var PICTURES = { "petri-dish": petri, "debate": debate, "cold-war": coldWar, "culture-war": cultureWar, "divide-and-conquer": dnc };

  // ---- a player's own hidden cards (private link only) ---------------------------

  function you(d) {
    var box = document.getElementById("you");
    box.textContent = "";
    if (!d.you) { box.hidden = true; return; }
    box.hidden = false;
    add(box, el("h2", null, "Your cards, " + d.you.player + " (only on your private link)"));
    var found = 0;
    (function walk(value, path) {
      if (Array.isArray(value)) {
        var ids = value.filter(function (x) { return typeof x === "string" && cards[x]; });
        if (ids.length) {
          found += ids.length;
          add(box, row(path.filter(function (p) { return p !== "cards" && p !== "tables" && p !== d.you.player; }).map(words).join(" › ") || "cards",
            ids.map(function (c) { return card(c, { mine: true }); })));
        }
        return;
      }
      if (isObj(value)) for (var k in value) if (k !== "propaganda") walk(value[k], path.concat([k]));
    })(d.you.hidden, []);
    if (!found) add(box, el("p", null, "No hidden cards of yours are on the table now."));
  }

  function render(d) {
    var status = document.getElementById("status");
    if (!d || d.error) {
      status.textContent = d && d.error ? d.error : "no data";
      status.className = "status bad";
      return;
    }
    cards = d.cards || {};
    document.title = d.title + (d.you ? " — " + d.you.player : "") + " — referee";
    document.getElementById("title").textContent = d.title;
    var turn = document.getElementById("turn");
    turn.textContent = "";
    if (d.winner) add(turn, el("span", "winner", "Won by " + d.winner));
    else {
      add(turn, document.createTextNode("Turn " + d.turn + " · round " + d.round + " · "), el("b", null, d.active),
          document.createTextNode(" to play"));
      if (d.phase) add(turn, document.createTextNode(" · " + d.phase));
    }
    you(d);
    players(d);
    crowd(d);
    var pic = document.getElementById("picture");
    pic.textContent = "";
    if (PICTURES[d.game]) {
      try { PICTURES[d.game](d, pic); } catch (e) { pic.textContent = ""; }
    }
    pic.dataset.zones = pic.querySelectorAll(":scope > .zone").length;
    clock(d);
    var prompts = document.getElementById("prompts");
    prompts.textContent = "";
    (d.prompts || []).forEach(function (text) { add(prompts, el("p", "prompt", text)); });
    prompts.hidden = !(d.prompts || []).length;
    var log = document.getElementById("log");
    log.textContent = "";
    d.log.slice().reverse().forEach(function (e) {  // newest first, right under the "Latest" heading
      var li = el("li", e.undone ? "undone" : null);
      li.value = e.seq;
      add(li, el("span", "who", (e.actor || "scorekeeper") + ": "), document.createTextNode(e.text));
      log.appendChild(li);
    });
    document.getElementById("lines").textContent = d.lines.join("\n");
    status.textContent = "live · event #" + d.seq;
    status.className = "status";
    fit();
    document.body.dataset.seq = d.seq;
    document.dispatchEvent(new CustomEvent("table", { detail: d }));  // controller.js follows the table too
  }

  // ---- the answer window's clock: counted down to the deadline the server read from the log ----
  // (`now` is the server's clock as the snapshot was sent: the page counts by it, not by its own alone)
  var countdown = null, ticking = null;
  function clock(d) {
    var c = d.answer_clock;
    countdown = c ? { player: c.player, deadline: Date.parse(c.deadline), seconds: c.seconds,
                      skew: d.now ? Date.parse(d.now) - Date.now() : 0,
                      you: !!(d.you && d.you.player === c.player) } : null;
    if (countdown && !ticking) ticking = setInterval(tick, 250);
    if (!countdown && ticking) { clearInterval(ticking); ticking = null; }
    tick();
  }
  function tick() {
    var box = document.getElementById("clock");
    if (!countdown) { box.hidden = true; box.textContent = ""; return; }
    var left = Math.max(0, Math.ceil((countdown.deadline - (Date.now() + countdown.skew)) / 1000));
    var who = countdown.you ? "You answer" : countdown.player + " answers";
    var text = left > 0 ? who + ": " + left + " s left" : "time is up: " + countdown.player + "'s answer window closes";
    if (box.textContent !== text) box.textContent = text;
    box.dataset.left = left;
    box.dataset.seconds = countdown.seconds;
    box.classList.toggle("low", left <= 10);
    box.hidden = false;
  }

  // ---- a TV cannot scroll: the type shrinks (to no less than FLOOR px) until the whole table is in sight ----
  var TV = window.matchMedia ? window.matchMedia("(min-width: 1280px) and (min-aspect-ratio: 4/3)") : null;
  var FLOOR = 12;
  function overflows() {
    var h = window.innerHeight;
    return Array.prototype.some.call(document.querySelectorAll("#players .player, #picture .zone, #picture svg, #crowd"),
      function (e) { return e.getBoundingClientRect().bottom > h + 0.5; });
  }
  function fit() {
    var root = document.documentElement;
    root.style.fontSize = "";  // the stylesheet's size for this screen first
    if (!TV || !TV.matches) return;
    var size = parseFloat(getComputedStyle(root).fontSize);
    while (overflows() && size > FLOOR) {
      size = Math.max(FLOOR, size * 0.95);
      root.style.fontSize = size + "px";
    }
  }
  window.addEventListener("resize", fit);

  fetch(api + "/state").then(function (r) { return r.json(); }).then(render).catch(function () {});
  if (window.EventSource) {
    var source = new EventSource(api + "/events");
    source.addEventListener("table", function (e) { render(JSON.parse(e.data)); });
    source.onerror = function () {
      var s = document.getElementById("status");
      s.textContent = "reconnecting…";
      s.className = "status bad";
    };
  }
})();
