"""rummy statistics per person

Revision ID: 0003_rummy_stats
Revises: 0002_greedy_standings
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_rummy_stats"
down_revision = "0002_greedy_standings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rummy_stats",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("won", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("lost", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("best_game_score", sa.Integer(), nullable=True),
        sa.Column("best_round_score", sa.Integer(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("round_points", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("current_streak", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("longest_streak", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rummy_stats_games",
        sa.Column("game_key", sa.String(64), primary_key=True),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rummy_stats_games")
    op.drop_table("rummy_stats")
