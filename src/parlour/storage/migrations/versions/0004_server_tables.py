"""server: accounts, login tokens and failures, game tables, seats, event logs, leases

Revision ID: 0004_server_tables
Revises: 0003_rummy_stats
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_server_tables"
down_revision = "0003_rummy_stats"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "auth_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
    )
    op.create_index("ix_auth_tokens_account_id", "auth_tokens", ["account_id"])
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("at", TZ, nullable=False),
    )
    op.create_index("ix_login_failures_key", "login_failures", ["key"])
    op.create_index("ix_login_failures_at", "login_failures", ["at"])
    op.create_table(
        "game_tables",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("visibility", sa.String(8), nullable=False),
        sa.Column("invite_code", sa.String(64), nullable=False),
        sa.Column("creator_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("clock_days", sa.Integer(), nullable=True),
        sa.Column("max_skips", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("snapshot", sa.JSON(), nullable=True),
        sa.Column("rng_seed", sa.String(64), nullable=False),
        sa.Column("to_move", sa.JSON(), nullable=False),
        sa.Column("bot_turn", sa.Boolean(), nullable=False),
        sa.Column("deadline", TZ, nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("lobby", sa.JSON(), nullable=False),
        sa.Column("scored", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.Column("started_at", TZ, nullable=True),
        sa.Column("finished_at", TZ, nullable=True),
    )
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.create_index("ix_game_tables_creator_id", "game_tables", ["creator_id"])
    op.create_index("ix_game_tables_bot_turn", "game_tables", ["bot_turn"])
    op.create_index("ix_game_tables_deadline", "game_tables", ["deadline"])
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("bot_level", sa.String(40), nullable=True),
        sa.Column("skips", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("removed", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_table_seats_account_id", "table_seats", ["account_id"])
    op.create_table(
        "table_events",
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("by", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(2000), nullable=False),
        sa.Column("at", TZ, nullable=False),
    )
    op.create_table(
        "server_leases",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("holder", sa.String(80), nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
    )


def downgrade() -> None:
    for name in (
        "server_leases",
        "table_events",
        "table_seats",
        "game_tables",
        "login_failures",
        "auth_tokens",
        "accounts",
    ):
        op.drop_table(name)
