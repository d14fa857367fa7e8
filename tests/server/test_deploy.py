"""The deployment files in deploy/ work: the nginx sites parse (``nginx -t`` when nginx is
installed), the systemd unit starts a real command with flags ``parlour serve`` accepts, and
the compose file runs two app processes on PostgreSQL behind the proxy."""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import yaml

from parlour.cli.main import app as cli

DEPLOY = Path(__file__).parents[2] / "deploy"


def serve_options() -> set[str]:
    """Every option name ``parlour serve`` accepts."""
    serve = typer.main.get_command(cli).commands["serve"]  # type: ignore[attr-defined]
    return {name for param in serve.params for name in (*param.opts, *param.secondary_opts)}


def check_serve_arguments(arguments: list[str]) -> None:
    """Fail unless ``parlour serve`` *arguments* parse (each option known, values valid)."""
    options = serve_options()
    for word in arguments:
        if word.startswith("--"):
            assert word.split("=")[0] in options, word
    serve = typer.main.get_command(cli).commands["serve"]  # type: ignore[attr-defined]
    # parse only (no server): click checks every value against its option's type
    context = serve.make_context("serve", list(arguments))
    assert context.params["metrics"] in ("loopback", "on", "off")


def test_the_systemd_template_unit_runs_parlour_serve_with_flags_it_accepts() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "systemd" / "parlour@.service")
    service = unit["Service"]
    words = shlex.split(service["ExecStart"])
    assert words[0].endswith("/bin/parlour") and words[1] == "serve"
    arguments = [w.replace("%i", "8001") for w in words[2:]]
    assert "--port" in arguments and arguments[arguments.index("--port") + 1] == "8001"
    check_serve_arguments(arguments)
    assert service["KillSignal"] == "SIGTERM"  # the graceful shutdown
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    done = subprocess.run(
        [sys.executable, "-c", "from parlour.cli.main import main; main()", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "400"},  # rich shortens the options' names when narrow
    )
    for flag in arguments:
        if flag.startswith("--"):
            assert flag in done.stdout


def test_the_compose_file_runs_two_app_processes_on_postgresql_behind_nginx() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "app1", "app2", "proxy"}
    for name in ("app1", "app2"):
        app = services[name]
        assert app["environment"]["PARLOUR_DATABASE"].startswith("postgresql+psycopg://")
        words = shlex.split(app["command"])
        assert words[:2] == ["parlour", "serve"]
        check_serve_arguments(words[2:])
        assert "/ready" in " ".join(app["healthcheck"]["test"])
    assert services["app2"]["depends_on"] == {"app1": {"condition": "service_healthy"}}
    assert services["db"]["image"].startswith("postgres:")
    mounted = services["proxy"]["volumes"][0].split(":")[0]
    site = (DEPLOY / mounted).read_text()
    assert re.findall(r"server (app\d):8000", site) == ["app1", "app2"]
    assert (DEPLOY / "Dockerfile").is_file()


def _nginx_t(tmp_path: Path, main: str) -> subprocess.CompletedProcess[str]:
    conf = tmp_path / "nginx.conf"
    conf.write_text(main)
    return subprocess.run(
        ["nginx", "-t", "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
    )


@pytest.mark.skipif(
    shutil.which("nginx") is None or shutil.which("openssl") is None,
    reason="nginx (Debian's package) or openssl is not installed",
)
def test_the_nginx_sites_parse(tmp_path: Path) -> None:
    # the host's site, inside a minimal main configuration (as sites-enabled is)
    site = (DEPLOY / "nginx" / "parlour.conf").read_text()
    # a throwaway certificate where the site names the host's
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=t"),
            *("-days", "1", "-keyout", str(key), "-out", str(cert)),
        ],
        capture_output=True,
        check=True,
    )
    site = site.replace("/etc/ssl/certs/ssl-cert-snakeoil.pem", str(cert))
    site = site.replace("/etc/ssl/private/ssl-cert-snakeoil.key", str(key))
    local = tmp_path / "site.conf"
    local.write_text(site)
    done = _nginx_t(
        tmp_path,
        f"pid {tmp_path}/nginx.pid;\nevents {{}}\nhttp {{\n"
        f"  access_log off;\n  client_body_temp_path {tmp_path};\n  include {local};\n}}\n",
    )
    assert done.returncode == 0, done.stderr
    # the compose proxy's whole configuration (its app1/app2 names resolved here)
    compose = (DEPLOY / "compose" / "nginx.conf").read_text()
    compose = compose.replace("app1:8000", "127.0.0.1:8001").replace("app2:8000", "127.0.0.1:8002")
    compose = f"pid {tmp_path}/nginx.pid;\n" + compose
    done = _nginx_t(tmp_path, compose)
    assert done.returncode == 0, done.stderr


def test_the_nginx_sites_keep_websocket_tokens_out_of_the_access_log() -> None:
    """``/ws?token=`` carries a login: nginx's default format logs ``$request`` with its
    query, so the /ws location logs with a format of the path alone (as parlour's own log
    hides it)."""
    for site in (DEPLOY / "nginx" / "parlour.conf", DEPLOY / "compose" / "nginx.conf"):
        text = site.read_text()
        formats = dict(re.findall(r"log_format\s+(\w+)\s+((?:'[^']*'\s*)+);", text))
        ws = re.search(r"location /ws \{(.*?)\}", text, re.S)
        assert ws is not None, site
        used = re.search(r"access_log\s+\S+\s+(\w+);", ws.group(1))
        assert used is not None, f"{site}: /ws is logged with nginx's default format"
        fmt = formats[used.group(1)]
        for variable in ("$request ", "$request_uri", "$args", "$query_string", "$arg_"):
            assert variable not in fmt + " ", (site, variable)
