"""The page matrix's checks of the organizer's and the judges' pages, the printables and the exports."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

from django.test import Client
from django.utils import translation
from openpyxl import load_workbook

from scoring import fileio
from scoring import model as m
from scoring.lots import decided_by_lot
from scoring.standings import Standings, compute_standings
from tests.site.page_matrix_public import (
    expect_seating,
    expect_team_table,
)
from tests.site.page_matrix_world import (
    World,
    get,
    organizer_points,
    page,
    rank_cell,
    rounds_of,
    seated,
    stages_of,
    tables_of,
    visible_text,
)


def check_detail(world: World) -> None:
    text = visible_text(page(world.organizer, f"/t/{world.slug}/"))
    assert world.tournament.name in text


def check_export(world: World) -> None:
    url = f"/t/{world.slug}/export/"
    response = get(world.organizer, url)
    text = world.answers[url] = (b"".join(response.streaming_content).decode() if response.streaming else
                                 response.content.decode())
    exported = fileio.loads(text)
    for stage in exported.stages:
        got = compute_standings(exported, stage.id)
        truth = world.standings[stage.id]
        assert [(r.player, r.rank, r.points) for r in got.rows] == [(r.player, r.rank, r.points) for r in truth.rows]


def check_participants(world: World) -> None:
    html = page(world.organizer, f"/t/{world.slug}/participants/")
    text = visible_text(html)
    for player in world.truth.players:
        assert player.name.split()[0] in text, player.name
    assert 'id="settings-form"' in html and 'name="protests_enabled"' in html
    # Applications (kostroma) bring the application period's fields, and while some wait, the bulk decisions.
    applications = world.tournament.ruleset == "kostroma"
    waiting = applications and world.tournament.participants.filter(status="applied").exists()
    assert ('id="bulk-decisions"' in html) is waiting
    assert ('name="applications_open"' in html) is applications


def check_import_players(world: World) -> None:
    page(world.organizer, f"/t/{world.slug}/participants/import/")


def check_participant_edit(world: World) -> None:
    participant = world.tournament.participants.order_by("number").first()
    text = page(world.organizer, f"/t/{world.slug}/participants/{participant.pk}/edit/")
    assert participant.player.surname in text


def check_teams(world: World) -> None:
    text = visible_text(page(world.organizer, f"/t/{world.slug}/teams/"))
    for team in world.truth.teams or ():
        assert team.name in text


def check_keep_apart(world: World) -> None:
    page(world.organizer, f"/t/{world.slug}/keep-apart/")


def seating_label(method: str) -> str:
    from tournaments.labels import SEATING_METHODS

    with translation.override("ru"):
        return str(SEATING_METHODS[m.SeatingMethod(method)])


def check_stage(world: World) -> None:
    from scoring.rulesets import get_ruleset

    stages = list(stages_of(world))
    ruleset = get_ruleset(world.truth.ruleset)()
    for index, stage in enumerate(stages):
        html = page(world.organizer, f"/t/{world.slug}/stages/{stage.id}/")
        text = visible_text(html)
        # each round with the method it was seated with, as the file records it (the fiim demo's
        # balanced rounds said «случайная»)
        for round_ in stage.rounds:
            label = seating_label(round_.seating.value) if round_.seating is not None else ""
            assert re.search(rf"Тур {round_.number} {re.escape(label)}", text), (stage.id, round_.number, label)
        # groups of tables: a section wherever a next stage exists; the regulation's programme (tomsk) listed
        assert ('id="table-groups"' in html) is (index + 1 < len(stages)), stage.id
        groups = ruleset.table_groups(world.truth.stage_kind(stage)) if index + 1 < len(stages) else ()
        assert html.count('class="table-group"') == len(groups), stage.id
        # the programme says whom it is written for, and which of its tables this stage does not seat (once
        # «1–4 / 5–8» proposed with 3 tables seated, the 96 players it assumes unsaid)
        if groups:
            programme = sorted({t for group in groups for t in group})
            size = ruleset.params.table_size
            assert (f"Программа регламента рассчитана на {len(programme) * size} игроков: {len(programme)} столов "
                    f"по {size}.") in text, stage.id
            tables = {g.table for r in stage.rounds for g in r.games}
            tables |= {t["table"] for t in world.in_play if t["stage"] == stage.id}
            missing = [t for t in programme if t not in tables]
            if tables and missing:
                assert ", ".join(str(t) for t in missing) + ", которых на этапе нет" in text or \
                    ", ".join(str(t) for t in missing) + ", которого на этапе нет" in text, (stage.id, missing)
            else:
                assert "на этапе нет" not in text, stage.id
        else:
            assert 'id="programme-assumes"' not in html, stage.id


def check_round(world: World) -> None:
    from itertools import combinations

    for stage, round_ in rounds_of(world):
        text = page(world.organizer, f"/t/{world.slug}/stages/{stage.id}/rounds/{round_.number}/")
        expect_seating(world, text, stage, round_)
        # beside the method: the pairs this round seats who met earlier in the stage (the repeated
        # meetings a draw adds, shown beside it), counted here from the file
        earlier = {frozenset(pair) for r in stage.rounds if r.number < round_.number
                   for table in seated(world, stage, r).values() for pair in combinations(table, 2)}
        again = sum(frozenset(pair) in earlier
                    for table in seated(world, stage, round_).values() for pair in combinations(table, 2))
        figure = visible_text(text[text.index('id="fig-met-again"'):text.index("</span>", text.index(
            'id="fig-met-again"'))])
        assert re.search(rf"(?<!\d){again} (пар|пара|пары)\b", figure), (stage.id, round_.number, again, figure)
        random_draw = "выбраны случайно, как написано в регламенте" in visible_text(text)
        assert random_draw is (round_.seating is m.SeatingMethod.SWISS_ZVEZDY), (stage.id, round_.number)


def check_job(world: World) -> None:
    from tournaments.models import SeatingJob, Stage

    stage = Stage.objects.filter(tournament=world.tournament).order_by("order").first()
    job = SeatingJob.objects.create(stage=stage, method="random", seed=1,
                                    created_by=world.tournament.organizers.first())
    page(world.organizer, f"/t/{world.slug}/stages/{stage.ext_id}/seating/{job.pk}/")


def named_best(world: World, stage: m.Stage) -> dict[str, int]:
    """Times each player was named best by a table's judges (``best: true``) in the games that count for the
    stage (fiim resets nowhere: every stage up to this one), counted from the file, not by ``scoring``."""
    out: dict[str, int] = {}
    for earlier in world.truth.stages[:world.truth.stage_index(stage.id) + 1]:
        for round_ in earlier.rounds:
            for game in round_.games:
                if game.winner is not None:
                    for seat in game.seats:
                        out[seat.player] = out.get(seat.player, 0) + int(seat.best)
    return out


def check_organizer_standings(world: World) -> None:
    for stage in stages_of(world):
        text = page(world.organizer, f"/t/{world.slug}/stages/{stage.id}/standings/")
        table = tables_of(text)["standings"]
        rows = table[1:]
        truth = world.standings[stage.id].rows
        if not truth:
            continue
        assert len(rows) == len(truth)
        decided = decided_by_lot(world.standings[stage.id])
        points = 3 if "Команда" in table[0] else 2  # the team column only where the tournament has teams
        assert ("Команда" in table[0]) is bool(world.truth.teams), table[0]
        for cells, row in zip(rows, truth, strict=True):
            assert cells[0] == rank_cell(row, decided, blank="—") and cells[1].startswith(row.name), (cells, row)
            assert cells[points:points + 3] == [organizer_points(row.points), str(row.tally.games),
                                                str(row.tally.wins)], (cells, row)
        expect_team_table(text, world.standings[stage.id], "team-standings", organizer_points)
        # fiim's regulation, ranking 2: "times named best" is the judges' naming, not extra points
        column = next((i for i, head in enumerate(table[0]) if "назван лучшим" in head.lower()), None)
        assert (column is not None) is ("best" in world.standings[stage.id].chain), stage.id
        if column is not None and world.truth.ruleset == "fiim":
            counted = named_best(world, stage)
            assert [cells[column] for cells in rows] == [str(counted.get(row.player, 0)) for row in truth], stage.id


def check_staff(world: World) -> None:
    page(world.organizer, f"/t/{world.slug}/staff/")


def check_desk(world: World) -> None:
    """Every published round on the desk: a card a table, the counts adding up to them, as many confirmed as the
    round's confirmed protocols (the current round by default, a past one by the chooser)."""
    from games.models import Game, GameState
    from tournaments.models import Round

    rounds = list(Round.objects.published().filter(stage__tournament=world.tournament)
                  .order_by("stage__order", "number"))
    for index, round_ in enumerate(rounds):
        query = "" if index == len(rounds) - 1 else f"?round={round_.pk}"
        html = page(world.organizer, f"/t/{world.slug}/desk/{query}")
        tables = round_.tables.count()
        assert html.count('class="card h-100 desk-card') == tables, (round_, tables)
        counts = {state: int(n) for state, n in re.findall(r'data-state="(\w+)">[^<]*<span class="count">(\d+)<', html)}
        assert sum(counts.values()) == tables, counts
        confirmed = Game.objects.filter(table__round=round_, state=GameState.CONFIRMED).count()
        assert counts["confirmed"] <= confirmed  # a confirmed protocol with a protest to decide is "protested"


def check_protocols(world: World) -> None:
    page(world.organizer, f"/t/{world.slug}/protocols/")


def table_pages(world: World, suffix: str) -> None:
    for table in world.tournament_tables:  # type: ignore[attr-defined]
        text = visible_text(page(world.organizer, f"/t/{world.slug}/tables/{table.pk}/{suffix}"))
        for seat in table.seats.all():
            assert seat.participant.player.surname in text, (suffix, table.number, seat.number)


def check_protocol(world: World) -> None:
    table_pages(world, "")


def check_history(world: World) -> None:
    for table in world.tournament_tables:  # type: ignore[attr-defined]
        page(world.organizer, f"/t/{world.slug}/tables/{table.pk}/history/")


def check_protests(world: World) -> None:
    for table in world.tournament_tables:  # type: ignore[attr-defined]
        page(world.organizer, f"/t/{world.slug}/tables/{table.pk}/protests/")


def check_table_screen(world: World) -> None:
    table_pages(world, "live/")


# printables and exports


def check_print_seating(world: World, pdf: bool = False) -> None:
    if pdf and not world.pdf:
        return
    for stage, round_ in rounds_of(world):
        if pdf and (stage, round_) != list(rounds_of(world))[-1]:
            continue  # one PDF per world: WeasyPrint is slow, and renders the same HTML as the print page
        url = f"/t/{world.slug}/print/{stage.id}/{round_.number}/seating{'.pdf' if pdf else '/'}"
        response = get(world.organizer, url)
        if pdf:
            assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
        else:
            expect_seating(world, response.content.decode(), stage, round_)


def check_print_forms(world: World, pdf: bool = False) -> None:
    if pdf and not world.pdf:
        return
    stage, round_ = list(rounds_of(world))[-1]
    url = f"/t/{world.slug}/print/{stage.id}/{round_.number}/protocols{'.pdf' if pdf else '/'}"
    response = get(world.organizer, url)
    if pdf:
        assert response.content.startswith(b"%PDF")
    else:
        expect_seating(world, response.content.decode(), stage, round_)


def result_clients(world: World) -> list[Client]:
    """Anyone while the standings are public; only the organizers while hidden (the others get 403)."""
    return [world.organizer] if world.hidden else [world.anonymous, world.organizer]


def refused_while_hidden(world: World, url: str) -> None:
    if world.hidden:
        get(world.anonymous, url, 403)


def expect_result_rows(world: World, rows: list[list[str]], standings: Standings) -> None:
    """A stage's table in a CSV or a sheet: the names and the points (exact) in standings order."""
    header = rows[0]
    name_col = next(i for i, h in enumerate(header) if h in ("Игрок", "Player"))
    points_col = next(i for i, h in enumerate(header) if h in ("Баллы", "Points"))
    body = rows[1:]
    assert [r[name_col] for r in body] == [r.name for r in standings.rows]
    assert [Fraction(r[points_col]) for r in body] == [r.points for r in standings.rows]  # exact decimal text


def csv_rows(content: bytes, world: World) -> list[list[str]]:
    """A Russian CSV's table (";"-separated, the header first), without the lines below it (the awards, the
    title, the notice of hidden standings, last); its numbers with a point, as ``Fraction`` reads them."""
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
    if world.hidden:
        assert "не для публикации" in rows[-1][0] or "not for publication" in rows[-1][0]
    assert len(rows[0]) > 1, rows[0]  # the header comes first
    rows = rows[:next((i for i, r in enumerate(rows) if not r), len(rows))]
    return [[re.sub(r"^(−?-?\d+),(\d+)$", r"\1.\2", cell) for cell in row] for row in rows]


def check_results_csv(world: World) -> None:
    url = f"/t/{world.slug}/results.csv"
    refused_while_hidden(world, url)
    for client in result_clients(world):
        rows = csv_rows(get(client, url).content, world)
        assert len(rows) >= 2 or not any(s.rows for s in world.standings.values())


def check_stage_csv(world: World) -> None:
    for stage in stages_of(world):
        url = f"/t/{world.slug}/results/{stage.id}.csv"
        refused_while_hidden(world, url)
        for client in result_clients(world):
            rows = csv_rows(get(client, url).content, world)
            if world.standings[stage.id].rows:
                expect_result_rows(world, rows, world.standings[stage.id])


def check_results_xlsx(world: World) -> None:
    url = f"/t/{world.slug}/results.xlsx"
    refused_while_hidden(world, url)
    for client in result_clients(world):
        book = load_workbook(io.BytesIO(get(client, url).content))
        sheets = [s for s in book.worksheets if s.title not in ("Награды", "Awards")]  # once the results are final
        stages = len(world.truth.stages)
        assert len(sheets) == 1 + stages * (2 if world.truth.teams else 1)  # team sheets at the end
        for sheet, stage in zip(sheets[1:1 + stages], stages_of(world), strict=True):
            rows = [["" if v is None else v for v in row] for row in sheet.iter_rows(values_only=True)]
            if world.hidden:
                rows = rows[1:]
            rows = rows[:next((i for i, r in enumerate(rows) if not any(r)), len(rows))]  # the legend below
            if world.standings[stage.id].rows:
                header = [str(h) for h in rows[0]]
                name_col, points_col = header.index("Игрок"), header.index("Баллы")
                assert [r[name_col] for r in rows[1:]] == [r.name for r in world.standings[stage.id].rows]
                assert [Fraction(r[points_col]).limit_denominator(10**6) for r in rows[1:]] == \
                    [r.points for r in world.standings[stage.id].rows]


def check_teams_csv(world: World) -> None:
    for stage in stages_of(world):
        url = f"/t/{world.slug}/results/teams/{stage.id}.csv"
        if not world.truth.teams:
            get(world.organizer, url, 404)
            continue
        refused_while_hidden(world, url)
        teams = world.standings[stage.id].teams or ()
        for client in result_clients(world):
            rows = csv_rows(get(client, url).content, world)
            assert [(r[0], r[2], Fraction(r[3])) for r in rows[1:]] == [(str(t.rank), t.name, t.points) for t in teams]
            going = [r[2] for r in rows[1:] if r[-1] in ("проходит дальше", "goes on")]
            assert going == [t.name for t in teams if t.advances]


def check_results_print(world: World) -> None:
    url = f"/t/{world.slug}/results/"
    refused_while_hidden(world, url)
    for client in result_clients(world):
        text = visible_text(page(client, url))
        for stage in stages_of(world):
            for row in world.standings[stage.id].rows[:3]:
                assert row.name in text


def check_results_pdf(world: World) -> None:
    from pypdf import PdfReader

    url = f"/t/{world.slug}/results.pdf"
    refused_while_hidden(world, url)
    if not world.pdf:
        return
    client = result_clients(world)[0]
    content = get(client, url).content
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(content)).pages).split())
    leader = next((s.rows[0] for s in world.standings.values() if s.rows), None)
    assert leader is None or leader.name.split()[0] in text


def check_awards(world: World) -> None:
    """Every proposal of the ruleset, with its title, on the organizer's awards page."""
    from scoring.rulesets import get_ruleset
    from tournaments.labels import award_label

    with translation.override("ru"):
        text = visible_text(page(world.organizer, f"/t/{world.slug}/awards/"))
        for proposal in get_ruleset(world.truth.ruleset)().proposed_awards():
            assert award_label(proposal.kind) in text
    get(world.anonymous, f"/t/{world.slug}/awards/", 302)


def check_diplomas(world: World, pdf: bool = False) -> None:
    """One page per diploma; a certificate for each ranked finalist: the players of the last stage, never of an
    earlier one (mid-tournament, the qualifying's players were printed as finalists); until the final is
    over, the page says nothing is final."""
    url = f"/t/{world.slug}/diplomas{'.pdf' if pdf else '/'}"
    refused_while_hidden(world, url)
    if pdf:
        if world.pdf:
            assert get(result_clients(world)[0], url).content.startswith(b"%PDF")
        return
    last = world.truth.stages[-1]
    excluded = {p.id for p in world.truth.players if p.guest} | set(world.truth.disqualified())
    finalists = {pid for pid in world.truth.stage_participants(last) if pid not in excluded}
    live = any(t["stage"] == last.id for t in world.in_play) or not any(
        g.winner is not None for r in last.rounds for g in r.games)
    for client in result_clients(world):
        for language in ("ru", "en"):
            html = page(client, url + f"?lang={language}")
            certificates = html.split('class="diploma participant"')[1:]
            assert len(certificates) == len(finalists), (language, len(certificates), len(finalists))
            for sheet in certificates:
                name = visible_text(sheet.split('class="name">')[1].split("</div>")[0])
                assert any(world.name(pid) == name for pid in finalists), name
            if live:  # the final under way or not begun: nothing printed as final
                assert 'id="not-final"' in html
                assert 'class="diploma winner"' not in html and 'class="diploma place"' not in html


def check_login(world: World) -> None:
    page(Client(), "/accounts/login/")


def check_create(world: World) -> None:
    page(world.organizer, "/new/")


def check_import(world: World) -> None:
    page(world.organizer, "/import/")


def check_parameters(world: World) -> None:
    """Every parameter that applies to the regulation has its field, filled with the value in force (the file's
    override, else the regulation's); a dash parameter has none; the games the parameters score are counted."""
    from scoring.params import PARAM_KINDS
    from scoring.rulesets import get_ruleset

    html = page(world.organizer, f"/t/{world.slug}/parameters/")
    ruleset = get_ruleset(world.tournament.ruleset)
    for name in PARAM_KINDS:
        field = f'name="param-{name}' in html
        assert field is (name not in ruleset.not_applicable), name
    in_force = {**ruleset.defaults.to_json(), **(world.tournament.params or {})}
    assert re.search(rf'name="param-table_size" value="{in_force["table_size"]}"', html)
    played = sum(1 for stage in world.truth.stages for round_ in stage.rounds for game in round_.games
                 if game.has_result)
    if played:
        counted = re.search(r'id="games-with-results">([^<]*)<', html)
        assert counted and re.search(rf"\b{played}\b", counted.group(1)), (played, counted)
    else:
        assert 'id="games-with-results"' not in html


def registry_client() -> Client:
    """A superuser: the registry's pages are for superusers and the holders of ``tournaments.merge_player``."""
    from django.contrib.auth.models import User

    admin = User.objects.filter(username="registry-admin").first() \
        or User.objects.create_superuser("registry-admin", "registry@example.org", "pw-12345!")
    client = Client()
    client.force_login(admin)
    return client


def check_duplicates(world: World) -> None:
    page(registry_client(), "/players/duplicates/")


def check_registry_player(world: World) -> None:
    player = world.tournament.participants.order_by("number").first().player
    assert world.tournament.name in visible_text(page(registry_client(), f"/players/{player.pk}/"))


def check_merge(world: World) -> None:
    """Two players of one tournament are two people: the confirmation names the tournament and offers no merge."""
    first, last = (p.player for p in world.tournament.participants.order_by("number")[:2])
    html = page(registry_client(), f"/players/merge/?keep={first.pk}&merge={last.pk}")
    assert 'id="shared-tournament"' in html and 'id="merge-form"' not in html


def check_exports(world: World) -> None:
    """The exports page offers our file and every platform's document, each with what it cannot hold."""
    from scoring.formats import PLATFORMS

    html = page(world.organizer, f"/t/{world.slug}/exports/")
    assert f'href="/t/{world.slug}/export/"' in html
    for name, platform in PLATFORMS.items():
        assert f'href="/t/{world.slug}/export/{name}/"' in html and platform.title in html


def check_export_platform(world: World) -> None:
    """Each platform's download is the platform's document of the tournament's file: read back, it is what the
    format keeps of the file the world was imported from (its standings: the file's, through the format)."""
    from scoring.formats import PLATFORMS

    url = f"/t/{world.slug}/export/"  # the file ``check_export`` read in this state (its standings checked there)
    exported = fileio.loads(world.answers.get(url) or get(world.organizer, url).content.decode())
    for name, platform in PLATFORMS.items():
        response = get(world.organizer, f"/t/{world.slug}/export/{name}/")
        assert response["Content-Disposition"].endswith(f'{name}.{platform.extension}"')
        document = response.content.decode()
        assert document == platform.export(exported).document
        assert platform.read(document, ruleset=world.truth.ruleset).tournament == platform.kept(exported)
    get(world.organizer, f"/t/{world.slug}/export/nowhere/", 404)


def check_application_form(world: World, pdf: bool = False) -> None:
    """kostroma annex 1.1's blank form, where players apply; no such page under another regulation."""
    url = f"/t/{world.slug}/application-form{'.pdf' if pdf else '/'}"
    if world.truth.ruleset != "kostroma":
        get(world.organizer, url, 404)
        return
    if pdf:
        if world.pdf:
            assert get(world.organizer, url).content.startswith(b"%PDF")
        return
    text = visible_text(page(world.organizer, url))
    form, organizers = text.split("Для организатора")
    for line in ("Приложение 1.1 к Положению", "Форма заявки", world.tournament.name, "Фамилия", "Имя", "Отчество",
                 "прошу внести меня в состав участников", "Контактный телефон", "Дата", "Подпись:"):
        assert line in form, line
    assert "Город проживания" not in form and "Город проживания" in organizers  # asked apart, saying why (2.1)
    assert "от 14 до 30" in organizers
