"""Property-based run of every documented operation with every check Schemathesis has: no 5xx, every
response as documented, every value the document allows accepted and every value it does not refused.

What is accepted beyond the plain types (locale tags and aliases, empty values read as absent) is
written in the document itself (patterns, allowEmptyValue), so negative_data_rejection and
positive_data_acceptance hold without exclusions; tests/test_contract.py checks each decision by hand.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from kaomoji_api import create_app


@pytest.fixture(scope="module")
def api_schema(full_catalog):
    app = create_app({"TESTING": True, "CATALOG": str(full_catalog), "RATELIMIT_ENABLED": False})
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
# derandomize: the same examples on every run, so CI is repeatable; a new seed is a new test run by hand
# (pytest tests/test_schemathesis.py --hypothesis-seed=N with derandomize off) when exploring.
# Phases: explicit examples, coverage (boundaries, each parameter missing or of a wrong type, methods the
# document does not list) and fuzzing of both valid and invalid data, 60 examples an operation.
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
def test_every_operation_conforms_to_its_documentation(case):
    # No `checks=` and no `excluded_checks=`: every check registered, including negative_data_rejection,
    # positive_data_acceptance, unsupported_method and ignored_auth (which passes: no operation declares auth).
    case.call_and_validate()
