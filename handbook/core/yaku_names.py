"""Names of the yaku and fu items in English and Japanese, keyed on the ``mahjong`` package's
yaku class names (``type(yaku).__name__``) and fu reasons (``FuCalculator`` constants).

The package names yaku in romaji ("Yakuhai (haku)"); a judge at the table needs the English a
player understands and the Japanese on a yaku sheet (役). The table is the handbook's own.
"""

from __future__ import annotations

#: class name -> (English, Japanese)
YAKU: dict[str, tuple[str, str]] = {
    "Tsumo": ("Fully concealed hand (menzen tsumo)", "門前清自摸和"),
    "Riichi": ("Riichi", "立直"),
    "OpenRiichi": ("Open riichi", "オープン立直"),
    "Ippatsu": ("Ippatsu", "一発"),
    "Chankan": ("Robbing a quad (chankan)", "搶槓"),
    "Rinshan": ("After a quad (rinshan kaihou)", "嶺上開花"),
    "Haitei": ("Last tile drawn (haitei raoyue)", "海底摸月"),
    "Houtei": ("Last discard (houtei raoyui)", "河底撈魚"),
    "DaburuRiichi": ("Double riichi", "ダブル立直"),
    "DaburuOpenRiichi": ("Double open riichi", "ダブルオープン立直"),
    "NagashiMangan": ("Nagashi Mangan", "流し満貫"),
    "Renhou": ("Blessing of man (renhou)", "人和"),
    "Pinfu": ("Pinfu", "平和"),
    "Tanyao": ("All simples (tanyao)", "断幺九"),
    "Iipeiko": ("Pure double sequence (iipeiko)", "一盃口"),
    "Haku": ("White dragon (yakuhai haku)", "役牌 白"),
    "Hatsu": ("Green dragon (yakuhai hatsu)", "役牌 發"),
    "Chun": ("Red dragon (yakuhai chun)", "役牌 中"),
    "SeatWindEast": ("Seat wind East (yakuhai)", "自風 東"),
    "SeatWindSouth": ("Seat wind South (yakuhai)", "自風 南"),
    "SeatWindWest": ("Seat wind West (yakuhai)", "自風 西"),
    "SeatWindNorth": ("Seat wind North (yakuhai)", "自風 北"),
    "RoundWindEast": ("Round wind East (yakuhai)", "場風 東"),
    "RoundWindSouth": ("Round wind South (yakuhai)", "場風 南"),
    "RoundWindWest": ("Round wind West (yakuhai)", "場風 西"),
    "RoundWindNorth": ("Round wind North (yakuhai)", "場風 北"),
    "Sanshoku": ("Mixed triple sequence (sanshoku doujun)", "三色同順"),
    "Ittsu": ("Pure straight (ittsu)", "一気通貫"),
    "Chantai": ("Half outside hand (chantai)", "混全帯幺九"),
    "Honroto": ("All terminals and honours (honroutou)", "混老頭"),
    "Toitoi": ("All triplets (toitoi)", "対々和"),
    "Sanankou": ("Three concealed triplets (sanankou)", "三暗刻"),
    "SanKantsu": ("Three quads (sankantsu)", "三槓子"),
    "SanshokuDoukou": ("Triple triplets (sanshoku doukou)", "三色同刻"),
    "Chiitoitsu": ("Seven pairs (chiitoitsu)", "七対子"),
    "Shosangen": ("Little three dragons (shousangen)", "小三元"),
    "Honitsu": ("Half flush (honitsu)", "混一色"),
    "Junchan": ("Fully outside hand (junchan)", "純全帯幺九"),
    "Ryanpeikou": ("Twice pure double sequence (ryanpeikou)", "二盃口"),
    "Chinitsu": ("Full flush (chinitsu)", "清一色"),
    "KokushiMusou": ("Thirteen orphans (kokushi musou)", "国士無双"),
    "DaburuKokushiMusou": ("Thirteen orphans, 13-sided wait (kokushi musou)", "国士無双十三面待ち"),
    "ChuurenPoutou": ("Nine gates (chuuren poutou)", "九蓮宝燈"),
    "DaburuChuurenPoutou": ("Pure nine gates (9-sided wait)", "純正九蓮宝燈"),
    "Suuankou": ("Four concealed triplets (suuankou)", "四暗刻"),
    "SuuankouTanki": ("Four concealed triplets, pair wait", "四暗刻単騎"),
    "Daisangen": ("Big three dragons (daisangen)", "大三元"),
    "Shousuushii": ("Little four winds (shousuushii)", "小四喜"),
    "DaiSuushii": ("Big four winds (daisuushii)", "大四喜"),
    "Ryuuiisou": ("All green (ryuuiisou)", "緑一色"),
    "Suukantsu": ("Four quads (suukantsu)", "四槓子"),
    "Tsuuiisou": ("All honours (tsuuiisou)", "字一色"),
    "Chinroutou": ("All terminals (chinroutou)", "清老頭"),
    "Daisharin": ("Big wheels (daisharin)", "大車輪"),
    "Daichisei": ("Big seven stars (daichisei)", "大七星"),
    "Tenhou": ("Blessing of heaven (tenhou)", "天和"),
    "Chiihou": ("Blessing of earth (chiihou)", "地和"),
    "RenhouYakuman": ("Blessing of man (renhou), yakuman", "人和"),
    "Sashikomi": ("Sashikomi", "差し込み"),
    "Paarenchan": ("Eight consecutive wins (paarenchan)", "八連荘"),
    "Dora": ("Dora", "ドラ"),
    "AkaDora": ("Red fives (aka dora)", "赤ドラ"),
    "UraDora": ("Ura dora", "裏ドラ"),
}

#: the entries that are dora, not yaku
DORA = frozenset({"Dora", "AkaDora", "UraDora"})

#: fu reason (``FuCalculator`` constant) -> (English, Japanese)
FU: dict[str, tuple[str, str]] = {
    "base": ("base fu", "副底"),
    "penchan": ("edge wait", "辺張待ち"),
    "kanchan": ("closed wait", "嵌張待ち"),
    "valued_pair": ("pair of value tiles", "役牌の雀頭"),
    "double_valued_pair": ("pair of a wind that is both seat and round wind", "連風牌の雀頭"),
    "pair_wait": ("pair wait", "単騎待ち"),
    "tsumo": ("self-draw", "ツモ符"),
    "hand_without_fu": ("open hand with no other fu", "喰い平和形"),
    "closed_pon": ("concealed triplet of simples", "中張牌の暗刻"),
    "open_pon": ("open triplet of simples", "中張牌の明刻"),
    "closed_terminal_pon": ("concealed triplet of terminals or honours", "幺九牌の暗刻"),
    "open_terminal_pon": ("open triplet of terminals or honours", "幺九牌の明刻"),
    "closed_kan": ("concealed quad of simples", "中張牌の暗槓"),
    "open_kan": ("open quad of simples", "中張牌の明槓"),
    "closed_terminal_kan": ("concealed quad of terminals or honours", "幺九牌の暗槓"),
    "open_terminal_kan": ("open quad of terminals or honours", "幺九牌の明槓"),
}

#: the base fu in words by its value: closed ron, seven pairs, other
BASE_FU = {30: ("base fu, closed hand won on a discard (20 + 10)", "副底＋門前加符"),
           25: ("seven pairs", "七対子"), 20: ("base fu", "副底")}


def fu_words(fu: int, reason: str, *, japanese: bool = False) -> str:
    """One fu item in words (``(30, "base")`` -> ``"base fu, closed hand won on a discard (20 + 10)"``)."""
    pair = BASE_FU.get(fu) if reason == "base" else None
    pair = pair or FU.get(reason, (reason.replace("_", " "), reason))
    return pair[1] if japanese else pair[0]


#: class name -> (kana reading, romaji as players type it)
READING: dict[str, tuple[str, str]] = {
    "Tsumo": ("めんぜんちんつもほう", "menzen tsumo"),
    "Riichi": ("りーち", "riichi"),
    "Ippatsu": ("いっぱつ", "ippatsu"),
    "Chankan": ("ちゃんかん", "chankan"),
    "Rinshan": ("りんしゃんかいほー", "rinshan kaihou"),
    "Haitei": ("はいてぃーらおゆえ", "haitei raoyue"),
    "Houtei": ("ほうてぃーらおゆい", "houtei raoyui"),
    "DaburuRiichi": ("だぶるりーち", "daburu riichi"),
    "NagashiMangan": ("ながしまんがん", "nagashi mangan"),
    "Pinfu": ("ぴんふ", "pinfu"),
    "Tanyao": ("たんやお", "tanyao"),
    "Iipeiko": ("いーぺーこー", "iipeikou"),
    "Haku": ("はく", "haku"),
    "Hatsu": ("はつ", "hatsu"),
    "Chun": ("ちゅん", "chun"),
    "SeatWindEast": ("じかぜ とん", "jikaze ton"),
    "SeatWindSouth": ("じかぜ なん", "jikaze nan"),
    "SeatWindWest": ("じかぜ しゃー", "jikaze shaa"),
    "SeatWindNorth": ("じかぜ ぺー", "jikaze pei"),
    "RoundWindEast": ("ばかぜ とん", "bakaze ton"),
    "RoundWindSouth": ("ばかぜ なん", "bakaze nan"),
    "RoundWindWest": ("ばかぜ しゃー", "bakaze shaa"),
    "RoundWindNorth": ("ばかぜ ぺー", "bakaze pei"),
    "Sanshoku": ("さんしょくどうじゅん", "sanshoku doujun"),
    "Ittsu": ("いっきつうかん", "ittsu"),
    "Chantai": ("ちゃんた", "chanta"),
    "Honroto": ("ほんろうとう", "honroutou"),
    "Toitoi": ("といといほー", "toitoi"),
    "Sanankou": ("さんあんこう", "sanankou"),
    "SanKantsu": ("さんかんつ", "sankantsu"),
    "SanshokuDoukou": ("さんしょくどうこう", "sanshoku doukou"),
    "Chiitoitsu": ("ちーといつ", "chiitoitsu"),
    "Shosangen": ("しょうさんげん", "shousangen"),
    "Honitsu": ("ほんいつ", "honitsu"),
    "Junchan": ("じゅんちゃん", "junchan"),
    "Ryanpeikou": ("りゃんぺーこー", "ryanpeikou"),
    "Chinitsu": ("ちんいつ", "chinitsu"),
    "KokushiMusou": ("こくしむそう", "kokushi musou"),
    "DaburuKokushiMusou": ("こくしむそうじゅうさんめんまち", "kokushi musou juusanmen machi"),
    "ChuurenPoutou": ("ちゅうれんぽうとう", "chuuren poutou"),
    "DaburuChuurenPoutou": ("じゅんせいちゅうれんぽうとう", "junsei chuuren poutou"),
    "Suuankou": ("すーあんこう", "suuankou"),
    "SuuankouTanki": ("すーあんこうたんき", "suuankou tanki"),
    "Daisangen": ("だいさんげん", "daisangen"),
    "Shousuushii": ("しょうすーしー", "shousuushii"),
    "DaiSuushii": ("だいすーしー", "daisuushii"),
    "Ryuuiisou": ("りゅういーそう", "ryuuiisou"),
    "Suukantsu": ("すーかんつ", "suukantsu"),
    "Tsuuiisou": ("つーいーそう", "tsuuiisou"),
    "Chinroutou": ("ちんろうとう", "chinroutou"),
    "Tenhou": ("てんほー", "tenhou"),
    "Chiihou": ("ちーほー", "chiihou"),
    "Dora": ("どら", "dora"),
    "AkaDora": ("あかどら", "aka dora"),
    "UraDora": ("うらどら", "ura dora"),
}


#: glossary term id -> the yaku it names (class name), for the glossary's link to the yaku page
TERM_YAKU: dict[str, str] = {
    "riichi": "Riichi", "tsumo": "Tsumo", "dora": "Dora", "kan-dora": "Dora", "red-five": "AkaDora",
    "nagashi-mangan": "NagashiMangan", "thirteen-orphans": "KokushiMusou", "seven-pairs": "Chiitoitsu",
    "robbing-a-kan": "Chankan", "replacement-tile": "Rinshan",
}
#: glossary terms about scoring as a whole: they link to the yaku list and the payment table
TERM_SCORING = frozenset({"yaku", "yakuman", "han", "fu", "mangan", "honba", "riichi-deposit"})
