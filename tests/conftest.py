"""Shared test setup."""

pytest_plugins = ["tests.conftest_speech"]
