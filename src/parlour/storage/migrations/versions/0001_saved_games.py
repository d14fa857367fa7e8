"""saved games

Revision ID: 0001_saved_games
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001_saved_games"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "saved_games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="active"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_saved_games_game", "saved_games", ["game"])
    op.create_index("ix_saved_games_status", "saved_games", ["status"])


def downgrade() -> None:
    op.drop_table("saved_games")
