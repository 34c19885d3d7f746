from tests.protocol_fixtures import make_round, people, round_  # noqa: F401
