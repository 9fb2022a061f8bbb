"""The yaku list and the payment table of a ruleset, generated from the ``mahjong`` package under
the ruleset's scoring profile (``content/scoring.toml``): nothing here counts han or fu, and no
payment is typed by hand.

:func:`yaku_list` lists every yaku the package counts for a hand the checker can describe (plus the
two yakuman of the first draw, which the checker has no switch for, and the dora entries), with its
han closed and open *under this ruleset* (open tanyao, double yakuman), its names in English,
Japanese, kana and romaji, a sample hand, and where this ruleset differs, the option's source.

:func:`payment_table` gives what each payer pays for ``han`` × ``fu`` (table points), non-dealer
and dealer, ron and tsumo, with the ruleset's rounding (kiriage) and limits (counted yakuman).
Counters: 300 per counter on a ron (the discarder pays it), 100 from each payer on a tsumo (EMA
RCR §3.4.10; WRC likewise); riichi deposits (1,000 each) go to the winner and are not a payment.
Pure Python: no flet, no tinydb.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping

from handbook.core.hand import limit_level, optional_rules, scoring_profile
from handbook.core.texts import N_, Note
from handbook.core.yaku_names import DORA, READING, YAKU

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Library
    from handbook.core.scoring_data import Option, Profile

#: the fu a hand can have: 20, 25 (seven pairs) and 30 to 110 in tens
FUS = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
#: the han rows of the payment table (13: 13 or more)
HANS = tuple(range(1, 14))

#: yaku the package has that a hand at a tournament of these rulesets does not score (open riichi,
#: local yakuman, renhou: the hand checker has no switch for them and the profiles do not use them)
_LEFT_OUT = frozenset({"OpenRiichi", "DaburuOpenRiichi", "Renhou", "RenhouYakuman", "Daisharin", "Daichisei",
                       "Sashikomi", "Paarenchan"})
#: yakuman that count double where the ruleset counts such hands double
_DOUBLE_FORMS = frozenset({"DaburuKokushiMusou", "SuuankouTanki", "DaburuChuurenPoutou", "DaiSuushii"})
#: yakuman of the first draw: in the list, but the hand checker cannot be told it was the first draw
_FIRST_DRAW = frozenset({"Tenhou", "Chiihou"})

PINFU_HAND = "234567m22p345s678s"


@dataclass(frozen=True, slots=True)
class Sample:
    """A hand that scores the yaku, as :func:`handbook.hand_value` takes it: ``hand`` (MPSZ, the
    winning tile included), ``win``, ``melds`` and the other keyword arguments in ``args``."""

    hand: str
    win: str
    melds: tuple[str, ...] = ()
    args: tuple[tuple[str, object], ...] = ()

    def kwargs(self) -> dict[str, object]:
        """The keyword arguments for :func:`handbook.hand_value` (``win`` and ``melds`` included)."""
        return {"win": self.win, "melds": list(self.melds), **dict(self.args)}


def _ron(hand, win, melds=(), **kw):
    return Sample(hand, win, tuple(melds), tuple({"discarder": "S", "seat": "W", **kw}.items()))


def _tsumo(hand, win, melds=(), **kw):
    return Sample(hand, win, tuple(melds), tuple({"tsumo": True, "seat": "W", **kw}.items()))


#: class name -> a sample hand that scores it (checked against the package in tests)
SAMPLES: dict[str, Sample] = {
    "Tsumo": _tsumo(PINFU_HAND, "8s"),
    "Riichi": _ron(PINFU_HAND, "8s", riichi=True),
    "Ippatsu": _ron(PINFU_HAND, "8s", riichi=True, ippatsu=True),
    "Chankan": _ron(PINFU_HAND, "8s", chankan=True),
    "Rinshan": _tsumo("234567m22p345s", "5s", ["ankan 9999m"], rinshan=True),
    "Haitei": _tsumo(PINFU_HAND, "8s", haitei=True),
    "Houtei": _ron(PINFU_HAND, "8s", houtei=True),
    "DaburuRiichi": _ron(PINFU_HAND, "8s", double_riichi=True),
    "Pinfu": _ron(PINFU_HAND, "8s", riichi=True),
    "Tanyao": _ron(PINFU_HAND, "8s", riichi=True),
    "Iipeiko": _ron("223344m567p22678s", "8s", riichi=True),
    "Haku": _ron("234m567p22678s", "8s", ["pon 555z"]),
    "Hatsu": _ron("234m567p22678s", "8s", ["pon 666z"]),
    "Chun": _ron("234m567p22678s", "8s", ["pon 777z"]),
    "SeatWindEast": _ron("234m567p22678s", "8s", ["pon 111z"], seat="E", round_wind="S"),
    "SeatWindSouth": _ron("234m567p22678s", "8s", ["pon 222z"], seat="S", discarder="W"),
    "SeatWindWest": _ron("234m567p22678s", "8s", ["pon 333z"]),
    "SeatWindNorth": _ron("234m567p22678s", "8s", ["pon 444z"], seat="N"),
    "RoundWindEast": _ron("234m567p22678s", "8s", ["pon 111z"]),
    "RoundWindSouth": _ron("234m567p22678s", "8s", ["pon 222z"], round_wind="S"),
    "RoundWindWest": _ron("234m567p22678s", "8s", ["pon 333z"], seat="S", discarder="W", round_wind="W"),
    "RoundWindNorth": _ron("234m567p22678s", "8s", ["pon 444z"], round_wind="N"),
    "Sanshoku": _ron("123456m12399p123s", "3s", riichi=True),
    "Ittsu": _ron("123456789m234p55s", "9m", riichi=True),
    "Chantai": _ron("123789m123p999s11z", "3p", riichi=True, seat="W", round_wind="S"),
    "Honroto": _ron("999m111p999s11z", "9s", ["pon 111m"]),
    "Toitoi": _ron("99m444p666888s", "8s", ["pon 222m"]),
    "Sanankou": _ron("222m44488p234666s", "4s", riichi=True),
    "SanKantsu": _ron("234s88p", "4s", ["ankan 2222m", "kan 4444p", "kan 6666s"]),
    "SanshokuDoukou": _ron("222456m222p22288s", "6m", riichi=True),
    "Chiitoitsu": _ron("1133m5577p22s3344z", "4z", riichi=True),
    "Shosangen": _ron("234m678p77z", "8p", ["pon 555z", "pon 666z"]),
    "Honitsu": _ron("123567999m11222z", "3m", riichi=True),
    "Junchan": _ron("123789m12399p789s", "3p", riichi=True),
    "Ryanpeikou": _ron("223344m556677p99s", "9s", riichi=True),
    "Chinitsu": _ron("12334556778999m", "1m", riichi=True),
    "KokushiMusou": _ron("19m19p19s12345677z", "1m"),
    "DaburuKokushiMusou": _ron("119m19p19s1234567z", "1m"),
    "ChuurenPoutou": _ron("11112345678999m", "2m"),
    "DaburuChuurenPoutou": _ron("11123455678999m", "5m"),
    "Suuankou": _tsumo("111m333p555777s22z", "7s"),
    "SuuankouTanki": _ron("111m333p555777s22z", "2z"),
    "Daisangen": _ron("234m55p555666777z", "7z"),
    "Shousuushii": _ron("234m11122233344z", "4m"),
    "DaiSuushii": _ron("55m111222333444z", "4z"),
    "Ryuuiisou": _ron("223344666888s66z", "8s"),
    "Suukantsu": _ron("99m", "9m", ["kan 2222m", "kan 4444p", "kan 6666s", "ankan 8888s"]),
    "Tsuuiisou": _ron("22233355566z", "6z", ["pon 111z"]),
    "Chinroutou": _ron("999m111p11999s", "9s", ["pon 111m"]),
    "Dora": _ron(PINFU_HAND, "8s", riichi=True, dora=["1m"]),
    "AkaDora": _ron("234067m22p345s678s", "8s", riichi=True),
    "UraDora": _ron(PINFU_HAND, "8s", riichi=True, ura=["2s"]),
}


@dataclass(frozen=True, slots=True)
class YakuInfo:
    """One yaku of a ruleset's list: ``id`` the ``mahjong`` package's class name (``"Pinfu"``);
    ``name`` English, ``name_ja`` as on a Japanese yaku sheet, ``reading`` kana, ``romaji``;
    ``han_closed`` (int) and ``han_open`` (int, or ``None`` where the yaku needs a concealed hand)
    under this ruleset (13 a yakuman, 26 one that counts double here); ``yakuman``; ``notes``:
    where this ruleset differs, each with its source; ``dora`` for the dora entries (not yaku);
    ``sample`` a hand that scores it (``None`` where the hand checker cannot show one);
    ``options`` the scoring options behind ``notes``."""

    id: str
    name: str
    name_ja: str
    reading: str
    romaji: str
    han_closed: int
    han_open: int | None
    yakuman: bool
    notes: tuple[str, ...] = ()
    dora: bool = False
    sample: Sample | None = None
    options: tuple["Option", ...] = field(default=(), repr=False)


def yaku_list(ruleset: str, *, library: "Library | None" = None) -> list[YakuInfo]:
    """Every yaku of ``ruleset``'s scoring profile, in the package's order (1-han yaku first,
    yakuman last, dora at the end). ``ValueError`` naming ``ruleset`` for an unknown ruleset."""
    from mahjong.hand_calculating.hand_config import HandConfig

    profile = scoring_profile(ruleset, library)
    config = HandConfig(options=optional_rules(profile))
    items = [y for y in vars(config.yaku).values() if hasattr(y, "han_closed") and hasattr(y, "yaku_id")]
    out = []
    for y in sorted(items, key=lambda y: (y.yaku_id >= 120, y.yaku_id)):
        cls = type(y).__name__
        if cls in _LEFT_OUT or (cls == "AkaDora" and not profile["red_fives"].value) \
                or (cls == "NagashiMangan" and not profile["nagashi_mangan"].value):
            continue
        out.append(_info(cls, y, profile))
    return out


def _info(cls: str, y, profile: "Profile") -> YakuInfo:
    name, name_ja = YAKU.get(cls, (y.name, y.name))
    reading, romaji = READING.get(cls, ("", y.name.lower()))
    closed, opened = int(y.han_closed), (int(y.han_open) if y.han_open else None)
    options: list[Option] = []
    notes: list[str] = []

    def note(key: str, text: Note) -> None:
        option = profile[key]
        options.append(option)
        notes.append(Note(N_("{text} — {source}."), text=text, source=option.source()))

    if y.is_yakuman:
        rule = profile["double_yakuman"].value
        double = rule == "all" or (rule == "daisuushii" and cls == "DaiSuushii")
        closed = 26 if cls in _DOUBLE_FORMS and double else 13
        opened = closed if y.han_open else None
        if cls in _DOUBLE_FORMS:
            note("double_yakuman", Note(N_("Counts as a double yakuman")) if double
                 else Note(N_("Counts as a single yakuman")))
        if cls in _FIRST_DRAW:
            notes.append(Note(N_("The hand checker has no switch for a win on the first draw; it does not "
                                 "score this yakuman.")))
    if cls == "Tanyao":
        if profile["open_tanyao"].value:
            note("open_tanyao", Note(N_("All simples (tanyao) counts with an open hand")))
        else:
            opened = None
            note("open_tanyao", Note(N_("All simples (tanyao) does not count with an open hand")))
    if cls in ("KokushiMusou", "DaburuKokushiMusou", "Chankan"):
        note("kokushi_robs_concealed_kan",
             Note(N_("Thirteen orphans may rob a concealed quad as well as an added one"))
             if profile["kokushi_robs_concealed_kan"].value
             else Note(N_("Thirteen orphans may rob an added quad only, not a concealed one")))
    if cls == "AkaDora":
        note("red_fives", Note(N_("One red five per suit, each worth one dora")))
    if cls == "NagashiMangan":
        note("nagashi_mangan", Note(N_("Nagashi Mangan is paid as a mangan by self-draw")))
    if cls in DORA:
        notes.insert(0, Note(N_("Not a yaku: adds han to a hand that has a yaku.")))
    return YakuInfo(id=cls, name=name, name_ja=name_ja, reading=reading, romaji=romaji, han_closed=closed,
                    han_open=opened, yakuman=bool(y.is_yakuman), notes=tuple(notes), dora=cls in DORA,
                    sample=SAMPLES.get(cls), options=tuple(options))


# --- the payment table ------------------------------------------------------------------------

_LIMITS = {"mangan": "mangan", "kiriage mangan": "mangan", "haneman": "haneman", "baiman": "baiman",
           "sanbaiman": "sanbaiman", "kazoe sanbaiman": "sanbaiman", "kazoe yakuman": "yakuman",
           "yakuman": "yakuman"}


@dataclass(frozen=True)
class PaymentTable:
    """What a win of ``han`` han and ``fu`` fu pays under one ruleset (see :func:`payment_table`).
    ``options``: the profile's options that shape the table (rounding up, counted yakuman)."""

    ruleset: str
    profile: "Profile" = field(repr=False)
    options: Mapping[str, "Option"] = field(default_factory=lambda: MappingProxyType({}), repr=False)

    def _cost(self, han, fu, dealer, tsumo) -> dict:
        from mahjong.hand_calculating.hand_config import HandConfig
        from mahjong.hand_calculating.scores import ScoresCalculator

        _check(han, fu, dealer, tsumo)
        config = HandConfig(is_tsumo=tsumo, player_wind=27 if dealer else 28, round_wind=27,
                            options=optional_rules(self.profile))
        cost = dict(ScoresCalculator.calculate_scores(han, fu, config, False))
        cost["level"] = limit_level(han, fu, config, False, cost)
        return cost

    def points(self, han: int, fu: int, *, dealer: bool, tsumo: bool) -> str:
        """The value as announced at the table, counters excluded: ``"3,900"`` (ron),
        ``"1,000/2,000"`` (non-dealer tsumo: each non-dealer/the dealer), ``"2,000 all"`` (dealer
        tsumo), ``"8,000"`` for a non-dealer mangan by ron. ``ValueError`` naming ``han`` (below 1),
        ``fu`` (not 20, 25 or 30–110 in tens), ``dealer`` or ``tsumo`` (not a bool)."""
        cost = self._cost(han, fu, dealer, tsumo)
        main, additional = int(cost["main"]), int(cost["additional"])
        if not tsumo:
            return f"{main:,}"
        return f"{main:,} all" if dealer else f"{additional:,}/{main:,}"

    def payments(self, han: int, fu: int, *, dealer: bool, tsumo: bool, honba: int = 0) -> dict[str, int]:
        """Table points each payer pays, ``honba`` counters included (300 each on a ron from the
        discarder, 100 each from every payer on a tsumo): ``{"discarder": …}`` for a ron;
        ``{"dealer": …, "non_dealer": …}`` (each non-dealer pays ``non_dealer``) for a non-dealer's
        tsumo; ``{"non_dealer": …}`` for the dealer's. ``ValueError`` as :meth:`points`, and naming
        ``honba`` for a negative or non-whole number."""
        if isinstance(honba, bool) or not isinstance(honba, int) or honba < 0:
            raise ValueError(f"honba: expected a whole number of 0 or more, got {honba!r}")
        cost = self._cost(han, fu, dealer, tsumo)
        main, additional = int(cost["main"]), int(cost["additional"])
        if not tsumo:
            return {"discarder": main + 300 * honba}
        if dealer:
            return {"non_dealer": main + 100 * honba}
        return {"dealer": main + 100 * honba, "non_dealer": additional + 100 * honba}

    def limit(self, han: int, fu: int) -> str | None:
        """The limit a cell reaches (``"mangan"`` … ``"yakuman"`` for a counted yakuman), or ``None``."""
        return _LIMITS.get(self._cost(han, fu, False, False)["level"])

    def rounded_up(self, han: int, fu: int) -> bool:
        """Whether this cell is a mangan only because the ruleset rounds up (4 han 30 fu, 3 han 60 fu)."""
        return self._cost(han, fu, False, False)["level"] == "kiriage mangan"


def payment_table(ruleset: str, *, library: "Library | None" = None) -> PaymentTable:
    """The payment table of ``ruleset``'s scoring profile. ``ValueError`` naming ``ruleset`` for an
    unknown ruleset."""
    profile = scoring_profile(ruleset, library)
    return PaymentTable(ruleset, profile, MappingProxyType({k: profile[k] for k in ("kiriage", "kazoe")}))


def _check(han, fu, dealer, tsumo) -> None:
    if isinstance(han, bool) or not isinstance(han, int) or han < 1:
        raise ValueError(f"han: expected a whole number of 1 or more, got {han!r}")
    if isinstance(fu, bool) or fu not in FUS:
        raise ValueError(f"fu: {fu!r} cannot occur; allowed: {', '.join(map(str, FUS))}")
    for name, value in (("dealer", dealer), ("tsumo", tsumo)):
        if not isinstance(value, bool):
            raise ValueError(f"{name}: expected True or False, got {value!r}")


__all__ = ["FUS", "HANS", "PaymentTable", "SAMPLES", "Sample", "YakuInfo", "payment_table", "yaku_list"]
