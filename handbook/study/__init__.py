"""Self-study: what a player practises before a tournament, in three modules.

* :mod:`handbook.study.deck` — the **deck**: the cards drawn from the content
  (:func:`~handbook.study.deck.study_deck`, also ``handbook.study_deck``). Pure: content in, cards out.
* :mod:`handbook.study.scheduler` — the **scheduler**: what an answer does to a card (fsrs) and
  which card comes next. Pure: it reads progress records and stores nothing.
* :mod:`handbook.study.store` — the **store**: progress, bookmarks and recent lookups kept on the
  device through :mod:`handbook.storage` (TinyDB), export and import.

Each points one way, store → scheduler → deck → :mod:`handbook.core`; the deck and the scheduler
import neither flet, tinydb nor :mod:`handbook.storage` (import-linter contracts in
``pyproject.toml``), so ``import handbook`` gives the deck without any of them. This file imports
nothing, so importing the deck does not load the store.
"""
