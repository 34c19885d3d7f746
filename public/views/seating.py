"""A published round's seating (by table and seat, and alphabetical) and "Where do I sit?"."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.http import Http404

from tournaments.models import Round

from .. import model_cache
from ..figures import stage_figures
from ..seats import Place, places, published_rounds
from ..snapshot import Snapshot, protocol_is_public
from .base import PublicTournamentView


def current_rounds(snapshot: Snapshot, rounds: list[Round]) -> list[Round]:
    """The round being played and the next one when it is published (``Snapshot.current_rounds``)."""
    wanted = [(r.stage.pk, r.number) for r in snapshot.current_rounds() if r is not None]
    return [r for key in wanted for r in rounds if (r.stage_id, r.number) == key]


def normalize(text: str) -> str:
    return text.casefold().replace("ё", "е").strip()


def matches(place: Place, query: str) -> bool:
    q = normalize(query)
    if not q:
        return False
    if q.isdigit():
        return place.number == int(q)
    return q in normalize(place.name) or q in normalize(place.nickname)


class SeatingView(PublicTournamentView):
    page_template = "public/page.html"
    fragment_template = "public/seating.html"
    live = True
    tab = "seating"

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        rounds = published_rounds(self.tournament)
        round_: Round | None
        if "stage" in kwargs:
            chosen = [r for r in rounds if r.stage.ext_id == kwargs["stage"] and r.number == kwargs["number"]]
            if not chosen:
                raise Http404("no such published round")
            round_ = chosen[0]
        else:
            pair = current_rounds(self.snapshot, rounds)
            round_ = pair[0] if pair else None
        context: dict[str, Any] = {"round": round_, "rounds": rounds}
        if round_ is None:
            return context
        found = places([round_])
        tables: dict[int, list[Place]] = defaultdict(list)
        for place in found:
            if place.table is not None:
                tables[place.table].append(place)
        games = self.snapshot.model_stage(round_.stage.ext_id).rounds
        public_tables = {g.table for r in games if r.number == round_.number for g in r.games
                         if protocol_is_public(g)}
        context.update(
            tables=sorted(tables.items()),
            byes=sorted((p for p in found if p.table is None), key=lambda p: p.name.casefold()),
            alphabetical=sorted(found, key=lambda p: (normalize(p.name), p.player)),
            played=public_tables,
            # read from the published seats (a query of every round's): once per model and process
            figures=model_cache.derived(self.snapshot.kept, f"figures:{round_.stage.pk}:{round_.number}",
                                        lambda: stage_figures(self.snapshot.model, round_.stage, round_.number,
                                                              self.snapshot.ruleset.params.table_size)),
        )
        return context


class WhereView(PublicTournamentView):
    """Type part of a name, a nickname or a number: table and seat now, and in the next round."""

    page_template = "public/where_page.html"
    fragment_template = "public/where.html"
    live = True
    tab = "where"
    query_keys = ("q",)

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        query = self.request.GET.get("q", "")[:100]  # the cache key reads the whole value (query_keys)
        rounds = published_rounds(self.tournament)
        shown = current_rounds(self.snapshot, rounds) if query.strip() else []
        found = [p for p in places(shown) if matches(p, query)] if shown else []
        people: dict[str, list[Place]] = defaultdict(list)
        for place in found:
            people[place.player].append(place)
        results = sorted(people.values(), key=lambda ps: normalize(ps[0].name))
        for group in results:
            group.sort(key=lambda p: (p.round.stage.order, p.round.number))
        return {"query": query, "rounds": shown, "results": results[:30], "more": len(results) > 30}
