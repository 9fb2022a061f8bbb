"""The glossary's numbers agree with the calculators: every worked example a term carries
(``[[term.example]]`` in content/glossary.toml) is computed with handbook.final_score,
handbook.chombo or handbook.revealed_tiles, and every points figure the handbook writes in a
definition or explanation is either computed by one of them or stands in a section the term cites.
Figures inside “…” are the source's words, quoted."""

from __future__ import annotations

import re

import pytest

import handbook

_FIGURE = re.compile(r"[+−-]?\d{1,3}(?:,\d{3})+|[+−]\d+(?:/[+−]\d+)*|\b\d+P\b")
_QUOTED = re.compile(r"“[^”]*”")


def _get(result, path):
    value = result
    for part in path.split("."):
        if isinstance(value, tuple) and value and hasattr(value[0], "seat"):
            value = next(r for r in value if r.seat == part)
        elif isinstance(value, dict) or hasattr(value, "keys"):
            value = value[part]
        else:
            value = getattr(value, part)
    return value


def _call(example):
    args = dict(example.args)
    if example.tool == "final_score":
        return handbook.final_score(args.pop("ruleset"), args.pop("scores"), **args)
    if example.tool == "chombo":
        return handbook.chombo(args.pop("ruleset"), args.pop("offender"), **args)
    return handbook.revealed_tiles(args.pop("ruleset"), args.pop("tiles"), **args)


def _examples(library):
    return [(t, e) for t in library.glossary for e in t.examples]


def test_the_glossary_has_worked_examples(library):
    ids = {t.id for t, _ in _examples(library)}
    assert {"uma", "chombo-payment"} <= ids


@pytest.mark.parametrize("term_id", ["uma", "chombo-payment"])
def test_every_worked_example_is_what_the_calculator_gives(library, term_id):
    term = library.term(term_id)
    text = f"{term.definition} {term.explanation or ''}"
    for ex in term.examples:
        assert ex.says in text, f"{term_id}: the example's words {ex.says!r} are not in the text"
        result = _call(ex)
        for path, want in ex.expect.items():
            got = _get(result, path)
            assert got == pytest.approx(want), f"{term_id}: {ex.says!r}: {path} is {got}, the text says {want}"


def _norm(figure: str) -> str:
    return figure.replace(",", "").replace("−", "-").lstrip("+-")


def test_every_figure_the_handbook_writes_is_computed_or_cited(library):
    """A figure the handbook writes (15,000, +20, 30P) is checked: an example computes it, or a
    section the term cites holds it (4000 in EMA RCR 3.4.6)."""
    unchecked = []
    for t in library.glossary:
        if t.provenance != "handbook":
            continue
        for text in (t.definition, t.explanation or ""):
            own = _QUOTED.sub("", text)
            proved = " ".join(e.says for e in t.examples)
            cited = " ".join(library.rulesets[rid].section(ref).text for rid, ref in t.refs)
            cited_numbers = {_norm(m) for m in re.findall(r"\d[\d,]*P?", cited)}
            for m in _FIGURE.finditer(own):
                fig = m.group(0)
                if fig in proved:
                    continue
                parts = [_norm(p) for p in fig.split("/")]
                if all(p in cited_numbers or p.rstrip("P") in cited_numbers for p in parts):
                    continue
                unchecked.append(f"{t.id}: {fig!r} in {text[:80]!r}…")
    assert not unchecked, "figures neither computed by an example nor in a cited section:\n" + "\n".join(unchecked)
