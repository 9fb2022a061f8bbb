"""A hand's value as a judge checks it: yaku, han, fu, the value as announced and who pays what.

Counting yaku, han and fu is the ``mahjong`` package's (MahjongRepository, PyPI ``mahjong``):
:class:`mahjong.hand_calculating.hand.HandCalculator`. This module does the rest: the MPSZ tile
notation and its errors, the tile-count checks, the ruleset's scoring profile
(``content/scoring.toml``, :mod:`handbook.core.scoring_data`), the payments with counters (honba)
and riichi deposits, and the ruling for a win without yaku (the ruleset's penalty row for an
empty call for a win).

Payments are in table points. Counters: 300 per counter on a win by discard (the discarder pays
it), 100 per counter from each payer on a self-draw (EMA RCR §3.4.10; WRC likewise). Riichi
deposits (1,000 each) go to the winner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from handbook.core.load import default_library
from handbook.core.scoring_data import Option, Profile
from handbook.core.texts import N_, Note
from handbook.core.yaku_names import DORA, YAKU, fu_words

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Library, PenaltyRow

SEATS = ("E", "S", "W", "N")
MELD_KINDS = ("chi", "pon", "kan", "ankan")
SUITS = "mpsz"
_SUIT_NAMES = {"m": "characters", "p": "circles", "s": "bamboo", "z": "honours"}
_GROUP = re.compile(r"([0-9]+)([a-zA-Z]?)")
_LIMIT_NAMES = {"mangan": "mangan", "haneman": "haneman", "baiman": "baiman", "sanbaiman": "sanbaiman"}
_MULTI = {1: N_("yakuman"), 2: N_("double yakuman"), 3: N_("triple yakuman"), 4: N_("quadruple yakuman"),
          5: N_("quintuple yakuman"), 6: N_("sextuple yakuman")}

#: the foul ids a note names, as catalog messages: the English note keeps the id; a translation
#: names the penalty table's row in words ("誤ロン・誤ツモ（空振り）")
_FOUL_IDS = {"empty-call-win": N_("empty-call-win")}


@dataclass(frozen=True, slots=True)
class Yaku:
    """One scoring item: a yaku, or the dora, red fives or ura dora counted as one entry.

    ``name`` in English, ``name_ja`` as on a Japanese yaku sheet, ``han`` as counted in this hand
    (13 for a yakuman, 26 for a double yakuman); ``option`` the scoring option of the ruleset
    that decided it (open tanyao, red fives), if one did; ``id`` the ``mahjong`` package's name."""

    name: str
    name_ja: str
    han: int
    id: str = ""
    option: Option | None = None

    @property
    def is_dora(self) -> bool:
        return self.id in DORA


@dataclass(frozen=True)
class HandValue:
    """The value of one winning hand under one ruleset (see :func:`hand_value`).

    ``payments``: table points per seat ``E S W N`` (positive: received), counters and deposits
    included; they sum to ``1,000 × deposits``. ``points``: the value as announced at the table
    (``"3,900"``, ``"1,300/2,600"``, ``"4,000 all"``; counters excluded). ``options``: the scoring
    options of the ruleset that changed the result, each with its source (also in ``notes``)."""

    han: int
    fu: int
    yaku: tuple[Yaku, ...]
    fu_details: tuple[tuple[int, str], ...]
    limit: str | None
    points: str
    payments: dict[str, int]
    no_yaku: bool
    foul: str | None
    notes: tuple[str, ...]
    ruleset: str = ""
    options: tuple[Option, ...] = ()
    fu_reasons: tuple[str, ...] = ()
    foul_rows: tuple["PenaltyRow", ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: ``index`` 0–33 (``0``–``8`` 1m–9m, ``9``–``17`` 1p–9p, ``18``–``26`` 1s–9s,
    ``27``–``33`` East, South, West, North, white, green, red), ``red`` for a red five."""

    index: int
    red: bool = False

    def __str__(self) -> str:
        suit, num = divmod(self.index, 9)
        return f"{0 if self.red else num + 1}{SUITS[suit]}"


# --- the notation ---------------------------------------------------------------------------

def parse_tiles(text: str, argument: str = "hand") -> list[Tile]:
    """Tiles in MPSZ notation (``"123m055p"``; ``0`` a red five; ``1z``–``7z`` East, South,
    West, North, white, green, red). Raises ``ValueError`` naming ``argument`` for anything else."""
    if not isinstance(text, str):
        raise ValueError(f"{argument}: expected tiles in MPSZ notation as text (e.g. '234m55p'), got {text!r}")
    compact = re.sub(r"\s+", "", text)
    tiles: list[Tile] = []
    pos = 0
    while pos < len(compact):
        m = _GROUP.match(compact, pos)
        if m is None:
            raise ValueError(f"{argument}: {compact[pos]!r} in {text!r} is not a tile: write digits then a suit "
                             "letter m (characters), p (circles), s (bamboo) or z (honours), e.g. '234m55p'")
        digits, suit = m.group(1), m.group(2)
        if not suit:
            raise ValueError(f"{argument}: the digits {digits!r} in {text!r} have no suit letter (m, p, s or z)")
        if suit not in SUITS:
            raise ValueError(f"{argument}: unknown suit letter {suit!r} in {text!r}; allowed: m, p, s, z")
        for d in digits:
            n = int(d)
            if suit == "z" and not 1 <= n <= 7:
                raise ValueError(f"{argument}: {d}z is not a tile: honours are 1z–7z (East, South, West, North, "
                                 "white, green, red)")
            red = n == 0
            tiles.append(Tile(SUITS.index(suit) * 9 + (4 if red else n - 1), red))
        pos = m.end()
    return tiles


def tiles_text(tiles: Sequence[Tile]) -> str:
    """MPSZ notation of ``tiles`` in the order given, one suit letter per run (``"234m55p"``)."""
    out, run, suit = [], "", None
    for t in tiles:
        s = str(t)
        if s[1] != suit and run:
            out.append(run + suit)
            run = ""
        run += s[0]
        suit = s[1]
    if run:
        out.append(run + suit)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Meld:
    """A called or concealed set: ``kind`` ``chi``, ``pon``, ``kan`` (open or added) or ``ankan``."""

    kind: str
    tiles: tuple[Tile, ...]

    @property
    def opened(self) -> bool:
        return self.kind != "ankan"


def parse_meld(text: str) -> Meld:
    """``"pon 555z"`` -> :class:`Meld`; raises ``ValueError`` naming ``melds``."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"melds: expected '<kind> <tiles>' such as 'pon 555z', got {text!r}")
    kind, _, rest = text.strip().partition(" ")
    kind = kind.lower()
    if kind not in MELD_KINDS:
        raise ValueError(f"melds: unknown kind {kind!r} in {text!r}; allowed: {', '.join(MELD_KINDS)}")
    tiles = tuple(sorted(parse_tiles(rest, "melds"), key=lambda t: t.index))
    idx = [t.index for t in tiles]
    if kind == "chi":
        if len(tiles) != 3 or idx[0] >= 27 or idx[0] // 9 != idx[2] // 9 or idx != [idx[0], idx[0] + 1, idx[0] + 2]:
            raise ValueError(f"melds: {text!r} is not a chi: three tiles in a run of one suit (e.g. 'chi 345p')")
    elif len(tiles) != (3 if kind == "pon" else 4) or len(set(idx)) != 1:
        n = 3 if kind == "pon" else 4
        raise ValueError(f"melds: {text!r} is not a {kind}: {n} identical tiles (e.g. '{kind} {'5' * n}z')")
    return Meld(kind, tiles)


# --- the hand's value -----------------------------------------------------------------------

def hand_value(ruleset: str, hand: str, *, win: str, melds: Sequence[str] = (), tsumo: bool = False,
               discarder: str | None = None, seat: str = "E", round_wind: str = "E",
               riichi: bool = False, double_riichi: bool = False, ippatsu: bool = False,
               rinshan: bool = False, chankan: bool = False, haitei: bool = False, houtei: bool = False,
               dora: Sequence[str] = (), ura: Sequence[str] = (), honba: int = 0,
               deposits: int = 0, library: "Library | None" = None) -> HandValue:
    """The value of a winning hand under ``ruleset``'s scoring profile.

    ``hand``: the concealed tiles including the winning tile, MPSZ (``0`` a red five); ``win``:
    the winning tile (in ``hand``); ``melds``: ``"<kind> <tiles>"`` with kind chi, pon, kan or
    ankan; ``seat``/``round_wind``/``discarder``: ``"E" "S" "W" "N"`` (East is the dealer;
    ``discarder`` for a ron only); ``dora``/``ura``: indicator tiles as shown; ``honba``: counters
    on the table; ``deposits``: riichi sticks on the table (the winner takes them).

    Returns :class:`HandValue`. A complete hand without yaku (or with fewer than the ruleset asks
    for: EMA RCR §3.4.11) pays nothing; ``foul`` is then the ruleset's penalty row id for an empty
    call for a win. Raises ``ValueError`` naming the argument for an unknown ruleset, tile, suit
    letter or meld; a tile more than four times across hand, melds and indicators; a ``win`` not
    in ``hand``; a tile count that does not make four sets and a pair with the melds; a hand that
    is not complete; a ``discarder`` missing for a ron, given for a tsumo or equal to ``seat``;
    ``ippatsu`` without riichi; and win conditions that cannot go together (rinshan on a ron,
    rinshan without a quad among ``melds``, ippatsu with rinshan, chankan when the hand holds another
    copy of the robbed tile …).
    """
    from mahjong.hand_calculating.hand import HandCalculator

    lib = library if library is not None else default_library()
    profile = _profile(lib, ruleset)
    _check_flags(tsumo=tsumo, riichi=riichi, double_riichi=double_riichi, ippatsu=ippatsu, rinshan=rinshan,
                 chankan=chankan, haitei=haitei, houtei=houtei)
    for name, value in (("seat", seat), ("round_wind", round_wind)):
        if value not in SEATS:
            raise ValueError(f"{name}: unknown wind {value!r}; allowed: E, S, W, N")
    _check_discarder(tsumo, discarder, seat)
    for name, value in (("honba", honba), ("deposits", deposits)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name}: expected a whole number of 0 or more, got {value!r}")
    if ippatsu and not (riichi or double_riichi):
        raise ValueError("ippatsu: only with riichi or double_riichi")

    red = bool(profile["red_fives"].value)
    tiles = parse_tiles(hand, "hand")
    win_tile = _one_tile(win)
    if isinstance(melds, str):
        raise ValueError(f"melds: expected a list of melds such as ['pon 555z'], got the text {melds!r}")
    meld_list = [parse_meld(m) for m in melds]
    dora_tiles = _indicators(dora, "dora")
    ura_tiles = _indicators(ura, "ura")
    _check_counts(tiles, meld_list, dora_tiles, ura_tiles, red)
    if not any(t.index == win_tile.index for t in tiles):
        raise ValueError(f"win: {win_tile} is not in hand {hand!r}: the winning tile is one of the hand's tiles")
    if len(meld_list) > 4:
        raise ValueError(f"melds: at most 4 melds, got {len(meld_list)}")
    need = 14 - 3 * len(meld_list)
    if len(tiles) != need:
        with_melds = (f"with {len(meld_list)} meld{'s' if len(meld_list) != 1 else ''}"
                      if meld_list else "with no melds")
        raise ValueError(f"hand: {need} tiles needed {with_melds}, {len(tiles)} given")
    _check_complete(tiles)
    _check_win_conditions(tiles, meld_list, win_tile, rinshan=rinshan, chankan=chankan)
    if (riichi or double_riichi) and any(m.opened for m in meld_list):
        raise ValueError(f"{'double_riichi' if double_riichi else 'riichi'}: not with an open meld "
                         "(chi, pon or open kan)")

    alloc = _Allocator(red)
    hand136 = [alloc.take(t, "hand") for t in tiles]
    meld_objs = _library_melds(meld_list, alloc)
    all136 = hand136 + [i for m in meld_objs for i in m.tiles]
    win136 = _win_index(hand136, tiles, win_tile)
    dora136 = [alloc.take(t, "dora") for t in dora_tiles]
    ura136 = [alloc.take(t, "ura") for t in ura_tiles]
    config = _config(profile, tsumo=tsumo, seat=seat, round_wind=round_wind, riichi=riichi,
                     double_riichi=double_riichi, ippatsu=ippatsu, rinshan=rinshan, chankan=chankan,
                     haitei=haitei, houtei=houtei)
    res = HandCalculator.estimate_hand_value(all136, win136, melds=meld_objs, dora_indicators=dora136,
                                             config=config, ura_dora_indicators=ura136)
    ctx = _Context(lib, profile, ruleset, tiles, meld_list, tsumo, seat, discarder, honba, deposits)
    ctx.chankan = chankan
    ctx.note_reds(red, tiles, meld_list, dora_tiles + ura_tiles)
    if ura_tiles and not (riichi or double_riichi):
        ctx.notes.append(Note(N_("Ura dora count only with riichi: the ura dora indicators were not counted.")))
    if res.error == HandCalculator.ERR_NO_YAKU:
        ctx.note_open_tanyao(is_open=any(m.opened for m in meld_list), counted=False)
        return ctx.nothing(han=0, fu=0, yaku=(), fu_details=(), reasons=(), why=Note(N_("no yaku")))
    if res.error:
        raise ValueError(_library_error(res.error))
    return ctx.value(res, config)


def scoring_profile(ruleset: str, library: "Library | None" = None) -> Profile:
    """``ruleset``'s scoring profile (``content/scoring.toml``); ``ValueError`` naming ``ruleset``
    for an unknown ruleset or one without a profile."""
    return _profile(library if library is not None else default_library(), ruleset)


def _profile(lib: "Library", ruleset: str) -> Profile:
    profiles = lib.scoring
    if not isinstance(ruleset, str) or ruleset not in lib.rulesets:
        raise ValueError(f"ruleset: unknown ruleset {ruleset!r}; allowed: {', '.join(sorted(lib.rulesets))}")
    if ruleset not in profiles:
        raise ValueError(f"ruleset: {ruleset!r} has no scoring profile in scoring.toml; "
                         f"profiles: {', '.join(sorted(profiles)) or 'none'}")
    return profiles[ruleset]


def _check_flags(**flags: object) -> None:
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise ValueError(f"{name}: expected True or False, got {value!r}")
    if flags["rinshan"] and not flags["tsumo"]:
        raise ValueError("rinshan: a win on the replacement tile after a quad is a self-draw (tsumo=True)")
    if flags["haitei"] and not flags["tsumo"]:
        raise ValueError("haitei: a win on the last tile drawn is a self-draw (tsumo=True); on the last discard use houtei")
    if flags["chankan"] and flags["tsumo"]:
        raise ValueError("chankan: robbing a quad is a win on another player's tile, not a self-draw")
    if flags["houtei"] and flags["tsumo"]:
        raise ValueError("houtei: a win on the last discard is not a self-draw; on the last tile drawn use haitei")
    if flags["haitei"] and flags["rinshan"]:
        raise ValueError("haitei: not together with rinshan (a replacement tile is not the last tile of the wall)")
    if flags["houtei"] and flags["chankan"]:
        raise ValueError("houtei: not together with chankan")
    if flags["ippatsu"] and flags["rinshan"]:
        raise ValueError("ippatsu: not together with rinshan (the winner's own quad ends ippatsu)")


def _check_win_conditions(tiles: list[Tile], melds: list[Meld], win: Tile, *, rinshan: bool, chankan: bool) -> None:
    """Rinshan needs a quad among the winner's melds; chankan a winner holding no other copy of the
    robbed tile (the quad being made holds the other three)."""
    if rinshan and not any(m.kind in ("kan", "ankan") for m in melds):
        raise ValueError("rinshan: a win on the replacement tile needs a quad among the winner's melds "
                         "(kan or ankan); none given")
    if chankan:
        held = sum(t.index == win.index for t in tiles) + sum(t.index == win.index for m in melds for t in m.tiles)
        if held > 1:
            raise ValueError(f"chankan: the hand holds {held} of {Tile(win.index)}; the robbed quad holds the "
                             "other copies, so the winner can hold only the robbed tile")


def _check_discarder(tsumo: bool, discarder: str | None, seat: str) -> None:
    if tsumo:
        if discarder is not None:
            raise ValueError(f"discarder: not allowed with tsumo=True (a self-draw has no discarder), got {discarder!r}")
        return
    if discarder is None:
        raise ValueError("discarder: required for a ron (tsumo=False): E, S, W or N")
    if discarder not in SEATS:
        raise ValueError(f"discarder: unknown wind {discarder!r}; allowed: E, S, W, N")
    if discarder == seat:
        raise ValueError(f"discarder: {discarder!r} is the winner's own seat; the discarder is another player")


def _one_tile(text: object) -> Tile:
    tiles = parse_tiles(text, "win")  # type: ignore[arg-type]
    if len(tiles) != 1:
        raise ValueError(f"win: expected one tile such as '5p', got {text!r}")
    return tiles[0]


def _indicators(values: Sequence[str], argument: str) -> list[Tile]:
    if isinstance(values, str):
        return parse_tiles(values, argument)
    out: list[Tile] = []
    for v in values:
        out.extend(parse_tiles(v, argument))
    return out


def _check_counts(tiles, melds, dora, ura, red: bool) -> None:
    counts = [0] * 34
    reds = [0, 0, 0]
    groups = [("hand", tiles)] + [("melds", m.tiles) for m in melds] + [("dora", dora), ("ura", ura)]
    for argument, group in groups:
        for t in group:
            counts[t.index] += 1
            if counts[t.index] > 4:
                raise ValueError(f"{argument}: {Tile(t.index)} is counted {counts[t.index]} times across hand, "
                                 "melds and indicators; there are 4 of each tile")
            if red and t.red:
                reds[t.index // 9] += 1
                if reds[t.index // 9] > 1:
                    raise ValueError(f"{argument}: {t} is counted {reds[t.index // 9]} times; "
                                     "the set has one red five of each suit")


def _check_complete(tiles: list[Tile]) -> None:
    from mahjong.shanten import Shanten

    arr = [0] * 34
    for t in tiles:
        arr[t.index] += 1
    shanten = Shanten.calculate_shanten(arr, use_chiitoitsu=len(tiles) == 14, use_kokushi=len(tiles) == 14)
    if shanten >= 0:
        far = ("it is tenpai: one tile from a win" if shanten == 0
               else f"{shanten} tile{'s' if shanten != 1 else ''} from tenpai")
        raise ValueError(f"hand: not a complete hand — {far}")


class _Allocator:
    """Gives each tile one of its four copies in the ``mahjong`` package's 136 numbering; a red
    five is copy 0 of its five (the package's aka dora) where the ruleset has red fives."""

    def __init__(self, red: bool):
        self.red = red
        self.free = {i: [0, 1, 2, 3] for i in range(34)}
        if red:
            for five in (4, 13, 22):
                self.free[five] = [1, 2, 3]
        self.red_free = {4: True, 13: True, 22: True}

    def take(self, tile: Tile, argument: str) -> int:
        if self.red and tile.red:
            self.red_free[tile.index] = False
            return tile.index * 4
        free = self.free[tile.index]
        if not free:  # four plain fives where the set has a red one
            raise ValueError(f"{argument}: {tile} is counted 4 times as a plain five; this ruleset's set has one "
                             f"red five of each suit: write it as 0{str(tile)[1]}")
        return tile.index * 4 + free.pop(0)


def _library_melds(melds: list[Meld], alloc: _Allocator):
    from mahjong.meld import Meld as LibMeld

    kinds = {"chi": LibMeld.CHI, "pon": LibMeld.PON, "kan": LibMeld.KAN, "ankan": LibMeld.KAN}
    return [LibMeld(meld_type=kinds[m.kind], tiles=[alloc.take(t, "melds") for t in m.tiles], opened=m.opened)
            for m in melds]


def _win_index(hand136: list[int], tiles: list[Tile], win: Tile) -> int:
    same = [i for i, t in zip(hand136, tiles, strict=True) if t.index == win.index]
    exact = [i for i, t in zip(hand136, tiles, strict=True) if t == win]
    return (exact or same)[0]


def _config(profile: Profile, *, tsumo, seat, round_wind, riichi, double_riichi, ippatsu, rinshan, chankan,
            haitei, houtei):
    from mahjong.hand_calculating.hand_config import HandConfig

    winds = {"E": 27, "S": 28, "W": 29, "N": 30}
    options = optional_rules(profile)
    return HandConfig(is_tsumo=tsumo, is_riichi=riichi or double_riichi, is_daburu_riichi=double_riichi,
                      is_ippatsu=ippatsu, is_rinshan=rinshan, is_chankan=chankan, is_haitei=haitei,
                      is_houtei=houtei, player_wind=winds[seat], round_wind=winds[round_wind], options=options)


def optional_rules(profile: Profile):
    """The ``mahjong`` package's ``OptionalRules`` for a ruleset's scoring profile."""
    from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules

    return OptionalRules(
        has_open_tanyao=bool(profile["open_tanyao"].value), has_aka_dora=bool(profile["red_fives"].value),
        has_double_yakuman=profile["double_yakuman"].value != "none",
        kazoe_limit=(HandConstants.KAZOE_LIMITED if profile["kazoe"].value == "yakuman"
                     else HandConstants.KAZOE_SANBAIMAN),
        kiriage=bool(profile["kiriage"].value), fu_for_open_pinfu=bool(profile["open_pinfu_fu"].value))


def limit_level(han: int, fu: int, config, is_yakuman: bool, cost=None) -> str:
    """The ``mahjong`` package's limit level for ``han``/``fu`` (``"mangan"``, ``"kiriage mangan"``,
    ``"haneman"`` … or ``""`` below mangan). With kiriage on, the package (2.1.0) leaves the level
    empty for a hand of 4 han or less whose fu reach a mangan (4 han 40 fu); the payment is the
    package's mangan payment then, so the level is ``"mangan"``."""
    from mahjong.hand_calculating.scores import ScoresCalculator

    cost = cost if cost is not None else ScoresCalculator.calculate_scores(han, fu, config, is_yakuman)
    level = cost["yaku_level"]
    if not level and han < 5:
        mangan = ScoresCalculator.calculate_scores(5, fu, config, False)
        if (cost["main"], cost["additional"]) == (mangan["main"], mangan["additional"]):
            return "mangan"
    return level


def _library_error(code: str) -> str:
    return {
        "open_hand_riichi_not_allowed": "riichi: not with an open meld",
        "open_hand_daburi_not_allowed": "double_riichi: not with an open meld",
        "hand_not_winning": "hand: not a complete hand with these melds",
    }.get(code, f"hand: the hand cannot be scored ({code.replace('_', ' ')})")


def _ceil10(n: int) -> int:
    return -(-n // 10) * 10


class _Context:
    """What :func:`hand_value` knows while it settles the result."""

    def __init__(self, lib, profile: Profile, ruleset, tiles, melds, tsumo, seat, discarder, honba, deposits):
        self.lib, self.profile, self.ruleset = lib, profile, ruleset
        self.tiles, self.melds = tiles, melds
        self.tsumo, self.seat, self.discarder = tsumo, seat, discarder
        self.honba, self.deposits = honba, deposits
        self.notes: list[str] = []  # Note templates (the English is the str; screens translate them)
        self.used: list[Option] = []
        self.chankan = False
        self.red_names = ""   # red fives shown where the ruleset has them; noted once counted

    # -- notes -------------------------------------------------------------------------------
    def use(self, key: str, text: Note) -> Option:
        option = self.profile[key]
        if option.via and self.profile.follows_ref:
            self.notes.append(Note(N_("{text} — {source} ({follows})."), text=text, source=option.source(),
                                   follows=self.profile.follows_ref))
        else:
            self.notes.append(Note(N_("{text} — {source}."), text=text, source=option.source()))
        if option not in self.used:
            self.used.append(option)
        return option

    def note_reds(self, red: bool, tiles, melds, indicators) -> None:
        shown = [t for t in tiles if t.red] + [t for m in melds for t in m.tiles if t.red]
        if not shown and not any(t.red for t in indicators):
            return
        names = ", ".join(sorted({str(t) for t in shown}))
        if red:
            self.red_names = names if shown else ""
        elif not shown:
            self.use("red_fives", Note(N_("a red five indicator counted as plain fives: this ruleset has no red fives")))
        elif len(shown) == 1:
            self.use("red_fives", Note(N_("{names} counted as plain five: this ruleset has no red fives"), names=names))
        else:
            self.use("red_fives", Note(N_("{names} counted as plain fives: this ruleset has no red fives"), names=names))

    def note_open_tanyao(self, *, is_open: bool, counted: bool) -> Option | None:
        all_tiles = list(self.tiles) + [t for m in self.melds for t in m.tiles]
        simples = all(t.index < 27 and t.index % 9 not in (0, 8) for t in all_tiles)
        if not (is_open and simples):
            return None
        if self.profile["open_tanyao"].value:
            return self.use("open_tanyao", Note(N_("All simples (tanyao) counts with an open hand")))
        return self.use("open_tanyao", Note(N_("All simples (tanyao) does not count with an open hand")))

    # -- results -----------------------------------------------------------------------------
    def nothing(self, *, han, fu, yaku, fu_details, reasons, why: str) -> HandValue:
        foul = self.profile.empty_call_foul
        rows = tuple(self.lib.rulesets[self.ruleset].rows(foul)) if foul else ()
        if foul:
            self.notes.append(Note(N_("A win declared with {why} is an empty call for a win: "
                                      "see the penalty table ({foul}); nothing is paid."), why=why,
                                   foul=Note(_FOUL_IDS[foul]) if foul in _FOUL_IDS else foul))
        else:
            self.notes.append(Note(N_("A win declared with {why} pays nothing; this ruleset's penalty table has no "
                                      "row for an empty call for a win."), why=why))
        return HandValue(han=han, fu=fu, yaku=yaku, fu_details=fu_details, limit=None, points="0",
                         payments={s: 0 for s in SEATS}, no_yaku=True, foul=foul, notes=tuple(self.notes),
                         ruleset=self.ruleset, options=tuple(self.used), fu_reasons=reasons, foul_rows=rows)

    def value(self, res, config) -> HandValue:
        from mahjong.hand_calculating.scores import ScoresCalculator

        is_open = bool(res.is_open_hand)
        lib_yaku = list(res.yaku or [])
        tanyao_option = self.note_open_tanyao(is_open=is_open, counted=True)
        yakuman = [y for y in lib_yaku if y.is_yakuman]
        han, fu = int(res.han), int(res.fu)
        details = [(int(d["fu"]), str(d["reason"])) for d in (res.fu_details or [])]
        if yakuman:
            units = self._yakuman_units(yakuman)
            han = 13 * units
        else:
            fu, details = self._fu_options(fu, details, is_open)
        yaku = tuple(self._yaku(y, is_open, tanyao_option) for y in lib_yaku)
        if yakuman:
            yaku = self._uncounted_yakuman(yaku)
        if self.red_names:
            if any(y.id == "AkaDora" for y in yaku):
                self.use("red_fives", Note(N_("Red fives count as dora ({names})"), names=self.red_names))
            elif yakuman:
                self.use("red_fives", Note(N_("Red fives are not counted in a yakuman ({names})"),
                                           names=self.red_names))
        if self.chankan and any(y.id in ("KokushiMusou", "DaburuKokushiMusou") for y in yaku):
            self.use("kokushi_robs_concealed_kan",
                     Note(N_("Thirteen orphans may rob a concealed quad as well as an added one"))
                     if self.profile["kokushi_robs_concealed_kan"].value
                     else Note(N_("Thirteen orphans may rob an added quad only, not a concealed one")))
        real = [y for y in yaku if not y.is_dora]
        need = self.profile["two_yaku_counters"].value
        if need and self.honba >= need:
            self.use("two_yaku_counters", Note(N_("{n} counters on the table: two yaku are needed"), n=self.honba))
            if len(real) < 2 and not yakuman:
                return self.nothing(han=han, fu=fu, yaku=yaku, fu_details=tuple(
                    (f, fu_words(f, r)) for f, r in details), reasons=tuple(r for _, r in details),
                    why=Note(N_("one yaku where two are needed")))
        cost = ScoresCalculator.calculate_scores(han, fu, config, bool(yakuman))
        level = limit_level(han, fu, config, bool(yakuman), cost)
        limit = self._limit(level, han, fu, yakuman)
        if limit is not None and (yakuman or han >= 5):
            fu, details = 0, []
        return self._settle(han, fu, yaku, details, limit, cost)

    def _yakuman_units(self, yakuman) -> int:
        rule = self.profile["double_yakuman"].value
        units = [y.han_closed // 13 for y in yakuman]
        names = {type(y).__name__ for y in yakuman}
        if rule == "all":
            total = sum(units)
            if total > 1:
                self.use("double_yakuman", Note(N_("Counted as {limit}"), limit=Note(_MULTI[min(total, 6)])))
            return min(total, 6)
        doubles = {"DaburuKokushiMusou", "SuuankouTanki", "DaburuChuurenPoutou", "DaiSuushii"}
        if rule == "combined":   # each yakuman once, several add up
            total = min(len(yakuman), 6)
        else:
            total = 2 if rule == "daisuushii" and "DaiSuushii" in names else 1
        if len(yakuman) > 1 or names & doubles:
            self.use("double_yakuman", Note(N_("Counted as {limit}"), limit=Note(_MULTI[total])))
        return total

    def _uncounted_yakuman(self, yaku: tuple[Yaku, ...]) -> tuple[Yaku, ...]:
        """Where yakuman do not add up (``double_yakuman`` ``none`` or ``daisuushii``), only one
        counts: big four winds if present, else the first; the others are listed with 0 han."""
        rule = self.profile["double_yakuman"].value
        if rule not in ("none", "daisuushii"):
            return yaku
        big = [y for y in yaku if y.han >= 13]
        if len(big) < 2:
            return yaku
        keep = next((y for y in big if y.id == "DaiSuushii"), big[0])
        dropped = [y for y in big if y is not keep]
        self.use("double_yakuman", Note(N_("Yakuman do not add up: {kept} is counted, {dropped} is not"),
                                        kept=keep.name, dropped=", ".join(y.name for y in dropped)))
        return tuple(Yaku(y.name, y.name_ja, 0, y.id, y.option) if y in dropped else y for y in yaku)

    def _fu_options(self, fu: int, details: list[tuple[int, str]], is_open: bool):
        reasons = {r for _, r in details}
        if "double_valued_pair" in reasons:
            value = self.profile["double_wind_pair_fu"].value
            if value != 4:
                details = [(value, r) if r == "double_valued_pair" else (f, r) for f, r in details]
                fu = _ceil10(sum(f for f, _ in details))
            self.use("double_wind_pair_fu", Note(N_("A pair of the double wind counts {n} fu"), n=value))
        if "hand_without_fu" in reasons:
            self.use("open_pinfu_fu", Note(N_("An open hand with no other fu counts 30 fu")))
        elif is_open and fu == 20 and not self.profile["open_pinfu_fu"].value:
            self.use("open_pinfu_fu", Note(N_("An open hand with no other fu counts 20 fu")))
        return fu, details

    def _yaku(self, y, is_open: bool, tanyao_option) -> Yaku:
        cls = type(y).__name__
        name, name_ja = YAKU.get(cls, (y.name, y.name))
        han = y.han_open if is_open and y.han_open else y.han_closed
        if y.is_yakuman:
            rule = self.profile["double_yakuman"].value
            han = y.han_closed if rule == "all" or (rule == "daisuushii" and cls == "DaiSuushii") else 13
        option = None
        if cls == "Tanyao" and is_open:
            option = tanyao_option
        elif cls == "AkaDora":
            option = self.profile["red_fives"]
        return Yaku(name=name, name_ja=name_ja, han=int(han), id=cls, option=option)

    def _limit(self, level: str, han: int, fu: int, yakuman) -> str | None:
        if yakuman:
            return _MULTI.get(han // 13, f"{han // 13}x yakuman")
        if han >= 13:
            if self.profile["kazoe"].value == "yakuman":
                self.use("kazoe", Note(N_("{han} han counts as a yakuman (counted yakuman)"), han=han))
                return "yakuman"
            self.use("kazoe", Note(N_("{han} han counts as sanbaiman (no counted yakuman)"), han=han))
            return "sanbaiman"
        if (han, fu) in ((4, 30), (3, 60)):
            if level == "kiriage mangan":
                self.use("kiriage", Note(N_("{han} han {fu} fu is rounded up to mangan"), han=han, fu=fu))
                return "mangan"
            self.use("kiriage", Note(N_("{han} han {fu} fu is not rounded up to mangan"), han=han, fu=fu))
            return None
        return _LIMIT_NAMES.get(level)

    def _settle(self, han, fu, yaku, details, limit, cost) -> HandValue:
        dealer = self.seat == "E"
        payments = {s: 0 for s in SEATS}
        main, additional = int(cost["main"]), int(cost["additional"])
        if self.tsumo:
            for s in SEATS:
                if s != self.seat:
                    pay = (main if s == "E" or dealer else additional) + 100 * self.honba
                    payments[s] -= pay
                    payments[self.seat] += pay
            points = f"{main:,} all" if dealer else f"{additional:,}/{main:,}"
        else:
            pay = main + 300 * self.honba
            payments[self.discarder] -= pay
            payments[self.seat] += pay
            points = f"{main:,}"
        payments[self.seat] += 1000 * self.deposits
        return HandValue(han=han, fu=fu, yaku=yaku, fu_details=tuple((f, fu_words(f, r)) for f, r in details),
                         limit=limit, points=points, payments=payments, no_yaku=False, foul=None,
                         notes=tuple(self.notes), ruleset=self.ruleset, options=tuple(self.used),
                         fu_reasons=tuple(r for _, r in details))


__all__ = ["HandValue", "Meld", "MELD_KINDS", "SEATS", "Tile", "Yaku", "hand_value", "limit_level", "optional_rules",
           "parse_meld", "parse_tiles", "scoring_profile", "tiles_text"]
