"""Search over rule sections, penalty rows and glossary terms, in the words a judge types.

Normalisation makes the spellings people type meet the spellings the sources use:

* Unicode NFKC (full- and half-width forms fold together), case folding, katakana to hiragana;
* romaji: macrons to doubled vowels (ū -> uu), then long vowels collapsed (ryuukyoku, ryūkyoku and
  ryukyoku meet; taahai/tahai, shouhai/shohai), ``m`` before b/p/m as ``n`` (chombo/chonbo,
  tempai/tenpai), hyphenated and spaced words also indexed joined (kui-kae/kuikae);
* Japanese: small kana as full-size, long-vowel marks and doubled vowels collapsed (ショーハイ,
  ショウハイ and しょうはい meet; チヨンボ and チョンボ), ヅ as ツ, and the kanji spellings judges
  mix (喰/食, 自摸/ツモ, 和了/アガリ);
* English: Snowball stems (revealed/revealing/reveal) and, for the query, the dictionary lemma
  from simplemma (took -> take, drew -> draw, fell -> fall); filler words are dropped;
* a typo in a word of five or more letters is tolerated (RapidFuzz, Damerau-Levenshtein distance 1,
  2 for words of nine or more letters); the last word of a query also matches as a prefix, so
  results come as the user types;
* Japanese is matched as a substring of the Japanese fields, and a Japanese name found inside a
  longer query (携帯が鳴った contains 携帯) counts as a match.

Penalty rows are indexed with their foul's names (``content/fouls.toml``: English, Japanese,
kana, romaji and the ways people describe the incident) and the romaji of the glossary terms
naming the foul, so every ruleset's row is reached in any of those words, including the WRC
tables, whose source has no Japanese. Sections are indexed with their ``search`` words (the
handbook's, never shown: the glossary terms they name, Japanese, kana, romaji, descriptions) and,
more weakly, the Japanese, kana and romaji of every glossary term that cites them, so EMA's
sections, which have no Japanese subtitle, are reached in Japanese and romaji too.

A Japanese sentence is also matched by its content words (kanji and katakana runs; a run no field
holds, 和了放棄中, by its longest part some field holds) and by the name of a few fouls standing
inside it across its words (先ヅモして… holds 先ヅモ); romaji particles (ni, wo, ga, ka, kedo…) and
the verb "to do" are filler; a Japanese verb typed in romaji and conjugated (kakushiteta, okureta)
meets the English word the rules use for the act (:mod:`~handbook.core.search.romaji`); words read
as one romaji name fall back to the words one by one where the chosen ruleset lacks the name.

Ranking: every field has a weight (a title or term beats an alias, which beats a definition,
which beats body text); each query word counts by how rare it is in the corpus (idf), and a
document's score is scaled by the share of the query it matches, so an entry matching more of the
query ranks first and a filler or unknown word never empties the list. With a ruleset chosen,
only that ruleset's entries (and terms) are scored, so the decision is made per ruleset. A query
found as a phrase in a title, or equal to a name, gets a bonus; a term or a penalty row matched by
name lifts the sections it cites; ``2.4``, ``§3.4.6`` and WRC's ``12.3.1 (2)`` go straight to the
section or the rows that carry that reference (after a ruleset's name, "EMA 3.3.2", that ruleset's
first). "never", "didn't", "forgot" and "not" count as one word for the name bonuses.

The package, part by part: :mod:`~handbook.core.search.folding` (text folding, romaji keys, stems,
stopwords, synonyms), :mod:`~handbook.core.search.romaji` (Japanese verbs typed in romaji),
:mod:`~handbook.core.search.japanese` (kana folding, readings, character pairs), :mod:`~handbook.core.search.index` (the documents and their weighted fields),
:mod:`~handbook.core.search.matching` (a query's words against the index),
:mod:`~handbook.core.search.ranking` (the stages of :data:`~handbook.core.search.ranking.STAGES`
and every weight in :class:`~handbook.core.search.ranking.Weights`) and
:mod:`~handbook.core.search.cache` (memo, kept state); :mod:`~handbook.core.search.choice` (when
the best rulings are close: the candidates a judge chooses between and the question that separates
them).
"""

from __future__ import annotations

from handbook.core.search.cache import UNIT_MEMO, keep_loaded, paused_gc
from handbook.core.search.choice import CLOSE_RATIO, Candidate, Choice, candidates
from handbook.core.search.folding import (
    STOPWORDS, SYNONYMS, fold, lemma, ref_keys, romaji_bases, romaji_key, stems, warm_lemmatizer, words)
from handbook.core.search.index import SearchIndex
from handbook.core.search.japanese import kana_fold, romaji_of
from handbook.core.search.ranking import STAGES, WEIGHTS, Ranking, Weights

__all__ = [
    "CLOSE_RATIO", "Candidate", "Choice", "candidates",
    "STAGES", "STOPWORDS", "SYNONYMS", "UNIT_MEMO", "WEIGHTS", "Ranking", "SearchIndex", "Weights", "fold",
    "kana_fold", "keep_loaded", "lemma", "paused_gc", "ref_keys", "romaji_bases", "romaji_key", "romaji_of", "stems",
    "warm_lemmatizer", "words",
]
