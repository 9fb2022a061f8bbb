"""What the layout walk (``tests/e2e/test_layout_walk.py``) measures on a screen, read from Flutter's ARIA
tree (the boxes of its semantics nodes, which Flutter lays over the canvas where it draws them).

* **Overlap**: two named nodes, neither inside the other, whose boxes cross by more than
  :data:`OVERLAP_PX` both ways (a label drawn over a number, two words of a row on top of each other).
* **Cut**: a named node that runs past the window's left or right edge (a row too wide for the
  screen: Flutter clips it, no ellipsis). Not measured: text scrolled inside a text box past its
  edge (Flutter draws a box's text on its canvas; the ARIA tree gives the box, not the text's width).
* **Small or unnamed**: an interactive node (button, link, switch, tab, text box, ...) under
  48 x 48 px or without an accessible name.

How 200 % text is made: Flutter's web engine takes its text scale from the root element's font
size (``textScaleFactor = font-size of <html> / 16 px``), which is what a browser's own text-size
setting changes (Chrome's "Font size", Android Chrome's "Text scaling"). The walk sets the browser's
default font size to 32 px through the DevTools protocol (``Page.setFontSizes``) before the page
loads, exactly as that setting does; the page's zoom (``deviceScaleFactor``) would scale everything,
not the text, and is not what a reader with large text sees.
"""

from __future__ import annotations

OVERLAP_PX = 3
MIN_TARGET = 48
#: the browser's default font size for 200 % text (Flutter's scale = this / 16)
FONT_PX_200 = 32

#: Every node's box, role, name (its first 100 characters), parent node, the box of the scrolling
#: list it is in, and whether it is interactive; the window's width and height.
NODES_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return null;
  const interactive = ['button','link','switch','checkbox','radio','tab','textbox','combobox','slider','menuitem'];
  const own = (el) => {
    let t = '';
    for (const n of el.childNodes) {
      if (n.nodeType === 3) t += n.textContent;
      else if (n.nodeType === 1 && n.tagName === 'SPAN') t += n.textContent;
    }
    return t.trim();
  };
  const all = [...host.querySelectorAll('flt-semantics, h1, h2, h3, h4, h5, h6, input, textarea')];
  const index = new Map(all.map((el, i) => [el, i]));
  const scrolls = (el) => [...el.children].some((c) => c.tagName === 'FLT-SEMANTICS-SCROLL-OVERFLOW');
  const out = [];
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const tag = el.tagName.toLowerCase();
    const role = el.getAttribute('role') || (tag === 'input' || tag === 'textarea' ? 'textbox' : /^h[1-6]$/.test(tag) ? 'heading' : '');
    const name = (el.getAttribute('aria-label') || own(el) || el.getAttribute('placeholder') || '').trim();
    let parent = el.parentElement;
    while (parent && !index.has(parent)) parent = parent.parentElement;
    // the scrolling list the node is in: it is judged only while wholly inside the list's box
    let clip = null;
    for (let a = el.parentElement; a && a !== host; a = a.parentElement) {
      if (scrolls(a)) { const c = a.getBoundingClientRect(); clip = {x: c.x, y: c.y, w: c.width, h: c.height}; break; }
    }
    out.push({i: index.get(el), parent: parent ? index.get(parent) : -1, role, tag, name: name.slice(0, 100),
              x: r.x, y: r.y, w: r.width, h: r.height, clip,
              interactive: interactive.includes(role) || tag === 'input' || tag === 'textarea' || el.hasAttribute('flt-tappable')});
  }
  return {nodes: out, vw: innerWidth, vh: innerHeight};
}"""


def _inside(a: dict, b: dict, slack: float = 1.0) -> bool:
    return (a["x"] >= b["x"] - slack and a["y"] >= b["y"] - slack and a["x"] + a["w"] <= b["x"] + b["w"] + slack
            and a["y"] + a["h"] <= b["y"] + b["h"] + slack)


def _related(a: dict, b: dict, by_index: dict[int, dict]) -> bool:
    """Whether ``a`` and ``b`` are one inside the other in the tree."""
    for x, y in ((a, b), (b, a)):
        p = x["parent"]
        while p != -1:
            if p == y["i"]:
                return True
            p = by_index[p]["parent"]
    return False


def _in_view(n: dict) -> bool:
    """Whether the node is wholly in view in the scrolling list it belongs to (or in none):
    Flutter cuts the box of a node scrolled partly out of the list at the list's edge."""
    c = n["clip"]
    if c is None:
        return True
    return _inside(n, c) and n["y"] > c["y"] + 1 and n["y"] + n["h"] < c["y"] + c["h"] - 1


def problems(snapshot: dict) -> list[str]:
    """What is wrong on one screen as it shows now (see the module docstring). A node of a
    scrolling list is judged for size and overlap only while wholly in view (:func:`_in_view`);
    the walk scrolls each into view."""
    nodes, vw = snapshot["nodes"], snapshot["vw"]
    by_index = {n["i"]: n for n in nodes}
    out: list[str] = []
    named = [n for n in nodes if n["name"]]
    for n in named:
        if n["x"] < -1 or n["x"] + n["w"] > vw + 1:
            out.append(f"cut at the window's edge: {n['role'] or 'text'} {n['name']!r} "
                       f"(x {n['x']:.0f} to {n['x'] + n['w']:.0f} of {vw})")
    for n in nodes:
        if not n["interactive"] or not _in_view(n):
            continue
        if not n["name"]:
            out.append(f"{n['role'] or n['tag']} without a name ({n['w']:.0f} x {n['h']:.0f} px at y {n['y']:.0f})")
        elif n["w"] < MIN_TARGET - 0.5 or n["h"] < MIN_TARGET - 0.5:
            out.append(f"{n['role'] or n['tag']} {n['name']!r} is {n['w']:.0f} x {n['h']:.0f} px")
    # texts: named nodes with no named node inside them; a text box's <input> is laid over its
    # whole row by Flutter (its box is not the field's), so text boxes are left out here
    has_named_child = {n["parent"] for n in named}
    leaves = [n for n in named if n["i"] not in has_named_child and n["tag"] not in ("input", "textarea")
              and _in_view(n)]
    for i, a in enumerate(leaves):
        for b in leaves[i + 1:]:
            w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if a["parent"] == b["parent"] and not a["role"] and not b["role"]:
                continue  # pieces of one paragraph around its links: lines, not boxes, that touch
            if w > OVERLAP_PX and h > OVERLAP_PX and not _related(a, b, by_index):
                out.append(f"overlap: {a['name']!r} and {b['name']!r} ({w:.0f} x {h:.0f} px)")
    return out
