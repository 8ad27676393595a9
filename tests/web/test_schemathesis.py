"""Property-based API fuzzing from the OpenAPI document (in-process, schemathesis).

Every operation gets generated requests; responses must not be server errors and must match
the documented status codes, content types and schemas. Writes carry the token, so POST bodies
the generator makes are really analysed and stored.

schemathesis' lazy fixture loader does not work with pytest 9, so the schema is loaded at
import from an app over an empty in-memory store (the document does not depend on the data)
and the requests go, through ``Deferred``, to an app over a copy of the corpus store.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from .conftest import TOKEN, copy_db

pytestmark = pytest.mark.schemathesis
schemathesis = pytest.importorskip("schemathesis")


class Deferred:
    """An ASGI app that forwards to ``target`` (set by the fixture below)."""

    def __init__(self) -> None:
        from newsloom.web import create_app

        self.target = create_app("sqlite://", allowed_hosts=TEST_HOST)

    async def __call__(self, scope, receive, send):
        await self.target(scope, receive, send)


# The in-process client sends `Host: testserver`, which a real server would refuse.
TEST_HOST = ["testserver"]
APP = Deferred()
# A too-large body is rejected with the documented 413, which is a rejection too. A valid
# request may get a 400 by design: an id prefix that starts several ids (`/api/articles/0`) is
# ambiguous, and the answer says to give more characters (a 404 would say nothing matched).
CONFIG = schemathesis.config.SchemathesisConfig.from_dict(
    {
        "checks": {
            "negative_data_rejection": {
                "expected-statuses": ["400", "401", "403", "404", "405", "413", "422"]
            },
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]
            },
        }
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG)
APP.target.state.store.close()


@pytest.fixture(scope="module", autouse=True)
def fuzz_app(corpus_db, tmp_path_factory):
    from newsloom.web import create_app

    APP.target = create_app(
        str(copy_db(corpus_db, tmp_path_factory.mktemp("fuzz") / "fuzz.db")),
        token=TOKEN,
        allowed_hosts=TEST_HOST,
    )
    yield APP.target


@schema.parametrize()
@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(headers={"Authorization": f"Bearer {TOKEN}"})
