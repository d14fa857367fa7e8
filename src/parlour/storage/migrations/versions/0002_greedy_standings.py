"""greedy tournament standings

Revision ID: 0002_greedy_standings
Revises: 0001_saved_games
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_greedy_standings"
down_revision = "0001_saved_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "greedy_standings",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("losses", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("points", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("best_margin", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("greedy_standings")
