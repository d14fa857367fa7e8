"""server tables: indexes for the lobby list and "My tables" that keep both queries bounded
by the page, whatever the planner's statistics (open waiting tables newest first; an
account's seats newest table first)

Revision ID: 0011_ops
Revises: 0010_ratings_endings
Create Date: 2026-12-02
"""

from alembic import op

revision = "0011_ops"
down_revision = "0010_ratings_endings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # status first: it serves every query by status too, so the status-only index goes (with
    # it, stale statistics let the planner read every waiting table and sort them)
    op.create_index("ix_game_tables_lobby", "game_tables", ["status", "visibility", "id"])
    op.drop_index("ix_game_tables_status", table_name="game_tables")
    op.create_index("ix_table_seats_account_table", "table_seats", ["account_id", "table_id"])


def downgrade() -> None:
    op.drop_index("ix_table_seats_account_table", table_name="table_seats")
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.drop_index("ix_game_tables_lobby", table_name="game_tables")
