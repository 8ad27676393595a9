"""Property-based API fuzzing from the OpenAPI document (in-process, schemathesis).

Every operation gets generated requests; responses must not be server errors and must match
the documented status codes, content types and schemas. Writes carry the token, so POST bodies
the generator makes are really analysed and stored.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from .conftest import TOKEN, copy_db

schemathesis = pytest.importorskip("schemathesis")


@pytest.fixture(scope="module")
def fuzz_app(corpus_db, tmp_path_factory):
    from newsloom.web import create_app

    return create_app(str(copy_db(corpus_db, tmp_path_factory.mktemp("fuzz") / "fuzz.db")), token=TOKEN)


schema = schemathesis.pytest.from_fixture("fuzz_schema")


@pytest.fixture(scope="module")
def fuzz_schema(fuzz_app):
    return schemathesis.openapi.from_asgi("/openapi.json", fuzz_app)


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(headers={"Authorization": f"Bearer {TOKEN}"})
