"""Every error meant for a user derives from one base class (docs/architecture.md, "User errors are not bugs")."""

from __future__ import annotations

import pytest

from games.services.protocol import ProtocolError, ProtocolRejected, VersionConflict
from public.services import VisibilityError
from running.services.stages import ShortStage, StageError
from tournaments.errors import PenaltyError, SeatingError, UserError
from tournaments.services.apart import KeepApartError
from tournaments.services.disqualification import DisqualificationError
from tournaments.services.registration import RegistrationError


@pytest.mark.parametrize("error", [
    RegistrationError, KeepApartError, SeatingError, PenaltyError, DisqualificationError, StageError, ShortStage,
    ProtocolError, ProtocolRejected, VersionConflict, VisibilityError,
])
def test_every_user_error_derives_from_one_base(error: type[Exception]) -> None:
    assert issubclass(error, UserError)
