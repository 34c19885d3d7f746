"""Seating jobs under the organizer's control: cancel one (before it starts or while the engine
works), a stale job reported and expired; a draft seated again keeps the tables chosen for it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from running.services import jobs, planning
from tournaments.models import JobState, Round, SeatingJob, Stage

pytestmark = pytest.mark.django_db


def stage_url(stage: Stage) -> str:
    return reverse("running:stage", kwargs={"slug": stage.tournament.slug, "stage": stage.ext_id})


def round_url(round_: Round) -> str:
    return reverse("running:round", kwargs={"slug": round_.stage.tournament.slug,
                                                "stage": round_.stage.ext_id, "number": round_.number})


def job_url(job: SeatingJob) -> str:
    return reverse("running:job", kwargs={"slug": job.stage.tournament.slug, "stage": job.stage.ext_id,
                                              "pk": job.pk})


@pytest.fixture
def qualifying(client: Any, organizer: Any, tournament: Any, add_participants: Any) -> Stage:
    add_participants(tournament, 70)
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    return Stage.objects.create(tournament=tournament, ext_id="qualifying", kind="qualifying", order=1,
                                planned_rounds=7)


def test_a_waiting_job_is_cancelled_from_its_page_and_never_runs(client: Any, qualifying: Stage,
                                                                 organizer: Any) -> None:
    job = jobs.start(qualifying, organizer, method="balanced", rounds=2)
    page = client.get(job_url(job)).content.decode()
    assert 'id="job-cancel"' in page
    response = client.post(job_url(job), follow=True)
    assert "nothing was stored" in response.content.decode()
    job.refresh_from_db()
    assert job.state == JobState.CANCELLED and job.finished
    jobs.run(job.pk)  # the thread starting late does nothing
    job.refresh_from_db()
    assert job.state == JobState.CANCELLED and not qualifying.rounds.exists()
    assert jobs.active_job(qualifying) is None  # a new seating may start
    assert client.post(stage_url(qualifying), {"method": "random", "rounds": "1"}).status_code == 302


def test_the_engine_stops_at_its_next_progress_report_once_cancelled(qualifying: Stage, organizer: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    job = jobs.start(qualifying, organizer, method="balanced", rounds=4)
    reports: list[float] = []
    real = planning.compute

    def compute(request: Any, progress: Any = None) -> Any:
        def watched(fraction: float) -> None:
            reports.append(fraction)
            if len(reports) == 1:
                jobs.cancel(SeatingJob.objects.get(pk=job.pk))  # the organizer presses "cancel"
            progress(fraction)
        return real(request, watched)

    monkeypatch.setattr(planning, "compute", compute)
    monkeypatch.setattr(jobs, "HEARTBEAT", 0.0)  # every report reaches the database
    jobs.run(job.pk)
    job.refresh_from_db()
    assert job.state == JobState.CANCELLED and len(reports) == 1  # the engine did not go on
    assert not qualifying.rounds.exists()


def test_a_finished_job_cannot_be_cancelled(client: Any, qualifying: Stage) -> None:
    client.post(stage_url(qualifying), {"method": "random", "rounds": "1"})
    job = SeatingJob.objects.get()
    assert job.state == JobState.DONE
    response = client.post(job_url(job), follow=True)
    assert "has finished already" in response.content.decode()
    job.refresh_from_db()
    assert job.state == JobState.DONE and qualifying.rounds.count() == 1


def test_a_stale_job_is_reported_and_no_longer_blocks(client: Any, qualifying: Stage, organizer: Any) -> None:
    job = SeatingJob.objects.create(stage=qualifying, method="balanced", seed=1, state=JobState.RUNNING,
                                    created_by=organizer, progress=0.4)
    SeatingJob.objects.filter(pk=job.pk).update(updated=timezone.now() - dt.timedelta(minutes=6))
    html = client.get(job_url(job)).content.decode()
    assert 'id="job-error"' in html and "stopped without finishing" in html and "seat again" in html
    assert 'data-hx-trigger="every 1s"' not in html
    job.refresh_from_db()
    assert job.state == JobState.FAILED
    assert client.post(stage_url(qualifying), {"method": "random", "rounds": "1"}).status_code == 302


def test_a_live_job_is_not_expired(client: Any, qualifying: Stage, organizer: Any) -> None:
    job = SeatingJob.objects.create(stage=qualifying, method="balanced", seed=1, state=JobState.RUNNING,
                                    created_by=organizer)
    assert 'data-hx-trigger="every 1s"' in client.get(job_url(job)).content.decode()
    job.refresh_from_db()
    assert job.state == JobState.RUNNING


def test_a_job_no_worker_takes_says_so(client: Any, qualifying: Stage, organizer: Any) -> None:
    """A seating waiting a minute for a worker (the site's workers stopped) showed 0 % for ever: the job page and the
    stage page say no worker has taken it; a job just queued says nothing of the kind."""
    job = SeatingJob.objects.create(stage=qualifying, method="balanced", seed=1, state=JobState.PENDING,
                                    created_by=organizer)
    assert 'id="job-untaken"' not in client.get(job_url(job)).content.decode()
    SeatingJob.objects.filter(pk=job.pk).update(created=timezone.now() - dt.timedelta(seconds=90))
    for html in (client.get(job_url(job)).content.decode(), client.get(stage_url(qualifying)).content.decode()):
        said = html.split('id="job-untaken">', 1)[1].split("</span>", 1)[0]
        assert "No background worker has taken it for 9" in said and "db_worker" in said
    SeatingJob.objects.filter(pk=job.pk).update(state=JobState.RUNNING)  # taken at last: the warning goes
    assert 'id="job-untaken"' not in client.get(job_url(job)).content.decode()


def test_strangers_cannot_cancel(client: Any, qualifying: Stage, organizer: Any, stranger: Any) -> None:
    job = jobs.start(qualifying, organizer, method="random")
    client.force_login(stranger)
    assert client.post(job_url(job)).status_code == 403
    client.logout()
    assert client.post(job_url(job)).status_code == 302
    job.refresh_from_db()
    assert job.state == JobState.PENDING


def test_seating_again_keeps_the_tables_chosen_for_the_draft(client: Any, qualifying: Stage) -> None:
    client.post(stage_url(qualifying), {"method": "random", "rounds": "1", "tables": "6"})
    round_ = qualifying.rounds.get()
    assert round_.tables_chosen == 6 and round_.tables.count() == 6
    html = client.get(round_url(round_)).content.decode()
    assert 'name="tables" value="6"' in html  # the "seat again" form proposes the same tables
    absent = round_.seats.first().participant
    client.post(round_url(round_), {"action": "absent", "participant": absent.pk})  # seated again by itself
    round_.refresh_from_db()
    assert round_.tables.count() == 6 and round_.byes.count() == 9 and round_.tables_chosen == 6
    client.post(round_url(round_), {"action": "regenerate", "method": "random", "tables": "6"})
    round_.refresh_from_db()
    assert round_.tables.count() == 6
    client.post(round_url(round_), {"action": "regenerate", "method": "random", "tables": ""})  # back to full tables
    round_.refresh_from_db()
    assert round_.tables_chosen is None and round_.tables.count() == 6 and round_.byes.count() == 9  # 69 players


def test_remembered_tables_give_way_when_the_players_no_longer_fill_them(client: Any, qualifying: Stage) -> None:
    client.post(stage_url(qualifying), {"method": "random", "rounds": "1", "tables": "7"})
    round_ = qualifying.rounds.get()
    assert round_.tables.count() == 7
    client.post(round_url(round_), {"action": "absent", "participant": round_.seats.first().participant.pk})
    round_.refresh_from_db()
    assert round_.tables.count() == 6 and round_.tables_chosen is None  # 69 players cannot fill 7 tables


def test_an_absence_while_a_seating_is_computed_changes_nothing(client: Any, qualifying: Stage,
                                                                organizer: Any) -> None:
    """Found by the fuzz suite: the absence was saved and the draft's tables cleared, then seating it again was
    refused (a seating of the stage was being computed), so the round was left with no tables."""
    client.post(stage_url(qualifying), {"method": "random", "rounds": "1"})
    round_ = qualifying.rounds.get()
    tables, seats = round_.tables.count(), round_.seats.count()
    SeatingJob.objects.create(stage=qualifying, method="random", seed=1, state=JobState.RUNNING, created_by=organizer)
    player = round_.seats.first().participant
    response = client.post(round_url(round_), {"action": "absent", "participant": player.pk})
    assert response.status_code == 400 and "being computed" in response.content.decode()
    assert round_.absences.count() == 0 and round_.tables.count() == tables and round_.seats.count() == seats


@pytest.mark.django_db(transaction=True)
def test_cancelling_runs_in_a_transaction_of_its_own(organizer: Any, tournament: Any, add_participants: Any) -> None:
    """``cancel`` locks the job's row (``select_for_update``), which needs a transaction: outside a test's own,
    as a request runs it, a cancel without ``@transaction.atomic`` raised instead of cancelling."""
    add_participants(tournament, 20)
    stage = Stage.objects.create(tournament=tournament, ext_id="q", kind="qualifying", order=1)
    job = SeatingJob.objects.create(stage=stage, method="random", seed=1, state=JobState.PENDING,
                                    created_by=organizer)
    assert jobs.cancel(job).state == JobState.CANCELLED
