// referee serve: the two DOM helpers every page script builds with (app.js, controller.js).
// Text always goes in as textContent: no server text is ever parsed as HTML.
window.refereeDom = (function () {
  "use strict";
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
    return parent;
  }
  return { el: el, add: add };
})();
