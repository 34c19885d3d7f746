"""The judges page (organizers only): the tournament's judges, their accounts, tables, private links, the
allocation grid and how protocols are confirmed (docs/judge-allocation.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.mixins import signed_in
from tournaments.models import Table
from tournaments.permissions import OrganizerRequiredMixin

from ..forms_allocation import AccountForm, AllocationForm, JudgeIdForm, JudgeRankForm
from ..forms_staff import AssignmentForm, ConfirmationForm, JudgeForm, RemoveJudgeForm, UnassignForm
from ..services import allocation, links, staff
from .page_parts import allocation_context, chosen_round, link_urls


class StaffView(OrganizerRequiredMixin, View):
    """Every POST field is checked by a form (ids of this tournament only, numbers within bounds): a bad
    value is a form error (400) or a message saying what was refused; "Saved." only when something was."""

    template_name = "judges/staff.html"

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return self.page()

    def page(self, judge_form: JudgeForm | None = None, assignment_form: AssignmentForm | None = None,
             confirmation_form: ConfirmationForm | None = None, account_form: AccountForm | None = None,
             allocation_form: AllocationForm | None = None, created: dict[str, str] | None = None,
             status: int = 200) -> HttpResponse:
        judges = list(self.tournament.judges.select_related("user").prefetch_related("assignments__stage",
                                                                                      "assignments__round"))
        urls = link_urls(self.request, self.tournament)
        return render(self.request, self.template_name, {
            "tournament": self.tournament, "judges": [(judge, urls.get(judge.pk)) for judge in judges],
            "judge_form": judge_form or JudgeForm(tournament=self.tournament),
            "assignment_form": assignment_form or AssignmentForm(tournament=self.tournament),
            "confirmation_form": confirmation_form or ConfirmationForm(
                initial={"four_eyes": self.tournament.four_eyes}),
            "account_form": account_form or AccountForm(), "created": created,
            **allocation_context(self.request, self.tournament, judges, allocation_form),
        }, status=status)

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        if handler is None:
            return self.refuse(_("Unknown action."))
        refused = handler(self, request)
        if refused is not None:
            return refused
        messages.success(request, _("Saved."))
        return redirect("games:staff", slug=slug)

    # Each action: None when it saved something ("Saved."), else the answer (a form's errors, a refusal).

    def add_judge(self, request: HttpRequest) -> HttpResponseBase | None:
        form = JudgeForm(request.POST, tournament=self.tournament)
        if not form.is_valid():
            return self.page(judge_form=form, status=400)
        try:
            staff.add_judge(self.tournament, form.cleaned_data["user"], chief=form.cleaned_data["chief"])
        except staff.StaffError as error:
            form.add_error(None, str(error))
            return self.page(judge_form=form, status=400)
        return None

    def assign(self, request: HttpRequest) -> HttpResponseBase | None:
        assignment = AssignmentForm(request.POST, tournament=self.tournament)
        if not assignment.is_valid():
            return self.page(assignment_form=assignment, status=400)
        staff.assign(**assignment.cleaned_data)
        return None

    def remove_judge(self, request: HttpRequest) -> HttpResponseBase | None:
        remove = RemoveJudgeForm(request.POST, tournament=self.tournament)
        if not remove.is_valid() or not staff.remove_judge(self.tournament, remove.cleaned_data["judge"].pk):
            return self.refuse(_("No judge was removed: there is no such judge in this tournament."))
        return None

    def rank(self, request: HttpRequest) -> HttpResponseBase | None:
        form = JudgeRankForm(request.POST, tournament=self.tournament)
        if not form.is_valid():
            return self.refuse(_("The rank is not saved: give a whole number from 1 (the best) to 99, or none."))
        judge = form.cleaned_data["judge"]
        judge.rank = form.cleaned_data["rank"]
        judge.save(update_fields=["rank"])
        return None

    def unassign(self, request: HttpRequest) -> HttpResponseBase | None:
        unassign = UnassignForm(request.POST, tournament=self.tournament)
        if not unassign.is_valid() or not staff.unassign(self.tournament, unassign.cleaned_data["assignment"].pk):
            return self.refuse(_("No table was taken from a judge: this tournament's judges have no such table."))
        return None

    def confirmation(self, request: HttpRequest) -> HttpResponseBase | None:
        confirmation = ConfirmationForm(request.POST)
        if not confirmation.is_valid():  # a checkbox is always valid; kept for the form's sake
            return self.page(confirmation_form=confirmation, status=400)
        on = confirmation.cleaned_data["four_eyes"]
        if not staff.set_four_eyes(self.tournament, on):
            return self.refuse(_("Nothing changed: four-eyes confirmation was already on.") if on else
                               _("Nothing changed: four-eyes confirmation was already off."))
        messages.success(request, _("Four-eyes confirmation is on: whoever submitted a protocol cannot "
                                    "confirm it.") if on else _("Four-eyes confirmation is off."))
        return redirect("games:staff", slug=self.tournament.slug)

    def account(self, request: HttpRequest) -> HttpResponseBase | None:
        """A new judge's account; the page answers at once (no redirect), so a generated password is shown once
        and kept nowhere."""
        form = AccountForm(request.POST)
        if not form.is_valid():
            return self.page(account_form=form, status=400)
        data = form.cleaned_data
        chief = self.tournament.judges.filter(chief=True).select_related("user").first()
        if data["chief"] and chief is not None:  # as "Add a judge" says: the chief judge is changed there
            form.add_error("chief", _("%(user)s is already the chief judge.") % {"user": chief.user})
            return self.page(account_form=form, status=400)
        password = {AccountForm.GENERATE: links.generated_password(), AccountForm.TYPED: data["password"]}.get(
            data["password_mode"])
        try:
            judge = links.create_judge_account(self.tournament, data["username"], data["name"], password,
                                               chief=data["chief"])
        except staff.StaffError as error:
            form.add_error(None, str(error))
            return self.page(account_form=form, status=400)
        if data["link"]:
            links.issue_link(judge, signed_in(request))
        # one message, with the password where it is shown (two said the same, one by the name, one by the login)
        created = {"username": judge.user.get_username(), "name": data["name"],
                   "password": password or "" if data["password_mode"] == AccountForm.GENERATE else ""}
        return self.page(created=created)

    def give_link(self, request: HttpRequest) -> HttpResponseBase | None:
        form = JudgeIdForm(request.POST, tournament=self.tournament)
        if not form.is_valid():
            return self.refuse(_("No link was given: there is no such judge in this tournament."))
        try:
            links.issue_link(form.cleaned_data["judge"], signed_in(request))
        except staff.StaffError as error:
            return self.refuse(str(error))
        return None

    def revoke_link(self, request: HttpRequest) -> HttpResponseBase | None:
        form = JudgeIdForm(request.POST, tournament=self.tournament)
        if not form.is_valid() or not links.revoke_link(self.tournament, form.cleaned_data["judge"].pk):
            return self.refuse(_("No link was revoked: this judge has no link in force."))
        messages.success(request, _("The link is revoked: it opens nothing now, and whoever opened it is signed "
                                    "out."))
        return redirect("games:staff", slug=self.tournament.slug)

    def allocate(self, request: HttpRequest) -> HttpResponseBase | None:
        """The grid of one round, saved at once: every select a judge of this tournament or none, else nothing."""
        round_ = chosen_round(self.tournament, request.POST.get("round"))
        if round_ is None:
            return self.refuse(_("Nothing was saved: the tournament has no such round."))
        tables = list(Table.objects.filter(round=round_).order_by("number"))
        judges = list(self.tournament.judges.select_related("user"))
        form = AllocationForm(request.POST, round_=round_, tables=tables, judges=judges)
        if not form.is_valid():
            messages.error(request, _("Nothing was saved: a table's judge is not one of this tournament's judges."))
            return self.page(allocation_form=form, status=400)
        count = allocation.save_allocation(round_, form.chosen())
        messages.success(request, _("The judges of round %(round)s are saved: %(count)s of %(tables)s tables.")
                         % {"round": round_.number, "count": count, "tables": len(tables)})
        return redirect(f"{reverse('games:staff', kwargs={'slug': self.tournament.slug})}?round={round_.pk}"
                        "#allocation")

    ACTIONS: ClassVar[dict[str, Callable[[StaffView, HttpRequest], HttpResponseBase | None]]] = {
        "account": account,
        "give_link": give_link,
        "revoke_link": revoke_link,
        "allocate": allocate,
        "rank": rank,
        "judge": add_judge,
        "assign": assign,
        "remove_judge": remove_judge,
        "unassign": unassign,
        "confirmation": confirmation,
    }

    def refuse(self, message: str) -> HttpResponseRedirect:
        messages.error(self.request, message)
        return redirect("games:staff", slug=self.tournament.slug)
