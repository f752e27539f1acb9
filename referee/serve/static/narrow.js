// referee serve --play: a long list of one kind of move, narrowed by what the moves differ in. With the
// hand kept on the phone every card play is listed concretely, so a Cold War setup from nine cards is 377
// moves and a discard of up to three cards every order of them; a phone cannot show that as buttons.
// Each argument the moves differ in becomes a row of choices: a value ("target: Ben", "at: M2"), or for a
// list of cards, where each card goes ("Kitchen of Tomorrow: propaganda / discard / placed"). A choice no
// move fits is disabled; once few moves fit, they are shown as the buttons the controller makes.
window.refereeNarrow = (function () {
  "use strict";
  var el = window.refereeDom.el, add = window.refereeDom.add;
  var WORDS = { cards: "cards", discard: "discarded", propaganda: "propaganda", their: "given up",
                at: "at", target: "target", onto: "onto", onto_at: "onto spot", with: "with", card: "card" };
  var NONE = "\u0000none";  // a card in none of the move's lists
  var SHOWN = 8;             // moves shown as buttons once this few fit

  function word(key) { return WORDS[key] || String(key).replace(/[_-]+/g, " "); }
  function isList(v) { return Array.isArray(v) && v.every(function (x) { return typeof x === "string"; }); }
  function scalar(v) { return typeof v === "string" || typeof v === "number" || typeof v === "boolean"; }

  // The rows: scalar args with more than one value, and each card of the list args with more than one place
  function facets(moves) {
    var scalars = {}, lists = {}, out = [];
    moves.forEach(function (mv) {
      var args = (mv.action && mv.action.args) || {};
      Object.keys(args).forEach(function (k) {
        if (scalar(args[k])) (scalars[k] = scalars[k] || {})[String(args[k])] = true;
        else if (isList(args[k])) lists[k] = true;
      });
    });
    Object.keys(scalars).forEach(function (k) {
      var values = Object.keys(scalars[k]);
      if (values.length > 1 || moves.some(function (mv) { return !(k in mv.action.args); }))
        out.push({ kind: "value", key: k, options: values.concat(moves.some(function (mv) { return !(k in mv.action.args); }) ? [NONE] : []) });
    });
    var keys = Object.keys(lists), cards = {};
    moves.forEach(function (mv) {
      keys.forEach(function (k) { (mv.action.args[k] || []).forEach(function (c) { cards[c] = true; }); });
    });
    Object.keys(cards).sort().forEach(function (c) {
      var places = {};
      moves.forEach(function (mv) { places[place(mv, keys, c)] = true; });
      var options = keys.concat([NONE]).filter(function (k) { return places[k]; });  // always in one order
      if (options.length > 1) out.push({ kind: "card", key: c, keys: keys, options: options });
    });
    return out;
  }
  function place(mv, keys, card) {
    for (var i = 0; i < keys.length; i++) if ((mv.action.args[keys[i]] || []).indexOf(card) >= 0) return keys[i];
    return NONE;
  }
  function value(mv, f) {
    if (f.kind === "card") return place(mv, f.keys, f.key);
    return f.key in mv.action.args ? String(mv.action.args[f.key]) : NONE;
  }
  function fits(moves, rows, chosen, skip) {
    return moves.filter(function (mv) {
      return rows.every(function (f, i) { return i === skip || chosen[i] === undefined || value(mv, f) === chosen[i]; });
    });
  }

  // The narrowing of `moves` (one kind, all concrete) into `parent`; `chosen`: the choices so far (kept by the
  // caller across redraws), `names`: card id -> printed name, `make(mv)`: a move's button, `redraw()`: again.
  function narrow(parent, moves, chosen, names, make, redraw) {
    var rows = facets(moves);
    var box = el("div", "narrow");
    rows.forEach(function (f, i) {
      var row = el("div", "facet");
      add(row, el("span", "fk", f.kind === "card" ? (names[f.key] || f.key) : word(f.key)));
      var chips = el("div", "chips");
      f.options.forEach(function (o) {
        var text = o === NONE ? (f.kind === "card" ? "not used" : "none")
          : f.kind === "card" ? (o === "cards" ? (f.keys.length > 1 ? "placed" : "used") : word(o)) : (names[o] || o);
        var b = el("button", "chip" + (chosen[i] === o ? " on" : ""), text);
        b.type = "button";
        b.setAttribute("aria-pressed", chosen[i] === o ? "true" : "false");
        var left = fits(moves, rows, Object.assign({}, chosen, (function () { var x = {}; x[i] = o; return x; })()), -1).length;
        b.disabled = !left && chosen[i] !== o;
        b.addEventListener("click", function () {
          if (chosen[i] === o) delete chosen[i]; else chosen[i] = o;
          redraw();
        });
        add(chips, b);
      });
      add(row, chips);
      add(box, row);
    });
    var found = fits(moves, rows, chosen, -1);
    var said = el("p", "fit", found.length > SHOWN ? found.length + " of " + moves.length + " fit: choose above to narrow them"
                                                  : found.length + " of " + moves.length + (found.length === 1 ? " fits" : " fit"));
    said.setAttribute("aria-live", "polite");
    add(parent, box, said);
    if (Object.keys(chosen).length) {
      var clear = el("button", "chip clear", "Clear the choices");
      clear.type = "button";
      clear.addEventListener("click", function () { Object.keys(chosen).forEach(function (k) { delete chosen[k]; }); redraw(); });
      add(parent, clear);
    }
    if (found.length <= SHOWN) found.forEach(function (mv) { add(parent, make(mv)); });
  }
  return { narrow: narrow, LONG: 12 };
})();
