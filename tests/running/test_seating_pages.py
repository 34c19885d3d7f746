"""Seating rounds with the stage's method through the pages: jobs, blocks, figures, byes, errors."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.urls import reverse

from tests.helpers import import_played
from tournaments.models import JobState, Round, RoundState, SeatingJob, Stage

pytestmark = pytest.mark.django_db


def stage_url(stage: Stage) -> str:
    return reverse("running:stage", kwargs={"slug": stage.tournament.slug, "stage": stage.ext_id})


def round_url(round_: Round) -> str:
    return reverse("running:round", kwargs={"slug": round_.stage.tournament.slug,
                                                "stage": round_.stage.ext_id, "number": round_.number})


@pytest.fixture
def qualifying(client: Any, organizer: Any, tournament: Any, add_participants: Any) -> Stage:
    add_participants(tournament, 70)
    client.force_login(organizer)
    return Stage.objects.create(tournament=tournament, ext_id="qualifying", kind="qualifying", order=1,
                                planned_rounds=7)


def pairs(round_: Round) -> set[tuple[int, int]]:
    tables: dict[int, list[int]] = {}
    for table, player in round_.seats.values_list("table__number", "participant_id"):
        tables.setdefault(table, []).append(player)
    return {(a, b) for members in tables.values() for a in members for b in members if a < b}


def test_the_stage_proposes_its_planned_method(client: Any, qualifying: Stage) -> None:
    html = client.get(stage_url(qualifying)).content.decode()
    assert '<option value="balanced" selected>' in html  # fiim qualifying: balanced for rounds 1-4


def test_a_balanced_block_of_four_rounds_meets_no_pair_twice(client: Any, qualifying: Stage) -> None:
    response = client.post(stage_url(qualifying), {"method": "balanced", "rounds": "4"}, follow=True)
    assert response.redirect_chain[-1][0] == round_url(qualifying.rounds.get(number=1))
    rounds = list(qualifying.rounds.order_by("number"))
    assert [(r.number, r.seating, r.state) for r in rounds] == [(n, "balanced", RoundState.DRAFT) for n in (1, 2, 3, 4)]
    assert all(r.seats.count() == 70 and r.tables.count() == 7 for r in rounds)
    html = client.get(round_url(rounds[3])).content.decode()
    # 7 tables of 10: each two rounds share at least 21 pairs; the block reaches that bound, 6 x 21
    assert 'id="fig-q">126<' in html and 'id="fig-shape">126<' in html and 'id="fig-max">2<' in html
    assert 'id="fig-seats">0<' in html  # nobody takes a seat number twice in four rounds
    job = SeatingJob.objects.get()
    assert job.state == JobState.DONE and job.progress == 1.0 and job.rounds == 4


def test_one_round_at_a_time_follows_the_history_of_unplayed_published_rounds(client: Any, qualifying: Stage) -> None:
    client.post(stage_url(qualifying), {"method": "balanced", "rounds": "1"})
    first = qualifying.rounds.get(number=1)
    client.post(round_url(first), {"action": "publish"})  # published, no protocol yet
    client.post(stage_url(qualifying), {"method": "balanced", "rounds": "1"})
    second = qualifying.rounds.get(number=2)
    assert second.seating == "balanced" and len(pairs(first) & pairs(second)) == 21  # the bound, see above


def test_the_organizer_may_choose_another_method_and_tables(client: Any, qualifying: Stage) -> None:
    client.post(stage_url(qualifying), {"method": "random", "rounds": "1", "tables": "6"})
    round_ = qualifying.rounds.get()
    assert round_.seating == "random" and round_.tables.count() == 6 and round_.byes.count() == 10


@pytest.mark.parametrize(("data", "message"), [
    ({"method": "random", "rounds": "3"}, "Несколько туров сразу"),
    ({"method": "zigzag", "rounds": "1"}, "zigzag"),
    ({"method": "balanced", "rounds": "1", "tables": "8"}, "8 столов по 10"),
    ({"method": "balanced", "rounds": "0"}, "1"),
])
def test_bad_seating_requests_save_nothing(client: Any, qualifying: Stage, data: dict[str, str],
                                           message: str) -> None:
    response = client.post(stage_url(qualifying), data)
    assert response.status_code == 400 and message in response.content.decode()
    assert not qualifying.rounds.exists() and not SeatingJob.objects.exists()


def test_a_bye_limit_the_engine_cannot_keep_is_a_message_not_a_500(client: Any, organizer: Any,
                                                                     make_tournament: Any,
                                                                     add_participants: Any) -> None:
    t = make_tournament("zvezdy", params={"max_byes": 0})
    add_participants(t, 47)
    stage = Stage.objects.create(tournament=t, ext_id="qualifying", kind="qualifying", order=1, planned_rounds=8)
    client.force_login(organizer)
    html = client.get(stage_url(stage)).content.decode()
    assert 'id="bye-problem"' in html
    response = client.post(stage_url(stage), {"method": "random", "rounds": "1"}, follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="job-error"' in html and "лимит регламента" in html
    assert not stage.rounds.exists()
    assert SeatingJob.objects.get().state == JobState.FAILED


def test_zvezdy_47_players_over_8_rounds_shows_the_bye_problem_and_the_fix(client: Any, organizer: Any,
                                                                          make_tournament: Any,
                                                                          add_participants: Any) -> None:
    t = make_tournament("zvezdy")
    add_participants(t, 47)
    stage = Stage.objects.create(tournament=t, ext_id="qualifying", kind="qualifying", order=1, planned_rounds=8)
    client.force_login(organizer)
    html = client.get(stage_url(stage)).content.decode()
    assert "47 игроков" in html and "56" in html and "Добавьте 3" in html and "не больше 6" in html
    add_participants(t, 3, start=48)
    assert 'id="bye-problem"' not in client.get(stage_url(stage)).content.decode()


def test_the_swiss_round_after_played_rounds(client: Any, organizer: Any) -> None:
    t = import_played(organizer, players=40, rounds=4)
    client.force_login(organizer)
    stage = t.stages.get(ext_id="qualifying")
    html = client.get(stage_url(stage)).content.decode()
    assert '<option value="swiss_tens" selected>' in html  # fiim round 5
    client.post(stage_url(stage), {"method": "swiss_tens", "rounds": "1"})
    fifth = stage.rounds.get(number=5)
    assert fifth.seating == "swiss_tens" and fifth.seats.count() == 40


def test_regenerate_keeps_the_round_and_may_change_the_method(client: Any, qualifying: Stage) -> None:
    client.post(stage_url(qualifying), {"method": "balanced", "rounds": "1"})
    round_ = qualifying.rounds.get()
    response = client.post(round_url(round_), {"action": "regenerate", "method": "random"}, follow=True)
    assert response.redirect_chain[-1][0] == round_url(round_)
    round_.refresh_from_db()
    assert round_.seating == "random" and round_.seats.count() == 70 and qualifying.rounds.count() == 1


def test_a_second_job_waits_for_the_first(client: Any, qualifying: Stage, organizer: Any) -> None:
    SeatingJob.objects.create(stage=qualifying, method="balanced", seed=1, state=JobState.RUNNING,
                              created_by=organizer)
    response = client.post(stage_url(qualifying), {"method": "balanced", "rounds": "1"})
    assert response.status_code == 400 and "вычисляется" in response.content.decode()
    assert not qualifying.rounds.exists()


def test_job_progress_is_written_while_the_engine_works(qualifying: Stage, organizer: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from running.services import jobs, planning

    job = jobs.start(qualifying, organizer, method="balanced", rounds=2)
    seen: list[float] = []
    real = planning.compute

    def compute(request: Any, progress: Any = None) -> Any:
        progress(0.5)
        seen.append(SeatingJob.objects.get(pk=job.pk).progress)
        return real(request, progress)

    monkeypatch.setattr(planning, "compute", compute)
    jobs.run(job.pk)
    assert seen == [0.5]
    job.refresh_from_db()
    assert job.state == JobState.DONE and job.first_number == 1


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_and_htmx_polling(client: Any, organizer: Any, make_tournament: Any,
                                       add_participants: Any, real_workers: Any) -> None:
    """The job is a row of the task queue, taken by the seating queue's worker, while the page polls."""
    t = make_tournament("fiim")
    add_participants(t, 70)
    stage = Stage.objects.create(tournament=t, ext_id="qualifying", kind="qualifying", order=1)
    client.force_login(organizer)
    response = client.post(stage_url(stage), {"method": "balanced", "rounds": "2"})
    job_url = response["Location"]
    assert "/seating/" in job_url
    page = client.get(job_url)  # the full page while (or after) it runs
    assert page.status_code in (200, 302)
    deadline = time.monotonic() + 60
    while True:
        poll = client.get(job_url, HTTP_HX_REQUEST="true")
        if poll.status_code == 204:
            break
        assert poll.status_code == 200 and 'data-hx-trigger="every 1s"' in poll.content.decode()
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert poll["HX-Redirect"] == round_url(stage.rounds.get(number=1))
    assert stage.rounds.count() == 2
    from django_tasks_db.models import DBTaskResult

    ran = DBTaskResult.objects.get(task_path="running.tasks.run_seating")
    assert ran.status == "SUCCESSFUL" and ran.queue_name == "seating" and ran.worker_ids[0].endswith("-seating")


def test_seating_pages_are_refused_to_strangers(client: Any, qualifying: Stage, stranger: Any,
                                                organizer: Any) -> None:
    job = SeatingJob.objects.create(stage=qualifying, method="random", seed=1, created_by=organizer)
    job_url = reverse("running:job", kwargs={"slug": qualifying.tournament.slug, "stage": "qualifying",
                                                 "pk": job.pk})
    client.logout()
    assert client.post(stage_url(qualifying), {"method": "random", "rounds": "1"}).status_code == 302
    assert client.get(job_url).status_code == 302
    client.force_login(stranger)
    assert client.post(stage_url(qualifying), {"method": "random", "rounds": "1"}).status_code == 403
    assert client.get(job_url).status_code == 403
    assert client.get(stage_url(qualifying)).status_code == 403
    assert not qualifying.rounds.exists()


def test_round_page_shows_the_seating_figures(client: Any, qualifying: Stage,
                                              django_assert_max_num_queries: Any) -> None:
    client.post(stage_url(qualifying), {"method": "balanced", "rounds": "2"})
    with django_assert_max_num_queries(22):  # two of them: the check-in that speaks for the round, its no-shows
        html = client.get(round_url(qualifying.rounds.get(number=2))).content.decode()
    for marker in ("fig-pairs", "fig-max", "fig-q", "fig-bound", "fig-shape", "fig-seats", "fig-early", "fig-team"):
        assert f'id="{marker}"' in html
    assert 'id="fig-shape">21<' in html and 'id="fig-q">21<' in html
