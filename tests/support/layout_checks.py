"""What the layout walk (``tests/e2e/test_layout_walk.py``) measures on a screen, read from Flutter's ARIA
tree (the boxes of its semantics nodes, which Flutter lays over the canvas where it draws them).

* **Overlap**: two named nodes, neither inside the other, whose boxes cross by more than
  :data:`OVERLAP_PX` both ways (a label drawn over a number, two words of a row on top of each other).
* **Cut**: a named node that runs past the window's left or right edge (a row too wide for the
  screen: Flutter clips it, no ellipsis). Not measured: text scrolled inside a text box past its
  edge (Flutter draws a box's text on its canvas; the ARIA tree gives the box, not the text's width).
* **Small or unnamed**: a control under 48 x 48 px or without an accessible name. The controls are
  read from Chromium's accessibility tree (:func:`ax_targets`: every node it makes focusable or
  gives a control's role, with its layout box), the tree a finger's tap and a screen reader use,
  not from a list of Flutter's attributes. A control cut by the edge of its scrolling list (a row
  half under the navigation bar) shows only part of itself: it is judged on its whole box at a
  stop of the walk where it is wholly in view, and a control the walk never sees whole while it
  shows under 48 px of itself is reported with the part it showed (:func:`cut_controls`, :func:`whole_controls`). This is why the walk once
  passed rows measured at 388 x 44 px in the accessibility tree: that was the part above the
  navigation bar of a 60-px row; it skipped every row while cut and never checked that it saw it whole.
  The DOM nodes Flutter makes tappable (``flt-tappable``) that the tree gives no control's role are
  judged as well, and so are links inside a paragraph's text (Flutter's ``<a>`` over a span), which
  the walk once left out (issue 47: 30-33 px tall, the line's height).

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
  // <a>: a link Flutter draws inside a paragraph's text (no flt-semantics of its own)
  const all = [...host.querySelectorAll('flt-semantics, a, h1, h2, h3, h4, h5, h6, input, textarea')];
  const index = new Map(all.map((el, i) => [el, i]));
  const scrolls = (el) => [...el.children].some((c) => c.tagName === 'FLT-SEMANTICS-SCROLL-OVERFLOW');
  const out = [];
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const tag = el.tagName.toLowerCase();
    const role = el.getAttribute('role') || (tag === 'input' || tag === 'textarea' ? 'textbox' : /^h[1-6]$/.test(tag) ? 'heading'
                 : tag === 'a' ? 'link' : '');
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


#: the roles Chromium gives controls (with "focusable", what :func:`ax_targets` reads)
CONTROL_ROLES = frozenset({"button", "link", "switch", "checkbox", "radio", "tab", "textbox", "combobox",
                           "slider", "menuitem", "option", "searchbox", "spinbutton", "menuitemcheckbox",
                           "menuitemradio", "treeitem", "listbox", "PopUpButton", "ToggleButton"})


def ax_targets(cdp, viewport: dict) -> list[dict]:
    """Every control in Chromium's accessibility tree of the page (``cdp``: a CDP session on it):
    a node that is focusable or has a control's role (:data:`CONTROL_ROLES`), with its role, its
    accessible name and its layout box in CSS px (``x``, ``y``, ``w``, ``h``, from one
    ``DOMSnapshot.captureSnapshot``: the box Flutter gives the node, cut at its list's edge). The
    document and the focusable element that holds the whole app (Flutter's view, as big as the
    ``viewport``: ``{"width", "height"}``) are not controls."""
    tree = cdp.send("Accessibility.getFullAXTree")["nodes"]
    doc = cdp.send("DOMSnapshot.captureSnapshot", {"computedStyles": []})["documents"][0]
    backend = doc["nodes"]["backendNodeId"]
    boxes = {backend[i]: b for i, b in zip(doc["layout"]["nodeIndex"], doc["layout"]["bounds"], strict=True)}
    out = []
    for n in tree:
        if n.get("ignored"):
            continue
        role = n.get("role", {}).get("value", "")
        props = {p["name"]: p.get("value", {}).get("value") for p in n.get("properties", [])}
        if role in ("RootWebArea", "WebArea") or not (props.get("focusable") or role in CONTROL_ROLES):
            continue
        box = boxes.get(n.get("backendDOMNodeId"))
        if not box or box[2] < 1 or box[3] < 1:
            continue
        x, y, w, h = box
        if role not in CONTROL_ROLES and w >= viewport["width"] - 1 and h >= viewport["height"] - 1:
            continue  # the app's own view
        out.append({"role": role, "name": str(n.get("name", {}).get("value", "")).strip()[:100],
                    "x": x, "y": y, "w": w, "h": h})
    return out


def _dom_node(target: dict, nodes: list[dict]) -> dict | None:
    """The DOM node (of :data:`NODES_JS`) with the control's box, which says what list it is in."""
    for n in nodes:
        if all(abs(n[k] - target[k]) < 0.5 for k in ("x", "y", "w", "h")):
            return n
    return None


def _controls(snapshot: dict) -> list[dict]:
    """The snapshot's controls: its accessibility tree's (``targets``, :func:`ax_targets`) with the
    list each is in, and the DOM nodes Flutter makes tappable (``flt-tappable``) that the tree does
    not give as controls (a tap lands on them all the same); for a snapshot without ``targets``,
    its interactive DOM nodes. Links inside a paragraph's text are controls like any other."""
    if "targets" not in snapshot:
        return [n for n in snapshot["nodes"] if n["interactive"]]
    out, matched = [], set()
    for t in snapshot["targets"]:
        if not _on_screen(t, snapshot):
            continue  # outside the window: nothing to hit
        dom = _dom_node(t, snapshot["nodes"])
        if dom is not None:
            matched.add(dom["i"])
        out.append({**t, "clip": dom["clip"] if dom else None, "tag": t["role"]})
    for n in snapshot["nodes"]:
        if n["interactive"] and n["i"] not in matched and _on_screen(n, snapshot) and not any(
                all(abs(n[k] - t[k]) < 0.5 for k in ("x", "y", "w", "h")) for t in out):
            out.append({"role": n["role"] or "tappable", "name": n["name"], "x": n["x"], "y": n["y"],
                        "w": n["w"], "h": n["h"], "clip": n["clip"], "tag": n["tag"]})
    # the <input> Flutter lays inside a focused text box has no name of its own: the box it is in has
    return [c for c in out if c["name"] or not any(
        o is not c and o["name"] and o["role"] == c["role"] and _inside(c, o) for o in out)]


def _on_screen(c: dict, snapshot: dict) -> bool:
    return not (c["y"] + c["h"] <= 0 or c["y"] >= snapshot["vh"] or c["x"] + c["w"] <= 0 or c["x"] >= snapshot["vw"])


def _big_enough(c: dict) -> bool:
    return c["w"] >= MIN_TARGET - 0.5 and c["h"] >= MIN_TARGET - 0.5


def _key(c: dict) -> tuple[str, str]:
    return c["role"], c["name"]


def cut_controls(snapshot: dict) -> dict[tuple[str, str], str]:
    """The controls cut by their list's edge here to less than 48 px of themselves, each
    (role, name) with what it showed (a cut control that still shows 48 x 48 px is a target)."""
    return {_key(c): f"{c['role'] or c['tag']} {c['name']!r} showed only {c['w']:.0f} x {c['h']:.0f} px "
                     f"at y {c['y']:.0f} (cut by its list's edge) and was never seen whole"
            for c in _controls(snapshot) if not _in_view(c) and not _big_enough(c)}


def whole_controls(snapshot: dict) -> set[tuple[str, str]]:
    """The controls wholly in view here (judged by :func:`problems`), and those cut by their list's
    edge that still show 48 x 48 px of themselves (a control taller than its list)."""
    return {_key(c) for c in _controls(snapshot) if _in_view(c) or _big_enough(c)}


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
    for n in _controls(snapshot):
        if not _in_view(n):
            continue
        if not n["name"]:
            out.append(f"{n['role'] or n['tag']} without a name ({n['w']:.0f} x {n['h']:.0f} px at y {n['y']:.0f})")
        elif not _big_enough(n):
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
