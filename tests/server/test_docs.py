"""The API docs work offline: /docs and /redoc reference only this server's own URLs, and
every script, style sheet and icon they name is served from the installed package."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

ASSET = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
SPEC = re.compile(r"""url:\s*['"]([^'"]+)['"]""")  # Swagger UI's schema URL


def referenced(html: str) -> list[str]:
    """Every URL the page loads: scripts, style sheets, icons and the schema."""
    return ASSET.findall(html) + SPEC.findall(html)


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_reference_only_local_urls(client: TestClient, page: str) -> None:
    response = client.get(page)
    assert response.status_code == 200
    html = response.text
    urls = referenced(html)
    assert urls, "the page names no assets"
    assert not re.search(r"https?://", html), "a remote URL in " + page
    for url in urls:
        assert url.startswith("/"), url
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert len(asset.content) > 50, url
    if page == "/docs":
        assert "/docs-assets/swagger-ui-bundle.js" in urls
        assert "/openapi.json" in urls
        assert '"validatorUrl": null' in html  # no badge fetched from the validator's site
    else:
        assert "/docs-assets/redoc.standalone.js" in urls


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_docs_pages_may_load_nothing_from_another_site(client: TestClient, page: str) -> None:
    # found by a new user offline: ReDoc's bundle asks cdn.redoc.ly for its maker's logo
    # (not in the page's HTML, so the check above cannot see it); the policy forbids it
    policy = client.get(page).headers["content-security-policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["img-src"] == "'self' data:"
    assert not re.search(r"https?:|\*", policy)
    assert "content-security-policy" not in client.get("/openapi.json").headers
    assert "content-security-policy" not in client.get("/").headers
