"""ratings: one rating per game for every account and computer level (``player_ratings``)
and the rated games, one row per table (``rated_games``: the key that makes a game's rating
update happen once)

Revision ID: 0010_ratings_endings
Revises: 0009_notifications_chat
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_ratings_endings"
down_revision = "0009_notifications_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_ratings",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_ratings_account_id", "player_ratings", ["account_id"])
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_index("ix_player_ratings_account_id", table_name="player_ratings")
    op.drop_table("player_ratings")
