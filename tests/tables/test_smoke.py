import pytest

from .helpers import play_match, seated_table


@pytest.mark.django_db
def test_single_deal(alice, bob):
    token = seated_table(alice, bob)
    state = alice.ok("post", f"/tables/{token}/start", {})
    final = play_match(token, {state["you"]["seat"]: alice, 1 - state["you"]["seat"]: bob})
    print(final["match"])
