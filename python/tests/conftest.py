"""The package's tests compile into a cache of their own (a temporary
directory per session), never the user's ~/.cache/layout_opt."""

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _compile_cache(tmp_path_factory):
    old = os.environ.get("LAYOUT_OPT_CACHE_DIR")
    os.environ["LAYOUT_OPT_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        del os.environ["LAYOUT_OPT_CACHE_DIR"]
    else:
        os.environ["LAYOUT_OPT_CACHE_DIR"] = old
