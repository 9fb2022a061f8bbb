"""The handbook's own words and their translations.

Everything the handbook writes itself (provenance "handbook": glossary definitions and
explanations it wrote, ruleset and edition notes, edition histories, interpretations, conflict
notes, calculator notes, the scoring profiles' citations) is English in the content files; its translations live in
``content/<lang>/handbook.toml``, one ``[[text]]`` per English text::

    [[text]]
    en = "The WRC 2025 penalty table does not say what happens to the hand after a chombo. …"
    ja = "WRC 2025の罰則表は、錯和の後にその局をどう扱うかを定めていません。…"

The sources' own words (rule text, penalty cells, source-provenance definitions) are never
translated. :func:`handbook_texts` lists every English text that needs a translation;
:func:`load_translations` reads a language's file; :func:`check_translations` says what is
missing or stale (``python -m handbook check`` and the tests report it).

Sentences the calculators build in code are :class:`Note` objects: a ``str`` (the English, as
before) that also carries its template and fields, so a screen can translate the template with
gettext (the templates are marked with :func:`N_` for extraction) and fill in the fields.
Pure Python: this module imports neither flet nor tinydb.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from handbook.core import problems
from handbook.core.model import Library


def N_(message: str) -> str:
    """Marks a template for extraction into the screens' catalog (translated where it is shown)."""
    return message


class Note(str):
    """A sentence built in code: the English text, with ``template`` and ``fields`` kept so a
    screen can show it in another language (``_(note.template).format(**note.fields)``)."""

    template: str
    fields: dict[str, Any]

    def __new__(cls, template: str, **fields: Any) -> "Note":
        self = super().__new__(cls, template.format(**fields))
        self.template = template
        self.fields = fields
        return self

    def __reduce__(self):
        return (_note, (self.template, self.fields))


def _note(template: str, fields: dict[str, Any]) -> Note:
    return Note(template, **fields)


def handbook_texts(library: Library) -> dict[str, str]:  # noqa: C901 - one walk over the content
    """Every English text the handbook wrote itself that a screen shows, mapped to where it is
    (for a translator: ``"glossary uma: explanation"``). Calculator notes built in code are not
    here (they are :class:`Note` templates in the screens' catalog)."""
    out: dict[str, str] = {}

    def add(text: str | None, where: str) -> None:
        if text and text.strip() and text not in out:
            out[text] = where

    for c in library.foul_categories:
        add(c.name, f"fouls category {c.id}: name")
    for t in library.glossary:
        if t.provenance == "handbook":
            add(t.definition, f"glossary {t.id}: definition")
        add(t.explanation, f"glossary {t.id}: explanation")
    for rs in library.rulesets.values():
        add(rs.edition_short, f"rulesets {rs.id}: edition_short")
        add(rs.edition, f"rulesets {rs.id}: edition")
        add(rs.note, f"rulesets {rs.id}: note")
        for e in rs.editions:
            add(e.note, f"rulesets {rs.id}: edition {e.name} note")
            if not e.from_source:
                for c in e.changes:
                    add(c, f"rulesets {rs.id}: edition {e.name} change")
        for it in rs.interpretations:
            add(it.text, f"rulesets {rs.id}: interpretation")
        for s in rs.sections:
            add(s.conflict, f"rules {rs.id} {s.ref}: conflict")
            for x in s.interpretations:
                add(x, f"rules {rs.id} {s.ref}: interpretation")
        for r in rs.penalties:
            add(r.conflict, f"penalties {rs.id} {r.id}: conflict")
            for x in r.interpretations:
                add(x, f"penalties {rs.id} {r.id}: interpretation")
    _rulings_texts(library.rulings, add)
    for rid, profile in library.scoring.items():
        add(profile.follows_ref, f"scoring {rid}: follows_ref")
        for key, option in profile.options.items():
            add(option.cite, f"scoring {rid} option {key}: cite")
    return out


def _rulings_texts(rulings, add) -> None:  # noqa: C901 - one walk over the calculators' notes
    """The calculators' notes (content/rulings.toml) into ``add``."""
    if rulings is None:
        return
    for rid, spec in rulings.revealed.items():
        for band in (spec.during_deal, *spec.bands):
            for n in (*spec.notes, *spec.wall_notes, *band.notes):
                add(n, f"rulings revealed_tiles {rid}: note")
    for rid, cspec in rulings.chombo.items():
        for n in (*cspec.get("notes", ()), cspec.get("points_note"), cspec.get("edition_name")):
            add(n, f"rulings chombo {rid}: note")
        for k, ed in cspec.get("editions", {}).items():
            for n in (*ed.get("notes", ()), ed.get("points_note"), ed.get("name")):
                add(n, f"rulings chombo {rid} edition {k}: note")
    for rid, fspec in rulings.final.items():
        for n in (*fspec.notes, *(ex.text for ex in fspec.examples), fspec.edition_name):
            add(n, f"rulings final_score {rid}: note")
        for k, ed in fspec.editions.items():
            for n in (*ed.get("notes", ()), ed.get("name")):
                add(n, f"rulings final_score {rid} edition {k}: note")


def translation_path(content_dir: str | Path, lang: str) -> Path:
    return Path(content_dir) / lang / "handbook.toml"


def load_translations(content_dir: str | Path, lang: str) -> dict[str, str]:
    """``{English: translation}`` from ``content/<lang>/handbook.toml`` (empty if there is none).
    Raises ``ValueError`` naming the file and the entry for an entry without ``en`` or ``ja``
    text, or an English text given twice."""
    path = translation_path(content_dir, lang)
    if not path.is_file():
        return {}
    with open(path, "rb") as fh:
        doc = problems.tomllib.load(fh)  # the compiled parser where installed, as for the content
    out: dict[str, str] = {}
    for i, t in enumerate(doc.get("text", [])):
        en, tr = t.get("en"), t.get(lang)
        if not isinstance(en, str) or not isinstance(tr, str) or not en.strip() or not tr.strip() or set(t) - {"en", lang}:
            raise ValueError(f"{lang}/handbook.toml [text {i + 1}]: needs exactly `en` and `{lang}`, both text")
        en, tr = en.strip(), tr.strip()
        if en in out:
            raise ValueError(f"{lang}/handbook.toml [text {i + 1}]: this English text is given twice")
        out[en] = tr
    return out


def check_translations(library: Library, translations: dict[str, str]) -> tuple[list[str], list[str]]:
    """``(missing, stale)``: the handbook's texts without a translation (where they are) and
    translations of texts the handbook no longer has."""
    texts = handbook_texts(library)
    missing = [f"{where}: {en[:70]}…" for en, where in texts.items() if en.strip() not in translations]
    known = {en.strip() for en in texts}
    stale = [en[:70] + "…" for en in translations if en not in known]
    return missing, stale


__all__ = ["N_", "Note", "check_translations", "handbook_texts", "load_translations", "translation_path"]
