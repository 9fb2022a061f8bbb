"""The route table: parsing, parameters, parents, deep-link fallback, every builder importable."""

from __future__ import annotations

import pytest

from handbook.ui import routes, screens
from handbook.ui.app import spa_fallback_wanted
from handbook.ui.context import nav_index


@pytest.mark.parametrize("route, name, params", [
    ("/", "search", {}),
    ("/search?q=%E8%A6%8B%E3%81%9B%E7%89%8C", "search", {}),
    ("/rules", "rules", {}),
    ("/rules/azrm", "ruleset", {"ruleset": "azrm"}),
    ("/rules/azrm/2.4", "section", {"ruleset": "azrm", "ref": "2.4"}),
    ("/rules/ema-rcr/editions", "editions", {"ruleset": "ema-rcr"}),
    ("/rules/ema-rcr/3.4.6/", "section", {"ruleset": "ema-rcr", "ref": "3.4.6"}),
    ("/penalties", "penalties", {}),
    ("/penalties/wrc-2025", "penalty-table", {"ruleset": "wrc-2025"}),
    ("/penalties/wrc-2025/revealed-tiles", "foul", {"ruleset": "wrc-2025", "foul": "revealed-tiles"}),
    ("/glossary", "glossary", {}),
    ("/glossary/kui-kae", "term", {"term": "kui-kae"}),
    ("/tools", "tools", {}),
    ("/tools/chombo", "chombo", {}),
    ("/tools/revealed", "revealed", {}),
    ("/tools/strikes", "strikes", {}),
    ("/ledger", "ledger", {}),
    ("/ledger/Ann%C3%A9%20Smith", "player", {"player": "Anné Smith"}),
])
def test_match(route, name, params):
    m = routes.match(route)
    assert m.name == name
    assert dict(m.params) == params


def test_query_is_decoded():
    m = routes.match("/search?q=%E8%A6%8B%E3%81%9B%E7%89%8C")
    assert m.path == "/search"
    assert m.query == {"q": "見せ牌"}


def test_unknown_paths_are_not_found():
    for route in ("/nope", "/rules/azrm/2.4/extra", "/glossary/a/b"):
        assert routes.match(route).name == "not-found"


@pytest.mark.parametrize("route, parent", [
    ("/rules/azrm/2.4", "/rules/azrm"),
    ("/rules/azrm", "/rules"),
    ("/penalties/wrc-2025/revealed-tiles", "/penalties/wrc-2025"),
    ("/glossary/misehai", "/glossary"),
    ("/tools/chombo", "/tools"),
    ("/ledger/Bob", "/ledger"),
    ("/search?q=x", "/"),
    ("/", None),
    ("/rules", None),
])
def test_parent_route(route, parent):
    assert routes.parent_route(route) == parent


def test_build_route_round_trips_through_match():
    path = routes.build_route("player", player="Anne / Bob")
    assert path == "/ledger/Anne%20%2F%20Bob"
    assert routes.match(path).params == {"player": "Anne / Bob"}
    assert routes.section_route("azrm", "2.4") == "/rules/azrm/2.4"
    assert routes.penalty_route("wrc-2025") == "/penalties/wrc-2025"
    assert routes.penalty_route("wrc-2025", "revealed-tiles") == "/penalties/wrc-2025/revealed-tiles"
    assert routes.term_route("kui-kae") == "/glossary/kui-kae"
    with pytest.raises(ValueError):
        routes.build_route("section", ruleset="azrm")


def test_search_route_encodes_the_query():
    assert routes.search_route("  ") == "/"
    assert routes.search_route("見せ牌") == "/search?q=%E8%A6%8B%E3%81%9B%E7%89%8C"
    assert routes.match(routes.search_route("a&b=c")).query == {"q": "a&b=c"}


def test_every_route_has_a_builder_and_every_builder_a_route():
    names = {r.name for r in (*routes.ROUTES, routes.NOT_FOUND)}
    assert set(screens.BUILDERS) == names
    assert all(callable(b) for b in screens.BUILDERS.values())


def test_every_example_opens_its_own_route():
    for r in (*routes.ROUTES, routes.NOT_FOUND):
        assert routes.match(r.sample).route == r, r.sample


def test_app_paths_are_derived_from_the_table():
    # the web server answers every screen's path with the app, the study screens too
    assert routes.APP_ROUTE_ROOTS == {"search", "rules", "penalties", "glossary", "tools", "ledger", "study",
                                      "bookmarks", "what-happened", "incidents", "record"}
    for r in routes.ROUTES[1:]:  # "/" itself is index.html anyway
        assert spa_fallback_wanted(r.sample.split("?")[0])


def test_hit_routes_are_app_routes(library):
    for q in ("見せ牌", "empty call", "kuikae"):
        for hit in library.search(q, limit=40):
            assert routes.match(hit.route).name in {"section", "foul", "term"}, hit.route


def test_deep_links_with_dots_fall_back_to_the_app():
    # Flet's static server treats "2.4" as a file extension: these must still load index.html
    assert spa_fallback_wanted("rules/azrm/2.4")
    assert spa_fallback_wanted("/rules/ema-rcr/3.4.6")
    assert spa_fallback_wanted("ledger/J. Smith")
    assert not spa_fallback_wanted("main.dart.js")
    assert not spa_fallback_wanted("fonts/NotoSansJP-Regular.ttf")
    assert not spa_fallback_wanted("assets/FontManifest.json")


@pytest.mark.parametrize("route, index", [
    ("/", 0), ("/search?q=x", 0), ("/rules/azrm/2.4", 1), ("/penalties", 2),
    ("/glossary/kui-kae", 3), ("/tools/strikes", 4), ("/ledger/Bob", 4), ("/rulesx", 0),
    ("/study/exam", 0), ("/bookmarks", 0), ("/rules/azrm/editions", 1),
])
def test_nav_index(route, index):
    assert nav_index(route) == index
