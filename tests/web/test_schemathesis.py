"""Property tests of the JSON API against its own OpenAPI document: for generated
requests, no 5xx, and every answer conforms to the documented status codes, content types and
schemas. A few examples per operation keep the run short (about 150 operations)."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from firefight.web.app import create_app

schema = schemathesis.openapi.from_asgi("/openapi.json", create_app())

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@schema.parametrize()
@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case):
    case.call_and_validate(checks=CHECKS)
